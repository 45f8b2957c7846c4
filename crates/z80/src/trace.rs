//! Decoded traces: straight runs of code in memory the bus vouches for ([`Bus::peek`]), kept
//! decoded so that running them again needs no opcode fetch and no 256-way dispatch of the
//! fetched byte per instruction.
//!
//! A trace is the instructions from an entry address along the path where every conditional
//! branch falls through, up to an unconditional jump or an instruction it does not model. Each
//! instruction runs through the stepper's own body for its opcode (`exec_op`), with the
//! T-states, R, Q and PC the step's fetch gives it, so a trace does what stepping does by
//! construction; what it saves is the fetch's read and dispatch and the step loop's tests.
//! Nothing is trusted from the decoding: every instruction's opcode bytes are compared with
//! memory before it runs (a program that rewrites its own code, as Sonic 2's DAC loop
//! rewrites the displacements of its two `ADD A,(IY+d)`, is run as written: operands are read
//! from memory as the step reads them), and a trace whose code changed is dropped.
//!
//! A trace runs only where no interrupt can be accepted between its instructions (the caller
//! holds /INT released and no NMI pending for the whole run, as for `step_int_released`),
//! never during HALT or a prefix chain, and stops at the first instruction boundary at or past
//! the run's end, where stepping would stop. A branch that leaves the path ends the run, and
//! the caller sees it as it sees a step that branched ([`Traces::run`] returns the branch's
//! address, as `step_may_branch` returning true leaves it in `from`). `DJNZ $` runs in closed
//! form as `Z80::fast_forward` runs it after the step loop's first pass.

use crate::Bus;
use crate::cpu::Z80;
use crate::index::HL;

/// Instructions a trace holds at most, and the bytes of code it may span.
const MAX_OPS: usize = 64;
const MAX_BYTES: usize = 250;
/// Traces shorter than this are not kept (their entry is remembered as holding none): the
/// lookup would cost more than the fetches saved.
const MIN_OPS: usize = 3;
/// Direct-mapped slots, by entry address.
const SLOTS: usize = 32;
/// `Trace::at` for a byte that starts no instruction.
const NONE: u8 = u8::MAX;

/// What a decoded instruction does. Register codes are the opcode's 3-bit fields (B C D E
/// H L - A), pair codes its 2-bit ones (BC DE HL SP, or AF for PUSH and POP); `alu` keeps
/// the whole opcode for `alu_op`, `rot` for `rot_a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Nop,
    LdRR {
        dst: u8,
        src: u8,
    },
    LdRN {
        dst: u8,
    },
    LdRHl {
        dst: u8,
    },
    LdHlR {
        src: u8,
    },
    LdRpNn {
        pair: u8,
    },
    LdNnA,
    LdANn,
    AluR {
        alu: u8,
        src: u8,
    },
    AluN {
        alu: u8,
    },
    AluHl {
        alu: u8,
    },
    IncR {
        reg: u8,
    },
    DecR {
        reg: u8,
    },
    IncRp {
        pair: u8,
    },
    DecRp {
        pair: u8,
    },
    Rot {
        rot: u8,
    },
    ExAf,
    Exx,
    ExDeHl,
    Di,
    Ei,
    Push {
        pair: u8,
    },
    Pop {
        pair: u8,
    },
    /// ALU A,(I+d), LD r,(I+d), LD (I+d),r: `iy` selects IY over IX.
    AluIdx {
        alu: u8,
        iy: bool,
    },
    LdRIdx {
        dst: u8,
        iy: bool,
    },
    LdIdxR {
        src: u8,
        iy: bool,
    },
    Djnz,
    Jr,
    JrCc {
        cc: u8,
    },
    Jp,
    JpCc {
        cc: u8,
    },
}

/// One decoded instruction: its address, its opcode bytes (the DD/FD prefix and the opcode,
/// or the opcode and 0), the address after it, and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Op {
    pc: u16,
    next: u16,
    b0: u8,
    b1: u8,
    kind: Kind,
}

/// The instructions from `start` along the fall-through path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Trace {
    start: u16,
    /// By byte offset from `start`: the index of the instruction starting there, or `NONE`.
    at: Vec<u8>,
    ops: Vec<Op>,
}

impl Trace {
    /// The index of the instruction at `pc`, if one of the trace's starts there.
    #[inline(always)]
    fn index_of(&self, pc: u16) -> Option<usize> {
        let off = pc.wrapping_sub(self.start) as usize;
        match self.at.get(off) {
            Some(&i) if i != NONE => Some(i as usize),
            _ => None,
        }
    }
}

/// The decoded traces of a program, by entry address (a jump's target), and the one run
/// last (a run of the CPU often starts inside it). Derived data: it holds nothing the CPU's
/// state does not, a copy or a fresh one runs the same, and it is not saved.
#[derive(Clone, Debug, Default)]
pub struct Traces {
    slots: Vec<Option<Trace>>,
    /// The slot of the trace run last.
    last: usize,
}

impl Traces {
    pub fn new() -> Traces {
        Traces::default()
    }

    /// Runs the CPU through the decoded trace containing an instruction at PC: the one run
    /// last, or else (with `decode`, at a jump's target) the one starting at PC, decoded now
    /// if there is none. Returns the address of the last instruction run if it was a branch
    /// that left the trace's path (the caller treats it as a step that may have branched from
    /// there), `None` if the CPU stopped on the path (at `until_t`, at an instruction the
    /// trace does not model, or before running anything).
    ///
    /// The caller must keep /INT released and no NMI pending (`Z80::step_int_released`'s
    /// precondition).
    pub fn run<B: Bus>(
        &mut self,
        cpu: &mut Z80,
        bus: &mut B,
        until_t: u64,
        decode: bool,
    ) -> Option<u16> {
        debug_assert!(!cpu.irq_line && !cpu.nmi_pending);
        if cpu.halted || cpu.pending_prefix != 0 || cpu.t_states >= until_t {
            return None;
        }
        let pc = cpu.regs.pc;
        let in_last = self
            .slots
            .get(self.last)
            .and_then(|s| s.as_ref())
            .and_then(|t| t.index_of(pc));
        let (slot, i) = match in_last {
            Some(i) => (self.last, i),
            None if decode => {
                let slot = slot_of(pc);
                if self.slots.is_empty() {
                    self.slots.resize(SLOTS, None);
                }
                let hit = matches!(&self.slots[slot], Some(t) if t.start == pc);
                if !hit {
                    self.slots[slot] = Some(decode_trace(bus, pc));
                }
                if self.slots[slot].as_ref().is_some_and(|t| t.ops.is_empty()) {
                    return None;
                }
                (slot, 0)
            }
            None => return None,
        };
        self.last = slot;
        let trace = self.slots[slot].as_ref().expect("slot just found");
        let (exit, stale) = cpu.run_trace(bus, &trace.ops, i, until_t);
        if stale {
            self.slots[slot] = None;
        }
        exit
    }
}

/// The slot of a trace entered at `pc`.
fn slot_of(pc: u16) -> usize {
    ((pc ^ (pc >> 5)) as usize) % SLOTS
}

/// The decoding of an unprefixed opcode a trace models, with its length in bytes.
fn decode_base(op: u8) -> Option<(Kind, u8)> {
    let (y, z, p) = ((op >> 3) & 7, op & 7, (op >> 4) & 3);
    Some(match op {
        0x00 => (Kind::Nop, 1),
        0x10 => (Kind::Djnz, 2),
        0x18 => (Kind::Jr, 2),
        0x20 | 0x28 | 0x30 | 0x38 => (Kind::JrCc { cc: y & 3 }, 2),
        0x01 | 0x11 | 0x21 | 0x31 => (Kind::LdRpNn { pair: p }, 3),
        0x32 => (Kind::LdNnA, 3),
        0x3A => (Kind::LdANn, 3),
        0x03 | 0x13 | 0x23 | 0x33 => (Kind::IncRp { pair: p }, 1),
        0x0B | 0x1B | 0x2B | 0x3B => (Kind::DecRp { pair: p }, 1),
        0x04 | 0x0C | 0x14 | 0x1C | 0x24 | 0x2C | 0x3C => (Kind::IncR { reg: y }, 1),
        0x05 | 0x0D | 0x15 | 0x1D | 0x25 | 0x2D | 0x3D => (Kind::DecR { reg: y }, 1),
        0x06 | 0x0E | 0x16 | 0x1E | 0x26 | 0x2E | 0x3E => (Kind::LdRN { dst: y }, 2),
        0x07 | 0x0F | 0x17 | 0x1F => (Kind::Rot { rot: op }, 1),
        0x08 => (Kind::ExAf, 1),
        0x76 => return None,
        0x70..=0x77 => (Kind::LdHlR { src: z }, 1),
        0x46 | 0x4E | 0x56 | 0x5E | 0x66 | 0x6E | 0x7E => (Kind::LdRHl { dst: y }, 1),
        0x40..=0x7F => (Kind::LdRR { dst: y, src: z }, 1),
        0x86 | 0x8E | 0x96 | 0x9E | 0xA6 | 0xAE | 0xB6 | 0xBE => (Kind::AluHl { alu: op }, 1),
        0x80..=0xBF => (Kind::AluR { alu: op, src: z }, 1),
        0xC6 | 0xCE | 0xD6 | 0xDE | 0xE6 | 0xEE | 0xF6 | 0xFE => (Kind::AluN { alu: op }, 2),
        0xC1 | 0xD1 | 0xE1 | 0xF1 => (Kind::Pop { pair: p }, 1),
        0xC5 | 0xD5 | 0xE5 | 0xF5 => (Kind::Push { pair: p }, 1),
        0xC3 => (Kind::Jp, 3),
        0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA => (Kind::JpCc { cc: y }, 3),
        0xD9 => (Kind::Exx, 1),
        0xEB => (Kind::ExDeHl, 1),
        0xF3 => (Kind::Di, 1),
        0xFB => (Kind::Ei, 1),
        _ => return None,
    })
}

/// The decoding of a DD/FD instruction a trace models (`op` the opcode after the prefix),
/// with its length in bytes, prefix included.
fn decode_indexed(prefix: u8, op: u8) -> Option<(Kind, u8)> {
    let iy = prefix == 0xFD;
    let (y, z) = ((op >> 3) & 7, op & 7);
    Some(match op {
        0x86 | 0x8E | 0x96 | 0x9E | 0xA6 | 0xAE | 0xB6 | 0xBE => (Kind::AluIdx { alu: op, iy }, 3),
        0x46 | 0x4E | 0x56 | 0x5E | 0x66 | 0x6E | 0x7E => (Kind::LdRIdx { dst: y, iy }, 3),
        0x70..=0x75 | 0x77 => (Kind::LdIdxR { src: z, iy }, 3),
        _ => return None,
    })
}

/// Whether a trace ends after this instruction (it always jumps).
fn ends_trace(kind: Kind) -> bool {
    matches!(kind, Kind::Jr | Kind::Jp)
}

/// Decodes the trace entered at `pc` (empty where the first instruction is not modelled or
/// the trace would be too short to pay).
fn decode_trace<B: Bus>(bus: &B, start: u16) -> Trace {
    let mut trace = Trace {
        start,
        at: Vec::new(),
        ops: Vec::new(),
    };
    let mut pc = start;
    while trace.ops.len() < MAX_OPS {
        let Some(b0) = bus.peek(pc) else { break };
        let decoded = if b0 == 0xDD || b0 == 0xFD {
            bus.peek(pc.wrapping_add(1))
                .and_then(|op| Some((op, decode_indexed(b0, op)?)))
        } else {
            decode_base(b0).map(|d| (0, d))
        };
        let Some((b1, (kind, len))) = decoded else {
            break;
        };
        let off = pc.wrapping_sub(start) as usize;
        if off + len as usize > MAX_BYTES
            || (1..len as u16).any(|k| bus.peek(pc.wrapping_add(k)).is_none())
        {
            break;
        }
        let next = pc.wrapping_add(len as u16);
        trace.at.resize(off, NONE);
        trace.at.push(trace.ops.len() as u8);
        trace.ops.push(Op {
            pc,
            next,
            b0,
            b1,
            kind,
        });
        pc = next;
        if ends_trace(kind) {
            break;
        }
    }
    if trace.ops.len() < MIN_OPS {
        trace.ops.clear();
        trace.at.clear();
    }
    trace
}

impl Z80 {
    /// Runs `ops` from index `i` (PC at its instruction). Returns the trace's exit (as
    /// [`Traces::run`]) and whether an instruction's code no longer matched its decoding.
    ///
    /// Each instruction does what the stepper's body for its opcode does (`base.rs`,
    /// `index.rs`), with the same primitives (`read`, `write`, `idle`, `push`, `pop`, the
    /// ALU), so every access is made at the T-state stepping makes it; the opcode and
    /// operand fetches are read through `peek` instead (they have no effect), PC is set
    /// where the trace stops, and R once, with the M1 cycles counted.
    fn run_trace<B: Bus>(
        &mut self,
        bus: &mut B,
        ops: &[Op],
        mut i: usize,
        until_t: u64,
    ) -> (Option<u16>, bool) {
        let mut m1 = 0u64;
        let mut exit = None;
        let mut stale = false;
        loop {
            let Some(&Op {
                pc,
                next,
                b0,
                b1,
                kind,
            }) = ops.get(i)
            else {
                // Past the last instruction: at the one after it.
                self.regs.pc = ops[i - 1].next;
                break;
            };
            if self.t_states >= until_t {
                self.regs.pc = pc;
                break;
            }
            // The fetches stepping would make, read without effect: the code must still be
            // what was decoded (operands are read here too, as the step reads them).
            let code = |k: u16| bus.peek(pc.wrapping_add(k));
            let decoded = code(0) == Some(b0) && (b1 == 0 || code(1) == Some(b1));
            let (Some(n1), Some(n2)) = (code(1), code(2)) else {
                stale = true;
                self.regs.pc = pc;
                break;
            };
            if !decoded {
                stale = true;
                self.regs.pc = pc;
                break;
            }
            let nn = u16::from_le_bytes([n1, n2]);
            // The step clears Q; an instruction that sets flags latches them (`set_f`).
            self.regs.q = 0;
            self.t_states += 4;
            m1 += 1;
            match kind {
                Kind::Nop => {}
                Kind::LdRR { dst, src } => {
                    let v = self.reg8::<HL>(src);
                    self.set_reg8::<HL>(dst, v);
                }
                Kind::LdRN { dst } => {
                    self.idle(3);
                    self.set_reg8::<HL>(dst, n1);
                }
                Kind::LdRHl { dst } => {
                    let v = self.read(bus, self.regs.hl());
                    self.set_reg8::<HL>(dst, v);
                }
                Kind::LdHlR { src } => {
                    self.write(bus, self.regs.hl(), self.reg8::<HL>(src));
                }
                Kind::LdRpNn { pair } => {
                    self.idle(6);
                    self.set_rp::<HL>(pair, nn);
                }
                Kind::LdNnA => {
                    self.idle(6);
                    self.write(bus, nn, self.regs.a);
                    self.regs.wz = ((self.regs.a as u16) << 8) | (nn.wrapping_add(1) & 0xFF);
                }
                Kind::LdANn => {
                    self.idle(6);
                    self.regs.a = self.read(bus, nn);
                    self.regs.wz = nn.wrapping_add(1);
                }
                Kind::AluR { alu, src } => self.alu_op(alu, self.reg8::<HL>(src)),
                Kind::AluN { alu } => {
                    self.idle(3);
                    self.alu_op(alu, n1);
                }
                Kind::AluHl { alu } => {
                    let v = self.read(bus, self.regs.hl());
                    self.alu_op(alu, v);
                }
                Kind::IncR { reg } => {
                    let r = self.inc8(self.reg8::<HL>(reg));
                    self.set_reg8::<HL>(reg, r);
                }
                Kind::DecR { reg } => {
                    let r = self.dec8(self.reg8::<HL>(reg));
                    self.set_reg8::<HL>(reg, r);
                }
                Kind::IncRp { pair } => {
                    self.idle(2);
                    let v = self.rp::<HL>(pair).wrapping_add(1);
                    self.set_rp::<HL>(pair, v);
                }
                Kind::DecRp { pair } => {
                    self.idle(2);
                    let v = self.rp::<HL>(pair).wrapping_sub(1);
                    self.set_rp::<HL>(pair, v);
                }
                Kind::Rot { rot } => self.rot_a(rot),
                Kind::ExAf => {
                    let af = self.regs.af();
                    self.regs.set_af(self.regs.af_);
                    self.regs.af_ = af;
                }
                Kind::Exx => {
                    let r = &mut self.regs;
                    let (bc, de, hl) = (r.bc(), r.de(), r.hl());
                    r.set_bc(r.bc_);
                    r.set_de(r.de_);
                    r.set_hl(r.hl_);
                    (r.bc_, r.de_, r.hl_) = (bc, de, hl);
                }
                Kind::ExDeHl => {
                    let r = &mut self.regs;
                    (r.d, r.e, r.h, r.l) = (r.h, r.l, r.d, r.e);
                }
                Kind::Di => {
                    self.regs.iff1 = false;
                    self.regs.iff2 = false;
                }
                Kind::Ei => {
                    self.regs.iff1 = true;
                    self.regs.iff2 = true;
                    self.mark_ei();
                }
                Kind::Push { pair } => {
                    self.idle(1);
                    let v = match pair {
                        0 => self.regs.bc(),
                        1 => self.regs.de(),
                        2 => self.regs.hl(),
                        _ => self.regs.af(),
                    };
                    self.push(bus, v);
                }
                Kind::Pop { pair } => {
                    let v = self.pop(bus);
                    match pair {
                        0 => self.regs.set_bc(v),
                        1 => self.regs.set_de(v),
                        2 => self.regs.set_hl(v),
                        _ => self.regs.set_af(v),
                    }
                }
                Kind::AluIdx { alu, iy } => {
                    let addr = self.traced_indexed(n2, iy, &mut m1);
                    let v = self.read(bus, addr);
                    self.alu_op(alu, v);
                }
                Kind::LdRIdx { dst, iy } => {
                    let addr = self.traced_indexed(n2, iy, &mut m1);
                    let v = self.read(bus, addr);
                    self.set_reg8::<HL>(dst, v);
                }
                Kind::LdIdxR { src, iy } => {
                    let addr = self.traced_indexed(n2, iy, &mut m1);
                    self.write(bus, addr, self.reg8::<HL>(src));
                }
                Kind::Djnz => {
                    self.idle(4);
                    self.regs.b = self.regs.b.wrapping_sub(1);
                    if self.regs.b != 0 {
                        self.idle(5);
                        let target = next.wrapping_add(n1 as i8 as u16);
                        self.regs.wz = target;
                        self.regs.pc = target;
                        // `DJNZ $`: the rest of the delay in closed form, as the step loop's
                        // `fast_forward` runs it after this first pass.
                        if target == pc && self.t_states < until_t {
                            self.djnz_self(until_t);
                            if self.regs.pc == next {
                                i += 1;
                                continue;
                            }
                            // Stopped inside the delay at `until_t`.
                            break;
                        }
                        exit = Some(pc);
                        break;
                    }
                }
                Kind::Jr => {
                    self.idle(8);
                    let target = next.wrapping_add(n1 as i8 as u16);
                    self.regs.wz = target;
                    self.regs.pc = target;
                    exit = Some(pc);
                    break;
                }
                Kind::JrCc { cc } => {
                    self.idle(3);
                    if self.cond(cc) {
                        self.idle(5);
                        let target = next.wrapping_add(n1 as i8 as u16);
                        self.regs.wz = target;
                        self.regs.pc = target;
                        exit = Some(pc);
                        break;
                    }
                }
                Kind::Jp => {
                    self.idle(6);
                    self.regs.wz = nn;
                    self.regs.pc = nn;
                    exit = Some(pc);
                    break;
                }
                Kind::JpCc { cc } => {
                    self.idle(6);
                    self.regs.wz = nn;
                    if self.cond(cc) {
                        self.regs.pc = nn;
                        exit = Some(pc);
                        break;
                    }
                }
            }
            i += 1;
        }
        self.regs.add_r(m1);
        (exit, stale)
    }

    /// `(IX+d)` or `(IY+d)` after the prefix's fetch: the opcode's M1, the displacement `d`
    /// (its read), 5 internal T-states, WZ ([`Z80::mem_operand`]).
    #[inline(always)]
    fn traced_indexed(&mut self, d: u8, iy: bool, m1: &mut u64) -> u16 {
        *m1 += 1;
        self.idle(4 + 3 + 5);
        let base = if iy { self.regs.iy } else { self.regs.ix };
        let addr = base.wrapping_add(d as i8 as u16);
        self.regs.wz = addr;
        addr
    }
}
