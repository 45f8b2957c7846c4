//! Interrupt, HALT and save/restore behaviour the single-instruction vectors cannot show.
//! Expected values are from the Zilog Z80 User Manual (UM0080) and Sean Young's
//! "The Undocumented Z80 Documented", not from running this core.

use crate::{Bus, Z80};

/// 64 KiB RAM with a configurable acknowledge byte and a log of writes.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Ram {
    mem: Vec<u8>,
    ack: u8,
    acks: u32,
    writes: Vec<(u16, u8, u64)>,
}

impl Ram {
    fn with(program: &[(u16, &[u8])]) -> Ram {
        let mut mem = vec![0u8; 0x10000];
        for (at, bytes) in program {
            mem[*at as usize..*at as usize + bytes.len()].copy_from_slice(bytes);
        }
        Ram {
            mem,
            ack: 0xFF,
            acks: 0,
            writes: Vec::new(),
        }
    }
}

impl Bus for Ram {
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.mem[addr as usize]
    }
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.mem[addr as usize] = value;
        self.writes.push((addr, value, t));
    }
    fn port_in(&mut self, _port: u16, _t: u64) -> u8 {
        0xFF
    }
    fn port_out(&mut self, _port: u16, _value: u8, _t: u64) {}
    fn int_ack(&mut self, _t: u64) -> u8 {
        self.acks += 1;
        self.ack
    }
}

/// CPU at `pc` with SP = $8000, interrupts enabled in mode `im`.
fn cpu_at(pc: u16, im: u8) -> Z80 {
    let mut cpu = Z80::new();
    cpu.regs.pc = pc;
    cpu.regs.sp = 0x8000;
    cpu.regs.im = im;
    cpu.regs.iff1 = true;
    cpu.regs.iff2 = true;
    cpu
}

#[test]
fn reset_state_matches_hardware() {
    let cpu = Z80::new();
    assert_eq!(cpu.regs.pc, 0);
    assert_eq!((cpu.regs.i, cpu.regs.r(), cpu.regs.im), (0, 0, 0));
    assert!(!cpu.regs.iff1 && !cpu.regs.iff2);
    assert_eq!(cpu.regs.sp, 0xFFFF);
    assert_eq!(cpu.regs.af(), 0xFFFF);
}

#[test]
fn im1_pushes_pc_and_jumps_to_0038_in_13_t_states() {
    let mut bus = Ram::with(&[(0x1234, &[0x00])]);
    let mut cpu = cpu_at(0x1234, 1);
    cpu.regs.set_r(0x7F);
    cpu.set_irq(true);
    assert_eq!(cpu.step(&mut bus), 13);
    assert_eq!(cpu.t_states(), 13);
    assert_eq!(cpu.regs.pc, 0x0038);
    assert_eq!(cpu.regs.sp, 0x7FFE);
    assert_eq!((bus.mem[0x7FFF], bus.mem[0x7FFE]), (0x12, 0x34));
    assert!(!cpu.regs.iff1 && !cpu.regs.iff2);
    // The acknowledge is an M1 cycle: R advances, bit 7 kept.
    assert_eq!(cpu.regs.r(), 0x00);
    // Interrupts are now disabled: the line still being asserted does not re-enter.
    assert_eq!(cpu.step(&mut bus), 4);
    assert_eq!(cpu.regs.pc, 0x0039);
}

#[test]
fn im2_reads_vector_from_i_and_bus_byte_in_19_t_states() {
    let mut bus = Ram::with(&[(0x3F00, &[0x00]), (0x12FE, &[0x78, 0x56])]);
    bus.ack = 0xFE;
    let mut cpu = cpu_at(0x3F00, 2);
    cpu.regs.i = 0x12;
    cpu.set_irq(true);
    assert_eq!(cpu.step(&mut bus), 19);
    assert_eq!(cpu.regs.pc, 0x5678);
    assert_eq!((bus.mem[0x7FFF], bus.mem[0x7FFE]), (0x3F, 0x00));
    assert_eq!(bus.acks, 1);
}

#[test]
fn im0_with_floating_bus_ff_is_rst_38h_in_13_t_states() {
    let mut bus = Ram::with(&[(0x0200, &[0x00])]);
    let mut cpu = cpu_at(0x0200, 0);
    cpu.set_irq(true);
    assert_eq!(cpu.step(&mut bus), 13);
    assert_eq!(cpu.regs.pc, 0x0038);
    assert_eq!((bus.mem[0x7FFF], bus.mem[0x7FFE]), (0x02, 0x00));
}

#[test]
fn no_interrupt_directly_after_ei() {
    // EI ; NOP ; NOP with /INT held low throughout.
    let mut bus = Ram::with(&[(0x0000, &[0xFB, 0x00, 0x00])]);
    let mut cpu = cpu_at(0x0000, 1);
    cpu.regs.iff1 = false;
    cpu.regs.iff2 = false;
    cpu.set_irq(true);
    assert_eq!(cpu.step(&mut bus), 4); // EI
    assert!(cpu.regs.iff1);
    assert_eq!(cpu.step(&mut bus), 4); // the instruction after EI still runs
    assert_eq!(cpu.regs.pc, 0x0002);
    assert_eq!(cpu.step(&mut bus), 13); // now the interrupt is taken
    assert_eq!(cpu.regs.pc, 0x0038);
    assert_eq!((bus.mem[0x7FFF], bus.mem[0x7FFE]), (0x00, 0x02));
}

#[test]
fn nmi_goes_to_0066_keeps_iff2_and_retn_restores_iff1() {
    let mut bus = Ram::with(&[(0x4000, &[0x00]), (0x0066, &[0xED, 0x45])]);
    let mut cpu = cpu_at(0x4000, 1);
    cpu.nmi();
    assert_eq!(cpu.step(&mut bus), 11);
    assert_eq!(cpu.regs.pc, 0x0066);
    assert!(!cpu.regs.iff1);
    assert!(cpu.regs.iff2);
    assert_eq!((bus.mem[0x7FFF], bus.mem[0x7FFE]), (0x40, 0x00));
    assert_eq!(bus.acks, 0, "NMI has no acknowledge cycle");
    assert_eq!(cpu.step(&mut bus), 14); // RETN
    assert_eq!(cpu.regs.pc, 0x4000);
    assert!(cpu.regs.iff1);
}

#[test]
fn nmi_is_edge_triggered_and_taken_once() {
    let mut bus = Ram::with(&[(0x0066, &[0x00, 0x00])]);
    let mut cpu = cpu_at(0x1000, 1);
    cpu.nmi();
    assert_eq!(cpu.step(&mut bus), 11);
    assert_eq!(cpu.step(&mut bus), 4);
    assert_eq!(cpu.regs.pc, 0x0067);
}

#[test]
fn halt_idles_in_4_t_state_cycles_then_interrupt_resumes_after_halt() {
    // HALT at $0100; the handler at $0038 is RET.
    let mut bus = Ram::with(&[(0x0100, &[0x76, 0x00]), (0x0038, &[0xC9])]);
    let mut cpu = cpu_at(0x0100, 1);
    assert_eq!(cpu.step(&mut bus), 4);
    assert!(cpu.halted);
    for _ in 0..3 {
        assert_eq!(cpu.step(&mut bus), 4);
        assert_eq!(cpu.regs.pc, 0x0101);
        assert!(cpu.halted);
    }
    cpu.set_irq(true);
    assert_eq!(cpu.step(&mut bus), 13);
    assert!(!cpu.halted);
    // The return address is the instruction after HALT.
    assert_eq!((bus.mem[0x7FFF], bus.mem[0x7FFE]), (0x01, 0x01));
    cpu.set_irq(false);
    assert_eq!(cpu.step(&mut bus), 10); // RET
    assert_eq!(cpu.regs.pc, 0x0101);
    assert_eq!(cpu.t_states(), 4 + 3 * 4 + 13 + 10);
}

#[test]
fn halted_state_saved_by_clone_restores_and_resumes_identically() {
    let mut bus = Ram::with(&[(0x0100, &[0x76, 0x3C]), (0x0038, &[0xFB, 0xC9])]);
    let mut cpu = cpu_at(0x0100, 1);
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert!(cpu.halted);
    let (saved_cpu, saved_bus) = (cpu, bus.clone());

    let run = |cpu: &mut Z80, bus: &mut Ram| {
        cpu.step(bus);
        cpu.set_irq(true);
        cpu.step(bus); // accept
        cpu.set_irq(false);
        cpu.step(bus); // EI
        cpu.step(bus); // RET
        cpu.step(bus); // INC A after the HALT
    };
    run(&mut cpu, &mut bus);
    assert_eq!(cpu.regs.pc, 0x0102);
    let (mut cpu2, mut bus2) = (saved_cpu, saved_bus);
    run(&mut cpu2, &mut bus2);
    assert_eq!(cpu, cpu2);
    assert_eq!(bus, bus2);
}

#[test]
fn ld_a_i_interrupted_reads_p_v_as_zero() {
    // LD A,I with IFF2 set would give P/V = 1, but an interrupt accepted right after it resets P/V.
    let mut bus = Ram::with(&[(0x0000, &[0xED, 0x57, 0x00])]);
    let mut cpu = cpu_at(0x0000, 1);
    assert_eq!(cpu.step(&mut bus), 9);
    assert_ne!(cpu.regs.f & crate::registers::PF, 0);
    let mut interrupted = cpu;
    interrupted.set_irq(true);
    interrupted.step(&mut bus.clone());
    assert_eq!(interrupted.regs.f & crate::registers::PF, 0);
}

#[test]
fn run_stops_at_or_just_past_target() {
    let mut bus = Ram::with(&[]);
    let mut cpu = Z80::new();
    cpu.run(&mut bus, 10);
    assert_eq!(cpu.t_states(), 12); // three 4-T-state NOPs
    assert_eq!(cpu.regs.pc, 3);
}

#[test]
fn every_bus_access_lies_inside_its_instruction() {
    // CALL $1234 (17 T): pushes happen in the last two 3-T-state cycles.
    let mut bus = Ram::with(&[(0x0000, &[0xCD, 0x34, 0x12])]);
    let mut cpu = cpu_at(0x0000, 1);
    cpu.set_t_states(1000);
    assert_eq!(cpu.step(&mut bus), 17);
    let ts: Vec<u64> = bus.writes.iter().map(|w| w.2).collect();
    assert!(ts.iter().all(|&t| (1000..1017).contains(&t)));
    assert!(ts.windows(2).all(|w| w[0] < w[1]));
}
