//! The 68000's part of a save state: a tag naming the core, then that core's registers,
//! pipeline and run state (taken at an instruction boundary, where nothing else is in flight).

use super::{R, Reader, Writer};
use crate::cpu::cpu68k::{Cpu68k, Cpu68kState};
use crate::cpu::main_cpu::MainCpu;

const TAG_OURS: u8 = 0;
const TAG_M68K: u8 = 1;

pub(super) fn write(w: &mut Writer, cpu: &MainCpu) {
    match cpu {
        MainCpu::Ours(c) => {
            w.u8(TAG_OURS);
            w.u32s(&c.regs);
            w.u32(c.other_sp);
            w.u16(c.sr);
            w.u32(c.pc);
            w.u16(c.ird);
            w.u16(c.irc);
            w.u64(c.cycles);
            w.u8(match c.state {
                m68000::RunState::Running => 0,
                m68000::RunState::Stopped => 1,
                m68000::RunState::Halted => 2,
            });
            w.u8(c.ipl);
            w.bool(c.nmi_taken);
            w.bool(c.trace_exceptions);
            w.u8(match c.timing {
                m68000::Timing::Hardware => 0,
                m68000::Timing::Gpgx17 => 1,
            });
        }
        MainCpu::M68k(cpu) => {
            w.u8(TAG_M68K);
            let c = cpu.save_state();
            w.u32s(&c.dar);
            w.u32s(&c.sp);
            for v in [c.pc, c.ppc] {
                w.u32(v);
            }
            w.u16(c.sr);
            for v in [c.ir, c.int_level, c.stopped] {
                w.u32(v);
            }
            w.u16s(&c.prefetch_queue);
            w.u8(c.prefetch_count);
            for v in [
                c.pending_sync_clocks,
                c.run_mode,
                c.nmi_pending,
                c.virq_state,
            ] {
                w.u32(v);
            }
            w.bool(c.halted);
        }
    }
}

pub(super) fn read(r: &mut Reader) -> R<MainCpu> {
    match r.u8()? {
        TAG_OURS => {
            let mut c = m68000::Cpu::new();
            c.regs = r.u32_array()?;
            c.other_sp = r.u32()?;
            c.sr = r.u16()?;
            // The core keeps SR's unused bits clear (`Cpu::set_sr` masks them): a state with
            // them set would read back through MOVE from SR as no 68000 can.
            if c.sr & !0xA71F != 0 {
                return Err(r.invalid("68000 status register with unused bits set"));
            }
            c.pc = r.u32()?;
            // The prefetch address only moves by whole words from a jump target whose first
            // fetch already faulted if it was odd, so no 68000 ever holds an odd one; the
            // core's fetch drops bit 0 rather than test it on every word.
            if c.pc & 1 != 0 {
                return Err(r.invalid("68000 prefetch address (PC) odd"));
            }
            c.ird = r.u16()?;
            c.irc = r.u16()?;
            c.cycles = r.u64()?;
            c.state = match r.u8()? {
                0 => m68000::RunState::Running,
                1 => m68000::RunState::Stopped,
                2 => m68000::RunState::Halted,
                _ => return Err(r.invalid("68000 run state")),
            };
            c.ipl = r.u8()?;
            if c.ipl > 7 {
                return Err(r.invalid("68000 interrupt level above 7"));
            }
            c.nmi_taken = r.bool()?;
            c.trace_exceptions = r.bool()?;
            c.timing = match r.u8()? {
                0 => m68000::Timing::Hardware,
                1 => m68000::Timing::Gpgx17,
                _ => return Err(r.invalid("68000 timing profile")),
            };
            Ok(MainCpu::Ours(c))
        }
        TAG_M68K => {
            let c = Cpu68kState {
                dar: r.u32_array()?,
                sp: r.u32_array()?,
                pc: r.u32()?,
                ppc: r.u32()?,
                sr: r.u16()?,
                ir: r.u32()?,
                int_level: r.u32()?,
                stopped: r.u32()?,
                prefetch_queue: r.u16_array()?,
                prefetch_count: r.u8()?,
                pending_sync_clocks: r.u32()?,
                run_mode: r.u32()?,
                nmi_pending: r.u32()?,
                virq_state: r.u32()?,
                halted: r.bool()?,
            };
            let mut cpu = Cpu68k::new();
            cpu.restore_state(&c);
            Ok(MainCpu::M68k(Box::new(cpu)))
        }
        _ => Err(r.invalid("68000 core tag (0 = ours, 1 = m68k)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::StateError;

    fn round_trip(c: m68000::Cpu) -> R<MainCpu> {
        let mut w = Writer::default();
        write(&mut w, &MainCpu::Ours(c));
        read(&mut Reader {
            buf: &w.buf,
            pos: 0,
        })
    }

    fn refusal(c: m68000::Cpu) -> &'static str {
        match round_trip(c) {
            Err(StateError::Invalid { what, .. }) => what,
            Err(e) => panic!("expected an invalid field, got {e:?}"),
            Ok(_) => panic!("accepted"),
        }
    }

    #[test]
    fn states_no_68000_can_hold_are_refused() {
        let mut c = m68000::Cpu::new();
        c.pc = 0x0000_0202;
        c.sr = 0x2704;
        assert!(round_trip(c.clone()).is_ok());

        let mut odd = c.clone();
        odd.pc = 0x0000_0203;
        assert_eq!(refusal(odd), "68000 prefetch address (PC) odd");

        // Bits 5-7, 11, 12 and 14 of SR do not exist on the 68000 (M68000 PRM, 1.3.2).
        for bit in [5, 6, 7, 11, 12, 14] {
            let mut bad = c.clone();
            bad.sr |= 1 << bit;
            assert_eq!(
                refusal(bad),
                "68000 status register with unused bits set",
                "bit {bit}"
            );
        }
    }
}
