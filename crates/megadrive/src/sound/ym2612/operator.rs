//! The running state of the YM2612's operators and channels (phases, envelopes, the feedback
//! and modulation pipeline).

use super::tables::{EG_RELEASE, MAX_ATT};

/// One operator's running state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operator {
    /// 20-bit phase accumulator.
    pub phase: u32,
    /// Envelope attenuation (10 bits).
    pub env: u16,
    pub eg_phase: u8,
    pub key: bool,
    /// SSG-EG's inversion flag (`ssg`).
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

impl Channel {
    /// Every envelope released to the floor and nothing in the operator pipeline: the channel
    /// outputs 0 until a key-on.
    #[inline]
    pub(super) fn silent(&self) -> bool {
        self.op1_out == [0, 0]
            && self.mem == 0
            && self
                .ops
                .iter()
                .all(|o| o.eg_phase == EG_RELEASE && o.env == MAX_ATT)
    }
}
