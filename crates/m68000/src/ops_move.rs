//! MOVE and friends: MOVEA, MOVEQ, LEA, PEA, MOVEM, MOVEP, EXG, SWAP, EXT, LINK, UNLK.

use crate::Bus;
use crate::cpu::{Cpu, Result};
use crate::ea::Loc;

/// MOVEA's operand size (line 3 word, line 2 long).
#[inline]
fn size_of_move(op: u16) -> u8 {
    match op >> 12 {
        1 => 1,
        3 => 2,
        _ => 4,
    }
}

impl Cpu {
    /// [`Cpu::move_`] out of line, taking its own address error (as
    /// [`Cpu::untraced_instruction`] would, which then sees an `Ok`): the dispatch needs no
    /// test of a returned `Result` after the most frequent instruction.
    #[inline(never)]
    pub(crate) fn move_whole<
        const SIZE: u8,
        const SRC_MODE: usize,
        const DST_MODE: usize,
        B: Bus,
    >(
        &mut self,
        bus: &mut B,
        op: u16,
    ) {
        if DST_MODE == 0 && matches!(SRC_MODE, 2 | 3 | 5 | 6) {
            if self.move_to_d_at_once::<SIZE, SRC_MODE, B>(bus, op) {
                return;
            }
            return self.move_whole_through_bus::<SIZE, SRC_MODE, DST_MODE, B>(bus, op);
        }
        self.move_body::<SIZE, SRC_MODE, DST_MODE, B>(bus, op)
    }

    /// MOVE from (An), (An)+, d16(An) or d8(An,Xn) to Dn with no call: when the operand is in
    /// work RAM or a plain ROM ([`Bus::peek_byte`]: no side effect, no wait state) and the
    /// queue refills from plain ROM, the whole instruction is done here as its bus cycles
    /// would leave it (the address register's step, `fault_pc_back`, the clock's sum), else
    /// nothing is touched and the answer is `false`.
    #[inline(always)]
    fn move_to_d_at_once<const SIZE: u8, const SRC_MODE: usize, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) -> bool {
        let r = (op & 7) as usize;
        let an = self.regs[8 + r];
        let addr = match SRC_MODE {
            5 => an.wrapping_add(self.irc as i16 as i32 as u32),
            6 => an.wrapping_add(self.index_value(self.irc)),
            _ => an,
        };
        if SIZE != 1 && addr & 1 != 0 {
            return false;
        }
        let byte = |k: u32| bus.peek_byte(addr.wrapping_add(k) & 0xFF_FFFF);
        let value = match SIZE {
            1 => match byte(0) {
                Some(b) => b as u32,
                None => return false,
            },
            2 => match (byte(0), byte(1)) {
                (Some(h), Some(l)) => (h as u32) << 8 | l as u32,
                _ => return false,
            },
            _ => match (byte(0), byte(1), byte(2), byte(3)) {
                (Some(a), Some(b), Some(c), Some(d)) => u32::from_be_bytes([a, b, c, d]),
                _ => return false,
            },
        };
        let read_clocks = if SIZE == 4 { 8 } else { 4 };
        if SRC_MODE >= 5 {
            let Some((first, second)) = bus.fetch_fast_pair(self.pc) else {
                return false;
            };
            self.ird = first;
            self.irc = second;
            self.pc = self.pc.wrapping_add(4);
            self.fault_pc_back = 4;
            // The extension word, d8(An,Xn)'s 2 idle clocks, the read, the prefetch.
            self.cycles += 8 + read_clocks + if SRC_MODE == 6 { 2 } else { 0 };
        } else {
            let Some(next) = bus.fetch_fast_pc(self.pc) else {
                return false;
            };
            self.ird = self.irc;
            self.irc = next;
            self.pc = self.pc.wrapping_add(2);
            self.fault_pc_back = 2;
            self.cycles += 4 + read_clocks;
            if SRC_MODE == 3 {
                self.regs[8 + r] = an.wrapping_add(Self::step_size(r, SIZE));
            }
        }
        self.logic_flags(SIZE, value);
        self.set_d(((op >> 9) & 7) as usize, SIZE, value);
        true
    }

    /// [`Cpu::move_whole`] through the bus, when [`Cpu::move_to_d_at_once`] declines.
    #[cold]
    #[inline(never)]
    fn move_whole_through_bus<
        const SIZE: u8,
        const SRC_MODE: usize,
        const DST_MODE: usize,
        B: Bus,
    >(
        &mut self,
        bus: &mut B,
        op: u16,
    ) {
        self.move_body::<SIZE, SRC_MODE, DST_MODE, B>(bus, op)
    }

    /// [`Cpu::move_whole`] one bus cycle after another.
    #[inline(always)]
    fn move_body<const SIZE: u8, const SRC_MODE: usize, const DST_MODE: usize, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) {
        let done = if DST_MODE == 8 {
            // The destinations without a decode-table entry of their own: one match on the
            // mode here, then a body with the mode constant, so the effective address, the
            // write and the fault bookkeeping fold as they do for Dn and (An)+ (the decode
            // table has no room left for these as entries of their own).
            match (op >> 6) & 7 {
                2 => self.move_::<SIZE, SRC_MODE, 2, B>(bus, op),
                4 => self.move_::<SIZE, SRC_MODE, 4, B>(bus, op),
                5 => self.move_::<SIZE, SRC_MODE, 5, B>(bus, op),
                6 => self.move_::<SIZE, SRC_MODE, 6, B>(bus, op),
                7 => self.move_::<SIZE, SRC_MODE, 7, B>(bus, op),
                // Dn, (An)+ and An (MOVEA) have entries of their own.
                _ => self.move_::<SIZE, SRC_MODE, 8, B>(bus, op),
            }
        } else {
            self.move_::<SIZE, SRC_MODE, DST_MODE, B>(bus, op)
        };
        if done.is_err() {
            self.abandon(bus);
        }
    }

    /// MOVE of `SIZE` bytes (1 for line 1, 2 for line 3, 4 for line 2) from source mode
    /// `SRC_MODE` to destination mode `DST_MODE` (0 Dn, 3 (An)+, or 8: the others, read from
    /// the opcode): one copy per combination the decode table tells apart, so the masks, the
    /// size tests and the addressing-mode matches fold away in the most frequent instruction,
    /// and a copy to a register saves and restores few host registers.
    #[inline(always)]
    pub(crate) fn move_<const SIZE: u8, const SRC_MODE: usize, const DST_MODE: usize, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) -> Result<()> {
        let size = SIZE;
        let src_mode = SRC_MODE;
        let src_reg = (op & 7) as usize;
        let value = self.read_ea(bus, src_mode, src_reg, size)?;
        let dst_mode = if DST_MODE == 8 {
            ((op >> 6) & 7) as usize
        } else {
            DST_MODE
        };
        let dst_reg = ((op >> 9) & 7) as usize;
        match dst_mode {
            0 => {
                self.logic_flags(size, value);
                self.set_d(dst_reg, size, value);
                self.prefetch(bus)
            }
            4 => {
                // -(An): the prefetch comes first, then a long is written low word first.
                self.prefetch(bus)?;
                self.fault_pc_back = 2;
                let a = self.regs[8 + dst_reg].wrapping_sub(Self::step_size(dst_reg, size));
                if size == 4 && a & 1 != 0 {
                    // A long faults on its low word, before An and IRD are written.
                    self.logic_flags(size, value);
                    self.ird = op;
                    let fc = self.data_fc();
                    return Err(self.fault_at(crate::cpu::AddressError {
                        addr: a.wrapping_add(2),
                        write: true,
                        fc,
                        fetch: false,
                    }));
                }
                self.regs[8 + dst_reg] = a;
                self.logic_flags(size, value);
                self.write_data_low_first(bus, a, size, value)
            }
            7 if dst_reg == 1 && src_mode >= 2 && !(src_mode == 7 && src_reg == 4) => {
                // abs.L after a memory source: the write comes between the two fetches.
                let hi = self.ext_word(bus)? as u32;
                let addr = hi << 16 | self.irc as u32;
                self.fault_pc_back = 2;
                self.logic_flags(size, value);
                if size == 4 && addr & 1 != 0 {
                    self.long_write_fault_flags(value, false, dst_mode, 0);
                }
                self.write_data(bus, addr, size, value)?;
                self.ext_word(bus)?;
                self.prefetch(bus)
            }
            _ => {
                let loc = self.ea(bus, dst_mode, dst_reg, size, false)?;
                if dst_mode == 3
                    && size != 1
                    && let Loc::Mem(a) = loc
                    && a & 1 != 0
                {
                    // MOVE's (An)+ is not incremented when the write faults.
                    self.regs[8 + dst_reg] = a;
                }
                // A write fault stacks PC as the microcode has it here, not as a read would.
                self.fault_pc_back = if dst_mode < 4 { 0 } else { 2 };
                // The flags before this MOVE set them (a faulting MOVE.L may stack them).
                let old_ccr = self.sr;
                self.logic_flags(size, value);
                if size == 4
                    && let Loc::Mem(a) = loc
                    && a & 1 != 0
                {
                    let register_source = src_mode < 2 || (src_mode == 7 && src_reg == 4);
                    // (abs.W and abs.L from a register keep the full result: mode 7 is a no-op.)
                    let mode = if dst_mode == 7 { 0 } else { dst_mode };
                    self.long_write_fault_flags(value, register_source, mode, old_ccr);
                }
                self.write_loc(bus, loc, size, value)?;
                self.prefetch(bus)
            }
        }
    }

    /// The condition codes a MOVE.L has set when its first write faults (they are stacked):
    /// the microcode tests the long a word at a time, at a point that depends on the modes.
    /// `logic_flags` has already set the full result; this corrects it. Found in the vectors.
    #[cold]
    fn long_write_fault_flags(
        &mut self,
        value: u32,
        register_source: bool,
        dst_mode: usize,
        old_ccr: u16,
    ) {
        let low = value & 0xFFFF;
        let low_only = || {
            let mut f = 0;
            if low & 0x8000 != 0 {
                f |= crate::cpu::N;
            }
            if low == 0 {
                f |= crate::cpu::Z;
            }
            f
        };
        match (dst_mode, register_source) {
            // (An), (An)+ from a register: nothing tested yet.
            (2 | 3, true) => self.sr = (self.sr & !0x1F) | (old_ccr & 0x1F),
            // (An), (An)+ and abs.L after a memory read: only the low word tested.
            (2 | 3, false) | (7, false) => self.sr = (self.sr & !0x0F) | low_only(),
            // d16(An), d8(An,Xn) from a register: N and Z set, V and C not yet cleared.
            (5 | 6, true) => self.sr = (self.sr & !0x03) | (old_ccr & 0x03),
            _ => {}
        }
    }

    pub(crate) fn movea<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = size_of_move(op);
        let v = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, size)?;
        let v = if size == 2 {
            v as u16 as i16 as i32 as u32
        } else {
            v
        };
        self.regs[8 + ((op >> 9) & 7) as usize] = v;
        self.prefetch(bus)
    }

    #[inline(always)]
    pub(crate) fn moveq<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let v = op as u8 as i8 as i32 as u32;
        self.regs[((op >> 9) & 7) as usize] = v;
        self.logic_flags(4, v);
        self.prefetch(bus)
    }

    /// The address of a control-mode operand for LEA/PEA/MOVEM, fetching extension words
    /// (with d8(An,Xn)'s leading 2 clocks).
    pub(crate) fn control_address<B: Bus>(
        &mut self,
        bus: &mut B,
        mode: usize,
        reg: usize,
    ) -> Result<u32> {
        match self.ea(bus, mode, reg, 4, false)? {
            Loc::Mem(a) | Loc::Prog(a) => Ok(a),
            _ => Ok(0),
        }
    }

    #[inline]
    fn indexed(mode: usize, reg: usize) -> bool {
        mode == 6 || (mode == 7 && reg == 3)
    }

    /// LEA with addressing mode `MODE` (one copy per control mode, from the decode table).
    #[inline(always)]
    pub(crate) fn lea<const MODE: usize, B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let mode = MODE;
        let reg = (op & 7) as usize;
        if MODE == 5 {
            // d16(An): the displacement word and nothing else on the bus: the address first,
            // then both fetches at once, last (`past_ext_word`).
            let d = self.irc as i16 as i32 as u32;
            self.regs[8 + ((op >> 9) & 7) as usize] = self.regs[8 + reg].wrapping_add(d);
            self.past_ext_word(bus);
            return Ok(());
        }
        let addr = match self.ea(bus, mode, reg, 4, false)? {
            Loc::Mem(a) | Loc::Prog(a) => a,
            _ => 0,
        };
        if Self::indexed(mode, reg) {
            self.idle(2);
        }
        self.regs[8 + ((op >> 9) & 7) as usize] = addr;
        self.prefetch(bus)
    }

    pub(crate) fn pea<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let addr = self.control_address(bus, mode, reg)?;
        if Self::indexed(mode, reg) {
            self.idle(2);
        }
        let absolute = mode == 7 && reg < 2;
        if !absolute {
            self.prefetch(bus)?;
        }
        self.push_long(bus, addr)?;
        if absolute {
            self.prefetch(bus)?;
        }
        Ok(())
    }

    /// Pushes a long, high word (at the lower address) first.
    pub(crate) fn push_long<B: Bus>(&mut self, bus: &mut B, v: u32) -> Result<()> {
        let sp = self.regs[15].wrapping_sub(4);
        self.regs[15] = sp;
        let fc = self.data_fc();
        self.write_word(bus, sp, (v >> 16) as u16, fc)?;
        self.write_word(bus, sp.wrapping_add(2), v as u16, fc)
    }

    pub(crate) fn pop_long<B: Bus>(&mut self, bus: &mut B) -> Result<u32> {
        let sp = self.regs[15];
        let fc = self.data_fc();
        let hi = self.read_word(bus, sp, fc)? as u32;
        let lo = self.read_word(bus, sp.wrapping_add(2), fc)? as u32;
        self.regs[15] = sp.wrapping_add(4);
        Ok(hi << 16 | lo)
    }

    pub(crate) fn movem_to_mem<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = if op & 0x40 != 0 { 4 } else { 2 };
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let list = self.ext_word(bus)?;
        let fc = self.data_fc();
        self.fault_pc_back = 0;
        if mode == 4 {
            // -(An): registers from A7 down to D0, mask bit 0 = A7; a long low word first.
            let mut addr = self.regs[8 + reg];
            for i in 0..16 {
                if list & (1 << i) != 0 {
                    let v = self.regs[15 - i];
                    if size == 4 {
                        addr = addr.wrapping_sub(2);
                        self.write_word(bus, addr, v as u16, fc)?;
                        addr = addr.wrapping_sub(2);
                        self.write_word(bus, addr, (v >> 16) as u16, fc)?;
                    } else {
                        addr = addr.wrapping_sub(2);
                        self.write_word(bus, addr, v as u16, fc)?;
                    }
                }
            }
            self.regs[8 + reg] = addr;
        } else {
            let mut addr = self.control_address(bus, mode, reg)?;
            self.fault_pc_back = 0;
            for i in 0..16 {
                if list & (1 << i) != 0 {
                    let v = self.regs[i];
                    if size == 4 {
                        self.write_word(bus, addr, (v >> 16) as u16, fc)?;
                        self.write_word(bus, addr.wrapping_add(2), v as u16, fc)?;
                    } else {
                        self.write_word(bus, addr, v as u16, fc)?;
                    }
                    addr = addr.wrapping_add(size as u32);
                }
            }
        }
        self.prefetch(bus)
    }

    pub(crate) fn movem_to_reg<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = if op & 0x40 != 0 { 4 } else { 2 };
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let list = self.ext_word(bus)?;
        let mut addr = if mode == 3 {
            self.regs[8 + reg]
        } else {
            self.control_address(bus, mode, reg)?
        };
        let fc = if mode == 7 && (reg == 2 || reg == 3) {
            self.program_fc()
        } else {
            self.data_fc()
        };
        self.fault_pc_back = 0;
        for i in 0..16 {
            if list & (1 << i) != 0 {
                let v = if size == 4 {
                    let hi = self.read_word(bus, addr, fc)? as u32;
                    let lo = self.read_word(bus, addr.wrapping_add(2), fc)? as u32;
                    hi << 16 | lo
                } else {
                    self.read_word(bus, addr, fc)? as i16 as i32 as u32
                };
                self.regs[i] = v;
                addr = addr.wrapping_add(size as u32);
            }
        }
        // One more word is read after the last register.
        self.read_word(bus, addr, fc)?;
        if mode == 3 {
            self.regs[8 + reg] = addr;
        }
        self.prefetch(bus)
    }

    pub(crate) fn movep<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let dreg = ((op >> 9) & 7) as usize;
        let areg = (op & 7) as usize;
        let long = op & 0x40 != 0;
        let to_mem = op & 0x80 != 0;
        let disp = self.ext_word(bus)? as i16 as i32 as u32;
        let mut addr = self.regs[8 + areg].wrapping_add(disp);
        let count = if long { 4 } else { 2 };
        if to_mem {
            let v = self.regs[dreg];
            let fc = self.data_fc();
            for i in (0..count).rev() {
                self.write_byte(bus, addr, (v >> (8 * i)) as u8, fc);
                addr = addr.wrapping_add(2);
            }
        } else {
            let fc = self.data_fc();
            let mut v = 0u32;
            for _ in 0..count {
                v = v << 8 | self.read_byte(bus, addr, fc) as u32;
                addr = addr.wrapping_add(2);
            }
            if long {
                self.regs[dreg] = v;
            } else {
                self.set_d(dreg, 2, v);
            }
        }
        self.prefetch(bus)
    }

    pub(crate) fn exg<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let rx = ((op >> 9) & 7) as usize;
        let ry = (op & 7) as usize;
        let (x, y) = match op & 0xF8 {
            0x40 => (rx, ry),
            0x48 => (8 + rx, 8 + ry),
            _ => (rx, 8 + ry),
        };
        self.regs.swap(x, y);
        self.prefetch(bus)?;
        self.idle(2);
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn swap<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let r = (op & 7) as usize;
        let v = self.regs[r].rotate_left(16);
        self.regs[r] = v;
        self.logic_flags(4, v);
        self.prefetch(bus)
    }

    pub(crate) fn ext<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let r = (op & 7) as usize;
        if op & 0x40 != 0 {
            let v = self.regs[r] as u16 as i16 as i32 as u32;
            self.regs[r] = v;
            self.logic_flags(4, v);
        } else {
            let v = self.regs[r] as u8 as i8 as i16 as u16 as u32;
            self.set_d(r, 2, v);
            self.logic_flags(2, v);
        }
        self.prefetch(bus)
    }

    pub(crate) fn link<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let r = 8 + (op & 7) as usize;
        let disp = self.ext_word(bus)? as i16 as i32 as u32;
        let sp = self.regs[15].wrapping_sub(4);
        let v = self.regs[r];
        self.push_long(bus, v)?;
        self.regs[r] = sp;
        self.regs[15] = sp.wrapping_add(disp);
        self.prefetch(bus)
    }

    pub(crate) fn unlk<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let r = 8 + (op & 7) as usize;
        let a = self.regs[r];
        let fc = self.data_fc();
        self.fault_pc_back = 0;
        let hi = self.read_word(bus, a, fc)? as u32;
        let lo = self.read_word(bus, a.wrapping_add(2), fc)? as u32;
        self.regs[15] = a.wrapping_add(4);
        self.regs[r] = hi << 16 | lo;
        self.prefetch(bus)
    }
}
