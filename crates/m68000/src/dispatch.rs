//! From opcode to handler: one `match` over the pre-decoded [`Op`] of the opcode table.

use crate::Bus;
use crate::cpu::{Cpu, Result};
use crate::decode::Op;

/// Calls the handler copy for the operand size in bits 6-7 (byte, word, long): the hot
/// arithmetic handlers are monomorphic in their size, so masks and size tests fold away.
macro_rules! sized {
    ($cpu:ident . $f:ident ($bus:ident, $op:ident)) => {
        match ($op >> 6) & 3 {
            0 => $cpu.$f::<1, B>($bus, $op),
            1 => $cpu.$f::<2, B>($bus, $op),
            _ => $cpu.$f::<4, B>($bus, $op),
        }
    };
}

/// As `sized!`, also monomorphic in the operation `$k` (the ALU's 0 OR, 1 AND, 2 SUB, 3 ADD,
/// 4 EOR; ADDQ or SUBQ and where to).
macro_rules! sized_kind {
    ($cpu:ident . $f:ident :: <$($k:tt),*> ($bus:ident, $op:ident)) => {
        match ($op >> 6) & 3 {
            0 => $cpu.$f::<1, $($k,)* B>($bus, $op),
            1 => $cpu.$f::<2, $($k,)* B>($bus, $op),
            _ => $cpu.$f::<4, $($k,)* B>($bus, $op),
        }
    };
}

#[inline(always)]
pub(crate) fn dispatch<B: Bus>(cpu: &mut Cpu, bus: &mut B, op: u16) -> Result<()> {
    match cpu.table[op as usize] {
        Op::Illegal => cpu.illegal(bus, 4),
        Op::LineA => cpu.illegal(bus, 10),
        Op::LineF => cpu.illegal(bus, 11),
        Op::OriCcr | Op::AndiCcr | Op::EoriCcr => cpu.logic_to_ccr(bus, op),
        Op::OriSr | Op::AndiSr | Op::EoriSr => cpu.logic_to_sr(bus, op),
        Op::Ori => sized_kind!(cpu.arith_imm::<0>(bus, op)),
        Op::Andi => sized_kind!(cpu.arith_imm::<1>(bus, op)),
        Op::Subi => sized_kind!(cpu.arith_imm::<2>(bus, op)),
        Op::Addi => sized_kind!(cpu.arith_imm::<3>(bus, op)),
        Op::Eori => sized_kind!(cpu.arith_imm::<4>(bus, op)),
        Op::Cmpi => sized!(cpu.cmpi(bus, op)),
        Op::BitDyn => cpu.bit_op(bus, op, false),
        Op::BitImm => cpu.bit_op(bus, op, true),
        Op::Movep => cpu.movep(bus, op),
        Op::MoveB0 => cpu.move_::<1, 0, B>(bus, op),
        Op::MoveB1 => cpu.move_::<1, 1, B>(bus, op),
        Op::MoveB2 => cpu.move_::<1, 2, B>(bus, op),
        Op::MoveB3 => cpu.move_::<1, 3, B>(bus, op),
        Op::MoveB4 => cpu.move_::<1, 4, B>(bus, op),
        Op::MoveB5 => cpu.move_::<1, 5, B>(bus, op),
        Op::MoveB6 => cpu.move_::<1, 6, B>(bus, op),
        Op::MoveB7 => cpu.move_::<1, 7, B>(bus, op),
        Op::MoveW0 => cpu.move_::<2, 0, B>(bus, op),
        Op::MoveW1 => cpu.move_::<2, 1, B>(bus, op),
        Op::MoveW2 => cpu.move_::<2, 2, B>(bus, op),
        Op::MoveW3 => cpu.move_::<2, 3, B>(bus, op),
        Op::MoveW4 => cpu.move_::<2, 4, B>(bus, op),
        Op::MoveW5 => cpu.move_::<2, 5, B>(bus, op),
        Op::MoveW6 => cpu.move_::<2, 6, B>(bus, op),
        Op::MoveW7 => cpu.move_::<2, 7, B>(bus, op),
        Op::MoveL0 => cpu.move_::<4, 0, B>(bus, op),
        Op::MoveL1 => cpu.move_::<4, 1, B>(bus, op),
        Op::MoveL2 => cpu.move_::<4, 2, B>(bus, op),
        Op::MoveL3 => cpu.move_::<4, 3, B>(bus, op),
        Op::MoveL4 => cpu.move_::<4, 4, B>(bus, op),
        Op::MoveL5 => cpu.move_::<4, 5, B>(bus, op),
        Op::MoveL6 => cpu.move_::<4, 6, B>(bus, op),
        Op::MoveL7 => cpu.move_::<4, 7, B>(bus, op),
        Op::Movea => cpu.movea(bus, op),
        Op::Moveq => cpu.moveq(bus, op),
        Op::Negx | Op::Neg | Op::Not | Op::Clr => sized!(cpu.unary(bus, op)),
        Op::MoveFromSr => cpu.move_from_sr(bus, op),
        Op::Chk => cpu.chk(bus, op),
        Op::Lea2 => cpu.lea::<2, B>(bus, op),
        Op::Lea5 => cpu.lea::<5, B>(bus, op),
        Op::Lea6 => cpu.lea::<6, B>(bus, op),
        Op::Lea7 => cpu.lea::<7, B>(bus, op),
        Op::MoveToCcr => cpu.move_to_ccr(bus, op),
        Op::MoveToSr => cpu.move_to_sr(bus, op),
        Op::Nbcd => cpu.nbcd(bus, op),
        Op::Pea => cpu.pea(bus, op),
        Op::Swap => cpu.swap(bus, op),
        Op::Ext => cpu.ext(bus, op),
        Op::MovemToMem => cpu.movem_to_mem(bus, op),
        Op::MovemToReg => cpu.movem_to_reg(bus, op),
        Op::Tst => sized!(cpu.tst(bus, op)),
        Op::Tas => cpu.tas(bus, op),
        Op::Trap => cpu.trap(bus, op),
        Op::Link => cpu.link(bus, op),
        Op::Unlk => cpu.unlk(bus, op),
        Op::MoveUsp => cpu.move_usp(bus, op),
        Op::Reset => cpu.reset_instr(bus),
        Op::Nop => cpu.prefetch(bus),
        Op::Stop => cpu.stop(bus),
        Op::Rte => cpu.rte(bus),
        Op::Rts => cpu.rts(bus),
        Op::Trapv => cpu.trapv(bus),
        Op::Rtr => cpu.rtr(bus),
        Op::Jsr => cpu.jsr(bus, op),
        Op::Jmp => cpu.jmp(bus, op),
        Op::AddqDn => sized_kind!(cpu.addq_subq::<false, 0>(bus, op)),
        Op::AddqAn => sized_kind!(cpu.addq_subq::<false, 1>(bus, op)),
        Op::AddqMem => sized_kind!(cpu.addq_subq::<false, 2>(bus, op)),
        Op::SubqDn => sized_kind!(cpu.addq_subq::<true, 0>(bus, op)),
        Op::SubqAn => sized_kind!(cpu.addq_subq::<true, 1>(bus, op)),
        Op::SubqMem => sized_kind!(cpu.addq_subq::<true, 2>(bus, op)),
        Op::Scc => cpu.scc(bus, op),
        Op::Dbcc => cpu.dbcc(bus, op),
        Op::Bra | Op::Bcc => cpu.bcc(bus, op),
        Op::Bsr => cpu.bsr(bus, op),
        Op::Divu => cpu.divu(bus, op),
        Op::Divs => cpu.divs(bus, op),
        Op::Sbcd | Op::Abcd => cpu.bcd_op(bus, op),
        Op::Or => sized_kind!(cpu.arith_to_reg::<0, false>(bus, op)),
        Op::And => sized_kind!(cpu.arith_to_reg::<1, false>(bus, op)),
        Op::Sub => sized_kind!(cpu.arith_to_reg::<2, false>(bus, op)),
        Op::Add => sized_kind!(cpu.arith_to_reg::<3, false>(bus, op)),
        Op::OrDn => sized_kind!(cpu.arith_to_reg::<0, true>(bus, op)),
        Op::AndDn => sized_kind!(cpu.arith_to_reg::<1, true>(bus, op)),
        Op::SubDn => sized_kind!(cpu.arith_to_reg::<2, true>(bus, op)),
        Op::AddDn => sized_kind!(cpu.arith_to_reg::<3, true>(bus, op)),
        Op::Cmp => sized!(cpu.cmp(bus, op)),
        Op::Eor | Op::OrToEa | Op::AndToEa | Op::SubToEa | Op::AddToEa => {
            sized!(cpu.arith_to_ea(bus, op))
        }
        Op::Suba | Op::Adda => cpu.adda_suba(bus, op),
        Op::Cmpa => cpu.cmpa(bus, op),
        Op::Subx | Op::Addx => cpu.addx_subx(bus, op),
        Op::Cmpm => cpu.cmpm(bus, op),
        Op::Mulu => cpu.mulu(bus, op),
        Op::Muls => cpu.muls(bus, op),
        Op::Exg => cpu.exg(bus, op),
        Op::ShiftReg => sized!(cpu.shift_reg(bus, op)),
        Op::ShiftMem => cpu.shift_mem(bus, op),
    }
}
