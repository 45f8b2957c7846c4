//! `Z80::fast_forward` against stepping, the truth the SingleStepTests vectors verify: from the
//! same state, running to the same T-state target with loops fast-forwarded wherever the core
//! accepts must end in the same state (every register, flag, Q, WZ, R, the T-state count) with
//! the same writes and port accesses, for every entry state the tests generate.

use z80::{Bus, Z80};

/// 64 KiB of RAM that answers `peek`, logging every access that is not a RAM read.
#[derive(Clone)]
struct Ram {
    mem: Vec<u8>,
    log: Vec<(char, u16, u8, u64)>,
}

impl Bus for Ram {
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.mem[addr as usize]
    }
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.log.push(('w', addr, value, t));
        self.mem[addr as usize] = value;
    }
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        self.log.push(('i', port, 0, t));
        0xFF
    }
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.log.push(('o', port, value, t));
    }
    fn int_ack(&mut self, t: u64) -> u8 {
        self.log.push(('a', 0, 0, t));
        0xFF
    }
    fn peek(&self, addr: u16) -> Option<u8> {
        Some(self.mem[addr as usize])
    }
}

/// xorshift32: cheap deterministic noise.
struct Noise(u32);
impl Noise {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

/// Zeroes the register an `LD A,r`/`OR r` field names (0-5: B, C, D, E, H, L); 6 is (HL)
/// and 7 is A, which the callers set themselves.
fn clear_register(cpu: &mut Z80, code: u8) {
    match code {
        0 => cpu.regs.b = 0,
        1 => cpu.regs.c = 0,
        2 => cpu.regs.d = 0,
        3 => cpu.regs.e = 0,
        4 => cpu.regs.h = 0,
        5 => cpu.regs.l = 0,
        _ => {}
    }
}

/// A CPU at `pc` with every register from `noise`, interrupts enabled (IM 1) and the line
/// asserted or not as `noise` decides.
fn random_cpu(noise: &mut Noise, pc: u16) -> Z80 {
    let mut cpu = Z80::new();
    let r = &mut cpu.regs;
    r.pc = pc;
    r.sp = 0xF000;
    r.a = noise.next() as u8;
    r.f = noise.next() as u8;
    r.set_bc(noise.next() as u16);
    r.set_de(noise.next() as u16);
    r.set_hl(noise.next() as u16);
    r.set_r(noise.next() as u8);
    r.wz = noise.next() as u16;
    r.q = noise.next() as u8;
    r.im = 1;
    r.iff1 = noise.next() & 1 == 0;
    r.iff2 = r.iff1;
    cpu.irq_line = noise.next().is_multiple_of(3);
    cpu.set_after_ei(noise.next().is_multiple_of(4));
    cpu.set_after_ld_a_ir(noise.next().is_multiple_of(4));
    cpu.set_t_states(1000 + (noise.next() % 50) as u64);
    cpu
}

/// Both ways to `until`: stepping only, and fast-forwarding at every boundary where the core
/// accepts (stepping elsewhere).
fn both_ways(cpu: Z80, mem: &[u8], until: u64) -> ([(Z80, Ram); 2], usize) {
    let bus = Ram {
        mem: mem.to_vec(),
        log: Vec::new(),
    };
    let (mut stepped, mut stepped_bus) = (cpu, bus.clone());
    while stepped.t_states() < until {
        stepped.step(&mut stepped_bus);
    }
    let (mut fast, mut fast_bus) = (cpu, bus);
    let mut forwarded = 0;
    while fast.t_states() < until {
        if fast.fast_forward(&fast_bus, until) {
            forwarded += 1;
        } else {
            fast.step(&mut fast_bus);
        }
    }
    assert!(forwarded <= 64, "fast_forward made no progress");
    ([(stepped, stepped_bus), (fast, fast_bus)], forwarded)
}

/// Compares the two runs; returns how many times the second fast-forwarded.
fn assert_same(cpu: &Z80, until: u64, runs: ([(Z80, Ram); 2], usize)) -> usize {
    let ([(a, abus), (b, bbus)], forwarded) = runs;
    assert_eq!(a, b, "from {cpu:?} to T-state {until}");
    assert_eq!(abus.log, bbus.log, "from {cpu:?} to T-state {until}");
    forwarded
}

/// `DJNZ $` (Sonic 2's DAC pacing), followed by code that reloads B and jumps back, so runs
/// cross the loop's exit and re-entry; every B, targets up to 3,400 T-states away (B = 0 is 256
/// iterations, 3,323 T-states).
#[test]
fn djnz_to_itself_matches_stepping() {
    let mut mem = vec![0u8; 0x10000];
    // $0100 DJNZ $ / $0102 LD B,5 / $0104 OUT ($12),A / $0106 JR $0100
    mem[0x100..0x108].copy_from_slice(&[0x10, 0xFE, 0x06, 0x05, 0xD3, 0x12, 0x18, 0xF8]);
    mem[0x38] = 0xC9; // RET from the interrupt
    let mut noise = Noise(0x2545_F491);
    let mut forwarded = 0;
    for b in 0..=255u8 {
        for _ in 0..12 {
            let mut cpu = random_cpu(&mut noise, 0x100);
            cpu.regs.b = b;
            let until = cpu.t_states() + (noise.next() % 3400) as u64;
            forwarded += assert_same(&cpu, until, both_ways(cpu, &mem, until));
        }
    }
    // Most cases have no interrupt to accept (the line is down or IFF1 clear): they forward.
    assert!(forwarded > 2000, "{forwarded} fast-forwards in 3,072 cases");
}

/// `LD A,r / OR r' / JR Z,$-4` for every register pair (Sonic 2's `zWaitLoop` is `LD A,D /
/// OR E`), with both registers zero (it waits to the target) or not (it leaves after a pass
/// and must not be fast-forwarded), entered at any of its three instructions.
#[test]
fn wait_for_zero_matches_stepping() {
    let mut noise = Noise(0x9E37_79B9);
    let mut forwarded = 0;
    for r in 0..6u8 {
        for r2 in 0..6u8 {
            let mut mem = vec![0u8; 0x10000];
            // $0200 LD A,r / OR r' / JR Z,$0200 / OUT ($34),A / JR $0200
            mem[0x200..0x208].copy_from_slice(&[
                0x78 | r,
                0xB0 | r2,
                0x28,
                0xFC,
                0xD3,
                0x34,
                0x18,
                0xF6,
            ]);
            mem[0x38] = 0xC9;
            for case in 0..60u32 {
                let entry = 0x200 + (case % 3) as u16;
                let mut cpu = random_cpu(&mut noise, entry);
                if !case.is_multiple_of(5) {
                    // Entered at the OR, the loop goes on only if A is 0 too.
                    if case.is_multiple_of(2) {
                        cpu.regs.a = 0;
                    }
                    for code in [r, r2] {
                        clear_register(&mut cpu, code);
                    }
                }
                let until = cpu.t_states() + (noise.next() % 400) as u64;
                forwarded += assert_same(&cpu, until, both_ways(cpu, &mem, until));
            }
        }
    }
    assert!(forwarded > 600, "{forwarded} fast-forwards in 2,160 cases");
}

/// Nothing else is fast-forwarded: a DJNZ to elsewhere, a JR Z with another displacement,
/// memory the bus does not vouch for.
#[test]
fn other_code_is_left_to_step() {
    let mut cpu = Z80::new();
    cpu.regs.b = 9;
    cpu.regs.pc = 0x100;
    let mut mem = vec![0u8; 0x10000];
    mem[0x100..0x102].copy_from_slice(&[0x10, 0xFD]);
    let bus = Ram {
        mem,
        log: Vec::new(),
    };
    assert!(!cpu.fast_forward(&bus, 10_000));
    struct Opaque;
    impl Bus for Opaque {
        fn read(&mut self, _: u16, _: u64) -> u8 {
            0x10
        }
        fn write(&mut self, _: u16, _: u8, _: u64) {}
        fn port_in(&mut self, _: u16, _: u64) -> u8 {
            0xFF
        }
        fn port_out(&mut self, _: u16, _: u8, _: u64) {}
    }
    cpu.regs.pc = 0x100;
    assert!(!cpu.fast_forward(&Opaque, 10_000));
    let mut mem = vec![0u8; 0x10000];
    mem[0x200..0x204].copy_from_slice(&[0x7A, 0xB3, 0x28, 0xFB]);
    cpu.regs.pc = 0x200;
    cpu.regs.set_de(0);
    let bus = Ram {
        mem,
        log: Vec::new(),
    };
    assert!(!cpu.fast_forward(&bus, 10_000));
}

/// RAM that logs every read too, for `waits_for_interrupt`'s promise: stepping reads only the
/// loop's code.
struct Watched(Ram, Vec<u16>);

impl Bus for Watched {
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        self.1.push(addr);
        self.0.read(addr, t)
    }
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.0.write(addr, value, t)
    }
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        self.0.port_in(port, t)
    }
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.0.port_out(port, value, t)
    }
    fn int_ack(&mut self, t: u64) -> u8 {
        self.0.int_ack(t)
    }
    fn peek(&self, addr: u16) -> Option<u8> {
        self.0.peek(addr)
    }
}

/// `Z80::waits_for_interrupt` against stepping: from every state it accepts (the wait loop at
/// each entry, every register pair, registers zero or not, random code around), stepping
/// 3,000 T-states with /INT released reads only the loop's four bytes, writes nothing, touches
/// no port and stays in the loop; and running there in pieces (a run per "line", as the
/// console would without deferring) ends where one run over the whole span ends.
#[test]
fn waits_for_interrupt_only_where_stepping_only_waits() {
    let mut noise = Noise(0x1234_5678);
    let (mut waiting, mut cases) = (0, 0);
    for r in 0..8u8 {
        for r2 in 0..8u8 {
            let mut mem: Vec<u8> = (0..0x10000).map(|_| noise.next() as u8).collect();
            // $0200 LD A,r / OR r' / JR Z,$0200, random code after it; r = 6 and r' = 6 are
            // LD A,(HL) / OR (HL), which read memory and are not the modelled loop.
            mem[0x200..0x204].copy_from_slice(&[0x78 | r, 0xB0 | r2, 0x28, 0xFC]);
            for case in 0..40u32 {
                let pc = match case % 5 {
                    4 => 0x1FF + (noise.next() % 6) as u16,
                    k => 0x200 + (k % 3) as u16,
                };
                let mut cpu = random_cpu(&mut noise, pc);
                if case % 7 != 0 {
                    if case.is_multiple_of(2) {
                        cpu.regs.a = 0;
                    }
                    for code in [r, r2] {
                        clear_register(&mut cpu, code);
                    }
                }
                cpu.halted = case % 11 == 0;
                cpu.nmi_pending = case % 13 == 0;
                cases += 1;
                let ram = Ram {
                    mem: mem.clone(),
                    log: Vec::new(),
                };
                if !cpu.waits_for_interrupt(&ram) {
                    continue;
                }
                waiting += 1;
                cpu.irq_line = false;
                let mut stepped = cpu;
                let mut bus = Watched(ram.clone(), Vec::new());
                let until = cpu.t_states() + 3000;
                while stepped.t_states() < until {
                    stepped.step(&mut bus);
                    assert!(
                        (0x200..0x204).contains(&stepped.regs.pc),
                        "left from {cpu:?}"
                    );
                }
                assert!(
                    bus.0.log.is_empty(),
                    "accesses {:?} from {cpu:?}",
                    bus.0.log
                );
                assert!(
                    bus.1.iter().all(|a| (0x200..0x204).contains(a)),
                    "reads {:?} from {cpu:?}",
                    bus.1
                );
                // In pieces of 1 to 300 T-states, as runs to line ends would go.
                let mut pieces = cpu;
                let mut at = cpu.t_states();
                while at < until {
                    at = (at + 1 + (noise.next() % 300) as u64).min(until);
                    if !pieces.fast_forward(&ram, at) {
                        let mut step_bus = ram.clone();
                        while pieces.t_states() < at {
                            pieces.step(&mut step_bus);
                        }
                    }
                }
                assert_eq!(pieces, stepped, "from {cpu:?} to T-state {until}");
            }
        }
    }
    assert!(waiting > 600, "{waiting} waiting states in {cases} cases");
}
