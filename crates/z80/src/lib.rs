//! A Zilog Z80 core, generic over a bus that is told the T-state of every access.
//!
//! Contract shared with `megadrive` (do not change without updating both sides):
//! the core keeps a running T-state counter; every memory and I/O access is reported
//! to the bus with the absolute T-state at which it happens, so the console can place
//! YM2612 writes, bank-window reads and bus requests exactly.

#![forbid(unsafe_code)]

mod alu;
mod base;
mod block;
mod cb;
mod cpu;
mod ed;
mod fast_forward;
mod index;
mod index_cb;
mod interrupts;
pub mod registers;

pub use cpu::Z80;
pub use registers::Registers;

/// What the Z80 sees around it. `t` is the absolute T-state count (`Z80::t_states()`) at the access.
pub trait Bus {
    fn read(&mut self, addr: u16, t: u64) -> u8;
    fn write(&mut self, addr: u16, value: u8, t: u64);
    fn port_in(&mut self, port: u16, t: u64) -> u8;
    fn port_out(&mut self, port: u16, value: u8, t: u64);
    /// The byte the interrupting device puts on the data bus during an IM 0 / IM 2 acknowledge.
    /// The Mega Drive leaves the bus floating: $FF (RST 38h in IM 0).
    fn int_ack(&mut self, _t: u64) -> u8 {
        0xFF
    }
    /// The byte at `addr` if reading it has no effect (on the device or on timing) and nothing
    /// but this CPU's own writes changes it while the CPU runs; `None` otherwise, the default.
    /// [`Z80::fast_forward`] reads the code of the loops it models through this.
    fn peek(&self, _addr: u16) -> Option<u8> {
        None
    }
}
