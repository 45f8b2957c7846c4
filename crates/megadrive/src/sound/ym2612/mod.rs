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
//! +0/+4/+8/+C address op1, op3, op2, op4 ([`REG_SLOT_TO_OP`]).
//!
//! The 9-bit DAC: each channel's 14-bit sum is cut to 9 bits; the Model 1's discrete chip
//! adds its multiplexing "ladder" offsets (`ym2612_dac`, `Ym2612::discrete`; off by default,
//! the integrated YM3438 of later consoles). The mixer's DC blocker removes constant parts.
//!
//! Timer periods: YM2612 application manual (timer A: 18 us x (1024 - TA) at 7.67 MHz, one
//! tick per output sample; timer B: 16 samples per tick). Busy flag: 32 YM clocks after a data
//! write (Nemesis's measurements, as Genesis Plus GX models them).
//!
//! SSG-EG is in `ym2612_ssg`, CSM key-on in `ym2612_csm`, the LFO's AM and PM steps in
//! `ym2612_lfo`. Not modelled: the test register.

use std::sync::LazyLock;

use super::bytes::ByteReader;
use super::calls::{CallLog, YmCall};
use crate::clock::MCLK_PER_FM_SAMPLE;
use dac_log::dac_out;
use params::{ChannelParams, OpParams, ParamCache, derive};

mod csm;
mod dac;
mod dac_log;
#[cfg(test)]
mod documented_tests;
mod lfo;
mod params;
mod ssg;

/// Master clocks per YM2612 internal clock (MCLK / 7 / 6).
pub const MCLK_PER_FM_CLOCK: u64 = 42;
/// YM clocks the busy flag stays set after a data-port write.
pub const BUSY_FM_CLOCKS: u64 = 32;

/// Register slot (offset / 4) to operator number - 1.
pub const REG_SLOT_TO_OP: [usize; 4] = [0, 2, 1, 3];

/// Envelope phases.
pub const EG_ATTACK: u8 = 0;
pub const EG_DECAY: u8 = 1;
pub const EG_SUSTAIN: u8 = 2;
pub const EG_RELEASE: u8 = 3;

/// Largest attenuation (10 bits, 0.09375 dB per unit).
pub const MAX_ATT: u16 = 0x3FF;

/// Detune in phase-increment units per key code (0-31), for DT = 1..3 (Yamaha's table).
const DETUNE: [[u8; 32]; 3] = [
    [
        0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8,
        8, 8,
    ],
    [
        1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14,
        16, 16, 16, 16,
    ],
    [
        2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19,
        20, 22, 22, 22, 22,
    ],
];

/// LFO: output samples per LFO step (128 steps per cycle) for frequencies 0-7
/// (3.98, 5.56, 6.02, 6.37, 6.88, 9.63, 48.1, 72.2 Hz).
const LFO_PERIOD: [u8; 8] = [108, 77, 71, 67, 62, 44, 8, 5];
/// AMS 0-3: right shift of the LFO's 0-126 triangle (0, 1.4, 5.9, 11.8 dB at the peak).
pub(crate) const AMS_SHIFT: [u8; 4] = [8, 3, 1, 0];

/// Envelope increment patterns, indexed by the low two bits of the rate (or the YM2612's
/// odd rows for rates 2-7), stepped by the EG counter.
const EG_PATTERN: [[u8; 8]; 4] = [
    [0, 1, 0, 1, 0, 1, 0, 1],
    [0, 1, 0, 1, 1, 1, 0, 1],
    [0, 1, 1, 1, 0, 1, 1, 1],
    [0, 1, 1, 1, 1, 1, 1, 1],
];
const EG_PATTERN_FAST: [[u8; 8]; 4] = [
    [1, 1, 1, 1, 1, 1, 1, 1],
    [1, 1, 1, 2, 1, 1, 1, 2],
    [1, 2, 1, 2, 1, 2, 1, 2],
    [1, 2, 2, 2, 1, 2, 2, 2],
];

/// The log-sin and exponent tables (Nemesis): 256 entries each, and the two the operator
/// reads, unfolded from them.
pub struct Tables {
    /// round(-log2(sin((i + 0.5) * pi / 512)) * 256): a quarter sine as attenuation in 4.8
    /// fixed point.
    pub log_sin: [u16; 256],
    /// round((2^(i / 256) - 1) * 1024): the fraction of 2^x in 10 bits.
    pub exp: [u16; 256],
    /// `log_sin` over the half wave (9 bits of phase: the second quarter mirrors the first),
    /// so the operator does not fold the phase.
    half_sine: [u16; 512],
    /// The magnitude for every attenuation level a half-wave entry plus a 10-bit attenuation
    /// (x 4) can make: `((exp[!level & 0xFF] | 0x400) << 2) >> (level >> 8)`, 0 from 13 << 8
    /// up (below the 13-bit output). One load for the exponent step's xor, load, or, and two
    /// shifts (one by a variable count), on the operator's latency chain; 12 KiB.
    magnitude: [u16; MAX_LEVEL + 1],
}

/// The largest attenuation level an operator can reach: the log-sin table's top plus the
/// largest attenuation (x 4).
const MAX_LEVEL: usize = 0x859 + ((MAX_ATT as usize) << 2);

pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut log_sin = [0u16; 256];
    let mut exp = [0u16; 256];
    for i in 0..256 {
        let s = ((i as f64 + 0.5) * std::f64::consts::PI / 512.0).sin();
        log_sin[i] = (-s.log2() * 256.0).round() as u16;
        exp[i] = ((2f64.powf(i as f64 / 256.0) - 1.0) * 1024.0).round() as u16;
    }
    let half_sine = std::array::from_fn(|i| {
        let quarter = if i & 0x100 != 0 { !i & 0xFF } else { i & 0xFF };
        log_sin[quarter]
    });
    let magnitude = std::array::from_fn(|level| {
        if level >= 13 << 8 {
            0
        } else {
            (((exp[(level & 0xFF) ^ 0xFF] as u32 | 0x400) << 2) >> (level >> 8)) as u16
        }
    });
    Tables {
        log_sin,
        exp,
        half_sine,
        magnitude,
    }
});

impl Tables {
    /// One operator's output: a 10-bit phase and a 10-bit attenuation to a 14-bit signed
    /// value (13-bit magnitude).
    #[inline]
    pub fn operator(&self, phase: u32, att: u32) -> i32 {
        let level = self.half_sine[(phase & 0x1FF) as usize] as u32 + (att << 2);
        let mag = self.magnitude[level as usize] as i32;
        if phase & 0x200 != 0 { -mag } else { mag }
    }

    /// [`Tables::operator`] from the 256-entry tables, step by step (what the unfolded
    /// tables are tested against).
    #[cfg(test)]
    fn operator_reference(&self, phase: u32, att: u32) -> i32 {
        let index = if phase & 0x100 != 0 {
            !phase & 0xFF
        } else {
            phase & 0xFF
        };
        let level = self.log_sin[index as usize] as u32 + (att << 2);
        if level >= 13 << 8 {
            return 0;
        }
        let mag =
            (((self.exp[((level & 0xFF) ^ 0xFF) as usize] as u32) | 0x400) << 2) >> (level >> 8);
        if phase & 0x200 != 0 {
            -(mag as i32)
        } else {
            mag as i32
        }
    }
}

/// One operator's running state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operator {
    /// 20-bit phase accumulator.
    pub phase: u32,
    /// Envelope attenuation (10 bits).
    pub env: u16,
    pub eg_phase: u8,
    pub key: bool,
    /// SSG-EG's inversion flag (`ym2612_ssg`).
    pub ssg_inv: bool,
}

/// One channel's running state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Channel {
    pub ops: [Operator; 4],
    /// F-number (11 bits) and block as applied by the last $A0-$A2 write.
    pub fnum: u16,
    pub block: u8,
    /// Operator 1's last two outputs (feedback) and the delayed modulation value.
    pub op1_out: [i32; 2],
    pub mem: i32,
    /// Last output (14-bit, clipped), for tests and meters.
    pub out: i32,
}

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
    /// next sample (`ym2612_csm`; sound only, not part of save states).
    pub csm_keyed: u8,
    /// Synthesise (set by the machine when audio is wanted; not part of save states).
    pub render: bool,
    /// Model the Model 1's discrete YM2612 and its DAC ladder instead of the integrated
    /// YM3438 (`ym2612_dac`; sound only, not part of save states).
    pub discrete: bool,
    /// Interleaved stereo samples at the chip's rate not yet taken by the mixer, in the
    /// mixer's scale (not part of save states).
    pub out: Vec<i16>,
    /// The operators' parameters derived from the registers (not part of save states).
    pub(crate) params: ParamCache,
    /// The timed calls made since they were last shipped to the sound thread, while it
    /// synthesises (`sound_thread`; not part of save states).
    pub(crate) calls: CallLog<YmCall>,
    /// The DAC byte synthesis has reached ($2A's value at `synced_to`), and the DAC writes not
    /// synthesised yet: the sample boundary each takes effect at, and its byte
    /// (`ym2612_dac_log`; empty whenever the chip is caught up, so not part of save states).
    pub(crate) dac_rendered: u8,
    pub(crate) dac_log: Vec<(u64, u8)>,
}

impl Channel {
    /// Every envelope released to the floor and nothing in the operator pipeline: the channel
    /// outputs 0 until a key-on.
    #[inline]
    fn silent(&self) -> bool {
        self.op1_out == [0, 0]
            && self.mem == 0
            && self
                .ops
                .iter()
                .all(|o| o.eg_phase == EG_RELEASE && o.env == MAX_ATT)
    }
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

    /// Renders `n` output samples into [`Ym2612::out`].
    ///
    /// Registers only change between calls (a write first syncs), so a channel silent at the
    /// start stays silent to the end: every envelope released to the floor and nothing in its
    /// operator pipeline, only a key-on (a write, or CSM between single samples) wakes it. Such
    /// a channel (without PM, whose increments vary) outputs 0 (the DAC's constant when it is
    /// channel 6) and only its phases move, by the same increment each sample: they are moved
    /// once for the whole call, and its constant contribution is added to every sample.
    pub fn render_samples(&mut self, n: usize) {
        let tables = &*TABLES;
        let dirty = self.params.dirty;
        for ch in 0..6 {
            if dirty & (1 << ch) != 0 {
                self.rederive(ch);
            }
        }
        let dac_on = self.regs[0x2B] & 0x80 != 0;
        let dac = dac_out(self.dac_rendered);
        let mut active = 0u8;
        let (mut base_left, mut base_right) = (0i32, 0i32);
        for ch in 0..6 {
            let p = &self.params.channels[ch];
            let c = &mut self.channels[ch];
            if p.pms != 0 || !c.silent() {
                active |= 1 << ch;
                continue;
            }
            for (o, q) in c.ops.iter_mut().zip(&p.ops) {
                o.phase = ((o.phase as u64 + q.inc as u64 * n as u64) & 0xFFFFF) as u32;
            }
            c.out = if ch == 5 && dac_on { dac } else { 0 };
            let b4 = self.regs[if ch < 3 { 0 } else { 0x100 } + 0xB4 + ch % 3];
            base_left += dac::channel_level(c.out, b4 & 0x80 != 0, self.discrete);
            base_right += dac::channel_level(c.out, b4 & 0x40 != 0, self.discrete);
        }
        // Written in place rather than pushed (a capacity check per value). Each active
        // channel adds its levels (x 16, the mixer's scale) to the silent channels' constant
        // sum; the adds wrap as the single cast of the sum did, so the samples are the same.
        let mut out = std::mem::take(&mut self.out);
        let at = out.len();
        out.resize(at + 2 * n, 0);
        let pairs = out[at..].as_chunks_mut::<2>().0;
        pairs.fill([(base_left * 16) as i16, (base_right * 16) as i16]);
        for block in pairs.chunks_mut(BLOCK) {
            let k = block.len();
            let clocks = self.run_clocks(k);
            for ch in 0..6 {
                if active & (1 << ch) != 0 {
                    self.run_channel_block(
                        ch,
                        &clocks,
                        k,
                        dac_output(dac_on, dac, ch),
                        tables,
                        block,
                    );
                }
            }
        }
        self.out = out;
    }

    /// Advances the LFO and the envelope clock by `k` samples (at most [`BLOCK`]) and returns
    /// what each sample's channels see of them.
    #[inline]
    fn run_clocks(&mut self, k: usize) -> Clocks {
        // The EG clock ticks on the sample that takes its timer to 3: every third sample from
        // `first_tick`.
        let first_tick = 2 - self.eg_timer as usize;
        let ticks = if k > first_tick {
            (k - first_tick - 1) / 3 + 1
        } else {
            0
        };
        let mut clocks = Clocks {
            first_tick,
            eg_counter: self.eg_counter,
            am_tri: [lfo::am_level(0) as u8; BLOCK],
            lfo_step: [0; BLOCK],
        };
        self.eg_timer = ((self.eg_timer as usize + k) % 3) as u8;
        self.eg_counter = ((self.eg_counter as usize + ticks) & 0xFFF) as u16;
        let lfo = self.regs[0x22];
        if lfo & 8 == 0 {
            // Off: the LFO holds step 0.
            self.lfo_timer = 0;
            self.lfo_step = 0;
            return clocks;
        }
        let period = LFO_PERIOD[(lfo & 7) as usize];
        for i in 0..k {
            self.lfo_timer += 1;
            if self.lfo_timer >= period {
                self.lfo_timer = 0;
                self.lfo_step = (self.lfo_step + 1) & 0x7F;
            }
            clocks.am_tri[i] = lfo::am_level(self.lfo_step) as u8;
            clocks.lfo_step[i] = self.lfo_step;
        }
        clocks
    }

    /// Runs active channel `ch` for the block's `k` samples and adds its levels to `left` and
    /// `right`. `dac`: the DAC's constant output when it replaces the channel (channel 6 with
    /// the DAC on: the channel's envelopes and phases still run). A channel's samples depend
    /// on the shared clocks and its own state alone, so running the channels one after the
    /// other over a block gives what running them side by side sample by sample does; the
    /// algorithm is made a constant of each loop.
    #[allow(clippy::too_many_arguments)]
    fn run_channel_block(
        &mut self,
        ch: usize,
        clocks: &Clocks,
        k: usize,
        dac: Option<i32>,
        t: &Tables,
        out: &mut [[i16; 2]],
    ) {
        let b4 = self.regs[if ch < 3 { 0 } else { 0x100 } + 0xB4 + ch % 3];
        let pan = (b4 & 0x80 != 0, b4 & 0x40 != 0);
        let discrete = self.discrete;
        let p = &self.params.channels[ch];
        let c = &mut self.channels[ch];
        // Without SSG-EG on any operator (most channels), its checks drop out of the loop.
        let ssg = p.ops.iter().any(|q| q.ssg & ssg::SSG_ON != 0);
        let run = match (p.alg & 7, ssg) {
            (0, false) => channel_block::<0, false>,
            (1, false) => channel_block::<1, false>,
            (2, false) => channel_block::<2, false>,
            (3, false) => channel_block::<3, false>,
            (4, false) => channel_block::<4, false>,
            (5, false) => channel_block::<5, false>,
            (6, false) => channel_block::<6, false>,
            (_, false) => channel_block::<7, false>,
            (0, true) => channel_block::<0, true>,
            (1, true) => channel_block::<1, true>,
            (2, true) => channel_block::<2, true>,
            (3, true) => channel_block::<3, true>,
            (4, true) => channel_block::<4, true>,
            (5, true) => channel_block::<5, true>,
            (6, true) => channel_block::<6, true>,
            (_, true) => channel_block::<7, true>,
        };
        let levels = Levels { pan, discrete, out };
        run(p, c, clocks, k, dac, t, levels);
    }

    /// Derives channel `ch`'s parameters again after a register write (rare next to samples).
    #[cold]
    #[inline(never)]
    fn rederive(&mut self, ch: usize) {
        self.params.channels[ch] = derive(self, ch);
        self.params.dirty &= !(1 << ch);
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

/// The envelope's decay-to-sustain check, made before each EG step.
#[inline(always)]
fn eg_sustain_check(o: &mut Operator, q: &OpParams) {
    if o.eg_phase == EG_DECAY && o.env >= q.sl {
        o.eg_phase = EG_SUSTAIN;
    }
}

/// One EG clock of an operator at counter value `counter` (SSG-EG's step when `SSG` and the
/// operator uses it).
#[inline(always)]
fn eg_step<const SSG: bool>(o: &mut Operator, q: &OpParams, counter: u16) {
    let rate = q.rates[(o.eg_phase & 3) as usize];
    let inc = eg_increment(rate, counter);
    if inc != 0 {
        if o.eg_phase == EG_ATTACK {
            if rate < 62 {
                let env = o.env as i32;
                let next = env + ((!env * inc as i32) >> 4);
                o.env = next.max(0) as u16;
            }
            if o.env == 0 {
                o.eg_phase = EG_DECAY;
            }
        } else if SSG && q.ssg & ssg::SSG_ON != 0 {
            ssg::step(o, inc as u16);
        } else {
            o.env = (o.env + inc as u16).min(MAX_ATT);
        }
    }
}

/// Advances one channel with SSG-EG on some operator by a sample and returns its 14-bit
/// output, for algorithm `ALG` (the channel's parameters derived; `incs`: its operators'
/// phase increments this sample, PM applied). Inlined into the block loop.
#[inline(always)]
fn run_channel_ssg<const ALG: u8>(
    p: &ChannelParams,
    c: &mut Channel,
    eg_tick: bool,
    eg_counter: u16,
    am_tri: u32,
    incs: [u32; 4],
    t: &Tables,
) -> i32 {
    let am = am_tri >> p.ams;

    // A silent channel (every envelope released to the floor, nothing in the operator
    // pipeline) outputs 0 and stays silent: only its phases move.
    if c.silent() {
        for (o, inc) in c.ops.iter_mut().zip(incs) {
            o.phase = (o.phase + inc) & 0xFFFFF;
        }
        return 0;
    }

    // Per operator: the phase the operator reads this sample (before advancing), the
    // envelope step and the total attenuation.
    let mut att = [0u32; 4];
    let mut phase = [0u32; 4];
    for op in 0..4 {
        let q = &p.ops[op];
        let o = &mut c.ops[op];
        // SSG-EG's cycle end may restart the phase, so it comes first.
        ssg::end_of_cycle(o, q.ssg, q.rates[EG_ATTACK as usize] >= 62, q.sl == 0);
        phase[op] = o.phase >> 10;
        o.phase = (o.phase + incs[op]) & 0xFFFFF;
        eg_sustain_check(o, q);
        if eg_tick {
            eg_step::<true>(o, q, eg_counter);
        }
        let mut a = ssg::output_level(o, q.ssg) as u32 + q.tl;
        if q.am {
            a += am;
        }
        att[op] = a.min(MAX_ATT as u32);
    }
    channel_output::<ALG>(p, c, phase, att, t)
}

/// The operators of a channel for one sample, algorithm `ALG`: `phase`, the phases they read
/// (10 bits), `att`, their attenuations; returns the channel's 14-bit output.
#[inline(always)]
fn channel_output<const ALG: u8>(
    p: &ChannelParams,
    c: &mut Channel,
    phase: [u32; 4],
    att: [u32; 4],
    t: &Tables,
) -> i32 {
    let fb = p.fb;
    // Operator 1 with feedback; its output reaches the others one sample late.
    let m1 = c.op1_out[1];
    let fb_in = if fb != 0 {
        (c.op1_out[0] + c.op1_out[1]) >> (10 - fb)
    } else {
        0
    };
    let new_m1 = t.operator((phase[0] as i32 + fb_in) as u32 & 0x3FF, att[0]);
    c.op1_out = [c.op1_out[1], new_m1];
    let mem = c.mem;
    let op = |p: u32, modulation: i32, a: u32| -> i32 {
        t.operator((p as i32 + (modulation >> 1)) as u32 & 0x3FF, a)
    };
    let out = match ALG {
        0 => {
            let m2 = op(phase[2], mem, att[2]);
            let c1 = op(phase[1], m1, att[1]);
            c.mem = c1;
            op(phase[3], m2, att[3])
        }
        1 => {
            let m2 = op(phase[2], mem, att[2]);
            let c1 = op(phase[1], 0, att[1]);
            c.mem = m1 + c1;
            op(phase[3], m2, att[3])
        }
        2 => {
            let m2 = op(phase[2], mem, att[2]);
            let c1 = op(phase[1], 0, att[1]);
            c.mem = c1;
            op(phase[3], m1 + m2, att[3])
        }
        3 => {
            let m2 = op(phase[2], 0, att[2]);
            let c1 = op(phase[1], m1, att[1]);
            let out = op(phase[3], m2 + mem, att[3]);
            c.mem = c1;
            out
        }
        4 => {
            let m2 = op(phase[2], 0, att[2]);
            let c1 = op(phase[1], m1, att[1]);
            c1 + op(phase[3], m2, att[3])
        }
        5 => {
            let m2 = op(phase[2], mem, att[2]);
            c.mem = m1;
            let c1 = op(phase[1], m1, att[1]);
            c1 + m2 + op(phase[3], m1, att[3])
        }
        6 => {
            let m2 = op(phase[2], 0, att[2]);
            let c1 = op(phase[1], m1, att[1]);
            c1 + m2 + op(phase[3], 0, att[3])
        }
        _ => {
            let m2 = op(phase[2], 0, att[2]);
            let c1 = op(phase[1], 0, att[1]);
            m1 + c1 + m2 + op(phase[3], 0, att[3])
        }
    };
    out.clamp(-8192, 8191)
}

/// Where a channel's samples go: its panning, the DAC model and the block's sums.
struct Levels<'a> {
    pan: (bool, bool),
    discrete: bool,
    /// The block's stereo samples.
    out: &'a mut [[i16; 2]],
}

impl Levels<'_> {
    /// Adds a channel's output to sample `i` (x 16, the mixer's scale: one full-scale channel
    /// = 16 x 256 = 4096).
    #[inline(always)]
    fn add(&mut self, i: usize, out: i32) {
        let left = dac::channel_level(out, self.pan.0, self.discrete) * 16;
        let right = dac::channel_level(out, self.pan.1, self.discrete) * 16;
        let pair = &mut self.out[i];
        pair[0] = pair[0].wrapping_add(left as i16);
        pair[1] = pair[1].wrapping_add(right as i16);
    }
}

/// The phase increments of a channel's operators under PM at LFO step `lfo_step`.
#[inline]
fn pm_incs(p: &ChannelParams, lfo_step: u8) -> [u32; 4] {
    std::array::from_fn(|op| {
        let q = &p.ops[op];
        let offset = lfo::pm_offset(q.fnum, p.pms, lfo_step);
        lfo::pm_increment(q.fnum, offset, q.block, q.kc, q.dt, q.mul)
    })
}

/// [`Ym2612::run_channel_block`] for algorithm `ALG`, with SSG-EG on some operator (`SSG`) or
/// on none: the sample loop with the channel's step inlined.
///
/// Without SSG-EG the envelope only moves on EG clocks (every third sample), so its work is
/// done there: the decay-to-sustain check, which the chip makes every sample, is made before
/// each EG step, where it sees the same level as at the samples since the last step (the
/// level only changes at a step), and once more at the end of a block whose last sample was
/// not a step, so that the phase between blocks is what the chip's would be; the level plus
/// the total level is kept from one step to the next and AM added each sample. A channel
/// silent at the block's start stays silent (only a key-on wakes it) and only its phases
/// move; one that falls silent in the block outputs 0 through the full path as well (the
/// floor attenuates every operator to 0).
fn channel_block<const ALG: u8, const SSG: bool>(
    p: &ChannelParams,
    c: &mut Channel,
    clocks: &Clocks,
    k: usize,
    dac: Option<i32>,
    t: &Tables,
    mut levels: Levels<'_>,
) {
    let k = k.min(BLOCK).min(levels.out.len());
    // The phase increments: fixed without PM; with it, a function of the LFO step, which
    // moves every 5 samples at the fastest, so worked out again only when the step changes.
    let mut incs: [u32; 4] = std::array::from_fn(|op| p.ops[op].inc);
    let mut pm_step = None;
    // Channel 6 under the DAC runs with the LFO at rest.
    let lfo = |i: usize| match dac {
        Some(_) => (0, 0),
        None => (clocks.am_tri[i] as u32, clocks.lfo_step[i]),
    };
    let mut next_tick = clocks.first_tick;
    let mut counter = clocks.eg_counter;
    let mut last = c.out;
    if SSG {
        for i in 0..k {
            let tick = i == next_tick;
            if tick {
                next_tick += 3;
                counter = (counter + 1) & 0xFFF;
            }
            let (am_tri, lfo_step) = lfo(i);
            if p.pms != 0 && pm_step != Some(lfo_step) {
                pm_step = Some(lfo_step);
                incs = pm_incs(p, lfo_step);
            }
            let out = run_channel_ssg::<ALG>(p, c, tick, counter, am_tri, incs, t);
            let out = dac.unwrap_or(out);
            levels.add(i, out);
            last = out;
        }
        c.out = last;
        return;
    }
    if c.silent() {
        let out = dac.unwrap_or(0);
        for i in 0..k {
            if p.pms != 0 {
                let (_, lfo_step) = lfo(i);
                if pm_step != Some(lfo_step) {
                    pm_step = Some(lfo_step);
                    incs = pm_incs(p, lfo_step);
                }
            }
            for (o, inc) in c.ops.iter_mut().zip(incs) {
                o.phase = (o.phase + inc) & 0xFFFFF;
            }
            levels.add(i, out);
            last = out;
        }
        c.out = last;
        return;
    }
    let am_mask: [u32; 4] = std::array::from_fn(|op| if p.ops[op].am { !0 } else { 0 });
    let mut base: [u32; 4] = std::array::from_fn(|op| c.ops[op].env as u32 + p.ops[op].tl);
    for i in 0..k {
        if i == next_tick {
            next_tick += 3;
            counter = (counter + 1) & 0xFFF;
            // Indexed: the zipped form compiles to a slower loop (about 8 % more of the
            // channel's instructions).
            #[allow(clippy::needless_range_loop)]
            for op in 0..4 {
                let (o, q) = (&mut c.ops[op], &p.ops[op]);
                eg_sustain_check(o, q);
                eg_step::<false>(o, q, counter);
                base[op] = o.env as u32 + q.tl;
            }
        }
        let (am_tri, lfo_step) = lfo(i);
        if p.pms != 0 && pm_step != Some(lfo_step) {
            pm_step = Some(lfo_step);
            incs = pm_incs(p, lfo_step);
        }
        let am = am_tri >> p.ams;
        let mut phase = [0u32; 4];
        let mut att = [0u32; 4];
        for op in 0..4 {
            let o = &mut c.ops[op];
            phase[op] = o.phase >> 10;
            o.phase = (o.phase + incs[op]) & 0xFFFFF;
            att[op] = (base[op] + (am & am_mask[op])).min(MAX_ATT as u32);
        }
        let out = channel_output::<ALG>(p, c, phase, att, t);
        let out = dac.unwrap_or(out);
        levels.add(i, out);
        last = out;
    }
    // The chip's check at the samples after the block's last step.
    if k > 0 && next_tick != k + 2 {
        for (o, q) in c.ops.iter_mut().zip(&p.ops) {
            eg_sustain_check(o, q);
        }
    }
    c.out = last;
}

/// Samples the channels are run for at a time, one channel after the other
/// ([`Ym2612::render_samples`]).
const BLOCK: usize = 64;

/// The LFO and envelope clock for each sample of a block.
struct Clocks {
    /// The first sample the EG clock ticks on (then every third), and its counter before.
    first_tick: usize,
    eg_counter: u16,
    am_tri: [u8; BLOCK],
    lfo_step: [u8; BLOCK],
}

/// The DAC's constant output when it replaces channel `ch` (channel 6 with the DAC on).
#[inline]
fn dac_output(dac_on: bool, dac: i32, ch: usize) -> Option<i32> {
    (ch == 5 && dac_on).then_some(dac)
}

/// Key code (block and the top F-number bits, 5 bits).
pub(crate) fn key_code(fnum: u16, block: u8) -> u32 {
    let f11 = (fnum >> 10) & 1;
    let f10 = (fnum >> 9) & 1;
    let f9 = (fnum >> 8) & 1;
    let f8 = (fnum >> 7) & 1;
    let n3 = (f11 & (f10 | f9 | f8)) | ((f11 ^ 1) & f10 & f9 & f8);
    ((block as u32) << 2) | ((f11 as u32) << 1) | n3 as u32
}

/// The detune of DT (1-3 up, 5-7 down; the sign is the caller's) at key code `kc`.
#[inline]
pub(crate) fn detune(dt: u8, kc: u32) -> u32 {
    DETUNE[(dt & 3) as usize - 1][kc.min(31) as usize] as u32
}

/// Register address of operator `op` (1..4 as 0..3) of channel `ch` for register group
/// `base` ($30, $40, ... $90).
#[inline]
pub(crate) fn reg_addr(ch: usize, base: usize, op: usize) -> usize {
    const OP_TO_OFFSET: [usize; 4] = [0, 8, 4, 12];
    let part = if ch < 3 { 0 } else { 0x100 };
    part + base + OP_TO_OFFSET[op] + ch % 3
}

/// The envelope increment for `rate` (0-63) at EG counter value `counter`.
pub fn eg_increment(rate: u32, counter: u16) -> u32 {
    if rate < 2 {
        return 0;
    }
    if rate < 48 {
        let shift = 11 - rate / 4;
        if counter & ((1 << shift) - 1) != 0 {
            return 0;
        }
        // The YM2612's rows for rates 2-7 (Nemesis): 2-5 use row 0, 6-7 row 2.
        let row = match rate {
            2..=5 => 0,
            6 | 7 => 2,
            _ => rate & 3,
        };
        return EG_PATTERN[row as usize][((counter >> shift) & 7) as usize] as u32;
    }
    if rate >= 60 {
        return 8;
    }
    let scale = 1 << ((rate - 48) / 4);
    EG_PATTERN_FAST[(rate & 3) as usize][(counter & 7) as usize] as u32 * scale
}

/// Counts a timer down by `ticks`; returns the new count and whether it overflowed (reloading
/// from `period` as often as needed).
/// When the busy flag a data write at `now` raises falls again.
///
/// The round up as an add before the division (one multiply and shift, against the quotient,
/// remainder and adjust of `div_ceil`); exact for any clock below 2^64 - 41 (the master clock
/// would take over ten thousand years to get there).
#[inline(always)]
#[allow(clippy::manual_div_ceil)]
pub(crate) fn busy_until(now: u64) -> u64 {
    ((now + (MCLK_PER_FM_CLOCK - 1)) / MCLK_PER_FM_CLOCK + BUSY_FM_CLOCKS) * MCLK_PER_FM_CLOCK
}

fn run_timer(count: i32, period: i32, ticks: i64) -> (i32, bool) {
    let count = count as i64 - ticks;
    if count > 0 {
        return (count as i32, false);
    }
    let period = period.max(1) as i64;
    let over = (-count) % period;
    ((period - over) as i32, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(ym: &mut Ym2612, part: u32, reg: u8, value: u8) {
        ym.write(part * 2, reg, 0);
        ym.write(part * 2 + 1, value, 0);
    }

    #[test]
    fn busy_after_data_write() {
        let mut ym = Ym2612::new();
        ym.write(0, 0x30, 0);
        ym.write(1, 0x00, 0);
        assert_eq!(ym.read(0, 10) & 0x80, 0x80);
        assert_eq!(ym.read(0, 32 * 42) & 0x80, 0);
    }

    /// Timer A with TA = 1023 overflows after one sample; timer B with TB = 255 after 16.
    #[test]
    fn timers_overflow() {
        let mut ym = Ym2612::new();
        for (r, v) in [(0x24, 0xFF), (0x25, 0x03), (0x26, 0xFF), (0x27, 0x0F)] {
            ym.write(0, r, 0);
            ym.write(1, v, 0);
        }
        assert_eq!(ym.read(0, 2000) & 3, 1);
        assert_eq!(ym.read(0, 17 * MCLK_PER_FM_SAMPLE) & 3, 3);
        ym.write(0, 0x27, 17 * MCLK_PER_FM_SAMPLE);
        ym.write(1, 0x3F, 17 * MCLK_PER_FM_SAMPLE);
        assert_eq!(ym.status & 3, 0);
    }

    /// Nemesis's tables: log-sin starts at 2137 ($859) and reaches 0 at the quarter's end;
    /// the exponent table runs 0..1018; spot values from the formulas.
    #[test]
    fn sine_and_exp_tables() {
        let t = &*TABLES;
        assert_eq!(t.log_sin[0], 0x859);
        assert_eq!(t.log_sin[1], 0x6C3);
        assert_eq!(t.log_sin[2], 0x607);
        assert_eq!(t.log_sin[255], 0);
        assert_eq!(t.exp[0], 0);
        assert_eq!(t.exp[1], 3);
        assert_eq!(t.exp[255], 1018);
        assert!(t.log_sin.windows(2).all(|w| w[0] >= w[1]));
        assert!(t.exp.windows(2).all(|w| w[0] <= w[1]));
        // Full level at the sine's peak: (1018 | 1024) << 2 = 8168; the trough mirrors it.
        assert_eq!(t.operator(0x0FF, 0), 8168);
        assert_eq!(t.operator(0x100, 0), 8168);
        assert_eq!(t.operator(0x2FF, 0), -8168);
        // 6 dB (64 attenuation units... 6.02 dB = 1 in the log2 domain = 256 / 4 units)
        // halves the output.
        assert_eq!(t.operator(0x0FF, 64), 4084);
        // Fully attenuated.
        assert_eq!(t.operator(0x0FF, 0x3FF), 0);
    }

    /// The unfolded tables give the step-by-step operator for every phase and attenuation.
    #[test]
    fn the_operator_tables_are_the_steps() {
        let t = &*TABLES;
        for phase in 0..0x400 {
            for att in 0..=MAX_ATT as u32 {
                assert_eq!(
                    t.operator(phase, att),
                    t.operator_reference(phase, att),
                    "{phase:03x} {att:03x}"
                );
            }
        }
    }

    /// Envelope rates: rates 0-1 never move, 60-63 step by 8 every EG clock, rate 4k+r steps
    /// once per 2^(11-k) EG clocks.
    #[test]
    fn envelope_rates() {
        let total = |rate: u32| -> u32 { (0..4096u16).map(|c| eg_increment(rate, c)).sum() };
        assert_eq!(total(0), 0);
        assert_eq!(total(1), 0);
        assert_eq!(total(63), 8 * 4096);
        // Rates 8..47: each step of 4 doubles the speed.
        for r in 8..44 {
            assert_eq!(total(r + 4), 2 * total(r), "rate {r}");
        }
        assert_eq!(total(48), 4096);
        assert_eq!(total(52), 2 * 4096);
        assert_eq!(total(56), 4 * 4096);
        // Rate 44 (k = 11, row 0): one step every other EG clock.
        assert_eq!(total(44), 2048);
    }

    fn patch_alg7(ym: &mut Ym2612, ch: usize) {
        let part = (ch / 3) as u32;
        let c = (ch % 3) as u8;
        w(ym, part, 0xB0 + c, 0x07); // algorithm 7, no feedback
        w(ym, part, 0xB4 + c, 0xC0);
        for slot in 0..4u8 {
            let o = slot * 4 + c;
            w(ym, part, 0x30 + o, 0x01); // MUL 1
            w(ym, part, 0x40 + o, 0x00); // TL 0
            w(ym, part, 0x50 + o, 0x1F); // AR 31
            w(ym, part, 0x60 + o, 0x00);
            w(ym, part, 0x70 + o, 0x00);
            w(ym, part, 0x80 + o, 0x0F);
        }
        w(ym, part, 0xA4 + c, 0x22); // block 4
        w(ym, part, 0xA0 + c, 0x69); // F-number $269 (~ 440 Hz... 252 Hz at block 4)
    }

    /// Algorithm 7 with all four operators keyed on makes sound; key-off fades it out.
    #[test]
    fn key_on_algorithm_7_is_audible() {
        let mut ym = Ym2612::new();
        ym.render = true;
        patch_alg7(&mut ym, 0);
        ym.render_samples(100);
        let quiet: i32 = ym.out.iter().map(|&s| (s as i32).abs()).max().unwrap();
        ym.out.clear();
        w(&mut ym, 0, 0x28, 0xF0);
        assert!(ym.channels[0].ops.iter().all(|o| o.key));
        ym.render_samples(8000);
        let loud: i32 = ym.out.iter().map(|&s| (s as i32).abs()).max().unwrap();
        assert!(loud > 3000, "peak {loud} (silence {quiet})");
        // Zero crossings of the left channel: ~ the note's frequency
        // (fnum * 2^(block-1) * rate / 2^20).
        let expected = 0x269 as f64 * 8.0 * 53_267.0 / 1_048_576.0;
        let left: Vec<i32> = ym.out.iter().step_by(2).map(|&s| s as i32).collect();
        let mean = left.iter().sum::<i32>() / left.len() as i32;
        let crossings = left
            .windows(2)
            .filter(|w| (w[0] - mean < 0) != (w[1] - mean < 0))
            .count();
        let freq = crossings as f64 / 2.0 / (8000.0 / 53_267.0);
        assert!(
            (freq - expected).abs() < expected * 0.05,
            "{freq} vs {expected}"
        );
        // Key off with RR 15: silent again soon.
        w(&mut ym, 0, 0x28, 0x00);
        ym.out.clear();
        ym.render_samples(4000);
        assert!(ym.channels[0].ops.iter().all(|o| o.env == MAX_ATT));
    }

    /// The DAC replaces channel 6 and passes the written byte through (9-bit: (v - 128) * 2);
    /// the discrete chip adds its ladder's +4 / -3 (and +4 for every silent channel).
    #[test]
    fn dac_passes_value_through() {
        for discrete in [false, true] {
            let mut ym = Ym2612::new();
            ym.render = true;
            ym.discrete = discrete;
            w(&mut ym, 0, 0x2B, 0x80);
            w(&mut ym, 1, 0xB6, 0x80); // channel 6 left only
            for v in [0x80u8, 0xC0, 0x40, 0xFF] {
                w(&mut ym, 0, 0x2A, v);
                ym.out.clear();
                ym.render_samples(1);
                let nine = (v as i32 - 128) * 2;
                let (left, right) = if discrete {
                    let ladder = if nine >= 0 { nine + 4 } else { nine - 3 };
                    let off = if nine >= 0 { 4 } else { -4 };
                    // Five silent channels contribute +4 each on both sides.
                    (ladder + 5 * 4, off + 5 * 4)
                } else {
                    (nine, 0)
                };
                assert_eq!(ym.out[0] as i32, left * 16, "value {v:#x}");
                assert_eq!(ym.out[1] as i32, right * 16, "value {v:#x}");
            }
        }
    }

    /// Until $2A is written the DAC outputs the centre level (the latch clears at reset).
    #[test]
    fn dac_starts_at_the_centre() {
        let mut ym = Ym2612::new();
        ym.render = true;
        w(&mut ym, 0, 0x2B, 0x80);
        ym.render_samples(1);
        assert_eq!(ym.channels[5].out, 0);
        assert_eq!(ym.out[..2], [0, 0]);
    }

    /// Key codes and detune: the datasheet's note bits.
    #[test]
    fn key_code() {
        assert_eq!(super::key_code(0x000, 0), 0);
        assert_eq!(super::key_code(0x400, 0), 2);
        assert_eq!(super::key_code(0x480, 0), 3);
        assert_eq!(super::key_code(0x380, 0), 1);
        assert_eq!(super::key_code(0x37F, 7), 28);
    }

    /// Channel 3 special mode: op1..op3 take their own F-numbers.
    #[test]
    fn channel3_special_mode() {
        let mut ym = Ym2612::new();
        w(&mut ym, 0, 0xA6, 0x10);
        w(&mut ym, 0, 0xA2, 0x00);
        w(&mut ym, 0, 0xAD, 0x0A);
        w(&mut ym, 0, 0xA9, 0x11);
        assert_eq!(ym.freq(2, 0), (0x000, 2));
        w(&mut ym, 0, 0x27, 0x40);
        assert_eq!(ym.freq(2, 0), (0x211, 1));
        assert_eq!(ym.freq(2, 3), (0x000, 2));
    }

    /// Synthesis state round-trips.
    #[test]
    fn synth_state_round_trip() {
        let mut ym = Ym2612::new();
        ym.render = true;
        patch_alg7(&mut ym, 4);
        w(&mut ym, 1, 0x28, 0xF5);
        ym.render_samples(333);
        let mut a = Vec::new();
        ym.save_synth(&mut a);
        let mut other = Ym2612::new();
        assert_eq!(other.load_synth(&a), Some(a.len()));
        let mut b = Vec::new();
        other.save_synth(&mut b);
        assert_eq!(a, b);
        assert_eq!(other.channels, ym.channels);
    }
}
