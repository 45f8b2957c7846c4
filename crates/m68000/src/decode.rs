//! The opcode table: every one of the 65,536 words decoded once into the instruction it is
//! (or `Illegal`/`LineA`/`LineF`), with invalid addressing modes weeded out here so the
//! handlers need not check them.
//!
//! The table is a `static` worked out at compile time (`TABLE`: `decode` is a `const fn`).
//! The instructions Sonic 2 runs most have entries of their own by size, operation and
//! addressing mode (`sized`: `Op::AndiDnW`, `Op::AddqDnL`, MOVE by size and source mode, ...),
//! so the dispatch goes straight to a handler monomorphic in them; their byte forms keep a
//! run-time size match.

pub use crate::op::Op;

// Addressing-mode classes (bit per mode 0-6, then 7.0-7.4 as bits 7-11).
const DN: u16 = 1;
const AN: u16 = 2;
const MEM_ALT: u16 = 0x1FC; // (An) to d8(An,Xn), abs.W, abs.L
const PC_REL: u16 = 0x600;
const IMM: u16 = 0x800;
const ALL: u16 = DN | AN | MEM_ALT | PC_REL | IMM;
const DATA: u16 = ALL & !AN;
const DATA_ALT: u16 = DN | MEM_ALT;
const ALTERABLE: u16 = DN | AN | MEM_ALT;
const CONTROL: u16 = 0x64 | 0x180 | PC_REL;

const fn mode_bit(mode: u16, reg: u16) -> u16 {
    if mode < 7 {
        1 << mode
    } else if reg < 5 {
        1 << (7 + reg)
    } else {
        0
    }
}

const fn ea_in(op: u16, class: u16) -> bool {
    mode_bit((op >> 3) & 7, op & 7) & class != 0
}

const fn decode(op: u16) -> Op {
    let size = (op >> 6) & 3;
    match op >> 12 {
        0x0 => {
            if op & 0x0138 == 0x0108 {
                return Op::Movep;
            }
            if op & 0x0100 != 0 {
                // BTST/BCHG/BCLR/BSET Dn,<ea>
                let class = if size == 0 { DATA } else { DATA_ALT };
                return if ea_in(op, class) {
                    Op::BitDyn
                } else {
                    Op::Illegal
                };
            }
            match op {
                0x003C => return Op::OriCcr,
                0x007C => return Op::OriSr,
                0x023C => return Op::AndiCcr,
                0x027C => return Op::AndiSr,
                0x0A3C => return Op::EoriCcr,
                0x0A7C => return Op::EoriSr,
                _ => {}
            }
            let kind = (op >> 9) & 7;
            if kind == 4 {
                // Static bit: size field is the operation.
                let class = if size == 0 { DATA & !IMM } else { DATA_ALT };
                return if ea_in(op, class) {
                    Op::BitImm
                } else {
                    Op::Illegal
                };
            }
            if size == 3 {
                return Op::Illegal;
            }
            let class = if kind == 6 { DATA & !IMM } else { DATA_ALT };
            if !ea_in(op, class) {
                return Op::Illegal;
            }
            match (kind, op & 0x38 == 0) {
                (0, false) => Op::Ori,
                (1, false) => Op::Andi,
                (2, false) => Op::Subi,
                (3, false) => Op::Addi,
                (5, false) => Op::Eori,
                (6, false) => Op::Cmpi,
                (0, true) => Op::OriDn,
                (1, true) => Op::AndiDn,
                (2, true) => Op::SubiDn,
                (3, true) => Op::AddiDn,
                (5, true) => Op::EoriDn,
                (6, true) => Op::CmpiDn,
                _ => Op::Illegal,
            }
        }
        0x1..=0x3 => {
            let dst_mode = (op >> 6) & 7;
            let dst_reg = (op >> 9) & 7;
            let byte = op >> 12 == 1;
            let src_class = if byte { DATA } else { ALL };
            if !ea_in(op, src_class) {
                return Op::Illegal;
            }
            if dst_mode == 1 {
                return if byte { Op::Illegal } else { Op::Movea };
            }
            if mode_bit(dst_mode, dst_reg) & DATA_ALT == 0 {
                return Op::Illegal;
            }
            move_op(op >> 12, (op >> 3) & 7, dst_mode)
        }
        0x4 => decode_line4(op),
        0x5 => {
            if size == 3 {
                if op & 0x38 == 0x08 {
                    return Op::Dbcc;
                }
                return if ea_in(op, DATA_ALT) {
                    Op::Scc
                } else {
                    Op::Illegal
                };
            }
            let class = if size == 0 { DATA_ALT } else { ALTERABLE };
            if !ea_in(op, class) {
                return Op::Illegal;
            }
            match (op & 0x100 != 0, (op >> 3) & 7) {
                (false, 0) => Op::AddqDn,
                (false, 1) => Op::AddqAn,
                (false, _) => Op::AddqMem,
                (true, 0) => Op::SubqDn,
                (true, 1) => Op::SubqAn,
                (true, _) => Op::SubqMem,
            }
        }
        0x6 => match (op >> 8) & 15 {
            0 => Op::Bra,
            1 => Op::Bsr,
            _ => Op::Bcc,
        },
        0x7 => {
            if op & 0x100 == 0 {
                Op::Moveq
            } else {
                Op::Illegal
            }
        }
        0x8 | 0xC => {
            let or = op >> 12 == 8;
            if size == 3 {
                let ok = ea_in(op, DATA);
                return match (ok, or, op & 0x100 != 0) {
                    (false, ..) => Op::Illegal,
                    (true, true, false) => Op::Divu,
                    (true, true, true) => Op::Divs,
                    (true, false, false) => Op::Mulu,
                    (true, false, true) => Op::Muls,
                };
            }
            if op & 0x1F0 == 0x100 {
                return if or { Op::Sbcd } else { Op::Abcd };
            }
            if !or && op & 0x130 == 0x100 {
                return match op & 0xF8 {
                    0x40 | 0x48 | 0x88 => Op::Exg,
                    _ => Op::Illegal,
                };
            }
            if op & 0x100 == 0 {
                if !ea_in(op, DATA) {
                    return Op::Illegal;
                }
                match (or, op & 0x38 == 0) {
                    (true, true) => Op::OrDn,
                    (true, false) => Op::Or,
                    (false, true) => Op::AndDn,
                    (false, false) => Op::And,
                }
            } else {
                if !ea_in(op, MEM_ALT) {
                    return Op::Illegal;
                }
                if or { Op::OrToEa } else { Op::AndToEa }
            }
        }
        0x9 | 0xD => {
            let sub = op >> 12 == 9;
            if size == 3 {
                if !ea_in(op, ALL) {
                    return Op::Illegal;
                }
                return if sub { Op::Suba } else { Op::Adda };
            }
            if op & 0x130 == 0x100 {
                return if sub { Op::Subx } else { Op::Addx };
            }
            if op & 0x100 == 0 {
                let class = if size == 0 { DATA } else { ALL };
                if !ea_in(op, class) {
                    return Op::Illegal;
                }
                match (sub, op & 0x38 == 0) {
                    (true, true) => Op::SubDn,
                    (true, false) => Op::Sub,
                    (false, true) => Op::AddDn,
                    (false, false) => Op::Add,
                }
            } else {
                if !ea_in(op, MEM_ALT) {
                    return Op::Illegal;
                }
                if sub { Op::SubToEa } else { Op::AddToEa }
            }
        }
        0xA => Op::LineA,
        0xB => {
            if size == 3 {
                return if ea_in(op, ALL) {
                    Op::Cmpa
                } else {
                    Op::Illegal
                };
            }
            if op & 0x100 == 0 {
                let class = if size == 0 { DATA } else { ALL };
                return if ea_in(op, class) {
                    Op::Cmp
                } else {
                    Op::Illegal
                };
            }
            if op & 0x38 == 0x08 {
                return Op::Cmpm;
            }
            if ea_in(op, DATA_ALT) {
                Op::Eor
            } else {
                Op::Illegal
            }
        }
        0xE => {
            if size == 3 {
                if op & 0x800 != 0 {
                    return Op::Illegal;
                }
                return if ea_in(op, MEM_ALT) {
                    Op::ShiftMem
                } else {
                    Op::Illegal
                };
            }
            match ((op >> 3) & 3, op & 0x100 != 0) {
                (0, false) => Op::AsrReg,
                (0, true) => Op::AslReg,
                (1, false) => Op::LsrReg,
                (1, true) => Op::LslReg,
                (2, false) => Op::RoxrReg,
                (2, true) => Op::RoxlReg,
                (_, false) => Op::RorReg,
                (_, true) => Op::RolReg,
            }
        }
        _ => Op::LineF,
    }
}

/// The MOVE variant for line `line` (1 byte, 3 word, 2 long), source mode `mode` and
/// destination mode `dst_mode`.
const fn move_op(line: u16, mode: u16, dst_mode: u16) -> Op {
    const ANY: [[Op; 8]; 3] = [
        [
            Op::MoveB0,
            Op::MoveB1,
            Op::MoveB2,
            Op::MoveB3,
            Op::MoveB4,
            Op::MoveB5,
            Op::MoveB6,
            Op::MoveB7,
        ],
        [
            Op::MoveW0,
            Op::MoveW1,
            Op::MoveW2,
            Op::MoveW3,
            Op::MoveW4,
            Op::MoveW5,
            Op::MoveW6,
            Op::MoveW7,
        ],
        [
            Op::MoveL0,
            Op::MoveL1,
            Op::MoveL2,
            Op::MoveL3,
            Op::MoveL4,
            Op::MoveL5,
            Op::MoveL6,
            Op::MoveL7,
        ],
    ];
    const TO_D: [[Op; 8]; 3] = [
        [
            Op::MoveB0ToD,
            Op::MoveB1ToD,
            Op::MoveB2ToD,
            Op::MoveB3ToD,
            Op::MoveB4ToD,
            Op::MoveB5ToD,
            Op::MoveB6ToD,
            Op::MoveB7ToD,
        ],
        [
            Op::MoveW0ToD,
            Op::MoveW1ToD,
            Op::MoveW2ToD,
            Op::MoveW3ToD,
            Op::MoveW4ToD,
            Op::MoveW5ToD,
            Op::MoveW6ToD,
            Op::MoveW7ToD,
        ],
        [
            Op::MoveL0ToD,
            Op::MoveL1ToD,
            Op::MoveL2ToD,
            Op::MoveL3ToD,
            Op::MoveL4ToD,
            Op::MoveL5ToD,
            Op::MoveL6ToD,
            Op::MoveL7ToD,
        ],
    ];
    const TO_INC: [[Op; 8]; 3] = [
        [
            Op::MoveB0ToInc,
            Op::MoveB1ToInc,
            Op::MoveB2ToInc,
            Op::MoveB3ToInc,
            Op::MoveB4ToInc,
            Op::MoveB5ToInc,
            Op::MoveB6ToInc,
            Op::MoveB7ToInc,
        ],
        [
            Op::MoveW0ToInc,
            Op::MoveW1ToInc,
            Op::MoveW2ToInc,
            Op::MoveW3ToInc,
            Op::MoveW4ToInc,
            Op::MoveW5ToInc,
            Op::MoveW6ToInc,
            Op::MoveW7ToInc,
        ],
        [
            Op::MoveL0ToInc,
            Op::MoveL1ToInc,
            Op::MoveL2ToInc,
            Op::MoveL3ToInc,
            Op::MoveL4ToInc,
            Op::MoveL5ToInc,
            Op::MoveL6ToInc,
            Op::MoveL7ToInc,
        ],
    ];
    let by_size = match dst_mode {
        0 => &TO_D,
        3 => &TO_INC,
        _ => &ANY,
    };
    let size = match line {
        1 => 0,
        3 => 1,
        _ => 2,
    };
    by_size[size][mode as usize]
}

const fn decode_line4(op: u16) -> Op {
    let size = (op >> 6) & 3;
    if op & 0x1C0 == 0x1C0 {
        if !ea_in(op, CONTROL) {
            return Op::Illegal;
        }
        return match (op >> 3) & 7 {
            2 => Op::Lea2,
            5 => Op::Lea5,
            6 => Op::Lea6,
            _ => Op::Lea7,
        };
    }
    if op & 0x1C0 == 0x180 {
        return if ea_in(op, DATA) {
            Op::Chk
        } else {
            Op::Illegal
        };
    }
    if op & 0x100 != 0 {
        return Op::Illegal;
    }
    match (op >> 8) & 0xF {
        0x0 | 0x2 | 0x4 | 0x6 if size != 3 => {
            if !ea_in(op, DATA_ALT) {
                return Op::Illegal;
            }
            match (op >> 8) & 0xF {
                0x0 => Op::Negx,
                0x2 => Op::Clr,
                0x4 => Op::Neg,
                _ => Op::Not,
            }
        }
        0x0 => {
            if ea_in(op, DATA_ALT) {
                Op::MoveFromSr
            } else {
                Op::Illegal
            }
        }
        0x2 => Op::Illegal,
        0x4 => {
            if ea_in(op, DATA) {
                Op::MoveToCcr
            } else {
                Op::Illegal
            }
        }
        0x6 => {
            if ea_in(op, DATA) {
                Op::MoveToSr
            } else {
                Op::Illegal
            }
        }
        0x8 => match size {
            0 => {
                if ea_in(op, DATA_ALT) {
                    Op::Nbcd
                } else {
                    Op::Illegal
                }
            }
            1 => {
                if op & 0x38 == 0 {
                    Op::Swap
                } else if ea_in(op, CONTROL) {
                    Op::Pea
                } else {
                    Op::Illegal
                }
            }
            _ => {
                if op & 0x38 == 0 {
                    Op::Ext
                } else if ea_in(op, (CONTROL & !PC_REL) | (1 << 4)) {
                    Op::MovemToMem
                } else {
                    Op::Illegal
                }
            }
        },
        0xA => {
            if op == 0x4AFC {
                return Op::Illegal;
            }
            if size == 3 {
                if ea_in(op, DATA_ALT) {
                    Op::Tas
                } else {
                    Op::Illegal
                }
            } else {
                // The 68000 has no TST An, PC-relative or immediate operands.
                if ea_in(op, DATA_ALT) {
                    Op::Tst
                } else {
                    Op::Illegal
                }
            }
        }
        0xC => {
            if size < 2 {
                return Op::Illegal;
            }
            if ea_in(op, CONTROL | (1 << 3)) {
                Op::MovemToReg
            } else {
                Op::Illegal
            }
        }
        0xE => match size {
            1 => match op & 0x3F {
                0x00..=0x0F => Op::Trap,
                0x10..=0x17 => Op::Link,
                0x18..=0x1F => Op::Unlk,
                0x20..=0x2F => Op::MoveUsp,
                0x30 => Op::Reset,
                0x31 => Op::Nop,
                0x32 => Op::Stop,
                0x33 => Op::Rte,
                0x35 => Op::Rts,
                0x36 => Op::Trapv,
                0x37 => Op::Rtr,
                _ => Op::Illegal,
            },
            2 => {
                if ea_in(op, CONTROL) {
                    Op::Jsr
                } else {
                    Op::Illegal
                }
            }
            3 => {
                if ea_in(op, CONTROL) {
                    Op::Jmp
                } else {
                    Op::Illegal
                }
            }
            _ => Op::Illegal,
        },
        _ => Op::Illegal,
    }
}

/// The word and long forms of the sized instructions that have their own variants (bits 6-7
/// of those opcodes are the size: 0 byte, 1 word, 2 long).
const fn sized(op: Op, opcode: u16) -> Op {
    match (op, (opcode >> 6) & 3) {
        (Op::Or, 1) => Op::OrW,
        (Op::Or, 2) => Op::OrL,
        (Op::And, 1) => Op::AndW,
        (Op::And, 2) => Op::AndL,
        (Op::Sub, 1) => Op::SubW,
        (Op::Sub, 2) => Op::SubL,
        (Op::Add, 1) => Op::AddW,
        (Op::Add, 2) => Op::AddL,
        (Op::OrDn, 1) => Op::OrDnW,
        (Op::OrDn, 2) => Op::OrDnL,
        (Op::AndDn, 1) => Op::AndDnW,
        (Op::AndDn, 2) => Op::AndDnL,
        (Op::SubDn, 1) => Op::SubDnW,
        (Op::SubDn, 2) => Op::SubDnL,
        (Op::AddDn, 1) => Op::AddDnW,
        (Op::AddDn, 2) => Op::AddDnL,
        (Op::OriDn, 1) => Op::OriDnW,
        (Op::OriDn, 2) => Op::OriDnL,
        (Op::AndiDn, 1) => Op::AndiDnW,
        (Op::AndiDn, 2) => Op::AndiDnL,
        (Op::SubiDn, 1) => Op::SubiDnW,
        (Op::SubiDn, 2) => Op::SubiDnL,
        (Op::AddiDn, 1) => Op::AddiDnW,
        (Op::AddiDn, 2) => Op::AddiDnL,
        (Op::EoriDn, 1) => Op::EoriDnW,
        (Op::EoriDn, 2) => Op::EoriDnL,
        (Op::CmpiDn, 1) => Op::CmpiDnW,
        (Op::CmpiDn, 2) => Op::CmpiDnL,
        (Op::Cmpi, 1) => Op::CmpiW,
        (Op::Cmpi, 2) => Op::CmpiL,
        (Op::AddqDn, 1) => Op::AddqDnW,
        (Op::AddqDn, 2) => Op::AddqDnL,
        (Op::AddqAn, 1) => Op::AddqAnW,
        (Op::AddqAn, 2) => Op::AddqAnL,
        (Op::AddqMem, 1) => Op::AddqMemW,
        (Op::AddqMem, 2) => Op::AddqMemL,
        (Op::SubqDn, 1) => Op::SubqDnW,
        (Op::SubqDn, 2) => Op::SubqDnL,
        (Op::SubqAn, 1) => Op::SubqAnW,
        (Op::SubqAn, 2) => Op::SubqAnL,
        (Op::SubqMem, 1) => Op::SubqMemW,
        (Op::SubqMem, 2) => Op::SubqMemL,
        (Op::AsrReg, 1) => Op::AsrRegW,
        (Op::AsrReg, 2) => Op::AsrRegL,
        (Op::AslReg, 1) => Op::AslRegW,
        (Op::AslReg, 2) => Op::AslRegL,
        (Op::LsrReg, 1) => Op::LsrRegW,
        (Op::LsrReg, 2) => Op::LsrRegL,
        (Op::LslReg, 1) => Op::LslRegW,
        (Op::LslReg, 2) => Op::LslRegL,
        (Op::RoxrReg, 1) => Op::RoxrRegW,
        (Op::RoxrReg, 2) => Op::RoxrRegL,
        (Op::RoxlReg, 1) => Op::RoxlRegW,
        (Op::RoxlReg, 2) => Op::RoxlRegL,
        (Op::RorReg, 1) => Op::RorRegW,
        (Op::RorReg, 2) => Op::RorRegL,
        (Op::RolReg, 1) => Op::RolRegW,
        (Op::RolReg, 2) => Op::RolRegL,
        _ => op,
    }
}

/// The decoded opcode table, worked out at compile time: a static the dispatch indexes
/// directly (no pointer to load per instruction, nothing to build at start-up).
pub(crate) static TABLE: [Op; 65536] = build_table();

const fn build_table() -> [Op; 65536] {
    let mut t = [Op::Illegal; 65536];
    let mut op = 0;
    while op < 65536 {
        t[op] = sized(decode(op as u16), op as u16);
        op += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn word_and_long_forms_have_their_own_variants() {
        // ANDI #,D0 byte, word, long; ADDQ #1,D0 word; LSL.L #2,D0; CMPI.B #,(A0).
        assert_eq!(TABLE[0x0200], Op::AndiDn);
        assert_eq!(TABLE[0x0240], Op::AndiDnW);
        assert_eq!(TABLE[0x0280], Op::AndiDnL);
        assert_eq!(TABLE[0x5240], Op::AddqDnW);
        assert_eq!(TABLE[0xE588], Op::LslRegL);
        assert_eq!(TABLE[0x0C10], Op::Cmpi);
    }

    #[test]
    fn classes() {
        assert_eq!(decode(0x4E71), Op::Nop);
        assert_eq!(decode(0x4AFC), Op::Illegal);
        assert_eq!(decode(0x41D0), Op::Lea2);
        assert_eq!(decode(0x41FA), Op::Lea7);
        assert_eq!(decode(0x41C0), Op::Illegal);
        assert_eq!(decode(0x3040), Op::Movea);
        assert_eq!(decode(0x3001), Op::MoveW0ToD);
        assert_eq!(decode(0x22C0), Op::MoveL0ToInc);
        assert_eq!(decode(0x1290), Op::MoveB2);
        assert_eq!(decode(0x0240), Op::AndiDn);
        assert_eq!(decode(0x0250), Op::Andi);
        assert_eq!(decode(0x0C00), Op::CmpiDn);
        assert_eq!(decode(0x0C38), Op::Cmpi);
        assert_eq!(decode(0xE588), Op::LslReg);
        assert_eq!(decode(0xE248), Op::LsrReg);
        assert_eq!(decode(0xE06A), Op::LsrReg);
        assert_eq!(decode(0xE140), Op::AslReg);
        assert_eq!(decode(0xE19B), Op::RolReg);
        assert_eq!(decode(0x1040), Op::Illegal);
        assert_eq!(decode(0x5248), Op::AddqAn);
        assert_eq!(decode(0x5308), Op::Illegal);
        assert_eq!(decode(0x5380), Op::SubqDn);
        assert_eq!(decode(0x5290), Op::AddqMem);
        assert_eq!(decode(0xD041), Op::AddDn);
        assert_eq!(decode(0xD050), Op::Add);
        assert_eq!(decode(0x8041), Op::OrDn);
    }
}
