//! The YM2612 (OPN2): address/data ports, the status register with its busy flag, timers A
//! and B counting in output samples so their overflow flags read as on hardware, and the FM
//! synthesis: 6 channels of 4 operators, the 8 algorithms, operator 1 feedback, the envelope
//! generator, detune/multiple, the LFO (AMS/PMS), channel 3's special mode, the DAC on
//! channel 6 and stereo panning, one output sample per 144 YM clocks (MCLK / 1008, 53,267 Hz
//! on NTSC).
//!
//! Sources (documentation, not code): Yamaha's YM2608/YM2612 application manuals (register
//! map, timer periods, detune table, the AMS/PMS depths); Nemesis's reverse-engineering
//! notes on SpritesMind (the 256-entry log-sin and exponent tables and their formulas, the
//! envelope generator's counter, rate shifts and increment patterns including the YM2612's
//! odd patterns for rates 2-7, the 10-bit attenuation, the 13-bit operator output, the
//! operator pipeline's one-sample delays); jsgroth's "Emulating the YM2612" articles and
//! the Nuked-OPN2 description of the 9-bit DAC's multiplexed output (the "ladder effect").
//!
//! Operators are numbered as in the algorithm diagrams, op1..op4; the register offsets
//! +0/+4/+8/+C address op1, op3, op2, op4 ([`REG_SLOT_TO_OP`](tables::REG_SLOT_TO_OP)).
//!
//! The 9-bit DAC: each channel's 14-bit sum is cut to 9 bits; the Model 1's discrete chip
//! adds its multiplexing "ladder" offsets (`dac`, `Ym2612::discrete`; off by default,
//! the integrated YM3438 of later consoles). The mixer's DC blocker removes constant parts.
//!
//! Timer periods: YM2612 application manual (timer A: 18 us x (1024 - TA) at 7.67 MHz, one
//! tick per output sample; timer B: 16 samples per tick). Busy flag: 32 YM clocks after a data
//! write (Nemesis's measurements, as Genesis Plus GX models them).
//!
//! Here: the chip (ports, status, busy flag, timers, reset, the synthesis state's bytes). Its
//! other files: `tables` (constants, tables and pure functions of register values), `operator`
//! (the operators' and channels' running state), `params` and `derive` (the parameters derived
//! per register write), `synth` (the synthesis loop), `ssg` (SSG-EG), `csm` (CSM key-on), `lfo`
//! (the LFO's AM and PM steps), `dac` (the 9-bit DAC and the discrete chip's ladder) and
//! `dac_log` (DAC writes logged while synthesising). Not modelled: the test register.

mod csm;
mod dac;
mod dac_log;
mod derive;
#[cfg(test)]
mod documented_tests;
mod lfo;
pub mod operator;
mod params;
mod ssg;
mod synth;
pub mod tables;
#[cfg(test)]
mod tests;

use super::bytes::ByteReader;
use super::calls::{CallLog, YmCall};
use crate::clock::MCLK_PER_FM_SAMPLE;
use operator::Channel;
use params::ParamCache;
use tables::{EG_ATTACK, EG_DECAY, EG_RELEASE, MAX_ATT, busy_until, key_code, reg_addr};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ym2612 {
    /// Last address written to each part (port 0: $000-$0FF, port 2: $100-$1FF).
    pub address: [u8; 2],
    /// The 512 registers as last written.
    pub regs: Vec<u8>,
    pub status: u8,
    /// Register $27: timer load/enable/reset and channel-3 mode.
    pub mode: u8,
    pub timer_a_period: i32,
    pub timer_a_count: i32,
    pub timer_b_period: i32,
    pub timer_b_count: i32,
    /// Absolute master clock up to which the timers have run (sample boundaries).
    pub synced_to: u64,
    /// Absolute master clock at which the busy flag clears.
    pub busy_until: u64,
    // ---- synthesis ----
    pub channels: [Channel; 6],
    /// Channel 3's special-mode F-numbers/blocks for op1, op2, op3 (from $A9/$AD, $AA/$AE,
    /// $A8/$AC).
    pub ch3_fnum: [u16; 3],
    pub ch3_block: [u8; 3],
    /// The EG is clocked every third sample; its 12-bit counter.
    pub eg_timer: u8,
    pub eg_counter: u16,
    /// LFO: samples into the current step and the 7-bit step.
    pub lfo_timer: u8,
    pub lfo_step: u8,
    /// CSM: channel 3's operators keyed on by a timer A overflow, to be keyed off after the
    /// next sample (`csm`; sound only, not part of save states).
    pub csm_keyed: u8,
    /// Synthesise (set by the machine when audio is wanted; not part of save states).
    pub render: bool,
    /// Model the Model 1's discrete YM2612 and its DAC ladder instead of the integrated
    /// YM3438 (`dac`; sound only, not part of save states).
    pub discrete: bool,
    /// Interleaved stereo samples at the chip's rate not yet taken by the mixer, in the
    /// mixer's scale (not part of save states).
    pub out: Vec<i16>,
    /// The operators' parameters derived from the registers (not part of save states).
    pub(crate) params: ParamCache,
    /// The timed calls made since they were last shipped to the sound thread, while it
    /// synthesises (`sound::thread`; not part of save states).
    pub(crate) calls: CallLog<YmCall>,
    /// The DAC byte synthesis has reached ($2A's value at `synced_to`), and the DAC writes not
    /// synthesised yet: the sample boundary each takes effect at, and its byte
    /// (`dac_log`; empty whenever the chip is caught up, so not part of save states).
    pub(crate) dac_rendered: u8,
    pub(crate) dac_log: Vec<(u64, u8)>,
}

impl Default for Ym2612 {
    fn default() -> Self {
        Self::new()
    }
}

impl Ym2612 {
    pub fn new() -> Self {
        let mut regs = vec![0; 512];
        // Both outputs on after reset.
        for r in [0xB4, 0xB5, 0xB6, 0x1B4, 0x1B5, 0x1B6] {
            regs[r] = 0xC0;
        }
        // The DAC latch holds the written byte with its top bit flipped (a signed sample) and
        // clears at reset, so until the first write to $2A it outputs the centre level, as $80
        // would (Nuked-OPN2's reading of the die). Sonic 2's driver turns the DAC on (frame 18)
        // before writing a sample: with a reset value of 0 it jumped to full negative scale,
        // a loud click Genesis Plus GX does not make. Registers are write-only: the game sees
        // no difference.
        regs[0x2A] = 0x80;
        let mut channels: [Channel; 6] = Default::default();
        for ch in &mut channels {
            for op in &mut ch.ops {
                op.env = MAX_ATT;
                op.eg_phase = EG_RELEASE;
            }
        }
        Ym2612 {
            address: [0; 2],
            regs,
            status: 0,
            mode: 0,
            timer_a_period: 1024,
            timer_a_count: 0,
            timer_b_period: 256 << 4,
            timer_b_count: 0,
            synced_to: 0,
            busy_until: 0,
            channels,
            ch3_fnum: [0; 3],
            ch3_block: [0; 3],
            eg_timer: 0,
            eg_counter: 0,
            lfo_timer: 0,
            lfo_step: 0,
            csm_keyed: 0,
            render: false,
            discrete: false,
            out: Vec::new(),
            params: ParamCache::default(),
            calls: CallLog::default(),
            dac_rendered: 0x80,
            dac_log: Vec::new(),
        }
    }

    /// Chip reset (the Z80's reset line also resets the YM2612).
    pub fn reset(&mut self, now: u64) {
        self.calls.push(YmCall::Reset(now));
        self.sync(now);
        let synced = self.synced_to;
        let render = self.render;
        let discrete = self.discrete;
        let out = std::mem::take(&mut self.out);
        let calls = std::mem::take(&mut self.calls);
        *self = Ym2612::new();
        self.synced_to = synced;
        self.render = render;
        self.discrete = discrete;
        self.out = out;
        self.calls = calls;
    }

    /// Runs the timers (and the synthesis) in whole samples up to the first sample boundary
    /// at or after `now`.
    ///
    /// Inline up to the common case of a headless machine with both timers stopped (Sonic 2's
    /// driver runs on the V-int, not the timers), where only the sample clock moves: every
    /// register write syncs first.
    #[inline(always)]
    pub fn sync(&mut self, now: u64) {
        if !self.dac_log.is_empty() {
            self.sync_dac_log(now);
            return;
        }
        if now <= self.synced_to {
            return;
        }
        let samples = (now - self.synced_to).div_ceil(MCLK_PER_FM_SAMPLE);
        self.synced_to += samples * MCLK_PER_FM_SAMPLE;
        if self.render || self.mode & 3 != 0 {
            self.run_samples(samples);
        }
    }

    /// [`Ym2612::sync`]'s synthesis and timers over `samples` samples ending at `synced_to`.
    #[inline(never)]
    pub(crate) fn run_samples(&mut self, samples: u64) {
        if self.render {
            // After a long silence (a machine that just enabled sound) render the last second.
            let n = samples.min(53_267);
            if n < samples {
                self.out.clear();
            }
            if self.csm_active() || self.csm_keyed != 0 {
                self.render_samples_csm(n as usize, samples - n);
            } else {
                self.render_samples(n as usize);
            }
        }
        let samples = samples.min(1 << 20) as i64;
        if self.mode & 1 != 0 {
            let (count, overflow) = run_timer(self.timer_a_count, self.timer_a_period, samples);
            self.timer_a_count = count;
            if overflow && self.mode & 4 != 0 {
                self.status |= 1;
            }
        }
        if self.mode & 2 != 0 {
            let (count, overflow) = run_timer(self.timer_b_count, self.timer_b_period, samples);
            self.timer_b_count = count;
            if overflow && self.mode & 8 != 0 {
                self.status |= 2;
            }
        }
    }

    /// Status read (A0=A1=0 on a discrete YM2612; the other addresses read the same on the
    /// ASIC-integrated chips and 0 on the discrete one: we model the discrete chip).
    pub fn read(&mut self, port: u32, now: u64) -> u8 {
        if port & 3 != 0 {
            return 0;
        }
        self.calls.push(YmCall::Sync(now));
        self.sync(now);
        let busy = if now < self.busy_until { 0x80 } else { 0 };
        self.status | busy
    }

    /// A write to the chip's four ports. Inline up to the address latches (half the writes;
    /// Sonic 2's DAC driver selects register $2A before each sample byte); the register writes
    /// run out of line.
    #[inline(always)]
    pub fn write(&mut self, port: u32, value: u8, now: u64) {
        if self.calls.on {
            // Out of line, so the inline paths make no call and save no registers.
            self.write_logged(port, value, now);
            return;
        }
        self.write_unlogged(port, value, now);
    }

    /// A write to an address port (`port` 0 or 2) while no calls are logged: the latch only,
    /// the same as [`Ym2612::write`], which the Z80's write path then calls without working
    /// out the master clock (Sonic 2's DAC loop selects the DAC register twice a sample
    /// pair). Returns false, having done nothing, while the calls are logged.
    #[inline(always)]
    pub(crate) fn latch_address_quiet(&mut self, port: u32, value: u8) -> bool {
        debug_assert!(port & 1 == 0);
        if self.calls.on {
            return false;
        }
        self.address[((port >> 1) & 1) as usize] = value;
        true
    }

    /// [`Ym2612::write`] while the calls are logged for the sound thread.
    #[cold]
    #[inline(never)]
    fn write_logged(&mut self, port: u32, value: u8, now: u64) {
        self.calls.push(YmCall::Write {
            port: (port & 3) as u8,
            value,
            at: now,
        });
        self.write_unlogged(port, value, now);
    }

    /// [`Ym2612::write`] past the call log.
    #[inline(always)]
    fn write_unlogged(&mut self, port: u32, value: u8, now: u64) {
        let part = ((port >> 1) & 1) as usize;
        if port & 1 == 0 {
            self.address[part] = value;
            return;
        }
        if part == 0 && self.address[0] == 0x2A {
            // The DAC's sample (the other half of the writes): no derived state depends on
            // it, and while synthesising it is logged rather than caught up to.
            self.busy_until = busy_until(now);
            self.write_dac(value, now);
            return;
        }
        self.write_register(part, value, now);
    }

    /// A data-port write: the register `address[part]` selects takes `value`.
    #[inline(never)]
    fn write_register(&mut self, part: usize, value: u8, now: u64) {
        self.sync(now);
        self.busy_until = busy_until(now);
        let reg = self.address[part] as usize;
        self.regs[part * 256 + reg] = value;
        self.mark_dirty(part, reg);
        if part == 0 {
            match reg {
                0x24 => {
                    let ta = (self.regs[0x24] as i32) << 2 | (self.regs[0x25] as i32 & 3);
                    self.timer_a_period = 1024 - ta;
                }
                0x25 => {
                    let ta = (self.regs[0x24] as i32) << 2 | (value as i32 & 3);
                    self.timer_a_period = 1024 - ta;
                }
                0x26 => self.timer_b_period = (256 - value as i32) << 4,
                0x27 => {
                    if value & 1 != 0 && self.mode & 1 == 0 {
                        self.timer_a_count = self.timer_a_period;
                    }
                    if value & 2 != 0 && self.mode & 2 == 0 {
                        self.timer_b_count = self.timer_b_period;
                    }
                    // Bits 4/5 reset the overflow flags.
                    self.status &= !(value >> 4) & 3;
                    self.mode = value;
                }
                0x28 => self.key_on_off(value),
                0xA8..=0xAA => {
                    let slot = [2, 0, 1][reg - 0xA8];
                    let hi = self.regs[reg + 4];
                    self.ch3_fnum[slot] = ((hi as u16 & 7) << 8) | value as u16;
                    self.ch3_block[slot] = (hi >> 3) & 7;
                }
                _ => {}
            }
        }
        if (0xA0..=0xA2).contains(&reg) {
            let ch = part * 3 + (reg - 0xA0);
            let hi = self.regs[part * 256 + reg + 4];
            let c = &mut self.channels[ch];
            c.fnum = ((hi as u16 & 7) << 8) | value as u16;
            c.block = (hi >> 3) & 7;
        }
    }

    /// A write to register `reg` of `part` may change the derived parameters of a channel.
    fn mark_dirty(&mut self, part: usize, reg: usize) {
        let channel = match reg {
            // Channel 3's special mode and its extra F-numbers.
            0x27 | 0xA8..=0xAE => Some(2),
            0x30..=0xB7 if reg & 3 != 3 => Some(part * 3 + (reg & 3)),
            _ => None,
        };
        if let Some(ch) = channel {
            self.params.dirty |= 1 << ch;
        }
    }

    fn key_on_off(&mut self, value: u8) {
        let ch = match value & 7 {
            c @ 0..=2 => c as usize,
            c @ 4..=6 => c as usize - 1,
            _ => return,
        };
        for op in 0..4 {
            let on = value & (0x10 << op) != 0;
            let was = self.channels[ch].ops[op].key;
            // An operator CSM holds keyed on is already sounding: a $28 key-on only takes it
            // over (it stays on after CSM's key-off).
            let csm_held = ch == 2 && self.csm_keyed & (1 << op) != 0;
            if on && !was && !csm_held {
                self.key_on_operator(ch, op);
            } else if !on && was {
                self.key_off_operator(ch, op);
            }
            if ch == 2 && on {
                self.csm_keyed &= !(1 << op);
            }
            self.channels[ch].ops[op].key = on;
        }
    }

    /// Key-on of one operator: phase and envelope restart (the attack, or full level at once
    /// for attack rates of 62 and 63).
    pub(crate) fn key_on_operator(&mut self, ch: usize, op: usize) {
        let ar = self.regs[reg_addr(ch, 0x50, op)] & 0x1F;
        let ks_rate = self.key_scale(ch, op);
        let o = &mut self.channels[ch].ops[op];
        o.phase = 0;
        o.eg_phase = EG_ATTACK;
        ssg::key_on(o);
        if ar != 0 && (2 * ar as u32 + ks_rate).min(63) >= 62 {
            o.env = 0;
        }
        if o.env == 0 {
            o.eg_phase = EG_DECAY;
        }
    }

    /// Key-off of one operator: release.
    pub(crate) fn key_off_operator(&mut self, ch: usize, op: usize) {
        let ssg_reg = self.regs[reg_addr(ch, 0x90, op)] & 0x0F;
        let o = &mut self.channels[ch].ops[op];
        ssg::key_off(o, ssg_reg);
        o.eg_phase = EG_RELEASE;
    }

    /// F-number and block driving operator `op` of channel `ch`.
    pub(crate) fn freq(&self, ch: usize, op: usize) -> (u16, u8) {
        if ch == 2 && self.mode & 0xC0 != 0 && op < 3 {
            (self.ch3_fnum[op], self.ch3_block[op])
        } else {
            let c = &self.channels[ch];
            (c.fnum, c.block)
        }
    }

    /// The rate added by key scaling for operator `op`.
    fn key_scale(&self, ch: usize, op: usize) -> u32 {
        let (fnum, block) = self.freq(ch, op);
        let ks = self.regs[reg_addr(ch, 0x50, op)] >> 6;
        key_code(fnum, block) >> (3 - ks)
    }

    /// The synthesis state as bytes (for save states).
    pub fn save_synth(&self, out: &mut Vec<u8>) {
        for c in &self.channels {
            for o in &c.ops {
                out.extend_from_slice(&o.phase.to_le_bytes());
                out.extend_from_slice(&o.env.to_le_bytes());
                // Bit 2: SSG-EG's inversion flag (older states have 0 there).
                out.push(o.eg_phase | u8::from(o.ssg_inv) << 2);
                out.push(u8::from(o.key));
            }
            out.extend_from_slice(&c.fnum.to_le_bytes());
            out.push(c.block);
            for v in [c.op1_out[0], c.op1_out[1], c.mem, c.out] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for i in 0..3 {
            out.extend_from_slice(&self.ch3_fnum[i].to_le_bytes());
            out.push(self.ch3_block[i]);
        }
        out.push(self.eg_timer);
        out.extend_from_slice(&self.eg_counter.to_le_bytes());
        out.push(self.lfo_timer);
        out.push(self.lfo_step);
    }

    /// Restores what [`Ym2612::save_synth`] wrote; returns the bytes consumed.
    pub fn load_synth(&mut self, data: &[u8]) -> Option<usize> {
        let mut r = ByteReader::new(data);
        for c in &mut self.channels {
            for o in &mut c.ops {
                o.phase = r.u32()? & 0xFFFFF;
                o.env = r.u16()?.min(MAX_ATT);
                let phase = r.u8()?;
                o.eg_phase = phase & 3;
                o.ssg_inv = phase & 4 != 0;
                o.key = r.u8()? != 0;
            }
            c.fnum = r.u16()? & 0x7FF;
            c.block = r.u8()? & 7;
            c.op1_out = [r.i32()?, r.i32()?];
            c.mem = r.i32()?;
            c.out = r.i32()?;
        }
        for i in 0..3 {
            self.ch3_fnum[i] = r.u16()? & 0x7FF;
            self.ch3_block[i] = r.u8()? & 7;
        }
        self.eg_timer = r.u8()? % 3;
        self.eg_counter = r.u16()? & 0xFFF;
        self.lfo_timer = r.u8()?;
        self.lfo_step = r.u8()? & 0x7F;
        self.out.clear();
        // The registers may have been restored too.
        self.params.dirty = 0x3F;
        self.dac_rendered = self.regs[0x2A];
        self.dac_log.clear();
        Some(r.pos)
    }
}

/// Counts a timer down by `ticks`; returns the new count and whether it overflowed (reloading
/// from `period` as often as needed).
fn run_timer(count: i32, period: i32, ticks: i64) -> (i32, bool) {
    let count = count as i64 - ticks;
    if count > 0 {
        return (count as i32, false);
    }
    let period = period.max(1) as i64;
    let over = (-count) % period;
    ((period - over) as i32, true)
}
