//! Where the 68000's one-instruction interrupt latency stands (`irq` runs it): the state the
//! VDP keeps for it, and its save-state byte.

/// Where the latency is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IrqDelay {
    /// The CPU sees the VDP's live level.
    #[default]
    None,
    /// The write just happened: at the boundary ending its instruction no interrupt is taken.
    Armed(u8),
    /// The next instruction is running: at its end the CPU takes the latched level.
    Next(u8),
    /// The CPU holds the latched level until the VDP next changes its lines (an acknowledge,
    /// a line event, another enabling write).
    Held(u8),
}

impl IrqDelay {
    /// Save-state encoding: kind in the high bits, level in the low 3.
    pub fn to_byte(self) -> u8 {
        match self {
            IrqDelay::None => 0,
            IrqDelay::Armed(l) => 0x10 | (l & 7),
            IrqDelay::Next(l) => 0x20 | (l & 7),
            IrqDelay::Held(l) => 0x30 | (l & 7),
        }
    }

    pub fn from_byte(b: u8) -> Option<IrqDelay> {
        let l = b & 7;
        match b & 0xF8 {
            0 if l == 0 => Some(IrqDelay::None),
            0x10 => Some(IrqDelay::Armed(l)),
            0x20 => Some(IrqDelay::Next(l)),
            0x30 => Some(IrqDelay::Held(l)),
            _ => None,
        }
    }
}
