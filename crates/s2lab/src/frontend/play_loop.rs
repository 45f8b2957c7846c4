//! The window's loop: poll the keyboard and gamepads, let the session act, show the picture
//! (with the overlay), feed the sound, and keep time.
//!
//! Pacing (`super::pacing`): with sound, the console's frame time stretched or shortened by up
//! to 5 % in proportion to the audio buffer's distance from 3 frames of fill, so the device's
//! clock wins in the long run. Without sound (none asked for, no device, or paused), the video
//! clock alone. Slow motion stretches each frame four times; fast forward does not wait and
//! drops the sound. `--verbose` prints the fill once a second.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use megadrive::clock::{LINES_NTSC, LINES_PAL, MCLK_NTSC_HZ, MCLK_PAL_HZ, MCLK_PER_LINE};
use megadrive::{Options, frontend::AudioSink};

use super::audio::AudioOutput;
use super::bindings::{self, Bindings};
use super::controls::Controls;
use super::font::Canvas;
use super::gamepad::Gamepads;
use super::inputs::{Held, HostInput};
use super::pacing::{FillStats, Pacer};
use super::scale::{self, Aspect};
use super::session::Session;
use super::window::GameWindow;
use super::{overlay, recorder};
use crate::cmd::play::{PlayArgs, game_title};

/// Slow motion: each frame takes this many frame times.
const SLOW_FACTOR: u32 = 4;

fn frame_time(pal: bool) -> Duration {
    let (mclk, lines) = if pal {
        (MCLK_PAL_HZ, LINES_PAL)
    } else {
        (MCLK_NTSC_HZ, LINES_NTSC)
    };
    Duration::from_secs_f64((MCLK_PER_LINE * lines as u64) as f64 / mclk as f64)
}

fn load_bindings(args: &PlayArgs) -> Result<Bindings> {
    match &args.bindings {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?;
            Bindings::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))
        }
        None => match bindings::config_path() {
            Some(p) => bindings::load_or_create(&p),
            None => Ok(Bindings::default()),
        },
    }
}

/// Builds the session the options ask for: start state, replay, recording.
pub fn session_for(
    args: &PlayArgs,
    rom: Vec<u8>,
    options: Options,
    b: Bindings,
) -> Result<Session> {
    let mut s = Session::new(rom, args.rom.clone(), options, b)?;
    s.overlay = args.overlay;
    s.paused = args.paused;
    let replay = match &args.replay {
        Some(p) => Some(recorder::read_replay(p, args.state.as_deref())?),
        None => None,
    };
    let start = match (&replay, &args.state) {
        (Some(r), _) => r.state.clone(),
        (None, Some(p)) => {
            let bytes = std::fs::read(p)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?;
            Some((p.clone(), bytes))
        }
        (None, None) => None,
    };
    if let Some((path, bytes)) = &start {
        s.load_start_state(path, bytes)?;
        eprintln!(
            "started from {} (frame {})",
            path.display(),
            s.machine.frame_count
        );
    }
    if let Some(r) = replay {
        eprintln!(
            "replaying {} frames from {}",
            r.frames.len(),
            args.replay
                .as_deref()
                .unwrap_or(std::path::Path::new(""))
                .display()
        );
        s.start_replay(r.frames);
    }
    if let Some(p) = &args.record {
        s.start_recording(p.clone(), start.is_none());
    }
    Ok(s)
}

pub fn run(args: &PlayArgs, rom: Vec<u8>, options: Options, aspect: Aspect) -> Result<ExitCode> {
    let b = load_bindings(args)?;
    let mut controls = Controls::new(&b);
    let mut session = session_for(args, rom, options, b)?;
    let title = format!("{} - s2lab", game_title(&session.machine));
    let pal = session.machine.region.pal;
    let par_of = |aspect: Aspect, w: usize| match aspect {
        Aspect::Tv => scale::pixel_aspect(w, pal),
        Aspect::Square => 1.0,
    };
    let mut aspect = aspect;
    let size = scale::window_size(
        320,
        224,
        args.scale.clamp(1, 6) as usize,
        par_of(aspect, 320),
    );
    let mut window = GameWindow::open(&title, size)?;
    let mut audio = None;
    if !args.no_audio {
        match AudioOutput::open_quietly() {
            Ok(a) => {
                session.enable_audio(a.rate);
                audio = Some(a);
            }
            Err(e) => eprintln!(
                "warning: no sound ({e:#}); playing on silently, paced by the video clock"
            ),
        }
    }
    let mut gamepads = match Gamepads::open() {
        Ok(g) => {
            for d in g.describe() {
                eprintln!("{d}");
            }
            Some(g)
        }
        Err(e) => {
            eprintln!("warning: {e}; keyboard only");
            None
        }
    };
    for n in session.notices.drain(..) {
        eprintln!("{n}");
    }

    let frame_time = frame_time(pal);
    // Ctrl-C in the terminal ends play as Esc does, so a recording is still written.
    let interrupt = crate::cmd::interrupt::flag();
    let started = Instant::now();
    let per_frame = audio
        .as_ref()
        .map_or(0.0, |a| f64::from(a.rate) * frame_time.as_secs_f64());
    let mut pacer = Pacer::new(frame_time, per_frame);
    let mut stats = FillStats::default();
    let mut reported = started;
    let mut frames = 0u64;
    let mut held = Held::new();
    let mut rgb = Vec::new();
    let mut scratch = Vec::new();
    while window.is_open() && !interrupt.load(std::sync::atomic::Ordering::Relaxed) {
        held.clear();
        window.held(&mut held);
        if let Some(g) = &mut gamepads {
            g.held(&mut held);
        }
        let polled = controls.poll(&held);
        let out = session.tick(&polled);
        frames += out.frames as u64;
        for n in session.notices.drain(..) {
            eprintln!("{n}");
        }
        if out.quit {
            break;
        }
        if out.toggle_aspect {
            aspect = match aspect {
                Aspect::Tv => Aspect::Square,
                Aspect::Square => Aspect::Tv,
            };
        }
        let frame = session.machine.frame_buffer();
        let (w, h) = (frame.width, frame.height);
        if out.toggle_fullscreen {
            let par = par_of(aspect, w.max(1));
            if let Err(e) = window.toggle_fullscreen(scale::window_size(w.max(1), h.max(1), 1, par))
            {
                eprintln!("fullscreen: {e:#}");
            }
        }
        rgb.clear();
        rgb.extend(frame.to_rgb());
        if session.overlay && w > 0 {
            let lines = overlay::lines(
                &session.machine,
                session.symbols.as_ref(),
                session.last_input,
            );
            overlay::draw(
                &mut Canvas {
                    pixels: &mut rgb,
                    width: w,
                    height: h,
                },
                &lines,
            );
        }
        window.present(&rgb, w, h, par_of(aspect, w));
        window.set_title(&format!("{title} | {}", session.status()));

        stats.frames(out.frames as u64);
        let now = started.elapsed();
        let mut resume = None;
        if session.fast() {
            if audio.is_some() {
                session.machine.take_audio_ready(&mut scratch);
                scratch.clear();
            }
            pacer.resync(now);
        } else if session.slow {
            if let Some(a) = &mut audio {
                session.machine.take_audio_ready(&mut scratch);
                a.samples(a.rate, &scratch);
                scratch.clear();
            }
            resume = Some(pacer.wait(now, frame_time * SLOW_FACTOR));
        } else if let Some(a) = audio.as_mut().filter(|_| out.frames > 0) {
            session.machine.take_audio_ready(&mut scratch);
            a.samples(a.rate, &scratch);
            scratch.clear();
            let fill = a.buffered_frames();
            stats.record(fill);
            resume = Some(pacer.after_frame(now, fill));
        } else {
            // Paused, or no sound: the video clock.
            resume = Some(pacer.wait(now, frame_time));
        }
        if let Some(at) = resume {
            let now = started.elapsed();
            if at > now {
                std::thread::sleep(at - now);
            }
        }
        if args.verbose && reported.elapsed() >= Duration::from_secs(1) {
            let (rate, underruns) = audio.as_ref().map_or((0, 0), |a| (a.rate, a.underruns()));
            eprintln!(
                "{}",
                stats.report(reported.elapsed(), rate, underruns, frame_time)
            );
            reported = Instant::now();
        }
        if args.frames.is_some_and(|n| frames >= n) {
            break;
        }
    }
    session.stop_recording();
    for n in session.notices.drain(..) {
        eprintln!("{n}");
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{frames} frames in {secs:.1} s ({:.1} fps){}",
        frames as f64 / secs.max(1e-9),
        audio
            .as_ref()
            .map(|a| format!(", audio at {} Hz, {} underruns", a.rate, a.underruns()))
            .unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}
