//! The unprefixed opcode table, shared with DD/FD through the `IDX` register selector.

use crate::Bus;
use crate::cpu::Z80;
use crate::index::HL;
use crate::registers::*;

/// Whether unprefixed opcode `op` may leave PC anywhere but just past itself: the jumps,
/// calls, returns and RSTs, and the prefixes (whose instructions include block repeats, RETN
/// and `JP (IX)`). HALT is listed too, as its own cycles are stepped at the same PC.
const fn may_branch(op: u8) -> bool {
    match op {
        0x10 | 0x18 | 0x20 | 0x28 | 0x30 | 0x38 | 0x76 => true,
        0xC3 | 0xC9 | 0xCD | 0xE9 | 0xCB | 0xDD | 0xED | 0xFD => true,
        // RET cc, JP cc, CALL cc, RST p.
        0xC0..=0xFF => matches!(op & 7, 0 | 2 | 4 | 7),
        _ => false,
    }
}

impl Z80 {
    /// Condition code 0..7: NZ Z NC C PO PE P M.
    #[inline(always)]
    pub(crate) fn cond(&self, cc: u8) -> bool {
        let f = self.regs.f;
        let set = match (cc >> 1) & 3 {
            0 => f & ZF,
            1 => f & CF,
            2 => f & PF,
            _ => f & SF,
        } != 0;
        set == (cc & 1 != 0)
    }

    /// Relative jump taken: 5 internal T-states computing the target, which also lands in WZ.
    #[inline(always)]
    fn jr_taken(&mut self, e: u8) {
        self.idle(5);
        self.regs.pc = self.regs.pc.wrapping_add(e as i8 as u16);
        self.regs.wz = self.regs.pc;
    }

    /// Execute an opcode whose M1 fetch (and any DD/FD prefix fetch) is already done. `q` is
    /// the Q latch as the instruction started (the step has cleared `regs.q`).
    ///
    /// One 256-way jump straight into a body made for that opcode (`exec_op` with the
    /// opcode a constant), so the register, condition and ALU selectors the opcode's bits
    /// encode are resolved at compile time instead of by further jumps at run time (and rustc
    /// lowers a match on constants only to one jump table, where the range patterns of the
    /// shared bodies split it in two behind a compare chain).
    ///
    /// Returns whether the opcode may move PC anywhere but past itself ([`may_branch`]), a
    /// constant in each arm.
    #[inline(always)]
    pub(crate) fn exec_base<const IDX: u8, B: Bus>(&mut self, bus: &mut B, op: u8, q: u8) -> bool {
        macro_rules! dispatch {
            ($cpu:ident, $bus:ident, $op:ident, $q:ident; $($n:literal)*) => {
                match $op {
                    $($n => {
                        $cpu.exec_op::<$n, IDX, B>($bus, $q);
                        const { may_branch($n) }
                    })*
                }
            };
        }
        dispatch!(self, bus, op, q;
            0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08 0x09 0x0A 0x0B 0x0C 0x0D 0x0E 0x0F 0x10
            0x11 0x12 0x13 0x14 0x15 0x16 0x17 0x18 0x19 0x1A 0x1B 0x1C 0x1D 0x1E 0x1F 0x20 0x21
            0x22 0x23 0x24 0x25 0x26 0x27 0x28 0x29 0x2A 0x2B 0x2C 0x2D 0x2E 0x2F 0x30 0x31 0x32
            0x33 0x34 0x35 0x36 0x37 0x38 0x39 0x3A 0x3B 0x3C 0x3D 0x3E 0x3F 0x40 0x41 0x42 0x43
            0x44 0x45 0x46 0x47 0x48 0x49 0x4A 0x4B 0x4C 0x4D 0x4E 0x4F 0x50 0x51 0x52 0x53 0x54
            0x55 0x56 0x57 0x58 0x59 0x5A 0x5B 0x5C 0x5D 0x5E 0x5F 0x60 0x61 0x62 0x63 0x64 0x65
            0x66 0x67 0x68 0x69 0x6A 0x6B 0x6C 0x6D 0x6E 0x6F 0x70 0x71 0x72 0x73 0x74 0x75 0x76
            0x77 0x78 0x79 0x7A 0x7B 0x7C 0x7D 0x7E 0x7F 0x80 0x81 0x82 0x83 0x84 0x85 0x86 0x87
            0x88 0x89 0x8A 0x8B 0x8C 0x8D 0x8E 0x8F 0x90 0x91 0x92 0x93 0x94 0x95 0x96 0x97 0x98
            0x99 0x9A 0x9B 0x9C 0x9D 0x9E 0x9F 0xA0 0xA1 0xA2 0xA3 0xA4 0xA5 0xA6 0xA7 0xA8 0xA9
            0xAA 0xAB 0xAC 0xAD 0xAE 0xAF 0xB0 0xB1 0xB2 0xB3 0xB4 0xB5 0xB6 0xB7 0xB8 0xB9 0xBA
            0xBB 0xBC 0xBD 0xBE 0xBF 0xC0 0xC1 0xC2 0xC3 0xC4 0xC5 0xC6 0xC7 0xC8 0xC9 0xCA 0xCB
            0xCC 0xCD 0xCE 0xCF 0xD0 0xD1 0xD2 0xD3 0xD4 0xD5 0xD6 0xD7 0xD8 0xD9 0xDA 0xDB 0xDC
            0xDD 0xDE 0xDF 0xE0 0xE1 0xE2 0xE3 0xE4 0xE5 0xE6 0xE7 0xE8 0xE9 0xEA 0xEB 0xEC 0xED
            0xEE 0xEF 0xF0 0xF1 0xF2 0xF3 0xF4 0xF5 0xF6 0xF7 0xF8 0xF9 0xFA 0xFB 0xFC 0xFD 0xFE
            0xFF
        )
    }

    /// The instruction of opcode `OP`.
    #[inline(always)]
    fn exec_op<const OP: u8, const IDX: u8, B: Bus>(&mut self, bus: &mut B, q: u8) {
        let op = OP;
        match op {
            0x00 => {}
            // LD rr,nn
            0x01 | 0x11 | 0x21 | 0x31 => {
                let v = self.imm16(bus);
                self.set_rp::<IDX>(op >> 4, v);
            }
            // LD (BC),A / LD (DE),A: WZ = A:(rr+1) low byte.
            0x02 | 0x12 => {
                let addr = if op == 0x02 {
                    self.regs.bc()
                } else {
                    self.regs.de()
                };
                self.write(bus, addr, self.regs.a);
                self.regs.wz = ((self.regs.a as u16) << 8) | (addr.wrapping_add(1) & 0xFF);
            }
            // LD A,(BC) / LD A,(DE)
            0x0A | 0x1A => {
                let addr = if op == 0x0A {
                    self.regs.bc()
                } else {
                    self.regs.de()
                };
                self.regs.a = self.read(bus, addr);
                self.regs.wz = addr.wrapping_add(1);
            }
            // INC rr / DEC rr: 2 extra T-states for the 16-bit incrementer.
            0x03 | 0x13 | 0x23 | 0x33 => {
                self.idle(2);
                let v = self.rp::<IDX>(op >> 4).wrapping_add(1);
                self.set_rp::<IDX>(op >> 4, v);
            }
            0x0B | 0x1B | 0x2B | 0x3B => {
                self.idle(2);
                let v = self.rp::<IDX>(op >> 4).wrapping_sub(1);
                self.set_rp::<IDX>(op >> 4, v);
            }
            // ADD HL,rr: 7 internal T-states.
            0x09 | 0x19 | 0x29 | 0x39 => {
                self.idle(7);
                let a = self.idx::<IDX>();
                let b = self.rp::<IDX>(op >> 4);
                let r = self.add16(a, b);
                self.set_idx::<IDX>(r);
            }
            // INC (HL)
            0x34 => {
                let addr = self.mem_operand::<IDX, B>(bus);
                let v = self.read(bus, addr);
                self.idle(1);
                let r = self.inc8(v);
                self.write(bus, addr, r);
            }
            // DEC (HL)
            0x35 => {
                let addr = self.mem_operand::<IDX, B>(bus);
                let v = self.read(bus, addr);
                self.idle(1);
                let r = self.dec8(v);
                self.write(bus, addr, r);
            }
            // INC r / DEC r
            0x04 | 0x0C | 0x14 | 0x1C | 0x24 | 0x2C | 0x3C => {
                let r = self.inc8(self.reg8::<IDX>(op >> 3));
                self.set_reg8::<IDX>(op >> 3, r);
            }
            0x05 | 0x0D | 0x15 | 0x1D | 0x25 | 0x2D | 0x3D => {
                let r = self.dec8(self.reg8::<IDX>(op >> 3));
                self.set_reg8::<IDX>(op >> 3, r);
            }
            // LD (HL),n: with an index the displacement comes first and the addition overlaps
            // the operand read, leaving 2 internal T-states.
            0x36 => {
                let addr = if IDX == HL {
                    self.regs.hl()
                } else {
                    let d = self.imm8(bus) as i8;
                    let addr = self.idx::<IDX>().wrapping_add(d as u16);
                    self.regs.wz = addr;
                    addr
                };
                let n = self.imm8(bus);
                if IDX != HL {
                    self.idle(2);
                }
                self.write(bus, addr, n);
            }
            // LD r,n
            0x06 | 0x0E | 0x16 | 0x1E | 0x26 | 0x2E | 0x3E => {
                let n = self.imm8(bus);
                self.set_reg8::<IDX>(op >> 3, n);
            }
            0x07 | 0x0F | 0x17 | 0x1F => self.rot_a(op),
            0x08 => {
                let af = self.regs.af();
                self.regs.set_af(self.regs.af_);
                self.regs.af_ = af;
            }
            // DJNZ: one extra T-state in M1 for the B decrement.
            0x10 => {
                self.idle(1);
                let e = self.imm8(bus);
                self.regs.b = self.regs.b.wrapping_sub(1);
                if self.regs.b != 0 {
                    self.jr_taken(e);
                }
            }
            0x18 => {
                let e = self.imm8(bus);
                self.jr_taken(e);
            }
            0x20 | 0x28 | 0x30 | 0x38 => {
                let e = self.imm8(bus);
                if self.cond((op >> 3) & 3) {
                    self.jr_taken(e);
                }
            }
            // LD (nn),HL / LD HL,(nn)
            0x22 => {
                let nn = self.imm16(bus);
                self.write16(bus, nn, self.idx::<IDX>());
                self.regs.wz = nn.wrapping_add(1);
            }
            0x2A => {
                let nn = self.imm16(bus);
                let v = self.read16(bus, nn);
                self.set_idx::<IDX>(v);
                self.regs.wz = nn.wrapping_add(1);
            }
            // LD (nn),A: WZ = A:(nn+1) low byte.
            0x32 => {
                let nn = self.imm16(bus);
                self.write(bus, nn, self.regs.a);
                self.regs.wz = ((self.regs.a as u16) << 8) | (nn.wrapping_add(1) & 0xFF);
            }
            0x3A => {
                let nn = self.imm16(bus);
                self.regs.a = self.read(bus, nn);
                self.regs.wz = nn.wrapping_add(1);
            }
            0x27 => self.daa(),
            0x2F => self.cpl(),
            0x37 => self.scf(q),
            0x3F => self.ccf(q),
            // HALT: PC stays past the opcode; `step` then idles in 4-T-state NOP cycles.
            0x76 => self.halted = true,
            // LD r,(HL): with an index, H and L here are the real H and L.
            0x46 | 0x4E | 0x56 | 0x5E | 0x66 | 0x6E | 0x7E => {
                let addr = self.mem_operand::<IDX, B>(bus);
                let v = self.read(bus, addr);
                self.set_reg8::<HL>(op >> 3, v);
            }
            // LD (HL),r
            0x70..=0x77 => {
                let addr = self.mem_operand::<IDX, B>(bus);
                self.write(bus, addr, self.reg8::<HL>(op));
            }
            // LD r,r'
            0x40..=0x7F => {
                let v = self.reg8::<IDX>(op);
                self.set_reg8::<IDX>(op >> 3, v);
            }
            // ALU A,(HL)
            0x86 | 0x8E | 0x96 | 0x9E | 0xA6 | 0xAE | 0xB6 | 0xBE => {
                let addr = self.mem_operand::<IDX, B>(bus);
                let v = self.read(bus, addr);
                self.alu_op(op, v);
            }
            // ALU A,r
            0x80..=0xBF => self.alu_op(op, self.reg8::<IDX>(op)),
            // RET cc: one extra T-state in M1 to evaluate the condition.
            0xC0 | 0xC8 | 0xD0 | 0xD8 | 0xE0 | 0xE8 | 0xF0 | 0xF8 => {
                self.idle(1);
                if self.cond(op >> 3) {
                    self.regs.pc = self.pop(bus);
                    self.regs.wz = self.regs.pc;
                }
            }
            0xC9 => {
                self.regs.pc = self.pop(bus);
                self.regs.wz = self.regs.pc;
            }
            // POP rr (BC DE HL AF)
            0xC1 | 0xD1 | 0xE1 | 0xF1 => {
                let v = self.pop(bus);
                match op {
                    0xC1 => self.regs.set_bc(v),
                    0xD1 => self.regs.set_de(v),
                    0xE1 => self.set_idx::<IDX>(v),
                    _ => self.regs.set_af(v),
                }
            }
            // PUSH rr: one extra T-state in M1 to predecrement SP.
            0xC5 | 0xD5 | 0xE5 | 0xF5 => {
                self.idle(1);
                let v = match op {
                    0xC5 => self.regs.bc(),
                    0xD5 => self.regs.de(),
                    0xE5 => self.idx::<IDX>(),
                    _ => self.regs.af(),
                };
                self.push(bus, v);
            }
            // JP cc,nn: WZ gets the target whether or not the jump is taken.
            0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA => {
                let nn = self.imm16(bus);
                self.regs.wz = nn;
                if self.cond(op >> 3) {
                    self.regs.pc = nn;
                }
            }
            0xC3 => {
                let nn = self.imm16(bus);
                self.regs.wz = nn;
                self.regs.pc = nn;
            }
            // CALL cc,nn: taken calls spend one more T-state before the pushes.
            0xC4 | 0xCC | 0xD4 | 0xDC | 0xE4 | 0xEC | 0xF4 | 0xFC => {
                let nn = self.imm16(bus);
                self.regs.wz = nn;
                if self.cond(op >> 3) {
                    self.idle(1);
                    self.push(bus, self.regs.pc);
                    self.regs.pc = nn;
                }
            }
            0xCD => {
                let nn = self.imm16(bus);
                self.regs.wz = nn;
                self.idle(1);
                self.push(bus, self.regs.pc);
                self.regs.pc = nn;
            }
            // ALU A,n
            0xC6 | 0xCE | 0xD6 | 0xDE | 0xE6 | 0xEE | 0xF6 | 0xFE => {
                let n = self.imm8(bus);
                self.alu_op(op, n);
            }
            // RST p
            0xC7 | 0xCF | 0xD7 | 0xDF | 0xE7 | 0xEF | 0xF7 | 0xFF => {
                self.idle(1);
                self.push(bus, self.regs.pc);
                self.regs.pc = (op & 0x38) as u16;
                self.regs.wz = self.regs.pc;
            }
            0xCB => {
                if IDX == HL {
                    let op = self.fetch_opcode(bus);
                    self.exec_cb(bus, op);
                } else {
                    self.exec_index_cb::<IDX, B>(bus);
                }
            }
            // OUT (n),A: the port's high byte is A; WZ = A:(n+1) low byte.
            0xD3 => {
                let n = self.imm8(bus);
                let a = self.regs.a;
                let port = ((a as u16) << 8) | n as u16;
                self.port_out(bus, port, a);
                self.regs.wz = ((a as u16) << 8) | (n.wrapping_add(1) as u16);
            }
            // IN A,(n): no flags.
            0xDB => {
                let n = self.imm8(bus);
                let port = ((self.regs.a as u16) << 8) | n as u16;
                self.regs.a = self.port_in(bus, port);
                self.regs.wz = port.wrapping_add(1);
            }
            0xD9 => {
                let r = &mut self.regs;
                let (bc, de, hl) = (r.bc(), r.de(), r.hl());
                r.set_bc(r.bc_);
                r.set_de(r.de_);
                r.set_hl(r.hl_);
                (r.bc_, r.de_, r.hl_) = (bc, de, hl);
            }
            // DD/FD: `ADD A,(I+d)`, the most frequent prefixed instruction (Sonic 2's driver
            // decodes each DAC nybble with `ADD A,(IY+d)`, two a sample pair), runs here in
            // the step loop; the others through the out-of-line prefixed decoder.
            0xDD | 0xFD => {
                let op = self.fetch_opcode(bus);
                if op == 0x86 {
                    self.alu_indexed::<0x86, B>(bus, OP);
                } else {
                    self.exec_prefixed_op(bus, OP, op, q);
                }
            }
            0xED => {
                let op = self.fetch_opcode(bus);
                self.exec_ed(bus, op);
            }
            // EX (SP),HL: read low, read high (+1), write high, write low (+2); WZ = new HL.
            0xE3 => {
                let sp = self.regs.sp;
                let lo = self.read(bus, sp);
                let hi = self.read(bus, sp.wrapping_add(1));
                self.idle(1);
                let old = self.idx::<IDX>();
                self.write(bus, sp.wrapping_add(1), (old >> 8) as u8);
                self.write(bus, sp, old as u8);
                self.idle(2);
                let v = u16::from_le_bytes([lo, hi]);
                self.set_idx::<IDX>(v);
                self.regs.wz = v;
            }
            0xE9 => self.regs.pc = self.idx::<IDX>(),
            // EX DE,HL ignores DD/FD.
            0xEB => {
                let r = &mut self.regs;
                (r.d, r.e, r.h, r.l) = (r.h, r.l, r.d, r.e);
            }
            0xF3 => {
                self.regs.iff1 = false;
                self.regs.iff2 = false;
            }
            0xFB => {
                self.regs.iff1 = true;
                self.regs.iff2 = true;
                self.mark_ei();
            }
            0xF9 => {
                self.idle(2);
                self.regs.sp = self.idx::<IDX>();
            }
        }
    }
}
