//! The Video Display Processor (Sega 315-5313).
pub mod render;
