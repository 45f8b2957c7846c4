//! The YM2612's SSG-EG (register $90-$9F per operator: bit 3 on, bit 2 attack = start
//! inverted, bit 1 alternate, bit 0 hold), the envelope shapes of the YM2608 manual's SSG
//! envelope table (8 `\\\\`, 9 `\___`, A `\/\/`, B `\‾‾‾`, C `////`, D `/‾‾‾`, E `/\/\`,
//! F `/___`), as Nemesis measured them on a Mega Drive (SpritesMind, "New Documentation: An
//! authoritative reference on the YM2612", and as Genesis Plus GX and Nuked-OPN2 describe
//! them):
//!
//! - while SSG-EG is on, decay, sustain and release add 4 times the usual increment, and only
//!   while the attenuation is below $200 (-48 dB): a cycle ends there;
//! - at the end of a cycle (checked every sample, outside release): hold keeps the level, at
//!   the floor ($3FF) unless the output is inverted (hold + alternate inverts it first);
//!   otherwise alternate flips the inversion, or, without alternate, the phase restarts; and a
//!   new attack starts (or, with an attack rate of 62 or more, the level jumps to 0);
//! - the output is inverted (attenuation $200 - level, in 10 bits) when the inversion flag
//!   differs from the attack bit, outside release; key-on clears the flag; key-off turns an
//!   inverted level into the plain one it sounded as, and a level of $200 or more falls to
//!   the floor.

use super::operator::Operator;
use super::tables::{EG_ATTACK, EG_DECAY, EG_RELEASE, EG_SUSTAIN, MAX_ATT};

/// Register $90 bits.
pub const SSG_ON: u8 = 8;
pub const SSG_ATTACK: u8 = 4;
pub const SSG_ALTERNATE: u8 = 2;
pub const SSG_HOLD: u8 = 1;
/// The attenuation at which a cycle ends.
pub const SSG_END: u16 = 0x200;

/// Whether the operator's output is inverted now.
#[inline]
pub fn inverted(o: &Operator, ssg: u8) -> bool {
    ssg & SSG_ON != 0 && o.eg_phase != EG_RELEASE && (o.ssg_inv != (ssg & SSG_ATTACK != 0))
}

/// The attenuation the envelope outputs (before total level and AM).
#[inline]
pub fn output_level(o: &Operator, ssg: u8) -> u16 {
    if inverted(o, ssg) {
        SSG_END.wrapping_sub(o.env) & MAX_ATT
    } else {
        o.env
    }
}

/// The end of a cycle, checked every sample before the envelope steps. `attack_max`: the
/// attack rate (after key scaling) is 62 or more; `sl_zero`: the sustain level is 0.
#[inline]
pub fn end_of_cycle(o: &mut Operator, ssg: u8, attack_max: bool, sl_zero: bool) {
    if ssg & SSG_ON == 0 || o.eg_phase == EG_RELEASE || o.env < SSG_END {
        return;
    }
    if ssg & SSG_HOLD != 0 {
        if ssg & SSG_ALTERNATE != 0 {
            o.ssg_inv = true;
        }
        if o.eg_phase != EG_ATTACK && o.ssg_inv == (ssg & SSG_ATTACK != 0) {
            o.env = MAX_ATT;
        }
        return;
    }
    if ssg & SSG_ALTERNATE != 0 {
        o.ssg_inv = !o.ssg_inv;
    } else {
        o.phase = 0;
    }
    if o.eg_phase != EG_ATTACK {
        if attack_max {
            o.env = 0;
            o.eg_phase = if sl_zero { EG_SUSTAIN } else { EG_DECAY };
        } else {
            o.eg_phase = EG_ATTACK;
        }
    }
}

/// One envelope step of `inc` outside attack while SSG-EG is on.
#[inline]
pub fn step(o: &mut Operator, inc: u16) {
    if o.env < SSG_END {
        o.env += 4 * inc;
    }
    if o.eg_phase == EG_RELEASE && o.env >= SSG_END {
        o.env = MAX_ATT;
    }
}

/// Key-on: the inversion starts cleared (the attack bit alone decides it).
#[inline]
pub fn key_on(o: &mut Operator) {
    o.ssg_inv = false;
}

/// Key-off, before the phase becomes release: the level the output had is kept.
#[inline]
pub fn key_off(o: &mut Operator, ssg: u8) {
    if ssg & SSG_ON == 0 {
        return;
    }
    if inverted(o, ssg) {
        o.env = SSG_END.wrapping_sub(o.env) & MAX_ATT;
    }
    if o.env >= SSG_END {
        o.env = MAX_ATT;
    }
}
