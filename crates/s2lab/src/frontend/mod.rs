//! The interactive front end (`s2lab play`), in small pieces behind small interfaces: the
//! host's inputs by name and the [`inputs::HostInput`] trait the window and gamepads feed;
//! bindings from a TOML file; controls (held inputs to pads and commands); the session (the
//! console and the player's commands, no window); a `minifb` window and `cpal` sound;
//! scaling, the overlay and its font, slots, screenshots, recording and replay.

pub mod audio;
pub mod bindings;
pub mod controls;
pub mod font;
pub mod gamepad;
pub mod inputs;
pub mod overlay;
pub mod pacing;
pub mod paths;
pub mod play_loop;
pub mod recorder;
#[cfg(test)]
mod replay_tests;
pub mod scale;
pub mod screenshot;
pub mod session;
pub mod slots;
pub mod window;
