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
/// 4 EOR; ADDQ or SUBQ and where to; a shift's operation and direction).
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
        Op::Ori => sized_kind!(cpu.arith_imm::<0, false>(bus, op)),
        Op::Andi => sized_kind!(cpu.arith_imm::<1, false>(bus, op)),
        Op::Subi => sized_kind!(cpu.arith_imm::<2, false>(bus, op)),
        Op::Addi => sized_kind!(cpu.arith_imm::<3, false>(bus, op)),
        Op::Eori => sized_kind!(cpu.arith_imm::<4, false>(bus, op)),
        Op::Cmpi => sized_kind!(cpu.cmpi::<false>(bus, op)),
        Op::OriDn => sized_kind!(cpu.arith_imm::<0, true>(bus, op)),
        Op::AndiDn => sized_kind!(cpu.arith_imm::<1, true>(bus, op)),
        Op::SubiDn => sized_kind!(cpu.arith_imm::<2, true>(bus, op)),
        Op::AddiDn => sized_kind!(cpu.arith_imm::<3, true>(bus, op)),
        Op::EoriDn => sized_kind!(cpu.arith_imm::<4, true>(bus, op)),
        Op::CmpiDn => sized_kind!(cpu.cmpi::<true>(bus, op)),
        Op::BitDyn => cpu.bit_op(bus, op, false),
        Op::BitImm => cpu.bit_op(bus, op, true),
        Op::Movep => cpu.movep(bus, op),
        Op::MoveB0 => {
            cpu.move_whole::<1, 0, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveB1 => {
            cpu.move_whole::<1, 1, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveB2 => {
            cpu.move_whole::<1, 2, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveB3 => {
            cpu.move_whole::<1, 3, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveB4 => {
            cpu.move_whole::<1, 4, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveB5 => {
            cpu.move_whole::<1, 5, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveB6 => {
            cpu.move_whole::<1, 6, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveB7 => {
            cpu.move_whole::<1, 7, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveW0 => {
            cpu.move_whole::<2, 0, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveW1 => {
            cpu.move_whole::<2, 1, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveW2 => {
            cpu.move_whole::<2, 2, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveW3 => {
            cpu.move_whole::<2, 3, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveW4 => {
            cpu.move_whole::<2, 4, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveW5 => {
            cpu.move_whole::<2, 5, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveW6 => {
            cpu.move_whole::<2, 6, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveW7 => {
            cpu.move_whole::<2, 7, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveL0 => {
            cpu.move_whole::<4, 0, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveL1 => {
            cpu.move_whole::<4, 1, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveL2 => {
            cpu.move_whole::<4, 2, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveL3 => {
            cpu.move_whole::<4, 3, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveL4 => {
            cpu.move_whole::<4, 4, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveL5 => {
            cpu.move_whole::<4, 5, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveL6 => {
            cpu.move_whole::<4, 6, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveL7 => {
            cpu.move_whole::<4, 7, 8, B>(bus, op);
            Ok(())
        }
        Op::MoveB0ToD => {
            cpu.move_whole::<1, 0, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveB1ToD => {
            cpu.move_whole::<1, 1, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveB2ToD => {
            cpu.move_whole::<1, 2, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveB3ToD => {
            cpu.move_whole::<1, 3, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveB4ToD => {
            cpu.move_whole::<1, 4, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveB5ToD => {
            cpu.move_whole::<1, 5, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveB6ToD => {
            cpu.move_whole::<1, 6, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveB7ToD => {
            cpu.move_whole::<1, 7, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveW0ToD => {
            cpu.move_whole::<2, 0, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveW1ToD => {
            cpu.move_whole::<2, 1, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveW2ToD => {
            cpu.move_whole::<2, 2, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveW3ToD => {
            cpu.move_whole::<2, 3, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveW4ToD => {
            cpu.move_whole::<2, 4, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveW5ToD => {
            cpu.move_whole::<2, 5, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveW6ToD => {
            cpu.move_whole::<2, 6, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveW7ToD => {
            cpu.move_whole::<2, 7, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveL0ToD => {
            cpu.move_whole::<4, 0, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveL1ToD => {
            cpu.move_whole::<4, 1, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveL2ToD => {
            cpu.move_whole::<4, 2, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveL3ToD => {
            cpu.move_whole::<4, 3, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveL4ToD => {
            cpu.move_whole::<4, 4, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveL5ToD => {
            cpu.move_whole::<4, 5, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveL6ToD => {
            cpu.move_whole::<4, 6, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveL7ToD => {
            cpu.move_whole::<4, 7, 0, B>(bus, op);
            Ok(())
        }
        Op::MoveB0ToInc => {
            cpu.move_whole::<1, 0, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveB1ToInc => {
            cpu.move_whole::<1, 1, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveB2ToInc => {
            cpu.move_whole::<1, 2, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveB3ToInc => {
            cpu.move_whole::<1, 3, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveB4ToInc => {
            cpu.move_whole::<1, 4, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveB5ToInc => {
            cpu.move_whole::<1, 5, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveB6ToInc => {
            cpu.move_whole::<1, 6, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveB7ToInc => {
            cpu.move_whole::<1, 7, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveW0ToInc => {
            cpu.move_whole::<2, 0, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveW1ToInc => {
            cpu.move_whole::<2, 1, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveW2ToInc => {
            cpu.move_whole::<2, 2, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveW3ToInc => {
            cpu.move_whole::<2, 3, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveW4ToInc => {
            cpu.move_whole::<2, 4, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveW5ToInc => {
            cpu.move_whole::<2, 5, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveW6ToInc => {
            cpu.move_whole::<2, 6, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveW7ToInc => {
            cpu.move_whole::<2, 7, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveL0ToInc => {
            cpu.move_whole::<4, 0, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveL1ToInc => {
            cpu.move_whole::<4, 1, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveL2ToInc => {
            cpu.move_whole::<4, 2, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveL3ToInc => {
            cpu.move_whole::<4, 3, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveL4ToInc => {
            cpu.move_whole::<4, 4, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveL5ToInc => {
            cpu.move_whole::<4, 5, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveL6ToInc => {
            cpu.move_whole::<4, 6, 3, B>(bus, op);
            Ok(())
        }
        Op::MoveL7ToInc => {
            cpu.move_whole::<4, 7, 3, B>(bus, op);
            Ok(())
        }
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
        Op::AsrReg => sized_kind!(cpu.shift_reg::<0, false>(bus, op)),
        Op::AslReg => sized_kind!(cpu.shift_reg::<0, true>(bus, op)),
        Op::LsrReg => sized_kind!(cpu.shift_reg::<1, false>(bus, op)),
        Op::LslReg => sized_kind!(cpu.shift_reg::<1, true>(bus, op)),
        Op::RoxrReg => sized_kind!(cpu.shift_reg::<2, false>(bus, op)),
        Op::RoxlReg => sized_kind!(cpu.shift_reg::<2, true>(bus, op)),
        Op::RorReg => sized_kind!(cpu.shift_reg::<3, false>(bus, op)),
        Op::RolReg => sized_kind!(cpu.shift_reg::<3, true>(bus, op)),
        Op::ShiftMem => cpu.shift_mem(bus, op),
        Op::OrW => cpu.arith_to_reg::<2, 0, false, B>(bus, op),
        Op::OrL => cpu.arith_to_reg::<4, 0, false, B>(bus, op),
        Op::AndW => cpu.arith_to_reg::<2, 1, false, B>(bus, op),
        Op::AndL => cpu.arith_to_reg::<4, 1, false, B>(bus, op),
        Op::SubW => cpu.arith_to_reg::<2, 2, false, B>(bus, op),
        Op::SubL => cpu.arith_to_reg::<4, 2, false, B>(bus, op),
        Op::AddW => cpu.arith_to_reg::<2, 3, false, B>(bus, op),
        Op::AddL => cpu.arith_to_reg::<4, 3, false, B>(bus, op),
        Op::OrDnW => cpu.arith_to_reg::<2, 0, true, B>(bus, op),
        Op::OrDnL => cpu.arith_to_reg::<4, 0, true, B>(bus, op),
        Op::AndDnW => cpu.arith_to_reg::<2, 1, true, B>(bus, op),
        Op::AndDnL => cpu.arith_to_reg::<4, 1, true, B>(bus, op),
        Op::SubDnW => cpu.arith_to_reg::<2, 2, true, B>(bus, op),
        Op::SubDnL => cpu.arith_to_reg::<4, 2, true, B>(bus, op),
        Op::AddDnW => cpu.arith_to_reg::<2, 3, true, B>(bus, op),
        Op::AddDnL => cpu.arith_to_reg::<4, 3, true, B>(bus, op),
        Op::OriDnW => cpu.arith_imm::<2, 0, true, B>(bus, op),
        Op::OriDnL => cpu.arith_imm::<4, 0, true, B>(bus, op),
        Op::AndiDnW => cpu.arith_imm::<2, 1, true, B>(bus, op),
        Op::AndiDnL => cpu.arith_imm::<4, 1, true, B>(bus, op),
        Op::SubiDnW => cpu.arith_imm::<2, 2, true, B>(bus, op),
        Op::SubiDnL => cpu.arith_imm::<4, 2, true, B>(bus, op),
        Op::AddiDnW => cpu.arith_imm::<2, 3, true, B>(bus, op),
        Op::AddiDnL => cpu.arith_imm::<4, 3, true, B>(bus, op),
        Op::EoriDnW => cpu.arith_imm::<2, 4, true, B>(bus, op),
        Op::EoriDnL => cpu.arith_imm::<4, 4, true, B>(bus, op),
        Op::CmpiDnW => cpu.cmpi::<2, true, B>(bus, op),
        Op::CmpiDnL => cpu.cmpi::<4, true, B>(bus, op),
        Op::CmpiW => cpu.cmpi::<2, false, B>(bus, op),
        Op::CmpiL => cpu.cmpi::<4, false, B>(bus, op),
        Op::AddqDnW => cpu.addq_subq::<2, false, 0, B>(bus, op),
        Op::AddqDnL => cpu.addq_subq::<4, false, 0, B>(bus, op),
        Op::AddqAnW => cpu.addq_subq::<2, false, 1, B>(bus, op),
        Op::AddqAnL => cpu.addq_subq::<4, false, 1, B>(bus, op),
        Op::AddqMemW => cpu.addq_subq::<2, false, 2, B>(bus, op),
        Op::AddqMemL => cpu.addq_subq::<4, false, 2, B>(bus, op),
        Op::SubqDnW => cpu.addq_subq::<2, true, 0, B>(bus, op),
        Op::SubqDnL => cpu.addq_subq::<4, true, 0, B>(bus, op),
        Op::SubqAnW => cpu.addq_subq::<2, true, 1, B>(bus, op),
        Op::SubqAnL => cpu.addq_subq::<4, true, 1, B>(bus, op),
        Op::SubqMemW => cpu.addq_subq::<2, true, 2, B>(bus, op),
        Op::SubqMemL => cpu.addq_subq::<4, true, 2, B>(bus, op),
        Op::AsrRegW => cpu.shift_reg::<2, 0, false, B>(bus, op),
        Op::AsrRegL => cpu.shift_reg::<4, 0, false, B>(bus, op),
        Op::AslRegW => cpu.shift_reg::<2, 0, true, B>(bus, op),
        Op::AslRegL => cpu.shift_reg::<4, 0, true, B>(bus, op),
        Op::LsrRegW => cpu.shift_reg::<2, 1, false, B>(bus, op),
        Op::LsrRegL => cpu.shift_reg::<4, 1, false, B>(bus, op),
        Op::LslRegW => cpu.shift_reg::<2, 1, true, B>(bus, op),
        Op::LslRegL => cpu.shift_reg::<4, 1, true, B>(bus, op),
        Op::RoxrRegW => cpu.shift_reg::<2, 2, false, B>(bus, op),
        Op::RoxrRegL => cpu.shift_reg::<4, 2, false, B>(bus, op),
        Op::RoxlRegW => cpu.shift_reg::<2, 2, true, B>(bus, op),
        Op::RoxlRegL => cpu.shift_reg::<4, 2, true, B>(bus, op),
        Op::RorRegW => cpu.shift_reg::<2, 3, false, B>(bus, op),
        Op::RorRegL => cpu.shift_reg::<4, 3, false, B>(bus, op),
        Op::RolRegW => cpu.shift_reg::<2, 3, true, B>(bus, op),
        Op::RolRegL => cpu.shift_reg::<4, 3, true, B>(bus, op),
    }
}
