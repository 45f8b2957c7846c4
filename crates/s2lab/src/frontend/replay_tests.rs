//! A session driven through the front end's input path (held inputs → bindings → controls →
//! session, as the window feeds it, without a window) records pad 1; the recording replayed
//! headless the way `s2lab run` replays (`cmd::run::run_script_frame`, headless mode) must
//! give the same work RAM after every frame and the same console at the end; replayed with
//! sound on, as the window ran, the very same save state.

use std::path::{Path, PathBuf};

use megadrive::{Machine, Mode, Options};

use super::bindings::{Bindings, Command};
use super::controls::Controls;
use super::inputs::{Held, HostInput, Input};
use super::recorder;
use super::session::Session;
use crate::cmd::run::run_script_frame;

/// A player who holds the named inputs for so many polls, step after step.
struct ScriptedPlayer {
    /// What is held at each poll, in order.
    polls: std::collections::VecDeque<Vec<&'static str>>,
}

impl ScriptedPlayer {
    fn new(steps: &[(usize, &[&'static str])]) -> ScriptedPlayer {
        let polls = steps
            .iter()
            .flat_map(|(n, keys)| std::iter::repeat_n(keys.to_vec(), *n))
            .collect();
        ScriptedPlayer { polls }
    }

    fn done(&self) -> bool {
        self.polls.is_empty()
    }
}

impl HostInput for ScriptedPlayer {
    fn held(&mut self, held: &mut Held) {
        if let Some(keys) = self.polls.pop_front() {
            held.extend(keys.iter().map(|k| Input::parse(k).unwrap()));
        }
    }
}

type RamLog = std::rc::Rc<std::cell::RefCell<Vec<(u64, Vec<u8>)>>>;

fn work_ram(m: &Machine) -> Vec<u8> {
    m.bus.sys.ram.to_vec()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("s2lab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Plays `player` through the input path with sound on (as the window does), logging work RAM
/// after every frame from the poll that starts the recording on; ends the recording as
/// quitting does and returns the session.
fn play(rom: &[u8], dir: &Path, player: &mut ScriptedPlayer, log: &RamLog) -> Session {
    let mut s = Session::new(
        rom.to_vec(),
        PathBuf::from("test.bin"),
        Options::default(),
        Bindings::default(),
    )
    .unwrap();
    s.recordings = dir.to_path_buf();
    s.slots.dir = dir.join("slots");
    s.screenshots = dir.join("shots");
    s.enable_audio(48_000);
    let hook_log = log.clone();
    s.on_frame = Some(Box::new(move |m: &Machine, _| {
        hook_log.borrow_mut().push((m.frame_count, work_ram(m)));
    }));
    let mut controls = Controls::new(&Bindings::default());
    let mut audio = Vec::new();
    while !player.done() {
        let mut held = Held::new();
        player.held(&mut held);
        let p = controls.poll(&held);
        if p.pressed.contains(&Command::Record) && !s.recording() {
            log.borrow_mut().clear();
        }
        let out = s.tick(&p);
        assert!(!out.quit);
        s.machine.take_audio(&mut audio);
        audio.clear();
    }
    assert!(
        s.recording(),
        "the player's script leaves the recording running"
    );
    s.stop_recording();
    s
}

/// Replays the recording headless and compares with the log, frame by frame, and the
/// machine state at the end.
/// What the game can see of the console: the 68000's registers and clock, work RAM, Z80 RAM
/// and bus control, VDP memories and registers, YM2612 and PSG registers, the pads.
fn console(m: &Machine) -> String {
    let s = &m.bus.sys;
    format!(
        "{:?} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {} {}",
        m.cpu.registers(),
        m.master_clock(),
        s.ram,
        s.zbus,
        s.vdp.regs,
        s.vdp.vram,
        s.vdp.cram,
        s.vdp.vsram,
        s.vdp.status,
        s.ym.regs,
        s.ym.status,
        s.io.regs,
        m.frame_count,
        s.vdp.v_counter
    )
}

fn replay_and_compare(rom: &[u8], script: &Path, log: &RamLog, end: &Machine) -> usize {
    let r = recorder::read_replay(script, None).unwrap();
    let mut m = Machine::new(rom.to_vec(), Options::default()).unwrap();
    if let Some((_, state)) = &r.state {
        m.load_state(state).unwrap();
    }
    m.set_mode(Mode::Headless);
    let log = log.borrow();
    assert_eq!(r.frames.len(), log.len(), "one script frame per frame run");
    for (i, (frame, ram)) in log.iter().enumerate() {
        run_script_frame(&mut m, &r.frames, i as u64 + 1);
        assert_eq!(m.frame_count, *frame);
        let now = work_ram(&m);
        if now != *ram {
            let at = (0..ram.len()).find(|&a| now[a] != ram[a]).unwrap_or(0);
            panic!(
                "work RAM differs after frame {frame} (replay frame {}), first at ${:06X}",
                i + 1,
                0xFF0000 + at
            );
        }
    }
    // Headless runs do not synthesise sound, so the chips' synthesis state (phases,
    // envelopes, sample buffers) in a save state differs from the window's, which played
    // sound; everything the game can see must not.
    assert_eq!(
        console(&m),
        console(end),
        "the console's state at the end differs"
    );
    // And a replay with sound on, as the window ran, ends in the very same save state.
    let mut with_sound = Machine::new(rom.to_vec(), Options::default()).unwrap();
    if let Some((_, state)) = &r.state {
        with_sound.load_state(state).unwrap();
    }
    with_sound.enable_audio(48_000);
    let mut audio = Vec::new();
    for i in 0..r.frames.len() {
        run_script_frame(&mut with_sound, &r.frames, i as u64 + 1);
        with_sound.take_audio(&mut audio);
        audio.clear();
    }
    assert!(
        with_sound.save_state() == end.save_state(),
        "the save state at the end differs"
    );
    log.len()
}

fn the_script(dir: &Path) -> PathBuf {
    let scripts: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    assert_eq!(scripts.len(), 1, "{scripts:?}");
    scripts[0].clone()
}

/// The test ROM reads pad 1 into RAM every frame, so RAM follows the input. The session
/// records from power-on through pause, frame advance, fast forward (several frames a poll),
/// slow motion, a button a script cannot hold (X: masked) and pad 2 (idle while recording).
#[test]
fn recording_from_power_on_replays_headless_with_the_same_ram_every_frame() {
    let rom = testrom::rom();
    let dir = temp_dir("rec-poweron");
    let log = RamLog::default();
    let mut player = ScriptedPlayer::new(&[
        (1, &["F2"]), // record, from power-on (no frame run yet)
        (5, &[]),
        (10, &["Right", "S"]),
        (1, &["Right", "P"]), // pause
        (3, &["Right"]),
        (1, &["Right", "N"]), // frame advance: one frame
        (2, &["Left"]),
        (1, &["Left", "D", "N"]),
        (1, &["N"]),
        (1, &["P"]),              // resume
        (6, &["Tab", "A", "Q"]),  // fast forward, X held
        (4, &["M", "Enter"]),     // slow motion (the loop's pacing only)
        (8, &["Up", "NumPad1"]),  // pad 2's A
        (3, &["Gamepad1.South"]), // a gamepad's B
    ]);
    let s = play(rom, &dir, &mut player, &log);
    let script = the_script(&dir);
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("# start: power-on"), "{text}");
    let frames = replay_and_compare(rom, &script, &log, &s.machine);
    // Pause and the polls while paused run no frame; each frame-advance press runs one (a
    // held N only once); fast forward runs 4 a poll.
    assert_eq!(frames, 1 + 5 + 10 + 1 + 1 + 1 + 24 + 4 + 8 + 3);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Recording started mid-game carries its start state beside the script.
#[test]
fn recording_from_a_state_replays_headless_with_the_same_ram_every_frame() {
    let rom = testrom::rom();
    let dir = temp_dir("rec-state");
    let log = RamLog::default();
    let mut player = ScriptedPlayer::new(&[
        (40, &["Down", "A"]),
        (1, &["F5"]),          // a slot save on the way
        (1, &["F2", "Right"]), // record from here
        (20, &["Right", "S"]),
        (1, &["P"]),
        (2, &["N", "C"]),
        (1, &["P"]),
        (12, &["Enter"]),
    ]);
    let s = play(rom, &dir, &mut player, &log);
    let script = the_script(&dir);
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("# start: state "), "{text}");
    assert!(script.with_extension("state").is_file());
    let frames = replay_and_compare(rom, &script, &log, &s.machine);
    assert_eq!(frames, 1 + 20 + 1 + 1 + 12);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The same on Sonic 2 (Rev B, from the ROM store; skipped without it): through the title
/// screen into Emerald Hill and running, then a recording from a state with jumps.
#[test]
fn sonic2_recording_replays_headless_with_the_same_ram_every_frame() {
    let Ok(path) = s2harness::store::locate(None, "revb") else {
        eprintln!("skipped: no Sonic 2 Rev B ROM (s2lab rom import FILE)");
        return;
    };
    let rom = std::fs::read(path).unwrap();
    let dir = temp_dir("rec-s2");
    let log = RamLog::default();
    let mut player = ScriptedPlayer::new(&[
        (1, &["F2"]),
        (400, &[]),
        (5, &["Enter"]),
        (200, &[]),
        (5, &["Enter"]),
        (300, &["Right"]),
        (4, &["Right", "S"]),
        (30, &["Tab", "Right"]),
        (60, &["Left", "D"]),
    ]);
    let s = play(&rom, &dir, &mut player, &log);
    let script = the_script(&dir);
    let frames = replay_and_compare(&rom, &script, &log, &s.machine);
    assert!(frames > 1000);
    std::fs::remove_dir_all(dir).unwrap();
}
