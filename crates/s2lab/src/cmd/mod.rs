//! One module per subcommand.

pub mod rom;
