//! The lab's harness: ROM identification, scenarios in the real game, traces and comparison.

pub mod rom;
pub mod store;
pub mod game;
pub mod report;
pub mod suites;
