//! Bus cycles and the prefetch queue: every access goes through here, is told its start clock
//! and adds 4 clocks plus the bus's wait states; word and long accesses at odd addresses raise
//! the address error instead of reaching the bus.

use crate::cpu::{AddressError, Cpu, Result};
use crate::{Bus, FunctionCode};

impl Cpu {
    #[inline(always)]
    pub(crate) fn idle(&mut self, clocks: u32) {
        self.cycles += clocks as u64;
    }

    #[inline(always)]
    pub(crate) fn data_fc(&self) -> FunctionCode {
        // 1 in user mode, 5 in supervisor mode (S is bit 13).
        1 | ((self.sr >> 11) & 4) as FunctionCode
    }

    #[inline(always)]
    pub(crate) fn program_fc(&self) -> FunctionCode {
        2 | ((self.sr >> 11) & 4) as FunctionCode
    }

    #[inline(always)]
    pub(crate) fn read_word<B: Bus>(
        &mut self,
        bus: &mut B,
        addr: u32,
        fc: FunctionCode,
    ) -> Result<u16> {
        if addr & 1 != 0 {
            return Err(self.fault_at(AddressError {
                addr,
                write: false,
                fc,
                fetch: fc & 3 == 2,
            }));
        }
        let v = bus.read_word(addr & 0xFF_FFFF, fc, self.cycles);
        self.cycles += 4 + bus.wait_states() as u64;
        Ok(v)
    }

    #[inline(always)]
    pub(crate) fn read_byte<B: Bus>(&mut self, bus: &mut B, addr: u32, fc: FunctionCode) -> u8 {
        let v = bus.read_byte(addr & 0xFF_FFFF, fc, self.cycles);
        self.cycles += 4 + bus.wait_states() as u64;
        v
    }

    #[inline(always)]
    pub(crate) fn write_word<B: Bus>(
        &mut self,
        bus: &mut B,
        addr: u32,
        value: u16,
        fc: FunctionCode,
    ) -> Result<()> {
        if addr & 1 != 0 {
            return Err(self.fault_at(AddressError {
                addr,
                write: true,
                fc,
                fetch: false,
            }));
        }
        bus.write_word(addr & 0xFF_FFFF, value, fc, self.cycles);
        self.cycles += 4 + bus.wait_states() as u64;
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn write_byte<B: Bus>(
        &mut self,
        bus: &mut B,
        addr: u32,
        value: u8,
        fc: FunctionCode,
    ) {
        bus.write_byte(addr & 0xFF_FFFF, value, fc, self.cycles);
        self.cycles += 4 + bus.wait_states() as u64;
    }

    /// Data read of `size` bytes (1, 2 or 4; a long is two word cycles, high word first).
    #[inline(always)]
    pub(crate) fn read_data<B: Bus>(
        &mut self,
        bus: &mut B,
        addr: u32,
        size: u8,
        fc: FunctionCode,
    ) -> Result<u32> {
        match size {
            1 => Ok(self.read_byte(bus, addr, fc) as u32),
            2 => Ok(self.read_word(bus, addr, fc)? as u32),
            _ => {
                let hi = self.read_word(bus, addr, fc)? as u32;
                let lo = self.read_word(bus, addr.wrapping_add(2), fc)? as u32;
                Ok(hi << 16 | lo)
            }
        }
    }

    /// Data write, a long high word first.
    #[inline(always)]
    pub(crate) fn write_data<B: Bus>(
        &mut self,
        bus: &mut B,
        addr: u32,
        size: u8,
        value: u32,
    ) -> Result<()> {
        let fc = self.data_fc();
        match size {
            1 => {
                self.write_byte(bus, addr, value as u8, fc);
                Ok(())
            }
            2 => self.write_word(bus, addr, value as u16, fc),
            _ => {
                self.write_word(bus, addr, (value >> 16) as u16, fc)?;
                self.write_word(bus, addr.wrapping_add(2), value as u16, fc)
            }
        }
    }

    /// Data write of a long, low word first (read-modify-write instructions and -(An)).
    #[inline]
    pub(crate) fn write_data_low_first<B: Bus>(
        &mut self,
        bus: &mut B,
        addr: u32,
        size: u8,
        value: u32,
    ) -> Result<()> {
        if size != 4 {
            return self.write_data(bus, addr, size, value);
        }
        let fc = self.data_fc();
        if addr & 1 != 0 {
            return Err(self.fault_at(AddressError {
                addr,
                write: true,
                fc,
                fetch: false,
            }));
        }
        self.write_word(bus, addr.wrapping_add(2), value as u16, fc)?;
        self.write_word(bus, addr, (value >> 16) as u16, fc)
    }

    // ---- the prefetch queue ----

    /// The next word of the instruction stream, at PC. No address-error test: PC only
    /// becomes odd on a jump to an odd target, and a jump's first fetch ([`Cpu::fetch_irc_at`])
    /// faults there before PC is stepped on, so every fetch that follows is at an even
    /// address (bit 0 is dropped all the same, as the bus contract asks). Never failing, it
    /// also spares every `?` after a prefetch its branch.
    #[inline(always)]
    fn fetch_next<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let fc = self.program_fc();
        let v = bus.read_word(self.pc & 0xFF_FFFE, fc, self.cycles);
        self.cycles += 4 + bus.wait_states() as u64;
        self.pc = self.pc.wrapping_add(2);
        v
    }

    /// [`Cpu::fetch_next`] into IRC, the bus's fast answer first ([`Bus::fetch_fast`]): the
    /// other way is out of line and does the whole fetch, so nothing is live across its call.
    #[inline(always)]
    fn fetch_irc<B: Bus>(&mut self, bus: &mut B) {
        match bus.fetch_fast_pc(self.pc) {
            Some(v) => {
                self.irc = v;
                self.cycles += 4;
                self.pc = self.pc.wrapping_add(2);
            }
            None => self.fetch_irc_through_bus(bus),
        }
    }

    #[cold]
    #[inline(never)]
    fn fetch_irc_through_bus<B: Bus>(&mut self, bus: &mut B) {
        self.irc = self.fetch_next(bus);
    }

    /// Takes IRC as an extension word and fetches the next one.
    #[inline(always)]
    pub(crate) fn ext_word<B: Bus>(&mut self, bus: &mut B) -> Result<u16> {
        let w = self.irc;
        self.fetch_irc(bus);
        Ok(w)
    }

    #[inline]
    pub(crate) fn ext_long<B: Bus>(&mut self, bus: &mut B) -> Result<u32> {
        let hi = self.ext_word(bus)? as u32;
        Ok(hi << 16 | self.ext_word(bus)? as u32)
    }

    /// The closing prefetch: IRD takes IRC and the next word is fetched.
    #[inline(always)]
    pub(crate) fn prefetch<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        self.ird = self.irc;
        self.fetch_irc(bus);
        Ok(())
    }

    /// [`Cpu::ext_word`] then [`Cpu::prefetch`], for an instruction with nothing on the bus
    /// between the two (an immediate word to a register, LEA d16(An), a word branch not
    /// taken): when the bus answers both words at once ([`Bus::fetch_fast`]) the queue, PC and
    /// clock are set in one go, as the two fetches would set them.
    #[inline(always)]
    pub(crate) fn ext_word_prefetch<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let w = self.irc;
        if let Some((first, second)) = bus.fetch_fast_pair(self.pc) {
            self.ird = first;
            self.irc = second;
            self.pc = self.pc.wrapping_add(4);
            self.cycles += 8;
            return w;
        }
        self.fetch_irc(bus);
        self.ird = self.irc;
        self.fetch_irc(bus);
        w
    }

    /// The two fetches of [`Cpu::ext_word_prefetch`], IRC's extension word already used: last
    /// in a handler that needs nothing on the bus between the two (a register destination, so
    /// the result may be written before the fetches, which cannot see it). With the way
    /// through the bus one out-of-line call in tail position, the handler calls nothing
    /// else, holds no value across a call, and saves no host register.
    #[inline(always)]
    pub(crate) fn past_ext_word<B: Bus>(&mut self, bus: &mut B) {
        if let Some((first, second)) = bus.fetch_fast_pair(self.pc) {
            self.ird = first;
            self.irc = second;
            self.pc = self.pc.wrapping_add(4);
            self.cycles += 8;
            return;
        }
        self.past_ext_word_through_bus(bus)
    }

    #[cold]
    #[inline(never)]
    fn past_ext_word_through_bus<B: Bus>(&mut self, bus: &mut B) {
        self.fetch_irc(bus);
        self.ird = self.irc;
        self.fetch_irc(bus);
    }

    /// Fetches IRC from `target` (the first fetch after a jump), the bus's fast answer first
    /// as in [`Cpu::fetch_irc`].
    #[inline(always)]
    pub(crate) fn fetch_irc_at<B: Bus>(&mut self, bus: &mut B, target: u32) -> Result<()> {
        if target & 1 == 0
            && let Some(v) = bus.fetch_fast_pc(target)
        {
            self.irc = v;
            self.cycles += 4;
            self.pc = target.wrapping_add(2);
            return Ok(());
        }
        self.fetch_irc_at_through_bus(bus, target)
    }

    #[cold]
    #[inline(never)]
    fn fetch_irc_at_through_bus<B: Bus>(&mut self, bus: &mut B, target: u32) -> Result<()> {
        self.irc = self.read_word(bus, target, self.program_fc())?;
        self.pc = target.wrapping_add(2);
        Ok(())
    }

    /// Refills the whole queue from `target`: two fetches.
    /// When the bus answers both fetches at once ([`Bus::fetch_fast`]: no side effect, no
    /// wait state), the queue, PC and the clock are set in one go, as the two fetches below
    /// would set them; otherwise (an odd target, or either word not answered) the fetches
    /// are made one after the other (`fetch_fast` has no side effect, so asking again is
    /// harmless).
    #[inline(always)]
    pub(crate) fn jump_fill<B: Bus>(&mut self, bus: &mut B, target: u32) -> Result<()> {
        if target & 1 == 0
            && let Some((first, second)) = bus.fetch_fast_pair(target)
        {
            self.ird = first;
            self.irc = second;
            self.pc = target.wrapping_add(4);
            self.cycles += 8;
            return Ok(());
        }
        self.jump_fill_in_turn(bus, target)
    }

    #[inline(always)]
    fn jump_fill_in_turn<B: Bus>(&mut self, bus: &mut B, target: u32) -> Result<()> {
        self.fetch_irc_at(bus, target)?;
        self.prefetch(bus)
    }
}
