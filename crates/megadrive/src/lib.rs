//! megadrive
