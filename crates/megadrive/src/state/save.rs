//! Writing a save state: the machine's parts in the layout's order (the layout is `state`'s).

use super::{MAGIC, STATE_VERSION, Writer, cpu, packed, rom_hash};
use crate::io::PadKind;
use crate::machine::{Machine, Phase};

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
        // catch-up at each write would have left the chip (`sound::ym2612::dac_log`).
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
}
