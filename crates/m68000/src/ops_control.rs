//! Program control: Bcc, BSR, DBcc, JMP, JSR, RTS, RTR, RTE, TRAP, TRAPV, STOP, RESET.

use crate::Bus;
use crate::cpu::{Cpu, Result, RunState, SR_S, V};
use crate::exceptions::VEC_TRAPV;

impl Cpu {
    #[inline(always)]
    pub(crate) fn bcc<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let disp8 = op as u8;
        let base = self.pc.wrapping_sub(2);
        if self.cond(op >> 8) {
            self.idle(2);
            let disp = if disp8 == 0 {
                self.irc as i16 as i32 as u32
            } else {
                disp8 as i8 as i32 as u32
            };
            self.jump_fill(bus, base.wrapping_add(disp))
        } else {
            self.idle(4);
            if disp8 == 0 {
                self.ext_word_prefetch(bus);
                return Ok(());
            }
            self.prefetch(bus)
        }
    }

    pub(crate) fn bsr<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let disp8 = op as u8;
        let base = self.pc.wrapping_sub(2);
        let (disp, ret) = if disp8 == 0 {
            (self.irc as i16 as i32 as u32, self.pc)
        } else {
            (disp8 as i8 as i32 as u32, base)
        };
        self.idle(2);
        self.push_long(bus, ret)?;
        self.branch_to(bus, base.wrapping_add(disp))
    }

    /// Fills the queue at a branch target; a fault at an odd target stacks the target.
    fn branch_to<B: Bus>(&mut self, bus: &mut B, target: u32) -> Result<()> {
        if target & 1 != 0 {
            self.pc = target;
            self.fault_pc_back = 0;
        }
        self.jump_fill(bus, target)
    }

    #[inline(always)]
    pub(crate) fn dbcc<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let r = (op & 7) as usize;
        // DBF (never true) is every DBcc Sonic 2 runs: one compare instead of the table.
        if op & 0x0F00 != 0x0100 && self.cond(op >> 8) {
            self.idle(4);
            self.ext_word(bus)?;
            return self.prefetch(bus);
        }
        self.idle(2);
        let count = (self.regs[r] as u16).wrapping_sub(1);
        let target = self
            .pc
            .wrapping_sub(2)
            .wrapping_add(self.irc as i16 as i32 as u32);
        if count != 0xFFFF && target & 1 != 0 {
            // The fetch at the odd target faults before the counter is written back.
            self.fault_pc_back = 0;
            return self.jump_fill(bus, target);
        }
        self.set_d(r, 2, count as u32);
        if count != 0xFFFF {
            return self.jump_fill(bus, target);
        }
        // Counter expired: the branch target is fetched and thrown away.
        let fc = self.program_fc();
        self.read_word(bus, target, fc)?;
        self.ext_word(bus)?;
        self.prefetch(bus)
    }

    /// Target of JMP/JSR, read straight from IRC (the extension words are not refetched):
    /// returns the target and the return address.
    fn jump_target<B: Bus>(&mut self, bus: &mut B, op: u16, index_idle: u32) -> Result<(u32, u32)> {
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let ext_at = self.pc.wrapping_sub(2);
        Ok(match (mode, reg) {
            (2, _) => (self.regs[8 + reg], ext_at),
            (5, _) => {
                self.idle(2);
                (
                    self.regs[8 + reg].wrapping_add(self.irc as i16 as i32 as u32),
                    self.pc,
                )
            }
            (6, _) => {
                self.idle(index_idle);
                (
                    self.regs[8 + reg].wrapping_add(self.index_value(self.irc)),
                    self.pc,
                )
            }
            (7, 0) => {
                self.idle(2);
                (self.irc as i16 as i32 as u32, self.pc)
            }
            (7, 1) => {
                let hi = self.irc as u32;
                let fc = self.program_fc();
                let lo = self.read_word(bus, self.pc, fc)? as u32;
                (hi << 16 | lo, self.pc.wrapping_add(2))
            }
            (7, 2) => {
                self.idle(2);
                (ext_at.wrapping_add(self.irc as i16 as i32 as u32), self.pc)
            }
            _ => {
                self.idle(index_idle);
                (ext_at.wrapping_add(self.index_value(self.irc)), self.pc)
            }
        })
    }

    pub(crate) fn jmp<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let (target, _) = self.jump_target(bus, op, 6)?;
        self.jump_fill(bus, target)
    }

    pub(crate) fn jsr<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let (target, ret) = self.jump_target(bus, op, 6)?;
        self.fault_pc_back = match op & 0x3F {
            0x10..=0x17 => 2,
            // abs.L: the stacked PC is past the unrefetched low address word.
            0x39 => 0u32.wrapping_sub(2),
            _ => 0,
        };
        self.fetch_irc_at(bus, target)?;
        self.push_long(bus, ret)?;
        self.prefetch(bus)
    }

    pub(crate) fn rts<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        let pc = self.pop_long(bus)?;
        self.jump_fill(bus, pc)
    }

    pub(crate) fn rtr<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        let sp = self.regs[15];
        let fc = self.data_fc();
        let ccr = self.read_word(bus, sp, fc)?;
        self.regs[15] = sp.wrapping_add(2);
        let pc = self.pop_long(bus)?;
        self.set_ccr(ccr);
        self.jump_fill(bus, pc)
    }

    pub(crate) fn rte<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        if self.sr & SR_S == 0 {
            return self.privilege(bus);
        }
        let sp = self.regs[15];
        let fc = self.data_fc();
        let sr = self.read_word(bus, sp, fc)?;
        self.regs[15] = sp.wrapping_add(2);
        let pc = self.pop_long(bus)?;
        self.set_sr(sr);
        self.tell_attention(bus);
        self.jump_fill(bus, pc)
    }

    pub(crate) fn trap<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        self.idle(4);
        let pc = self.pc.wrapping_sub(2);
        self.exception(bus, 32 + (op & 15) as u32, pc)
    }

    pub(crate) fn trapv<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        if self.sr & V == 0 {
            return self.prefetch(bus);
        }
        // The switch to supervisor mode comes first: the prefetch is a supervisor fetch.
        let old = self.enter_supervisor();
        self.prefetch(bus)?;
        let pc = self.pc.wrapping_sub(4);
        self.stack_and_vector(bus, old, pc, VEC_TRAPV)
    }

    pub(crate) fn stop<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        if self.sr & SR_S == 0 {
            return self.privilege(bus);
        }
        let sr = self.irc;
        self.set_sr(sr);
        self.idle(4);
        self.state = RunState::Stopped;
        self.refresh_attention();
        self.tell_attention(bus);
        Ok(())
    }

    pub(crate) fn reset_instr<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        if self.sr & SR_S == 0 {
            return self.privilege(bus);
        }
        bus.reset_devices(self.cycles);
        self.idle(128);
        self.prefetch(bus)
    }
}
