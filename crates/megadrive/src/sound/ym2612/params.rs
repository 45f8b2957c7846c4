//! The YM2612's per-operator parameters as the synthesis loop needs them (phase increment,
//! envelope rates after key scaling, total level, sustain level...), derived from the
//! registers once per register write instead of once per sample. Derived data only: it is
//! not part of save states, and a channel is derived again whenever a write, a key event or
//! a state restore touches it (`Ym2612::mark_dirty`).

use crate::sound::ym2612::{
    AMS_SHIFT, EG_ATTACK, EG_DECAY, EG_SUSTAIN, Ym2612, detune, key_code, reg_addr,
};

/// One operator's parameters.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OpParams {
    /// Phase increment without phase modulation (20 bits).
    pub inc: u32,
    /// What the increment is made of, for the PM path.
    pub fnum: u16,
    pub block: u8,
    pub kc: u32,
    pub dt: u8,
    pub mul: u32,
    /// EG rate (0-63, key scaling applied) per envelope phase.
    pub rates: [u32; 4],
    /// Sustain level as an attenuation (10 bits).
    pub sl: u16,
    /// Total level as an attenuation (tl << 3).
    pub tl: u32,
    /// Amplitude modulation enabled (AM bit of $60).
    pub am: bool,
    /// SSG-EG register ($90, low 4 bits; `ym2612_ssg`).
    pub ssg: u8,
}

/// One channel's parameters.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ChannelParams {
    pub ops: [OpParams; 4],
    pub alg: u8,
    pub fb: u8,
    /// Right shift of the LFO triangle (AMS) and the PM sensitivity (PMS, 0-7).
    pub ams: u8,
    pub pms: u8,
}

/// The cache: six channels and which of them must be derived again. Compares equal to any
/// other cache, so machines compare by their state alone.
#[derive(Clone, Debug)]
pub struct ParamCache {
    pub(crate) channels: [ChannelParams; 6],
    /// Bit `ch`: channel `ch` must be derived before its next sample.
    pub(crate) dirty: u8,
}

impl Default for ParamCache {
    fn default() -> Self {
        ParamCache {
            channels: [ChannelParams::default(); 6],
            dirty: 0x3F,
        }
    }
}

equal_to_any!(ParamCache);

/// The phase increment for F-number `f` (after PM), block, key code, detune and multiple.
#[inline]
pub(crate) fn phase_increment(f: i32, block: u8, kc: u32, dt: u8, mul: u32) -> u32 {
    let mut base = ((f.max(0) as u32) << block) >> 1;
    if dt & 3 != 0 {
        let d = detune(dt, kc);
        base = if dt & 4 != 0 {
            base.wrapping_sub(d)
        } else {
            base + d
        };
    }
    base &= 0x1FFFF;
    let inc = if mul == 0 { base >> 1 } else { base * mul };
    inc & 0xFFFFF
}

/// Derives channel `ch` from the registers.
pub(crate) fn derive(ym: &Ym2612, ch: usize) -> ChannelParams {
    let part = if ch < 3 { 0 } else { 0x100 };
    let cr = ch % 3;
    let b0 = ym.regs[part + 0xB0 + cr];
    let b4 = ym.regs[part + 0xB4 + cr];
    let mut p = ChannelParams {
        ops: [OpParams::default(); 4],
        alg: b0 & 7,
        fb: (b0 >> 3) & 7,
        ams: AMS_SHIFT[((b4 >> 4) & 3) as usize],
        pms: b4 & 7,
    };
    for (op, o) in p.ops.iter_mut().enumerate() {
        let (fnum, block) = ym.freq(ch, op);
        let kc = key_code(fnum, block);
        let dtml = ym.regs[reg_addr(ch, 0x30, op)];
        let tl = ym.regs[reg_addr(ch, 0x40, op)] & 0x7F;
        let ksar = ym.regs[reg_addr(ch, 0x50, op)];
        let amd1r = ym.regs[reg_addr(ch, 0x60, op)];
        let d2r = ym.regs[reg_addr(ch, 0x70, op)] & 0x1F;
        let slrr = ym.regs[reg_addr(ch, 0x80, op)];
        let ks = kc >> (3 - (ksar >> 6));
        let dt = (dtml >> 4) & 7;
        let mul = (dtml & 0xF) as u32;
        let rate = |r: u32| if r == 0 { 0 } else { (2 * r + ks).min(63) };
        let mut rates = [0u32; 4];
        rates[EG_ATTACK as usize] = rate((ksar & 0x1F) as u32);
        rates[EG_DECAY as usize] = rate((amd1r & 0x1F) as u32);
        rates[EG_SUSTAIN as usize] = rate(d2r as u32);
        rates[3] = rate(((slrr & 0xF) as u32) * 2 + 1);
        let sl = ((slrr >> 4) as u16) << 5;
        *o = OpParams {
            inc: phase_increment(fnum as i32, block, kc, dt, mul),
            fnum,
            block,
            kc,
            dt,
            mul,
            rates,
            sl: if sl == 0x1E0 { 0x3E0 } else { sl },
            tl: (tl as u32) << 3,
            am: amd1r & 0x80 != 0,
            ssg: ym.regs[reg_addr(ch, 0x90, op)] & 0x0F,
        };
    }
    p
}
