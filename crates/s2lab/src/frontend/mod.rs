//! The interactive front end's pieces behind the megadrive crate's frontend traits: a
//! `minifb` window (video sink and keyboard input source) and `cpal` audio output.

pub mod audio;
pub mod window;
