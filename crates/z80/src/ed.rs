//! ED prefix: 16-bit arithmetic, I/O through (C), interrupt control, I/R transfers, RLD/RRD.
//! Block instructions live in `block.rs`; undefined ED opcodes are 8-T-state NOPs.

use crate::Bus;
use crate::alu::{szxy, szxyp};
use crate::cpu::Z80;
use crate::index::HL;
use crate::registers::*;

impl Z80 {
    /// Execute ED `op` (its M1 already done).
    pub(crate) fn exec_ed<B: Bus>(&mut self, bus: &mut B, op: u8) {
        match op {
            0x40..=0x7F => self.exec_ed_main(bus, op),
            0xA0..=0xA3 | 0xA8..=0xAB | 0xB0..=0xB3 | 0xB8..=0xBB => self.exec_block(bus, op),
            _ => {}
        }
    }

    fn exec_ed_main<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let y = (op >> 3) & 7;
        match op & 7 {
            // IN r,(C); code 6 only sets flags ("IN F,(C)").
            0 => {
                let bc = self.regs.bc();
                let v = self.port_in(bus, bc);
                self.regs.wz = bc.wrapping_add(1);
                if y != 6 {
                    self.set_reg8::<HL>(y, v);
                }
                let f = szxyp(v) | (self.regs.f & CF);
                self.set_f(f);
            }
            // OUT (C),r; code 6 outputs 0 on NMOS parts.
            1 => {
                let bc = self.regs.bc();
                let v = if y == 6 { 0 } else { self.reg8::<HL>(y) };
                self.port_out(bus, bc, v);
                self.regs.wz = bc.wrapping_add(1);
            }
            // SBC/ADC HL,rr: 7 internal T-states.
            2 => {
                self.idle(7);
                let v = self.rp::<HL>(y >> 1);
                if y & 1 == 0 {
                    self.sbc16(v);
                } else {
                    self.adc16(v);
                }
            }
            // LD (nn),rr / LD rr,(nn)
            3 => {
                let nn = self.imm16(bus);
                if y & 1 == 0 {
                    self.write16(bus, nn, self.rp::<HL>(y >> 1));
                } else {
                    let v = self.read16(bus, nn);
                    self.set_rp::<HL>(y >> 1, v);
                }
                self.regs.wz = nn.wrapping_add(1);
            }
            // NEG (and its undocumented mirrors).
            4 => {
                let v = self.regs.a;
                self.regs.a = 0;
                self.sub8(v, false);
            }
            // RETN / RETI (and mirrors): both restore IFF1 from IFF2.
            5 => {
                self.regs.iff1 = self.regs.iff2;
                self.regs.pc = self.pop(bus);
                self.regs.wz = self.regs.pc;
            }
            // IM 0/1/2 (the "IM 0/1" mirrors act as IM 0).
            6 => {
                self.regs.im = match y & 3 {
                    0 | 1 => 0,
                    2 => 1,
                    _ => 2,
                };
            }
            _ => match y {
                // LD I,A / LD R,A: one extra T-state.
                0 => {
                    self.idle(1);
                    self.regs.i = self.regs.a;
                }
                1 => {
                    self.idle(1);
                    self.regs.set_r(self.regs.a);
                }
                // LD A,I / LD A,R: P/V = IFF2.
                2 | 3 => {
                    self.idle(1);
                    let v = if y == 2 { self.regs.i } else { self.regs.r() };
                    self.regs.a = v;
                    let pv = if self.regs.iff2 { PF } else { 0 };
                    let f = szxy(v) | pv | (self.regs.f & CF);
                    self.set_f(f);
                    self.mark_ld_a_ir();
                }
                // RRD / RLD: 4 internal T-states between the read and the write.
                4 | 5 => {
                    let hl = self.regs.hl();
                    let m = self.read(bus, hl);
                    self.idle(4);
                    let a = self.regs.a;
                    let (new_m, new_a) = if y == 4 {
                        ((a << 4) | (m >> 4), (a & 0xF0) | (m & 0x0F))
                    } else {
                        ((m << 4) | (a & 0x0F), (a & 0xF0) | (m >> 4))
                    };
                    self.write(bus, hl, new_m);
                    self.regs.a = new_a;
                    self.regs.wz = hl.wrapping_add(1);
                    let f = szxyp(new_a) | (self.regs.f & CF);
                    self.set_f(f);
                }
                _ => {}
            },
        }
    }
}
