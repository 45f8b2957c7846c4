//! One module per subcommand.

pub mod check;
pub mod diff;
pub mod game_args;
pub mod model;
pub mod rom;
pub mod run;
pub mod suite;
pub mod trace;
