//! The interrupt level the 68000 sees, with the one-instruction latency after a register write
//! that enables an interrupt already pending.
//!
//! On hardware the 68000 samples its IPL lines during an instruction and starts exception
//! processing only after the next one: when a control-port write (a MOVE.W, whose write is its
//! last bus cycle) enables an interrupt that is already pending, one more instruction runs
//! first, and the level the CPU then takes is the one it latched from that write, even if the
//! next instruction raised another (notaz's testpico, "irq ack h-v": the two status reads of
//! the MOVE.L after the write that enables V-int still show the V-int flag; "irq ack h-v 2":
//! enabling H-int, then V-int in the next instruction, gives the H-int vector, whose
//! acknowledge clears the V-int, and then the H-int once more). Genesis Plus GX models the
//! same latency for MOVE.W but not for MOVE.L (whose first word write is not its last bus
//! cycle); so does this.

use super::Vdp;

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

impl Vdp {
    /// A 68000 register write to reg 0 or 1 has happened (`old0`, `old1`: the values before).
    /// `move_long`: the writing instruction is a MOVE.L (no latency, as in Genesis Plus GX).
    pub fn note_enable_write(&mut self, old0: u8, old1: u8, move_long: bool) {
        let hint_enabled_now = (old0 ^ self.regs[0]) & 0x10 != 0 && self.regs[0] & 0x10 != 0;
        let vint_enabled_now = (old1 ^ self.regs[1]) & 0x20 != 0 && self.regs[1] & 0x20 != 0;
        let level = if vint_enabled_now && self.vint_pending {
            6
        } else if hint_enabled_now
            && self.hint_pending
            && !(self.vint_pending && self.regs[1] & 0x20 != 0)
        {
            4
        } else {
            return;
        };
        // The write made inside the latency does not start another (the CPU is already
        // committed to the level it latched).
        if matches!(self.irq_delay, IrqDelay::Armed(_) | IrqDelay::Next(_)) || move_long {
            return;
        }
        self.irq_delay = IrqDelay::Armed(level);
    }

    /// The level the 68000 sees at an instruction boundary (advances the latency).
    pub fn cpu_irq_level_at_boundary(&mut self) -> u8 {
        match self.irq_delay {
            IrqDelay::None => self.irq_level(),
            IrqDelay::Armed(l) => {
                self.irq_delay = IrqDelay::Next(l);
                0
            }
            IrqDelay::Next(l) | IrqDelay::Held(l) => {
                self.irq_delay = IrqDelay::Held(l);
                l
            }
        }
    }

    /// The level the 68000 sees when a run starts (no instruction has ended).
    pub fn cpu_irq_level(&self) -> u8 {
        match self.irq_delay {
            IrqDelay::None => self.irq_level(),
            IrqDelay::Armed(_) | IrqDelay::Next(_) => 0,
            IrqDelay::Held(l) => l,
        }
    }

    /// The VDP changed its interrupt lines: a held level gives way to the live one.
    pub fn release_held_irq(&mut self) {
        if let IrqDelay::Held(_) = self.irq_delay {
            self.irq_delay = IrqDelay::None;
        }
    }
}
