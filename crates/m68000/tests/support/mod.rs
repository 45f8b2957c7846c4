pub mod sonic2_bus;
