//! Exception processing: group 0 (address error, double bus fault), group 1 (trace,
//! interrupts, illegal and privilege) and group 2 (TRAP, TRAPV, CHK, zero divide).

use crate::cpu::{Cpu, Result, RunState, SR_S, SR_T};
use crate::{Bus, InterruptAck};

pub(crate) const VEC_ADDRESS_ERROR: u32 = 3;
pub(crate) const VEC_ZERO_DIVIDE: u32 = 5;
pub(crate) const VEC_CHK: u32 = 6;
pub(crate) const VEC_TRAPV: u32 = 7;
pub(crate) const VEC_PRIVILEGE: u32 = 8;
pub(crate) const VEC_TRACE: u32 = 9;

impl Cpu {
    /// Enters supervisor mode with trace off and returns the SR to stack.
    #[inline]
    pub(crate) fn enter_supervisor(&mut self) -> u16 {
        let old = self.sr;
        self.set_sr((old | SR_S) & !SR_T);
        old
    }

    /// Stacks PC and SR in the 68000's order (PC low, SR, PC high), reads the vector and
    /// refills the queue: the common tail of group 1 and 2 exceptions.
    pub(crate) fn stack_and_vector<B: Bus>(
        &mut self,
        bus: &mut B,
        old_sr: u16,
        pc: u32,
        vector: u32,
    ) -> Result<()> {
        let sp = self.regs[15];
        let fc = self.data_fc();
        self.regs[15] = sp.wrapping_sub(6);
        self.write_word(bus, sp.wrapping_sub(2), pc as u16, fc)?;
        self.write_word(bus, sp.wrapping_sub(6), old_sr, fc)?;
        self.write_word(bus, sp.wrapping_sub(4), (pc >> 16) as u16, fc)?;
        self.vector_jump(bus, vector)
    }

    /// Reads an exception vector and fills the queue at the handler.
    pub(crate) fn vector_jump<B: Bus>(&mut self, bus: &mut B, vector: u32) -> Result<()> {
        let fc = self.data_fc();
        let hi = self.read_word(bus, vector * 4, fc)? as u32;
        let lo = self.read_word(bus, vector * 4 + 2, fc)? as u32;
        let target = hi << 16 | lo;
        self.fetch_irc_at(bus, target)?;
        self.idle(2);
        self.prefetch(bus)
    }

    /// A group 1 or 2 exception raised by the instruction: `pc` is what gets stacked.
    pub(crate) fn exception<B: Bus>(&mut self, bus: &mut B, vector: u32, pc: u32) -> Result<()> {
        let old = self.enter_supervisor();
        self.stack_and_vector(bus, old, pc, vector)
    }

    /// Illegal instruction, line A, line F: the stacked PC is the instruction's own.
    pub(crate) fn illegal<B: Bus>(&mut self, bus: &mut B, vector: u32) -> Result<()> {
        self.trace_armed = false;
        self.idle(4);
        // Raised before any extension word is fetched: the instruction is 4 bytes back.
        let pc = self.pc.wrapping_sub(4);
        self.exception(bus, vector, pc)
    }

    /// Privilege violation: as an illegal instruction.
    pub(crate) fn privilege<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        self.illegal(bus, VEC_PRIVILEGE)
    }

    pub(crate) fn trace<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        self.idle(4);
        let pc = self.pc.wrapping_sub(4);
        self.exception(bus, VEC_TRACE, pc)
    }

    pub(crate) fn interrupt<B: Bus>(&mut self, bus: &mut B, level: u8) -> Result<()> {
        let old = self.enter_supervisor();
        self.sr = (self.sr & !0x0700) | (level as u16) << 8;
        self.refresh_attention();
        self.idle(6);
        let pc = self.pc.wrapping_sub(4);
        let sp = self.regs[15];
        let fc = self.data_fc();
        self.regs[15] = sp.wrapping_sub(6);
        self.write_word(bus, sp.wrapping_sub(2), pc as u16, fc)?;
        let ack = bus.interrupt_acknowledge(level, self.cycles);
        self.cycles += 4 + bus.wait_states() as u64;
        // The acknowledged device lets go of IPL; one still wanting service re-asserts it
        // (`Cpu::set_ipl`), as the console does with the VDP's pending flags.
        self.ipl = 0;
        self.refresh_attention();
        let vector = match ack {
            InterruptAck::Autovector => 24 + level as u32,
            InterruptAck::Vector(v) => v as u32,
            InterruptAck::Spurious => 24,
        };
        self.idle(4);
        self.write_word(bus, sp.wrapping_sub(6), old, fc)?;
        self.write_word(bus, sp.wrapping_sub(4), (pc >> 16) as u16, fc)?;
        self.vector_jump(bus, vector)
    }

    /// The end of an instruction that faulted: the address error, and the bus told if it
    /// halted the CPU (a double bus fault). Trace is cancelled (`address_error`).
    #[cold]
    #[inline(never)]
    pub(crate) fn abandon<B: Bus>(&mut self, bus: &mut B) {
        self.address_error(bus);
        self.tell_attention(bus);
    }

    /// Group 0: an address error abandons the instruction and stacks the long frame. An
    /// address error while doing so is a double bus fault: the CPU halts.
    pub(crate) fn address_error<B: Bus>(&mut self, bus: &mut B) {
        let e = self.fault;
        self.trace_armed = false;
        // The aborted bus cycle, then internal processing.
        self.idle(4 + 8);
        let old = self.enter_supervisor();
        let pc = self.pc.wrapping_sub(self.fault_pc_back);
        let status = (self.ird & 0xFFE0)
            | if e.write { 0 } else { 0x10 }
            // I/N: the recorded frames have it clear for fetches and data alike.
            | e.fc as u16;
        let r = (|| -> Result<()> {
            let sp = self.regs[15];
            let fc = self.data_fc();
            self.regs[15] = sp.wrapping_sub(14);
            self.write_word(bus, sp.wrapping_sub(2), pc as u16, fc)?;
            self.write_word(bus, sp.wrapping_sub(6), old, fc)?;
            self.write_word(bus, sp.wrapping_sub(4), (pc >> 16) as u16, fc)?;
            self.write_word(bus, sp.wrapping_sub(8), self.ird, fc)?;
            self.write_word(bus, sp.wrapping_sub(10), e.addr as u16, fc)?;
            self.write_word(bus, sp.wrapping_sub(14), status, fc)?;
            self.write_word(bus, sp.wrapping_sub(12), (e.addr >> 16) as u16, fc)?;
            self.vector_jump(bus, VEC_ADDRESS_ERROR)
        })();
        if r.is_err() {
            self.state = RunState::Halted;
            self.refresh_attention();
        }
    }
}
