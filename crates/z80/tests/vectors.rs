//! Runs the SingleStepTests Z80 vectors (`shared/data/z80/v1/*.json.gz`): one instruction per
//! test from a fully specified state, compared register by register, plus RAM, port writes,
//! T-state count and the T-state of every bus access.

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::GzDecoder;
use serde::Deserialize;
use z80::{Bus, Z80};

#[derive(Deserialize)]
struct State {
    pc: u16,
    sp: u16,
    a: u8,
    b: u8,
    c: u8,
    d: u8,
    e: u8,
    f: u8,
    h: u8,
    l: u8,
    i: u8,
    r: u8,
    ix: u16,
    iy: u16,
    wz: u16,
    af_: u16,
    bc_: u16,
    de_: u16,
    hl_: u16,
    im: u8,
    iff1: u8,
    iff2: u8,
    ei: u8,
    p: u8,
    q: u8,
    ram: Vec<(u16, u8)>,
}

#[derive(Deserialize)]
struct Test {
    name: String,
    initial: State,
    #[serde(rename = "final")]
    final_: State,
    cycles: Vec<(u16, Option<u8>, String)>,
    #[serde(default)]
    ports: Vec<(u16, u8, String)>,
}

/// Kind of bus event, as the vectors' pin strings encode it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    MemRead,
    MemWrite,
    IoRead,
    IoWrite,
}

/// 64 KiB of RAM, the test's port inputs, and a log of every access with its relative T-state.
struct TestBus {
    ram: Box<[u8; 0x10000]>,
    /// Addresses touched this test, so the RAM can be cleared cheaply afterwards.
    dirty: Vec<u16>,
    port_inputs: Vec<(u16, u8)>,
    port_writes: Vec<(u16, u8)>,
    events: Vec<(u64, u16, Kind)>,
    t0: u64,
}

impl Bus for TestBus {
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        self.events.push((t - self.t0, addr, Kind::MemRead));
        self.ram[addr as usize]
    }
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.events.push((t - self.t0, addr, Kind::MemWrite));
        self.dirty.push(addr);
        self.ram[addr as usize] = value;
    }
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        self.events.push((t - self.t0, port, Kind::IoRead));
        match self.port_inputs.iter().position(|&(p, _)| p == port) {
            Some(i) => self.port_inputs.remove(i).1,
            None => 0xFF,
        }
    }
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.events.push((t - self.t0, port, Kind::IoWrite));
        self.port_writes.push((port, value));
    }
}

const CATEGORIES: [&str; 8] = [
    "regs",
    "flags",
    "flags-xy",
    "wz",
    "ram",
    "ports",
    "tstates",
    "bus-timing",
];

fn load_cpu(s: &State, cpu: &mut Z80) {
    let r = &mut cpu.regs;
    r.pc = s.pc;
    r.sp = s.sp;
    r.a = s.a;
    r.f = s.f;
    r.b = s.b;
    r.c = s.c;
    r.d = s.d;
    r.e = s.e;
    r.h = s.h;
    r.l = s.l;
    r.i = s.i;
    r.set_r(s.r);
    r.ix = s.ix;
    r.iy = s.iy;
    r.wz = s.wz;
    r.af_ = s.af_;
    r.bc_ = s.bc_;
    r.de_ = s.de_;
    r.hl_ = s.hl_;
    r.im = s.im;
    r.iff1 = s.iff1 != 0;
    r.iff2 = s.iff2 != 0;
    r.q = s.q;
    cpu.set_after_ei(s.ei != 0);
    cpu.set_after_ld_a_ir(s.p != 0);
    cpu.halted = false;
    cpu.nmi_pending = false;
    cpu.irq_line = false;
    cpu.pending_prefix = 0;
}

/// Everything except F and WZ, which have their own categories.
fn regs_match(s: &State, cpu: &Z80) -> bool {
    let r = &cpu.regs;
    (r.pc, r.sp, r.a, r.b, r.c, r.d, r.e, r.h, r.l, r.i, r.r())
        == (s.pc, s.sp, s.a, s.b, s.c, s.d, s.e, s.h, s.l, s.i, s.r)
        && (r.ix, r.iy, r.af_, r.bc_, r.de_, r.hl_) == (s.ix, s.iy, s.af_, s.bc_, s.de_, s.hl_)
        && (r.im, r.iff1, r.iff2, r.q) == (s.im, s.iff1 != 0, s.iff2 != 0, s.q)
        && (cpu.after_ei(), cpu.after_ld_a_ir()) == (s.ei != 0, s.p != 0)
}

fn expected_events(t: &Test) -> Vec<(u64, u16, Kind)> {
    let mut out = Vec::new();
    for (i, (addr, _, pins)) in t.cycles.iter().enumerate() {
        let p = pins.as_bytes();
        let io = p.get(3) == Some(&b'i');
        if p.first() == Some(&b'r') {
            out.push((
                i as u64,
                *addr,
                if io { Kind::IoRead } else { Kind::MemRead },
            ));
        }
        if p.get(1) == Some(&b'w') {
            out.push((
                i as u64,
                *addr,
                if io { Kind::IoWrite } else { Kind::MemWrite },
            ));
        }
    }
    out
}

/// Runs one test; returns a pass flag per category and a description of the first mismatch.
fn run_test(t: &Test, cpu: &mut Z80, bus: &mut TestBus) -> ([bool; 8], String) {
    load_cpu(&t.initial, cpu);
    for &(a, v) in &t.initial.ram {
        bus.ram[a as usize] = v;
        bus.dirty.push(a);
    }
    bus.port_inputs.clear();
    bus.port_inputs.extend(
        t.ports
            .iter()
            .filter(|p| p.2 == "r")
            .map(|&(p, v, _)| (p, v)),
    );
    bus.port_writes.clear();
    bus.events.clear();
    bus.t0 = 1_000_000;
    cpu.set_t_states(bus.t0);

    let used = cpu.step(bus);

    let s = &t.final_;
    let mut ok = [true; 8];
    let mut why = String::new();
    ok[0] = regs_match(s, cpu);
    ok[1] = cpu.regs.f & !0x28 == s.f & !0x28;
    ok[2] = cpu.regs.f & 0x28 == s.f & 0x28;
    ok[3] = cpu.regs.wz == s.wz;
    ok[4] = s.ram.iter().all(|&(a, v)| bus.ram[a as usize] == v);
    let want_ports: Vec<(u16, u8)> = t
        .ports
        .iter()
        .filter(|p| p.2 == "w")
        .map(|&(p, v, _)| (p, v))
        .collect();
    ok[5] = bus.port_writes == want_ports;
    ok[6] = used as usize == t.cycles.len() && cpu.t_states() - bus.t0 == used as u64;
    ok[7] = bus.events == expected_events(t);
    if !ok.iter().all(|&x| x) {
        why = format!(
            "{}: f {:02x} want {:02x}, wz {:04x} want {:04x}, t {} want {}, regs {:?}, events {:?} want {:?}",
            t.name,
            cpu.regs.f,
            s.f,
            cpu.regs.wz,
            s.wz,
            used,
            t.cycles.len(),
            cpu.regs,
            bus.events,
            expected_events(t)
        );
    }
    for a in bus.dirty.drain(..) {
        bus.ram[a as usize] = 0;
    }
    (ok, why)
}

fn vector_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/z80/v1")
}

/// Optional committed list of known failures: `test name # reason` per line.
fn known_failures() -> HashMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vector_known_failures.txt");
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashMap::new();
    };
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("//"))
        .filter_map(|l| l.split_once('#'))
        .map(|(n, r)| (n.trim().to_string(), r.trim().to_string()))
        .collect()
}

/// Run without the libtest harness so the per-file lines and the closing
/// `z80 vectors: N passed, M failed` line always reach the log; a failure panics (exit code 101).
fn main() {
    single_step_vectors();
}

fn single_step_vectors() {
    let dir = vector_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!(
            "z80 vectors: SKIPPED — directory {} not found (the SingleStepTests data lives outside the repo)",
            dir.display()
        );
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
        .collect();
    files.sort();
    let known = known_failures();
    let verbose = std::env::var_os("Z80_VECTORS_VERBOSE").is_some();

    let mut cpu = Z80::new();
    let mut bus = TestBus {
        ram: Box::new([0; 0x10000]),
        dirty: Vec::new(),
        port_inputs: Vec::new(),
        port_writes: Vec::new(),
        events: Vec::new(),
        t0: 0,
    };
    let (mut passed, mut failed, mut excused) = (0u64, 0u64, 0u64);
    let mut json = Vec::new();
    for path in &files {
        json.clear();
        GzDecoder::new(File::open(path).expect("open vector file"))
            .read_to_end(&mut json)
            .expect("gunzip vector file");
        let tests: Vec<Test> = serde_json::from_slice(&json).expect("parse vector file");
        let mut cat_pass = [0usize; 8];
        let mut file_failed = 0;
        let mut first_why = String::new();
        for t in &tests {
            let (ok, why) = run_test(t, &mut cpu, &mut bus);
            for (n, &o) in cat_pass.iter_mut().zip(&ok) {
                *n += o as usize;
            }
            if ok.iter().all(|&x| x) {
                passed += 1;
            } else if known.contains_key(&t.name) {
                excused += 1;
            } else {
                failed += 1;
                file_failed += 1;
                if first_why.is_empty() {
                    first_why = why;
                }
            }
        }
        if file_failed > 0 {
            let name = path.file_name().unwrap().to_string_lossy();
            let cats: Vec<String> = CATEGORIES
                .iter()
                .zip(&cat_pass)
                .map(|(c, n)| format!("{c} {n}/{}", tests.len()))
                .collect();
            println!("FAIL {name}: {}", cats.join(", "));
            if verbose {
                println!("  first: {first_why}");
            }
        }
    }
    if excused > 0 {
        println!(
            "z80 vectors: {excused} known failures excused (see tests/vector_known_failures.txt)"
        );
    }
    println!("z80 vectors: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "unexpected Z80 vector failures");
}
