//! Scan loops run in closed form: a `dbf` loop that steps an address register through a
//! table looking for the first non-zero byte, for as many passes as it only reads zeros.
//!
//! Recognised by decoding, whatever the registers, displacements and branch sizes:
//!
//! ```text
//! L:  move.b d16(An),Dk   (or (An); or tst.b d16(An) / (An))
//!     bne    found        (the zero path falls through; or beq to the lea below)
//!     ...
//!     lea    d16(An),An   (the same An)
//!     dbf    Dm,L
//! ```
//!
//! Sonic 2 runs two of these in every frame of play: a search of the object table for the
//! next slot with a non-zero byte at $20 (`move.b $20(a1),d0 / bne / lea $40(a1),a1 /
//! dbf`) and `RunObjects` stepping over empty slots (`move.b (a0),d0 / beq / ... / lea
//! $40(a0),a0 / dbf`); in the bench script's 3,600 frames about 0.9 M passes of 4
//! instructions, a sixth of the 68000's instructions.
//!
//! A pass over a zero byte changes only the clock (a fixed count), An (by the `lea`'s
//! displacement), the low word of Dm (less one), Dk's low byte (0) and the flags (Z alone
//! set, X kept); its bus cycles are instruction fetches and one byte read, which the host
//! vouches have no side effect and no wait state ([`Bus::peek_byte`], [`Bus::fetch_fast`]),
//! so nothing outside the CPU can tell the passes from stepped ones.

use crate::Bus;
use crate::cpu::{C, Cpu, N, V, Z};

/// One recognised loop: where its load reads and what a zero pass does.
struct ScanLoop {
    /// The address register stepped (0-7).
    an: usize,
    /// The load's displacement from An.
    disp: u32,
    /// The `lea`'s displacement (the step).
    step: u32,
    /// The counter (0-7).
    dm: usize,
    /// The load's destination data register, if it is a MOVE (TST has none).
    dk: Option<usize>,
    /// Clocks of a pass over a zero byte.
    clocks: u64,
}

impl Cpu {
    /// Runs the zero passes of the scan loop at `instruction_pc()`, if it is one (see
    /// [`Cpu::skip_loop_passes`]).
    pub(crate) fn skip_scan_passes<B: Bus>(&mut self, bus: &B, deadline: u64) -> bool {
        let Some(scan) = self.decode_scan(bus) else {
            return false;
        };
        let count = self.regs[scan.dm] as u16 as u64;
        // Each skipped pass starts with the counter above 0 (the pass that ends the loop is
        // stepped) and ends before the deadline.
        let limit = count.min((deadline - self.cycles - 1) / scan.clocks);
        let mut an = self.regs[8 + scan.an];
        let mut passes = 0;
        while passes < limit {
            match bus.peek_byte(an.wrapping_add(scan.disp) & 0xFF_FFFF) {
                Some(0) => {}
                _ => break,
            }
            an = an.wrapping_add(scan.step);
            passes += 1;
        }
        if passes == 0 {
            return false;
        }
        self.regs[8 + scan.an] = an;
        self.count_down(scan.dm, passes as u16);
        if let Some(dk) = scan.dk {
            self.regs[dk] &= 0xFFFF_FF00;
        }
        self.sr = (self.sr & !(N | Z | V | C)) | Z;
        self.cycles += passes * scan.clocks;
        true
    }

    /// Decodes the loop at `instruction_pc()` through `fetch_fast`; `None` if it is not one.
    fn decode_scan<B: Bus>(&self, bus: &B) -> Option<ScanLoop> {
        let start = self.instruction_pc();
        let word = |at: u32| bus.fetch_fast(at & 0xFF_FFFE);
        let op = self.ird;
        let an = (op & 7) as usize;
        let indexed = op & 0x0008 != 0;
        let dk = (op & 0xF000 == 0x1000).then_some(((op >> 9) & 7) as usize);
        // The load: 8 clocks from (An), 12 from d16(An) (its extension word's fetch).
        let (disp, mut clocks, mut at) = if indexed {
            (self.irc as i16 as i32 as u32, 12, start.wrapping_add(4))
        } else {
            (0, 8, start.wrapping_add(2))
        };
        // The branch on the byte: the zero path is BNE not taken or BEQ taken.
        let bcc = word(at)?;
        if bcc & 0xFE00 != 0x6600 {
            return None;
        }
        let base = at.wrapping_add(2);
        let (target, len) = match bcc as u8 {
            0 => (base.wrapping_add(word(base)? as i16 as i32 as u32), 4),
            d => (base.wrapping_add(d as i8 as i32 as u32), 2),
        };
        if bcc & 0x0100 == 0 {
            // BNE: not taken, 8 clocks (.S) or 12 (.W, the extension word fetched).
            clocks += if len == 2 { 8 } else { 12 };
            at = at.wrapping_add(len);
        } else {
            // BEQ: taken, 10 clocks (an odd target is an address error: stepped).
            if target & 1 != 0 {
                return None;
            }
            clocks += 10;
            at = target;
        }
        // LEA d16(An),An: 8 clocks.
        let lea = word(at)?;
        if lea != 0x41E8 | (an as u16) << 9 | an as u16 {
            return None;
        }
        let step = word(at.wrapping_add(2))? as i16 as i32 as u32;
        // DBF Dm back to the load: 10 clocks when it branches.
        let dbf = word(at.wrapping_add(4))?;
        if dbf & 0xFFF8 != 0x51C8 {
            return None;
        }
        let dm = (dbf & 7) as usize;
        let back = at.wrapping_add(6);
        if back.wrapping_add(word(back)? as i16 as i32 as u32) != start || dk == Some(dm) {
            return None;
        }
        clocks += 8 + 10;
        Some(ScanLoop {
            an,
            disp,
            step,
            dm,
            dk,
            clocks,
        })
    }
}
