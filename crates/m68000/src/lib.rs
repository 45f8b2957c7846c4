//! A Motorola 68000, written from the M68000 Programmer's Reference Manual, the user's manual's
//! bus-cycle tables and the SingleStepTests vectors.
//!
//! Contract with the console (like `z80::Bus`): the core keeps an absolute clock counter and
//! tells the bus the clock at which every bus cycle starts, its function code and its kind, so
//! the console decides wait states, DMA stalls and Z80 contention at the exact bus cycle. A bus
//! cycle lasts 4 clocks plus whatever [`Bus::wait_states`] returns right after it.

#![forbid(unsafe_code)]

mod alu;
mod bits;
mod boundaries;
mod bus_cycles;
mod cpu;
mod decode;
mod dispatch;
mod ea;
mod exceptions;
mod fill;
mod loops;
mod nybbles;
mod op;
mod ops_arith;
mod ops_control;
mod ops_misc;
mod ops_move;
mod ops_shift;
mod scan;
mod table_fill;
pub mod timing;
mod whole;
mod window_copy;

pub use boundaries::{Boundary, BoundaryControl, BoundaryExit, Step};
pub use cpu::{Cpu, RunState};
pub use timing::Timing;

/// The function code the 68000 drives on FC0-2 during a bus cycle.
pub type FunctionCode = u8;
pub const FC_USER_DATA: FunctionCode = 1;
pub const FC_USER_PROGRAM: FunctionCode = 2;
pub const FC_SUPERVISOR_DATA: FunctionCode = 5;
pub const FC_SUPERVISOR_PROGRAM: FunctionCode = 6;
pub const FC_INTERRUPT_ACKNOWLEDGE: FunctionCode = 7;

/// How a device answers an interrupt acknowledge cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterruptAck {
    /// VPA asserted: the vector is 24 + level (the Mega Drive does this for every level).
    Autovector,
    /// The device puts a vector number on the data bus.
    Vector(u8),
    /// Nobody answers: bus error during acknowledge, the spurious interrupt (vector 24).
    Spurious,
}

/// What the 68000 sees around it. Addresses are 24-bit (A1-A23 plus the byte lane); word
/// accesses are always at even addresses (the core raises an address error before an odd one
/// reaches the bus). `cycle` is the absolute clock (`Cpu::cycles`) at which the bus cycle starts.
pub trait Bus {
    fn read_word(&mut self, addr: u32, fc: FunctionCode, cycle: u64) -> u16;
    fn read_byte(&mut self, addr: u32, fc: FunctionCode, cycle: u64) -> u8;
    fn write_word(&mut self, addr: u32, value: u16, fc: FunctionCode, cycle: u64);
    fn write_byte(&mut self, addr: u32, value: u8, fc: FunctionCode, cycle: u64);
    /// The word at the even address `addr` when the bus answers an instruction fetch there
    /// with no side effect and no wait state (a plain ROM), else `None` and the fetch goes
    /// through [`Bus::read_word`]. The fast answer keeps the handlers' usual path free of
    /// calls, so most of them need no saved registers.
    #[inline]
    fn fetch_fast(&self, _addr: u32) -> Option<u16> {
        None
    }
    /// [`Bus::fetch_fast`] at the CPU's PC as it is (even, with bits 24-31 as the CPU left
    /// them): a bus may answer `None` whenever those bits are not clear (the fetch then goes
    /// through [`Bus::read_word`] at the 24-bit address), which spares the core its mask.
    #[inline]
    fn fetch_fast_pc(&self, pc: u32) -> Option<u16> {
        self.fetch_fast(pc & 0xFF_FFFE)
    }
    /// The words at the PC `pc` (as [`Bus::fetch_fast_pc`]) and the next, when
    /// [`Bus::fetch_fast`] answers both: a bus that keeps its plain ROM as one slice answers
    /// with one bounds test (the queue refills after a jump or an extension word).
    #[inline]
    fn fetch_fast_pair(&self, pc: u32) -> Option<(u16, u16)> {
        Some((
            self.fetch_fast(pc & 0xFF_FFFE)?,
            self.fetch_fast(pc.wrapping_add(2) & 0xFF_FFFE)?,
        ))
    }
    /// The byte at `addr` when reading it has no side effect and no wait state (work RAM, a
    /// plain ROM), else `None`. Lets the core run a scan loop's passes in closed form
    /// ([`Cpu::skip_loop_passes`]).
    #[inline]
    fn peek_byte(&self, _addr: u32) -> Option<u8> {
        None
    }
    /// Stores the word at the even `addr` and says so when a write there is nothing but the
    /// store (work RAM nobody watches), else stores nothing and says `false`. Lets the core
    /// run a fill loop's passes in closed form ([`Cpu::skip_loop_passes`]).
    #[inline]
    fn poke_word(&mut self, _addr: u32, _value: u16) -> bool {
        false
    }
    /// [`Bus::poke_word`] for one byte at any `addr` (a window copy loop's stores).
    #[inline]
    fn poke_byte(&mut self, _addr: u32, _value: u8) -> bool {
        false
    }
    /// An instruction raised the CPU's attention flag (SR written with T set or with the
    /// mask below an asserted level, STOP, a double bus fault): the next boundary needs more
    /// than the next instruction. Only a host that runs instructions with
    /// [`Cpu::unattended_instruction`] needs to hear it (the console asks its loop for a look,
    /// which tests the flag); [`Cpu::next_boundary`] tests the flag itself.
    #[inline]
    fn attention_raised(&mut self) {}
    /// Extra clocks (DTACK held off) for the bus cycle that was just made.
    #[inline]
    fn wait_states(&mut self) -> u32 {
        0
    }
    /// The write half of TAS's read-modify-write cycle. The Mega Drive's bus arbiter ignores
    /// it (Gargoyles depends on that), so a console overrides this to drop the write.
    #[inline]
    fn tas_write(&mut self, addr: u32, value: u8, fc: FunctionCode, cycle: u64) {
        self.write_byte(addr, value, fc, cycle)
    }
    /// The interrupt acknowledge cycle for `level` (1-7).
    #[inline]
    fn interrupt_acknowledge(&mut self, _level: u8, _cycle: u64) -> InterruptAck {
        InterruptAck::Autovector
    }
    /// The RESET instruction asserts the RESET line (for 124 clocks) from `cycle`.
    #[inline]
    fn reset_devices(&mut self, _cycle: u64) {}
}
