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
use super::irq_delay::IrqDelay;

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

#[cfg(test)]
mod tests {
    use super::*;

    fn vdp_at_line_226() -> Vdp {
        // Mode 5, V-int disabled but pending, H-int disabled but pending (testpico's set-up).
        let mut v = Vdp::new(false);
        v.regs[0] = 0x04;
        v.regs[1] = 0x04;
        v.vint_pending = true;
        v.hint_pending = true;
        v
    }

    #[test]
    fn an_enabled_pending_vint_is_seen_one_instruction_late() {
        let mut v = vdp_at_line_226();
        let (old0, old1) = (v.regs[0], v.regs[1]);
        v.regs[1] = 0x24;
        v.note_enable_write(old0, old1, false);
        assert_eq!(v.cpu_irq_level(), 0, "run start inside the latency");
        assert_eq!(
            v.cpu_irq_level_at_boundary(),
            0,
            "end of the enabling MOVE.W"
        );
        assert_eq!(
            v.cpu_irq_level_at_boundary(),
            6,
            "end of the next instruction"
        );
        v.acknowledge(6);
        assert_eq!(v.irq_delay, IrqDelay::None);
        assert!(!v.vint_pending);
    }

    #[test]
    fn the_latched_level_survives_a_higher_one_raised_meanwhile() {
        let mut v = vdp_at_line_226();
        let (old0, old1) = (v.regs[0], v.regs[1]);
        v.regs[0] = 0x14;
        v.note_enable_write(old0, old1, false);
        assert_eq!(v.cpu_irq_level_at_boundary(), 0);
        // The next instruction enables V-int: the CPU still takes level 4.
        let (old0, old1) = (v.regs[0], v.regs[1]);
        v.regs[1] = 0x24;
        v.note_enable_write(old0, old1, false);
        assert_eq!(v.cpu_irq_level_at_boundary(), 4);
        // Its acknowledge clears the V-int (pending and enabled), the H-int stays.
        v.acknowledge(4);
        assert!(!v.vint_pending && v.hint_pending);
        assert_eq!(v.cpu_irq_level_at_boundary(), 4);
    }

    #[test]
    fn move_long_writes_have_no_latency() {
        let mut v = vdp_at_line_226();
        let (old0, old1) = (v.regs[0], v.regs[1]);
        v.regs[1] = 0x24;
        v.note_enable_write(old0, old1, true);
        assert_eq!(v.cpu_irq_level_at_boundary(), 6);
    }

    #[test]
    fn latency_byte_round_trips() {
        for d in [
            IrqDelay::None,
            IrqDelay::Armed(6),
            IrqDelay::Next(4),
            IrqDelay::Held(4),
        ] {
            assert_eq!(IrqDelay::from_byte(d.to_byte()), Some(d));
        }
        assert_eq!(IrqDelay::from_byte(0x48), None);
    }
}
