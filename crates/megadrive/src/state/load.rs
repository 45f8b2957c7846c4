//! Reading a save state back: every field checked as it is read, into a copy of the machine
//! that replaces it only when the whole state is good.

use super::{MAGIC, Reader, STATE_VERSION, StateError, cpu, packed, rom_hash};
use crate::bus::Watch;
use crate::bus::z80_bus::Z80_RAM_BYTES;
use crate::cpu::sound_cpu::SoundCpu;
use crate::io::PadKind;
use crate::machine::{Machine, Phase};
use crate::vdp::dma::{Dma, DmaKind};

impl Machine {
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
