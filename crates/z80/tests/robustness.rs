//! Every byte sequence is a valid Z80 program: random memory, random ports and random interrupt
//! traffic must never panic, and the T-state counter must advance by exactly what `step` reports.

use z80::{Bus, Z80};

struct Noise {
    mem: Vec<u8>,
    seed: u32,
    last_t: u64,
}

impl Noise {
    /// 64 KiB of noise from `seed`, the generator left where the filling ended.
    fn filled(seed: u32) -> Noise {
        let mut bus = Noise {
            mem: vec![0; 0x10000],
            seed,
            last_t: 0,
        };
        for i in 0..0x10000 {
            bus.mem[i] = bus.next();
        }
        bus
    }

    fn next(&mut self) -> u8 {
        // xorshift32: cheap deterministic noise.
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 17;
        self.seed ^= self.seed << 5;
        self.seed as u8
    }
    fn stamp(&mut self, t: u64) {
        assert!(
            t >= self.last_t,
            "bus access went back in time: {t} < {}",
            self.last_t
        );
        self.last_t = t;
    }
}

impl Bus for Noise {
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        self.stamp(t);
        self.mem[addr as usize]
    }
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.stamp(t);
        self.mem[addr as usize] = value;
    }
    fn port_in(&mut self, _port: u16, t: u64) -> u8 {
        self.stamp(t);
        self.next()
    }
    fn port_out(&mut self, _port: u16, _value: u8, t: u64) {
        self.stamp(t);
    }
    fn int_ack(&mut self, t: u64) -> u8 {
        self.stamp(t);
        self.next()
    }
}

#[test]
fn random_programs_never_panic() {
    let mut bus = Noise::filled(0x1234_5678);
    let mut cpu = Z80::new();
    for i in 0..2_000_000u32 {
        if i % 997 == 0 {
            cpu.set_irq(bus.next() & 1 == 0);
            cpu.regs.im = bus.next() % 3;
        }
        if i % 50_021 == 0 {
            cpu.nmi();
        }
        let before = cpu.t_states();
        let used = cpu.step(&mut bus);
        assert!((4..=23).contains(&used), "step took {used} T-states");
        assert_eq!(cpu.t_states() - before, used as u64);
    }
}

#[test]
fn endless_prefix_chain_still_steps() {
    // Memory full of DD: each step must return (one prefix acts as a 4-T-state NOP).
    let mut bus = Noise {
        mem: vec![0xDD; 0x10000],
        seed: 1,
        last_t: 0,
    };
    let mut cpu = Z80::new();
    for _ in 0..1000 {
        assert!(cpu.step(&mut bus) <= 8);
    }
    assert!(cpu.t_states() >= 4000);
}

/// `step_int_released` is `step` whenever /INT is released and no NMI is pending: the same
/// random program run both ways (HALTs, prefix chains, EI/DI and all) ends in the same state.
#[test]
fn step_int_released_is_step_with_int_released() {
    let mut bus = Noise::filled(0x0BAD_5EED);
    let mut other = Noise {
        mem: bus.mem.clone(),
        seed: bus.seed,
        last_t: 0,
    };
    let (mut a, mut b) = (Z80::new(), Z80::new());
    let mut halt_cycles = 0;
    for i in 0..500_000u32 {
        assert_eq!(
            a.step(&mut bus),
            b.step_int_released(&mut other),
            "step {i}"
        );
        assert_eq!(a, b, "step {i}");
        if a.halted {
            halt_cycles += 1;
        }
        // Out of any tight loop, and of a HALT (with no interrupt it lasts for ever), now
        // and then: somewhere else in the random program.
        if i % 1000 == 999 {
            let pc = bus.next() as u16 | (bus.next() as u16) << 8;
            other.seed = bus.seed;
            a.halted = false;
            b.halted = false;
            a.regs.pc = pc;
            b.regs.pc = pc;
        }
    }
    assert!(halt_cycles > 0, "no HALT cycle run");
    assert_eq!(bus.mem, other.mem);
}
