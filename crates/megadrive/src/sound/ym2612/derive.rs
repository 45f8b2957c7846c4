//! A channel's parameters derived from the registers (`params`), once per register write
//! instead of once per sample.

use super::Ym2612;
use super::params::{ChannelParams, OpParams, phase_increment};
use super::tables::{AMS_SHIFT, EG_ATTACK, EG_DECAY, EG_SUSTAIN, key_code, reg_addr};

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
