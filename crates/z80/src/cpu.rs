//! The CPU as a whole: state, the public stepping API, and the timed bus-cycle primitives
//! every instruction is built from.

use crate::Bus;
use crate::registers::Registers;

/// The T-state mark of an instruction that has not run ([`Z80::after_ei`]).
const NEVER: u64 = u64::MAX;

/// A Zilog Z80. All state is plain data: copying saves it, assigning the copy back restores it
/// (`Copy`: the console's idle-loop detection keeps a copy at every backward jump).
#[derive(Clone, Copy, Debug)]
pub struct Z80 {
    /// Register file, including WZ, IFFs, IM and the Q latch.
    pub regs: Registers,
    /// The T-state count at the end of the last EI ([`Z80::after_ei`]). Kept as a time
    /// instead of a flag the next instruction clears: every instruction takes T-states, so
    /// "the previous instruction was EI" is "the count still stands where EI left it", and
    /// the step after EI needs no work of its own (Sonic 2's driver runs one EI about every
    /// 27 steps).
    ei_done_at: u64,
    /// The same for LD A,I and LD A,R ([`Z80::after_ld_a_ir`]).
    ld_a_ir_done_at: u64,
    /// HALT executed and no interrupt taken yet; PC already points past the HALT opcode.
    pub halted: bool,
    /// A falling edge on /NMI was seen and not yet serviced.
    pub nmi_pending: bool,
    /// Current level of the /INT line (true = asserted).
    pub irq_line: bool,
    /// Absolute T-state counter; every bus access is stamped relative to it.
    pub t_states: u64,
    /// A DD/FD prefix fetched at the end of the previous step (prefix chain): the next step
    /// continues with it and, as on the chip, accepts no interrupt in between. 0 = none.
    pub pending_prefix: u8,
}

impl Default for Z80 {
    fn default() -> Self {
        Self::new()
    }
}

impl Z80 {
    /// A CPU in its power-on/reset state with the T-state counter at zero.
    pub fn new() -> Z80 {
        let mut cpu = Z80 {
            regs: Registers::default(),
            ei_done_at: NEVER,
            ld_a_ir_done_at: NEVER,
            halted: false,
            nmi_pending: false,
            irq_line: false,
            t_states: 0,
            pending_prefix: 0,
        };
        cpu.reset();
        cpu
    }

    /// /RESET: PC, I, R cleared, IM 0, interrupts disabled; SP and AF read back as $FFFF on
    /// real silicon. Other registers keep their value; the T-state counter keeps running.
    pub fn reset(&mut self) {
        let r = &mut self.regs;
        r.pc = 0;
        r.i = 0;
        r.set_r(0);
        r.im = 0;
        r.iff1 = false;
        r.iff2 = false;
        r.sp = 0xFFFF;
        r.set_af(0xFFFF);
        r.q = 0;
        self.ei_done_at = NEVER;
        self.ld_a_ir_done_at = NEVER;
        self.halted = false;
        self.nmi_pending = false;
        self.pending_prefix = 0;
    }

    /// Absolute T-state count.
    #[inline]
    pub fn t_states(&self) -> u64 {
        self.t_states
    }

    /// Move the T-state counter (e.g. to align with the console's clock); state is untouched
    /// (the EI and LD A,I/R marks move with it).
    pub fn set_t_states(&mut self, t: u64) {
        let (ei, ld_a_ir) = (self.after_ei(), self.after_ld_a_ir());
        self.t_states = t;
        self.set_after_ei(ei);
        self.set_after_ld_a_ir(ld_a_ir);
    }

    /// The previous instruction was EI: maskable interrupts are held off for one more
    /// instruction.
    #[inline(always)]
    pub fn after_ei(&self) -> bool {
        self.ei_done_at == self.t_states
    }

    /// Sets [`Z80::after_ei`] at the current T-state count.
    pub fn set_after_ei(&mut self, on: bool) {
        self.ei_done_at = if on { self.t_states } else { NEVER };
    }

    /// The previous instruction was LD A,I or LD A,R: an interrupt accepted now clears P/V
    /// (the chip samples IFF2 after the acknowledge has already reset it).
    #[inline(always)]
    pub fn after_ld_a_ir(&self) -> bool {
        self.ld_a_ir_done_at == self.t_states
    }

    /// Sets [`Z80::after_ld_a_ir`] at the current T-state count.
    pub fn set_after_ld_a_ir(&mut self, on: bool) {
        self.ld_a_ir_done_at = if on { self.t_states } else { NEVER };
    }

    /// Marks the instruction just run as EI (its T-states all counted).
    #[inline(always)]
    pub(crate) fn mark_ei(&mut self) {
        self.ei_done_at = self.t_states;
    }

    /// Marks the instruction just run as LD A,I or LD A,R.
    #[inline(always)]
    pub(crate) fn mark_ld_a_ir(&mut self) {
        self.ld_a_ir_done_at = self.t_states;
    }

    /// Drive the level-sensitive /INT line.
    pub fn set_irq(&mut self, asserted: bool) {
        self.irq_line = asserted;
    }

    /// Signal a falling edge on /NMI; it is serviced before the next instruction.
    pub fn nmi(&mut self) {
        self.nmi_pending = true;
    }

    /// Execute one instruction, or accept one interrupt, or spend one 4-T-state HALT cycle.
    /// Returns the T-states used.
    ///
    /// Inlined into the caller's loop: the console steps it about 4,000 times a frame and the
    /// call's register saving was a sixth of its cost.
    #[inline(always)]
    pub fn step<B: Bus>(&mut self, bus: &mut B) -> u32 {
        self.step_with::<false, B>(bus)
    }

    /// [`Z80::step`] for a caller that has checked that /INT is released and no NMI is
    /// pending, and changes neither until it stops stepping (a step cannot change them): only
    /// HALT is left to test before the fetch. The console runs the Z80 this way on every line
    /// but the one its V-int holds /INT on, and saves the interrupt test's loads on each step.
    #[inline(always)]
    pub fn step_int_released<B: Bus>(&mut self, bus: &mut B) -> u32 {
        debug_assert!(!self.irq_line && !self.nmi_pending);
        self.step_with::<true, B>(bus)
    }

    #[inline(always)]
    fn step_with<const INT_RELEASED: bool, B: Bus>(&mut self, bus: &mut B) -> u32 {
        let start = self.t_states;
        self.step_may_branch::<INT_RELEASED, B>(bus);
        (self.t_states - start) as u32
    }

    /// [`Z80::step`] (`INT_RELEASED` false) or [`Z80::step_int_released`] (true, with the
    /// same precondition), telling whether PC may have gone anywhere but past the
    /// instruction: false after an unprefixed instruction that cannot jump (most of them,
    /// known at compile time in each opcode's body), true after a jump, call, return, RST,
    /// a prefixed instruction (block repeats, RETN, `JP (IX)`), an interrupt or a HALT cycle.
    /// A caller that looks for backward jumps (the console's idle-loop detection) then
    /// compares PC only where one can have happened.
    #[inline(always)]
    pub fn step_may_branch<const INT_RELEASED: bool, B: Bus>(&mut self, bus: &mut B) -> bool {
        debug_assert!(!INT_RELEASED || (!self.irq_line && !self.nmi_pending));
        // One test for the rare cases, which run out of line: a prefix chain's next opcode,
        // an interrupt to accept (or held off right after EI), a HALT cycle. The EI and
        // LD A,I/R marks need no clearing (they are T-state counts, `after_ei`). With /INT
        // released, two bytes read as one word where the compiler can.
        let special = if INT_RELEASED {
            u16::from_le_bytes([self.halted as u8, self.pending_prefix]) as u32
        } else {
            (self.nmi_pending | (self.irq_line & self.regs.iff1) | self.halted) as u32
                | self.pending_prefix as u32
        };
        if special != 0 {
            return self.step_special(bus);
        }
        // Q holds F only if this instruction produces flags (`set_f` stores both); SCF and
        // CCF read the Q the instruction started with.
        let q = std::mem::take(&mut self.regs.q);
        let op = self.fetch_opcode(bus);
        self.exec_base::<0, B>(bus, op, q)
    }

    /// A step that continues a DD/FD prefix chain (which holds off interrupts and HALT cycles,
    /// as on the chip), or else runs an NMI, an interrupt or a HALT cycle, in that order of
    /// priority, instead of an instruction; or else the instruction after EI (with /INT
    /// asserted and IFF1 set). Returns what [`Z80::step_may_branch`] does. Cold: a caller's
    /// step loop keeps its registers for the usual step.
    #[cold]
    #[inline(never)]
    fn step_special<B: Bus>(&mut self, bus: &mut B) -> bool {
        if self.pending_prefix != 0 {
            let prefix = std::mem::take(&mut self.pending_prefix);
            let q = std::mem::take(&mut self.regs.q);
            self.exec_prefixed(bus, prefix, q);
        } else if self.nmi_pending {
            self.accept_nmi(bus);
        } else if self.irq_line && self.regs.iff1 && !self.after_ei() {
            self.accept_irq(bus);
        } else if self.halted {
            self.halt_cycle(bus);
        } else {
            let q = std::mem::take(&mut self.regs.q);
            let op = self.fetch_opcode(bus);
            return self.exec_base::<0, B>(bus, op, q);
        }
        true
    }

    /// Step until the T-state counter reaches `until_t` (it may overshoot by one instruction).
    pub fn run<B: Bus>(&mut self, bus: &mut B, until_t: u64) {
        while self.t_states < until_t {
            self.step(bus);
        }
    }

    // ---- bus-cycle primitives. Offsets inside a cycle follow the SingleStepTests traces:
    // memory strobes on the second T-state of a cycle, I/O on the third (after the automatic wait).

    /// M1: opcode fetch, 4 T-states, refresh counter advances.
    #[inline(always)]
    pub(crate) fn fetch_opcode<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let pc = self.regs.pc;
        let op = bus.read(pc, self.t_states + 1);
        self.regs.pc = pc.wrapping_add(1);
        self.regs.inc_r();
        self.t_states += 4;
        op
    }

    /// Memory read cycle, 3 T-states.
    #[inline(always)]
    pub(crate) fn read<B: Bus>(&mut self, bus: &mut B, addr: u16) -> u8 {
        let v = bus.read(addr, self.t_states + 1);
        self.t_states += 3;
        v
    }

    /// Memory write cycle, 3 T-states.
    #[inline(always)]
    pub(crate) fn write<B: Bus>(&mut self, bus: &mut B, addr: u16, v: u8) {
        bus.write(addr, v, self.t_states + 1);
        self.t_states += 3;
    }

    /// I/O read cycle, 4 T-states (one automatic wait state).
    #[inline(always)]
    pub(crate) fn port_in<B: Bus>(&mut self, bus: &mut B, port: u16) -> u8 {
        let v = bus.port_in(port, self.t_states + 2);
        self.t_states += 4;
        v
    }

    /// I/O write cycle, 4 T-states.
    #[inline(always)]
    pub(crate) fn port_out<B: Bus>(&mut self, bus: &mut B, port: u16, v: u8) {
        bus.port_out(port, v, self.t_states + 2);
        self.t_states += 4;
    }

    /// Internal T-states with no bus activity.
    #[inline(always)]
    pub(crate) fn idle(&mut self, n: u64) {
        self.t_states += n;
    }

    /// Operand byte at PC.
    #[inline(always)]
    pub(crate) fn imm8<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let pc = self.regs.pc;
        self.regs.pc = pc.wrapping_add(1);
        self.read(bus, pc)
    }

    /// Little-endian operand word at PC.
    #[inline(always)]
    pub(crate) fn imm16<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let lo = self.imm8(bus);
        let hi = self.imm8(bus);
        u16::from_le_bytes([lo, hi])
    }

    #[inline(always)]
    pub(crate) fn read16<B: Bus>(&mut self, bus: &mut B, addr: u16) -> u16 {
        let lo = self.read(bus, addr);
        let hi = self.read(bus, addr.wrapping_add(1));
        u16::from_le_bytes([lo, hi])
    }

    #[inline(always)]
    pub(crate) fn write16<B: Bus>(&mut self, bus: &mut B, addr: u16, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        self.write(bus, addr, lo);
        self.write(bus, addr.wrapping_add(1), hi);
    }

    /// Push high byte first, as the chip does.
    #[inline(always)]
    pub(crate) fn push<B: Bus>(&mut self, bus: &mut B, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        let sp = self.regs.sp.wrapping_sub(1);
        self.write(bus, sp, hi);
        let sp = sp.wrapping_sub(1);
        self.write(bus, sp, lo);
        self.regs.sp = sp;
    }

    #[inline(always)]
    pub(crate) fn pop<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let sp = self.regs.sp;
        let v = self.read16(bus, sp);
        self.regs.sp = sp.wrapping_add(2);
        v
    }

    /// Write F and latch it in Q (which the step cleared before the instruction).
    #[inline(always)]
    pub(crate) fn set_f(&mut self, f: u8) {
        self.regs.f = f;
        self.regs.q = f;
    }
}

/// Equal as the chip: the EI and LD A,I/R marks compared as what they say, not as the
/// T-state counts they keep.
impl PartialEq for Z80 {
    fn eq(&self, o: &Z80) -> bool {
        self.regs == o.regs
            && self.after_ei() == o.after_ei()
            && self.after_ld_a_ir() == o.after_ld_a_ir()
            && self.halted == o.halted
            && self.nmi_pending == o.nmi_pending
            && self.irq_line == o.irq_line
            && self.t_states == o.t_states
            && self.pending_prefix == o.pending_prefix
    }
}

impl Eq for Z80 {}
