//! The hot handlers the dispatch calls out of line, each taking its own address error (as
//! [`Cpu::move_whole`] does for MOVE): the dispatch returns a constant `Ok` after them, so the
//! instruction loop tests no `Result` after the call, and a register form, which cannot fault,
//! has no fault path at all. They stay out of line: inlined into the console's instruction
//! loop they cost more than the call (callgrind, cpu9).

use crate::Bus;
use crate::cpu::Cpu;

impl Cpu {
    /// [`Cpu::arith_to_reg`]: OR/AND/SUB/ADD <ea>,Dn.
    #[inline(never)]
    pub(crate) fn arith_to_reg_whole<
        const SIZE: u8,
        const KIND: u8,
        const FROM_DN: bool,
        B: Bus,
    >(
        &mut self,
        bus: &mut B,
        op: u16,
    ) {
        if self
            .arith_to_reg::<SIZE, KIND, FROM_DN, B>(bus, op)
            .is_err()
        {
            self.abandon(bus);
        }
    }

    /// [`Cpu::arith_imm`]: ORI/ANDI/SUBI/ADDI/EORI.
    #[inline(never)]
    pub(crate) fn arith_imm_whole<const SIZE: u8, const KIND: u8, const TO_DN: bool, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) {
        if self.arith_imm::<SIZE, KIND, TO_DN, B>(bus, op).is_err() {
            self.abandon(bus);
        }
    }

    /// [`Cpu::cmpi`].
    #[inline(never)]
    pub(crate) fn cmpi_whole<const SIZE: u8, const TO_DN: bool, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) {
        if self.cmpi::<SIZE, TO_DN, B>(bus, op).is_err() {
            self.abandon(bus);
        }
    }

    /// [`Cpu::addq_subq`].
    #[inline(never)]
    pub(crate) fn addq_subq_whole<const SIZE: u8, const SUB: bool, const TO: u8, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) {
        if self.addq_subq::<SIZE, SUB, TO, B>(bus, op).is_err() {
            self.abandon(bus);
        }
    }

    /// [`Cpu::shift_reg`] (a register shift never faults).
    #[inline(never)]
    pub(crate) fn shift_reg_whole<const SIZE: u8, const KIND: u16, const LEFT: bool, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) {
        if self.shift_reg::<SIZE, KIND, LEFT, B>(bus, op).is_err() {
            self.abandon(bus);
        }
    }

    /// [`Cpu::lea`] (its only bus cycles are instruction fetches, which never fault).
    #[inline(never)]
    pub(crate) fn lea_whole<const MODE: usize, B: Bus>(&mut self, bus: &mut B, op: u16) {
        if self.lea::<MODE, B>(bus, op).is_err() {
            self.abandon(bus);
        }
    }
}
