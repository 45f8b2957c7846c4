//! The Sega Mega Drive / Genesis: the 68000 (our `m68000`, or `m68k` to cross-check) behind our
//! bus, the VDP, I/O, the Z80 side and sound.
//!
//! Start at [`machine::Machine`]: it owns the CPUs and the [`bus::System`] (cartridge, work
//! RAM, I/O, VDP, Z80 bus, YM2612, PSG) and schedules them on one master clock.

#![forbid(unsafe_code)]

/// Makes a type of derived state (a cache, a scratch buffer) compare equal to any other value
/// of its type, so the machines holding it compare by their state alone.
macro_rules! equal_to_any {
    ($t:ty) => {
        impl PartialEq for $t {
            fn eq(&self, _other: &Self) -> bool {
                true
            }
        }

        impl Eq for $t {}
    };
}

/// A derived cache that a copy of the machine does not take along: a copy starts empty
/// (`Default`) and makes the cache again when it is first needed, it prints as its name only,
/// and it compares equal to any other ([`equal_to_any!`]).
macro_rules! derived_cache {
    ($t:ident) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                Self::default()
            }
        }

        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($t)).finish_non_exhaustive()
            }
        }

        equal_to_any!($t);
    };
}

pub mod bus;
pub mod cartridge;
pub mod clock;
pub mod cpu;
pub mod frontend;
pub mod input_script;
pub mod io;
pub mod machine;
pub mod mode;
pub mod observe;
mod reset;
pub mod sound;
pub mod state;
pub mod vdp;

// The 68000 adapter where the tests and other crates have always found it.
pub use cpu::cpu68k;

pub use bus::{Timing, Watch, WatchHit};
pub use cartridge::RomError;
pub use clock::Region;
pub use cpu::main_cpu::CpuBackend;
pub use io::{PadKind, buttons};
pub use machine::{Machine, Options, RunStop};
pub use mode::Mode;
pub use state::StateError;
