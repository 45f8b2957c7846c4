//! The YM2612's synthesis: `Ym2612::render_samples` runs the six channels over blocks of up to
//! 64 samples, one channel after the other, through a loop made per algorithm and per SSG-EG
//! use, with the envelope's work on its clocks only.

use super::Ym2612;
use super::dac_log::dac_out;
use super::derive::derive;
use super::operator::{Channel, Operator};
use super::params::{ChannelParams, OpParams};
use super::tables::{
    EG_ATTACK, EG_DECAY, EG_SUSTAIN, LFO_PERIOD, MAX_ATT, TABLES, Tables, eg_increment,
};
use super::{dac, lfo, ssg};

impl Ym2612 {
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
