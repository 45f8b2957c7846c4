//! s2model: a frame-by-frame reference model of Sonic's movement in Sonic the Hedgehog 2 (Rev B) on
//! stages built of Emerald Hill's full flat block and on an act's own terrain (a [`Terrain`] the
//! caller supplies: the harness reads Emerald Hill 1 and 2's from the user's ROM), and the
//! interchange formats (input scripts, scenarios, traces) it shares with the harness and with
//! recordings of the real game.
//!
//! Start at [`frame::step`] (one frame: pad read, mode dispatch, animation) and follow the game's
//! routines from there; each function carries its disassembly label and line range
//! (`sonicretro/s2disasm`, HEAD 34fc7f1). [`scenario::run_scenario`] runs a scenario to a trace;
//! [`trace::diff`] compares two traces; [`terrain_scenario::run_terrain_scenario`] runs a scenario
//! on an act's terrain. No ROM and no emulator are needed.
//!
//! Modules: [`state`] (Sonic's object and the globals), [`level`] (what the sensors ask of a level),
//! [`stage`] (the flat collision grid), [`terrain`] (an act's own terrain as data), [`trig`]
//! (`CalcSine`, `CalcAngle` and their generated tables), [`collision`] (distance scans, sensors,
//! `AnglePos`), [`ground`], [`roll`], [`spindash`], [`air`] (the mode routines), [`animate`]
//! (`Sonic_Animate`), [`frame`] (the frame and shared primitives), [`path_swap`] (object $03, the
//! collision-layer switchers loops need), [`script`], [`scenario`] (format 1, built stages),
//! [`terrain_scenario`] (format 2, an act's terrain), `scenario_json` (what both formats read
//! alike), [`trace`] (formats; its `quick` reader takes the recorders' plain frame lines without a
//! JSON tree, the same frames as the general reader).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod air;
pub mod animate;
pub mod collision;
pub mod frame;
pub mod ground;
pub mod level;
pub mod path_swap;
pub mod roll;
pub mod scenario;
mod scenario_json;
pub mod script;
pub mod spindash;
pub mod stage;
pub mod state;
pub mod terrain;
pub mod terrain_scenario;
pub mod trace;
pub mod trig;

pub use frame::{Model, step};
pub use level::Level;
pub use scenario::{Scenario, Stop, run_scenario};
pub use stage::{CellRect, Stage};
pub use state::SonicState;
pub use terrain::Terrain;
pub use trace::{DiffReport, Trace, diff};
