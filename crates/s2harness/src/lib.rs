//! The lab's harness: ROM identification, scenarios in the real game, traces and comparison.

#![forbid(unsafe_code)]

pub mod claims;
pub mod fuzz;
pub mod game;
pub mod report;
pub mod rom;
pub mod shard;
pub mod shared_runs;
pub mod store;
pub mod suite_run;
pub mod suites;
pub mod terrain_cache;
pub mod terrain_run;
pub mod terrain_suite;
