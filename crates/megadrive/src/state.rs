//! Save states: the whole machine as versioned plain bytes that round-trip bit-exact.
//!
//! Layout: the magic `MDST`, a format version (u32), the ROM's length and FNV-1a hash (a state
//! loads only into a machine built from the same ROM), then every component in a fixed order,
//! little-endian, variable-length fields prefixed with their length, the large memories as runs
//! of one value and literal stretches (`packed`). The line renderer keeps
//! no state across frames and restarts from its initial state. The 68000's part names its core
//! (ours or `m68k`), and loading a state brings that core back with it.

use crate::bus::Watch;
use crate::io::PadKind;
use crate::machine::{Machine, Phase};
use crate::sound_cpu::SoundCpu;
use crate::vdp::dma::{Dma, DmaKind};
use crate::z80_bus::Z80_RAM_BYTES;

mod cpu;
mod packed;

const MAGIC: &[u8; 4] = b"MDST";
/// Bump on any layout change. 4: the 68000's double-bus-fault halt; 5: which 68000 core,
/// then its state; 6: the large memories as runs (`packed`); 7: the one-instruction interrupt
/// latency (`vdp::irq`); 8: the hardware FIFO switch (`Timing::hardware_vdp`).
pub const STATE_VERSION: u32 = 8;

/// Why a state could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    NotAState,
    Version {
        found: u32,
        supported: u32,
    },
    /// The state's ROM (length, FNV-1a) is not the machine's.
    RomMismatch {
        state: (u64, u64),
        machine: (u64, u64),
    },
    Truncated {
        offset: usize,
    },
    Invalid {
        offset: usize,
        what: &'static str,
    },
    TrailingBytes {
        offset: usize,
    },
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StateError::NotAState => write!(f, "not a Mega Drive save state (bad magic)"),
            StateError::Version { found, supported } if found < supported => write!(
                f,
                "save state version {found} was written by an older build (this build reads \
                 version {supported} only): make the state again"
            ),
            StateError::Version { found, supported } => write!(
                f,
                "save state version {found} was written by a newer build (this build reads \
                 version {supported} only)"
            ),
            StateError::RomMismatch { state, machine } => write!(
                f,
                "the save state was made with another ROM ({} bytes, FNV-1a {:016x}), not this \
                 one ({} bytes, FNV-1a {:016x})",
                state.0, state.1, machine.0, machine.1
            ),
            StateError::Truncated { offset } => write!(f, "save state truncated at byte {offset}"),
            StateError::Invalid { offset, what } => {
                write!(f, "save state invalid at byte {offset}: {what}")
            }
            StateError::TrailingBytes { offset } => {
                write!(f, "save state has unexpected bytes after byte {offset}")
            }
        }
    }
}

impl std::error::Error for StateError {}

/// FNV-1a over the ROM, to tie a state to its cartridge.
pub fn rom_hash(rom: &[u8]) -> u64 {
    rom.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

#[derive(Default)]
struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn bool(&mut self, v: bool) {
        self.u8(u8::from(v));
    }
    fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, v: &[u8]) {
        self.u32(v.len() as u32);
        self.buf.extend_from_slice(v);
    }
    fn u16s(&mut self, v: &[u16]) {
        self.u32(v.len() as u32);
        for &x in v {
            self.u16(x);
        }
    }
    fn u32s(&mut self, v: &[u32]) {
        self.u32(v.len() as u32);
        for &x in v {
            self.u32(x);
        }
    }
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

type R<T> = Result<T, StateError>;

impl Reader<'_> {
    fn take(&mut self, n: usize) -> R<&[u8]> {
        let end = self
            .pos
            .checked_add(n)
            .ok_or(StateError::Truncated { offset: self.pos })?;
        let s = self
            .buf
            .get(self.pos..end)
            .ok_or(StateError::Truncated { offset: self.pos })?;
        self.pos = end;
        Ok(s)
    }
    fn invalid(&self, what: &'static str) -> StateError {
        StateError::Invalid {
            offset: self.pos,
            what,
        }
    }
    fn u8(&mut self) -> R<u8> {
        Ok(self.take(1)?[0])
    }
    fn bool(&mut self) -> R<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self.invalid("boolean not 0 or 1")),
        }
    }
    fn u16(&mut self) -> R<u16> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().unwrap_or_default(),
        ))
    }
    fn u32(&mut self) -> R<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }
    fn u64(&mut self) -> R<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or_default(),
        ))
    }
    fn i32(&mut self) -> R<i32> {
        Ok(i32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }
    fn len(&mut self, max: usize) -> R<usize> {
        let n = self.u32()? as usize;
        if n > max {
            return Err(self.invalid("length out of range"));
        }
        Ok(n)
    }
    fn bytes_exact(&mut self, n: usize) -> R<Vec<u8>> {
        let len = self.len(n)?;
        if len != n {
            return Err(self.invalid("unexpected block length"));
        }
        Ok(self.take(n)?.to_vec())
    }
    fn bytes(&mut self, max: usize) -> R<Vec<u8>> {
        let len = self.len(max)?;
        Ok(self.take(len)?.to_vec())
    }
    fn u16_array<const N: usize>(&mut self) -> R<[u16; N]> {
        let len = self.len(N)?;
        if len != N {
            return Err(self.invalid("unexpected array length"));
        }
        let mut out = [0u16; N];
        for x in &mut out {
            *x = self.u16()?;
        }
        Ok(out)
    }
    fn u32_array<const N: usize>(&mut self) -> R<[u32; N]> {
        let len = self.len(N)?;
        if len != N {
            return Err(self.invalid("unexpected array length"));
        }
        let mut out = [0u32; N];
        for x in &mut out {
            *x = self.u32()?;
        }
        Ok(out)
    }
}

fn pad_kind_u8(k: PadKind) -> u8 {
    match k {
        PadKind::None => 0,
        PadKind::ThreeButton => 1,
        PadKind::SixButton => 2,
    }
}

impl Machine {
    /// The whole machine as bytes (see the module doc for the layout).
    pub fn save_state(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.buf.extend_from_slice(MAGIC);
        w.u32(STATE_VERSION);
        let sys = &self.bus.sys;
        w.u64(sys.cart.rom.len() as u64);
        w.u64(rom_hash(&sys.cart.rom));

        // Scheduler.
        w.u16(self.frame_line);
        w.u8(match self.phase {
            Phase::LineStart => 0,
            Phase::BeforeVint => 1,
            Phase::ToLineEnd => 2,
        });
        w.u64(self.frame_count);
        w.u64(self.line_start);

        // 68000: which core, then its state.
        cpu::write(&mut w, &self.cpu);

        // Z80.
        let z = &self.bus.z80;
        let r = &z.regs;
        for v in [r.pc, r.sp, r.ix, r.iy, r.wz, r.af_, r.bc_, r.de_, r.hl_] {
            w.u16(v);
        }
        for v in [
            r.a,
            r.f,
            r.b,
            r.c,
            r.d,
            r.e,
            r.h,
            r.l,
            r.i,
            r.r(),
            r.im,
            r.q,
        ] {
            w.u8(v);
        }
        for v in [
            r.iff1,
            r.iff2,
            z.after_ei(),
            z.after_ld_a_ir(),
            z.halted,
            z.nmi_pending,
            z.irq_line,
        ] {
            w.bool(v);
        }
        w.u64(z.t_states);
        w.u8(z.pending_prefix);

        // Bus-side clocks.
        for v in [
            sys.now,
            sys.refresh_at,
            sys.z80_mclk,
            sys.z80_t_base,
            sys.z80_mclk_base,
            sys.m68k_debt_mclk,
        ] {
            w.u64(v);
        }
        // The instruction's PC, as version 8 has always stored it.
        w.u32(sys.pc_ahead.wrapping_sub(4));
        w.bytes(&sys.tmss);
        let t = &sys.timing;
        w.bool(t.bank_contention);
        w.bool(t.refresh_stall);
        w.bool(t.interrupt_clocks.is_some());
        w.u32(t.interrupt_clocks.unwrap_or(0));
        w.u64(t.z80_ram_read_mclk);
        w.u64(t.z80_ram_write_mclk);
        w.bool(t.fill_start_delay);
        w.bool(t.musashi_clocks);
        w.bool(t.color_dma_refresh);
        w.bool(t.fifo_resume_on_cpu_clock);
        w.bool(t.gpgx17_status_read);
        w.bool(t.hardware_vdp);
        w.bool(t.gpgx17_invalid_write_delay);
        w.u32(sys.watches.len() as u32);
        for wt in &sys.watches {
            w.u32(wt.addr);
            w.bool(wt.value.is_some());
            w.u8(wt.value.unwrap_or(0));
        }

        // Cartridge.
        let cart = &sys.cart;
        w.u8(cart.sram_control);
        w.bytes(&cart.banks);
        w.bool(cart.mapper);
        w.bytes(cart.sram.as_ref().map_or(&[][..], |s| &s.data));

        // Memories.
        packed::write(&mut w, &sys.ram[..], 1);
        packed::write(&mut w, &sys.zbus.ram()[..], 1);
        w.bool(sys.zbus.busreq);
        w.bool(sys.zbus.reset_released);
        w.u32(sys.zbus.bank);

        // I/O.
        w.bytes(&sys.io.regs);
        for (i, p) in sys.io.pads.iter().enumerate() {
            let (counter, timeout) = sys.io.pad_counters(i);
            w.u8(pad_kind_u8(p.kind));
            w.u16(p.buttons);
            w.u8(p.th);
            w.u8(counter);
            w.u8(timeout);
            w.u64(p.th_latency_until);
        }

        // Sound chips (the sound thread's copies brought up to date when it synthesises: they
        // hold the synthesis state, and have seen every call the machine's chips have).
        let fresh = sys.sound_snapshot();
        let (ym, psg) = match &fresh {
            Some(synth) => (&synth.ym, &synth.psg),
            None => (&sys.ym, &sys.psg),
        };
        // DAC writes logged since the last catch-up are synthesised first, to where a
        // catch-up at each write would have left the chip (`ym2612_dac_log`).
        let settled;
        let ym = if ym.dac_log.is_empty() {
            ym
        } else {
            settled = ym.settled();
            &settled
        };
        w.bytes(&ym.address);
        w.bytes(&ym.regs);
        w.u8(ym.status);
        w.u8(ym.mode);
        for v in [
            ym.timer_a_period,
            ym.timer_a_count,
            ym.timer_b_period,
            ym.timer_b_count,
        ] {
            w.i32(v);
        }
        w.u64(ym.synced_to);
        w.u64(ym.busy_until);
        w.u16s(&psg.tone);
        w.bytes(&psg.volume);
        w.u8(psg.latched);
        // The chips' synthesis state (phases, envelopes, LFO, PSG counters).
        let mut synth = Vec::new();
        ym.save_synth(&mut synth);
        psg.save_synth(&mut synth);
        w.bytes(&synth);

        // VDP.
        let v = &sys.vdp;
        w.bytes(&v.regs);
        packed::write(&mut w, &v.vram, 1);
        w.u16s(&v.cram);
        w.u16s(&v.vsram);
        w.u8(v.code);
        w.u16(v.addr);
        w.u16(v.addr_latch);
        w.bool(v.pending);
        w.bool(v.cached_ctrl.is_some());
        w.u16(v.cached_ctrl.unwrap_or(0));
        w.u16(v.status);
        w.bool(v.hint_pending);
        w.bool(v.vint_pending);
        w.u8(v.irq_delay.to_byte());
        w.u8(v.hint_counter);
        w.u16(v.v_counter);
        w.u64(v.line_start);
        w.u64(v.frame_start);
        w.u16(v.active_lines);
        w.bool(v.pal);
        w.u32(v.dma.length);
        w.u16(v.dma.source);
        w.u8(v.dma.kind.as_u8());
        w.bool(v.dma.fill_pending);
        w.u64(v.dma.end);
        w.u16s(&v.fifo.data);
        w.u8(v.fifo.index as u8);
        for &d in &v.fifo.drain_at {
            w.u64(d);
        }
        w.bool(v.fifo.byte_access);
        w.u32(v.hv_latch);
        for b in [v.odd_frame, v.interlaced, v.im2, v.z80_irq] {
            w.bool(b);
        }
        w.u16(v.frame_width);
        w.u16(v.frame_height);
        w.u16(v.drawing_width);
        packed::write_u16s(&mut w, v.frame_pixels());
        packed::write_u16s(&mut w, v.drawing_pixels());
        w.buf
    }

    /// Restores a state made by [`Machine::save_state`] from a machine with the same ROM.
    /// On error the machine is unchanged.
    pub fn load_state(&mut self, bytes: &[u8]) -> Result<(), StateError> {
        // The state replaces both frame buffers (most of the machine's bytes): the copy that
        // is loaded into goes without them.
        let vdp = &mut self.bus.sys.vdp;
        let buffers = (
            std::mem::take(&mut vdp.frame),
            std::mem::take(&mut vdp.drawing),
        );
        let mut next = self.clone();
        (self.bus.sys.vdp.frame, self.bus.sys.vdp.drawing) = buffers;
        next.read_state(bytes)?;
        next.reseed_sound_thread();
        *self = next;
        Ok(())
    }

    fn read_state(&mut self, bytes: &[u8]) -> Result<(), StateError> {
        let mut r = Reader { buf: bytes, pos: 0 };
        if r.take(4).map_err(|_| StateError::NotAState)? != MAGIC {
            return Err(StateError::NotAState);
        }
        let version = r.u32()?;
        if version != STATE_VERSION {
            return Err(StateError::Version {
                found: version,
                supported: STATE_VERSION,
            });
        }
        let state = (r.u64()?, r.u64()?);
        let rom = &self.bus.sys.cart.rom;
        let machine = (rom.len() as u64, rom_hash(rom));
        if state != machine {
            return Err(StateError::RomMismatch { state, machine });
        }

        self.frame_line = r.u16()?;
        self.phase = match r.u8()? {
            0 => Phase::LineStart,
            1 => Phase::BeforeVint,
            2 => Phase::ToLineEnd,
            _ => return Err(r.invalid("scheduler phase")),
        };
        self.frame_count = r.u64()?;
        self.line_start = r.u64()?;

        self.cpu = cpu::read(&mut r)?;

        let mut z = SoundCpu::new();
        {
            let g = &mut z.regs;
            for f in [
                &mut g.pc, &mut g.sp, &mut g.ix, &mut g.iy, &mut g.wz, &mut g.af_, &mut g.bc_,
                &mut g.de_, &mut g.hl_,
            ] {
                *f = r.u16()?;
            }
            for f in [
                &mut g.a,
                &mut g.f,
                &mut g.b,
                &mut g.c,
                &mut g.d,
                &mut g.e,
                &mut g.h,
                &mut g.l,
                &mut g.i,
                &mut g.r_rotated,
                &mut g.im,
                &mut g.q,
            ] {
                *f = r.u8()?;
            }
            // The state holds R itself.
            g.set_r(g.r_rotated);
            g.iff1 = r.bool()?;
            g.iff2 = r.bool()?;
        }
        let after_ei = r.bool()?;
        let after_ld_a_ir = r.bool()?;
        z.halted = r.bool()?;
        z.nmi_pending = r.bool()?;
        z.irq_line = r.bool()?;
        z.set_t_states(r.u64()?);
        // The marks are T-state counts: set once the count is.
        z.set_after_ei(after_ei);
        z.set_after_ld_a_ir(after_ld_a_ir);
        z.pending_prefix = r.u8()?;
        self.bus.z80 = z;
        // The Z80 stands where the state says; it owes no line ends.
        self.bus.z80_owed = [0; 2];

        let sys = &mut self.bus.sys;
        sys.now = r.u64()?;
        sys.refresh_at = r.u64()?;
        sys.z80_mclk = r.u64()?;
        sys.z80_t_base = r.u64()?;
        sys.z80_mclk_base = r.u64()?;
        sys.m68k_debt_mclk = r.u64()?;
        sys.pc_ahead = r.u32()?.wrapping_add(4);
        let tmss = r.bytes_exact(4)?;
        sys.tmss.copy_from_slice(&tmss);
        sys.timing.bank_contention = r.bool()?;
        sys.timing.refresh_stall = r.bool()?;
        let has_irq_clocks = r.bool()?;
        let irq_clocks = r.u32()?;
        sys.timing.interrupt_clocks = has_irq_clocks.then_some(irq_clocks);
        sys.timing.z80_ram_read_mclk = r.u64()?;
        sys.timing.z80_ram_write_mclk = r.u64()?;
        sys.timing.fill_start_delay = r.bool()?;
        sys.timing.musashi_clocks = r.bool()?;
        sys.timing.color_dma_refresh = r.bool()?;
        sys.timing.fifo_resume_on_cpu_clock = r.bool()?;
        sys.timing.gpgx17_status_read = r.bool()?;
        sys.timing.hardware_vdp = r.bool()?;
        sys.timing.gpgx17_invalid_write_delay = r.bool()?;
        let n = r.len(1 << 16)?;
        let mut watches = Vec::with_capacity(n);
        for _ in 0..n {
            let addr = r.u32()?;
            let has = r.bool()?;
            let value = r.u8()?;
            watches.push(Watch {
                addr,
                value: has.then_some(value),
            });
        }
        sys.watches = watches;
        sys.watch_hit = None;

        sys.cart.sram_control = r.u8()?;
        let banks = r.bytes_exact(8)?;
        sys.cart.banks.copy_from_slice(&banks);
        sys.cart.mapper = r.bool()?;
        let sram = r.bytes(1 << 16)?;
        match &mut sys.cart.sram {
            Some(s) if s.data.len() == sram.len() => s.data = sram,
            None if sram.is_empty() => {}
            _ => return Err(r.invalid("SRAM size differs from the cartridge's")),
        }
        sys.cart.derive_fast_path();

        let ram = packed::read(&mut r, sys.ram.len())?;
        sys.ram.copy_from_slice(&ram);
        let z80_ram = packed::read(&mut r, Z80_RAM_BYTES)?;
        sys.zbus.load_ram(
            z80_ram
                .as_slice()
                .try_into()
                .expect("packed::read returns the length asked for"),
        );
        sys.zbus.busreq = r.bool()?;
        sys.zbus.reset_released = r.bool()?;
        sys.zbus.bank = r.u32()?;

        let io_regs = r.bytes_exact(16)?;
        sys.io.regs.copy_from_slice(&io_regs);
        for i in 0..2 {
            let kind = match r.u8()? {
                0 => PadKind::None,
                1 => PadKind::ThreeButton,
                2 => PadKind::SixButton,
                _ => return Err(r.invalid("pad kind")),
            };
            let p = &mut sys.io.pads[i];
            p.kind = kind;
            p.buttons = r.u16()?;
            p.th = r.u8()?;
            let (counter, timeout) = (r.u8()?, r.u8()?);
            p.th_latency_until = r.u64()?;
            sys.io.set_pad_counters(i, counter, timeout);
        }

        let ym = &mut sys.ym;
        let addr = r.bytes_exact(2)?;
        ym.address.copy_from_slice(&addr);
        ym.regs = r.bytes_exact(512)?;
        ym.status = r.u8()?;
        ym.mode = r.u8()?;
        ym.timer_a_period = r.i32()?;
        ym.timer_a_count = r.i32()?;
        ym.timer_b_period = r.i32()?;
        ym.timer_b_count = r.i32()?;
        ym.synced_to = r.u64()?;
        ym.busy_until = r.u64()?;
        sys.psg.tone = r.u16_array()?;
        let vol = r.bytes_exact(4)?;
        sys.psg.volume.copy_from_slice(&vol);
        sys.psg.latched = r.u8()?;
        // Register 0-7 (channel, tone or volume): the chip indexes its channels with it
        // (save-state fuzz finding: `fuzz/regressions/save_state-crash-9fdab285.edits`).
        if sys.psg.latched > 7 {
            return Err(r.invalid("PSG latched register above 7"));
        }
        let synth = r.bytes(4096)?;
        let used = sys
            .ym
            .load_synth(&synth)
            .ok_or_else(|| r.invalid("YM2612 synthesis state"))?;
        let used_psg = sys
            .psg
            .load_synth(&synth[used..])
            .ok_or_else(|| r.invalid("PSG synthesis state"))?;
        if used + used_psg != synth.len() {
            return Err(r.invalid("sound synthesis state length"));
        }

        let v = &mut sys.vdp;
        let regs = r.bytes_exact(24)?;
        v.regs.copy_from_slice(&regs);
        v.vram = packed::read(&mut r, v.vram.len())?;
        v.cram = r.u16_array()?;
        v.vsram = r.u16_array()?;
        v.code = r.u8()?;
        v.addr = r.u16()?;
        v.addr_latch = r.u16()?;
        v.pending = r.bool()?;
        let has_cached = r.bool()?;
        let cached = r.u16()?;
        v.cached_ctrl = has_cached.then_some(cached);
        v.status = r.u16()?;
        v.hint_pending = r.bool()?;
        v.vint_pending = r.bool()?;
        let delay = r.u8()?;
        v.irq_delay = crate::vdp::irq_delay::IrqDelay::from_byte(delay)
            .ok_or_else(|| r.invalid("interrupt latency byte out of range"))?;
        v.hint_counter = r.u8()?;
        v.v_counter = r.u16()?;
        v.line_start = r.u64()?;
        v.frame_start = r.u64()?;
        v.active_lines = r.u16()?;
        v.pal = r.bool()?;
        v.dma = Dma {
            length: r.u32()?,
            source: r.u16()?,
            kind: DmaKind::from_u8(r.u8()?),
            fill_pending: r.bool()?,
            end: r.u64()?,
        };
        v.fifo.data = r.u16_array()?;
        v.fifo.index = (r.u8()? & 3) as usize;
        for d in &mut v.fifo.drain_at {
            *d = r.u64()?;
        }
        v.fifo.byte_access = r.bool()?;
        v.hv_latch = r.u32()?;
        v.odd_frame = r.bool()?;
        v.interlaced = r.bool()?;
        v.im2 = r.bool()?;
        v.z80_irq = r.bool()?;
        v.frame_width = r.u16()?;
        v.frame_height = r.u16()?;
        v.drawing_width = r.u16()?;
        let n = crate::vdp::MAX_WIDTH * crate::vdp::MAX_HEIGHT;
        let frame = packed::read_u16s(&mut r, n)?;
        let drawing = packed::read_u16s(&mut r, n)?;
        // All black is kept as no buffer, as a machine that never drew has it (headless
        // copies of the loaded machine then go without the 600 KiB).
        let black = |b: Vec<u16>| {
            if b.iter().all(|&p| p == 0) {
                Vec::new()
            } else {
                b
            }
        };
        v.frame = black(frame);
        v.drawing = black(drawing);
        v.renderer = crate::vdp::render::Renderer::new();
        // A line is 256 or 320 pixels wide (H32/H40, `Vdp::render_line`); `frame_buffer`
        // reads the visible frame with that width against a 320-pixel stride, so any other
        // width in a state would read past the buffer.
        let widths_ok = [v.frame_width, v.drawing_width]
            .iter()
            .all(|w| matches!(w, 256 | 320));
        if v.active_lines > 240 || v.frame_height as usize > crate::vdp::MAX_HEIGHT || !widths_ok {
            return Err(r.invalid("VDP geometry"));
        }
        // A line past the frame's last one never ends the frame (`Machine::run` ends it when
        // the count reaches the frame's lines, so it runs on to the 16-bit count's wrap), and
        // no DMA is longer than its 16-bit length register (0 = 65,536 words): a state with
        // both ran 64,000 lines of a bus DMA that held the 68000 past every deadline
        // (save-state fuzz finding: `fuzz/regressions/save_state-timeout-75c56370.edits`).
        if self.frame_line >= v.lines_per_frame() {
            return Err(r.invalid("scheduler line past the frame's last line"));
        }
        if v.dma.length > 0x1_0000 {
            return Err(r.invalid("DMA length above 65,536 words (its register is 16 bits)"));
        }
        if !self.clocks_in_step() {
            return Err(r.invalid(
                "clocks out of step (the scheduler, Z80 or VDP clock is more than 16 frames \
                 from the master clock)",
            ));
        }
        if r.pos != bytes.len() {
            return Err(StateError::TrailingBytes { offset: r.pos });
        }
        Ok(())
    }
}

/// How far a saved clock may lie from the master clock: 16 frames of 313 lines. A state saved
/// by the machine keeps them within a line or a DMA's length of it; the catch-up after loading
/// (the 68000 to its line's end, the Z80 to the 68000) takes as long as the distance, so a
/// state with clocks years apart would run for years (save-state fuzz finding:
/// `fuzz/regressions/save_state-timeout-99b71ef1.edits`).
const CLOCK_WINDOW_MCLK: u64 = 16 * 313 * crate::clock::MCLK_PER_LINE;

impl Machine {
    fn clocks_in_step(&self) -> bool {
        let sys = &self.bus.sys;
        let now = sys.now;
        let near = |t: u64| t.abs_diff(now) <= CLOCK_WINDOW_MCLK;
        self.line_start <= now
            && near(self.line_start)
            && near(sys.z80_mclk)
            && sys.m68k_debt_mclk <= CLOCK_WINDOW_MCLK
            && near(sys.vdp.line_start)
            && near(sys.vdp.frame_start)
    }
}
