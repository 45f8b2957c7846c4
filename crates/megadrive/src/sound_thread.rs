//! Sound synthesis on a second thread (`full` mode's default,
//! [`Machine::set_sound_thread`](crate::machine::Machine::set_sound_thread)).
//!
//! The emulation thread keeps everything the game can observe of the sound chips: the
//! YM2612's registers, status, busy flag and timers, and the PSG's registers, exactly as
//! `headless` runs them (their `render` flags are off). Every timed call it makes on a chip
//! (a port write, a status read's catch-up, a reset, the scheduler's catch-up every 64 lines,
//! `System::sync_sound`) is also logged ([`CallLog`]) and shipped at each of those catch-ups
//! to a worker thread that owns a second copy of both chips with synthesis on and the output
//! stage ([`AudioOut`]), and replays the calls in order. The worker's chips so see exactly the
//! calls the emulation thread's chips would see in the single-threaded path, in the same order
//! and at the same clocks, and produce the same samples: only when the work is done changes.
//! The worker mixes and resamples each batch as it comes ([`Ahead`]); a `take_audio` at clock
//! `now` ships what is left and waits for the worker to catch up to `now`, so the caller gets
//! the same samples at the same call, whatever the threads' timing.
//!
//! The threads hand over through channels: a shipment per 64 lines (4 a frame) and a round
//! trip per take; each side polls its channel briefly before it sleeps ([`SPIN`]), so running
//! flat out neither pays a wake-up per hand-over. Where both cores are busy the scheduler may run the worker on
//! the emulation thread's core, and the hand-overs are then pure cost (about 0.1 s of system
//! time over 3,600 frames of Sonic 2); `Machine::set_sound_thread(false)` avoids them.
//!
//! Anything that reads or replaces the synthesis state first brings it up to date: a save
//! state serialises the worker's chips with the calls not yet shipped applied to a copy
//! ([`SoundThread::snapshot`]); a clone of the machine starts from a copy of the worker's
//! state; loading a state gives the worker the loaded chips; turning the thread or sound off
//! moves the worker's chips back into the machine, as they would have been there.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvError, Sender, TryRecvError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::audio::AudioOut;
use crate::psg::Psg;
use crate::ym2612::Ym2612;

/// One timed call on the YM2612, as the emulation thread made it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum YmCall {
    /// [`Ym2612::write`] (address or data port).
    Write { port: u8, value: u8, at: u64 },
    /// [`Ym2612::sync`] (a status read's catch-up, the scheduler's periodic one).
    Sync(u64),
    /// [`Ym2612::reset`].
    Reset(u64),
}

/// One timed call on the PSG.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PsgCall {
    /// [`Psg::write_at`].
    Write { value: u8, at: u64 },
    /// [`Psg::sync`] (the scheduler's periodic catch-up).
    Sync(u64),
}

/// The calls made on a chip since the last shipment, recorded while `on`. Derived traffic,
/// not state: compares equal to any other log, so chips compare by their state alone.
#[derive(Clone, Debug)]
pub(crate) struct CallLog<T> {
    pub(crate) on: bool,
    pub(crate) calls: Vec<T>,
}

impl<T> Default for CallLog<T> {
    fn default() -> Self {
        CallLog {
            on: false,
            calls: Vec::new(),
        }
    }
}

impl<T> CallLog<T> {
    #[inline]
    pub(crate) fn push(&mut self, call: T) {
        if self.on {
            self.calls.push(call);
        }
    }
}

impl<T> PartialEq for CallLog<T> {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl<T> Eq for CallLog<T> {}

/// The synthesising side: both chips with synthesis on, and the output stage.
#[derive(Clone, Debug)]
pub(crate) struct Synth {
    pub(crate) ym: Ym2612,
    pub(crate) psg: Psg,
    pub(crate) out: AudioOut,
}

impl Synth {
    /// Replays logged calls in order.
    fn replay(&mut self, ym: &[YmCall], psg: &[PsgCall]) {
        for &call in ym {
            match call {
                YmCall::Write { port, value, at } => self.ym.write(port as u32, value, at),
                YmCall::Sync(at) => self.ym.sync(at),
                YmCall::Reset(at) => self.ym.reset(at),
            }
        }
        for &call in psg {
            match call {
                PsgCall::Write { value, at } => self.psg.write_at(value, at),
                PsgCall::Sync(at) => self.psg.sync(at),
            }
        }
    }
}

/// What the emulation thread asks of the worker.
enum Job {
    Replay(Vec<YmCall>, Vec<PsgCall>),
    /// Catch up to the clock, mix and resample into the buffer and send it back.
    Take(u64, Vec<i16>),
    /// Send back a copy of the synthesis side, with these calls applied to the copy only.
    Snapshot(Vec<YmCall>, Vec<PsgCall>),
}

enum Reply {
    Samples(Vec<i16>),
    Snapshot(Box<Synth>),
}

/// A running worker.
struct Worker {
    jobs: Option<Sender<Job>>,
    /// In a mutex so that a machine can be shared between threads (`Sync`); only the
    /// machine's owner ever waits on it.
    replies: Mutex<Receiver<Reply>>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    fn start(synth: Box<Synth>) -> Worker {
        let (jobs, job_rx) = channel::<Job>();
        let (reply_tx, replies) = channel::<Reply>();
        let handle = std::thread::Builder::new()
            .name("sound".into())
            .spawn(move || serve(synth, job_rx, reply_tx))
            .expect("cannot start the sound thread");
        Worker {
            jobs: Some(jobs),
            replies: Mutex::new(replies),
            handle: Some(handle),
        }
    }

    fn send(&self, job: Job) {
        let sent = self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok());
        assert!(sent, "the sound thread stopped");
    }

    fn reply(&self) -> Reply {
        let replies = self.replies.lock().unwrap_or_else(|e| e.into_inner());
        recv_spinning(&replies).expect("the sound thread stopped")
    }
}

/// How long a side polls its channel before it sleeps on it. A sleeping thread costs a wake-up
/// on the next hand-over, and on a virtual machine that is tens of microseconds: about the
/// whole time a frame's take waits for (measured: `s2lab bench --mode full`, 3,600 frames of
/// Sonic 2 on this project's 2-core VM, 1.34-1.43 s with blocking receives, 1.23-1.34 s
/// polling first; `video` takes 1.06-1.09 s). Shipments come every 64
/// lines, a tenth of a millisecond apart when the emulator runs flat out, so there the worker
/// never sleeps; in real time (4 ms apart) it polls for a twentieth of that.
const SPIN: Duration = Duration::from_micros(200);

/// `rx.recv()`, polling for [`SPIN`] before sleeping.
fn recv_spinning<T>(rx: &Receiver<T>) -> Result<T, RecvError> {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            match rx.try_recv() {
                Ok(v) => return Ok(v),
                Err(TryRecvError::Disconnected) => return Err(RecvError),
                Err(TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        if start.elapsed() >= SPIN {
            return rx.recv();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing the job channel ends the thread's loop.
        self.jobs = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// The worker's side: the synthesis side, mixed and resampled ahead of the takes. What one
/// thread would hold between two takes (the chips' samples not mixed yet, the output stage as
/// the last take left it) is kept beside it, so that a snapshot is exactly that.
struct Ahead {
    synth: Box<Synth>,
    /// The output stage as the last take left it.
    at_take: AudioOut,
    /// The chips' samples mixed since the last take.
    ym_mixed: Vec<i16>,
    psg_mixed: Vec<i16>,
    /// Resampled since the last take.
    produced: Vec<i16>,
}

impl Ahead {
    fn new(synth: Box<Synth>) -> Ahead {
        Ahead {
            at_take: synth.out.clone(),
            synth,
            ym_mixed: Vec::new(),
            psg_mixed: Vec::new(),
            produced: Vec::new(),
        }
    }

    /// Mixes and resamples what both chips have made.
    fn mix(&mut self) {
        let Synth { ym, psg, out } = &mut *self.synth;
        let (ym_mixed, psg_mixed) = (&mut self.ym_mixed, &mut self.psg_mixed);
        crate::audio::mix_made(ym, psg, out, &mut self.produced, |y, p| {
            ym_mixed.extend_from_slice(y);
            psg_mixed.extend_from_slice(p);
        });
    }

    /// Catches up to `now`, and hands over what was resampled since the last take.
    fn take(&mut self, now: u64, buf: &mut Vec<i16>) {
        self.synth.ym.sync(now);
        self.synth.psg.sync(now);
        self.mix();
        std::mem::swap(buf, &mut self.produced);
        self.produced.clear();
        self.ym_mixed.clear();
        self.psg_mixed.clear();
        self.at_take = self.synth.out.clone();
    }

    /// The synthesis side as one thread would hold it now.
    fn snapshot(&self) -> Box<Synth> {
        let mut copy = self.synth.clone();
        copy.out = self.at_take.clone();
        copy.ym.out = [&self.ym_mixed[..], &self.synth.ym.out[..]].concat();
        copy.psg.out = [&self.psg_mixed[..], &self.synth.psg.out[..]].concat();
        copy
    }
}

/// The worker's loop: jobs in order until the emulation side goes away.
fn serve(synth: Box<Synth>, jobs: Receiver<Job>, replies: Sender<Reply>) {
    let mut ahead = Ahead::new(synth);
    while let Ok(job) = recv_spinning(&jobs) {
        let reply = match job {
            Job::Replay(ym, psg) => {
                ahead.synth.replay(&ym, &psg);
                ahead.mix();
                continue;
            }
            Job::Take(now, mut buf) => {
                ahead.take(now, &mut buf);
                Reply::Samples(buf)
            }
            Job::Snapshot(ym, psg) => {
                let mut copy = ahead.snapshot();
                copy.replay(&ym, &psg);
                Reply::Snapshot(copy)
            }
        };
        if replies.send(reply).is_err() {
            return;
        }
    }
}

/// The emulation side's link to the worker: off (synthesis in the machine's own chips, or no
/// sound), a synthesis side not yet handed to a thread, or a running worker.
#[derive(Default)]
enum Link {
    #[default]
    Off,
    Idle(Box<Synth>),
    Running(Worker),
}

/// Whether synthesis may run on a thread, and the link to it. Lives in [`System`] beside the
/// chips whose calls it ships.
///
/// [`System`]: crate::bus::System
pub struct SoundThread {
    /// Synthesise on a thread when sound is on (the default); off, the machine's own chips
    /// synthesise as they are called, on the caller's thread.
    pub(crate) allowed: bool,
    link: Link,
    /// The last sample buffer, back from the worker for reuse.
    spare: Vec<i16>,
}

impl Default for SoundThread {
    fn default() -> Self {
        SoundThread {
            allowed: true,
            link: Link::Off,
            spare: Vec::new(),
        }
    }
}

impl std::fmt::Debug for SoundThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let link = match self.link {
            Link::Off => "off",
            Link::Idle(_) => "idle",
            Link::Running(_) => "running",
        };
        f.debug_struct("SoundThread")
            .field("allowed", &self.allowed)
            .field("link", &link)
            .finish()
    }
}

/// A copy of a machine starts its own worker from a copy of this one's synthesis side (as
/// of the calls shipped so far: the machine's copy carries the calls not yet shipped).
impl Clone for SoundThread {
    fn clone(&self) -> Self {
        let link = match &self.link {
            Link::Off => Link::Off,
            Link::Idle(synth) => Link::Idle(synth.clone()),
            Link::Running(w) => {
                w.send(Job::Snapshot(Vec::new(), Vec::new()));
                match w.reply() {
                    Reply::Snapshot(synth) => Link::Idle(synth),
                    Reply::Samples(_) => unreachable!("the sound thread answers in order"),
                }
            }
        };
        SoundThread {
            allowed: self.allowed,
            link,
            spare: Vec::new(),
        }
    }
}

impl SoundThread {
    /// Whether synthesis runs through the worker (the chips' calls are being logged).
    pub(crate) fn active(&self) -> bool {
        !matches!(self.link, Link::Off)
    }

    /// Hands the synthesis side over (not started until the first shipment).
    pub(crate) fn begin(&mut self, synth: Box<Synth>) {
        self.link = Link::Idle(synth);
    }

    /// Ends the link and returns the synthesis side with `ym` and `psg` applied.
    pub(crate) fn end(&mut self, ym: Vec<YmCall>, psg: Vec<PsgCall>) -> Option<Box<Synth>> {
        let synth = self.snapshot_owned(ym, psg);
        self.link = Link::Off;
        synth
    }

    /// The synthesis side as it is after `ym` and `psg` (the calls not shipped yet), without
    /// changing the link.
    pub(crate) fn snapshot(&self, ym: &[YmCall], psg: &[PsgCall]) -> Option<Box<Synth>> {
        match &self.link {
            Link::Off => None,
            Link::Idle(synth) => {
                let mut copy = synth.clone();
                copy.replay(ym, psg);
                Some(copy)
            }
            Link::Running(w) => {
                w.send(Job::Snapshot(ym.to_vec(), psg.to_vec()));
                match w.reply() {
                    Reply::Snapshot(synth) => Some(synth),
                    Reply::Samples(_) => unreachable!("the sound thread answers in order"),
                }
            }
        }
    }

    fn snapshot_owned(&mut self, ym: Vec<YmCall>, psg: Vec<PsgCall>) -> Option<Box<Synth>> {
        match std::mem::take(&mut self.link) {
            Link::Off => None,
            Link::Idle(mut synth) => {
                synth.replay(&ym, &psg);
                Some(synth)
            }
            Link::Running(w) => {
                w.send(Job::Snapshot(ym, psg));
                match w.reply() {
                    Reply::Snapshot(synth) => Some(synth),
                    Reply::Samples(_) => unreachable!("the sound thread answers in order"),
                }
            }
        }
    }

    /// Replaces the worker's chips (a state was loaded), keeping its output stage.
    pub(crate) fn reseed(&mut self, ym: Ym2612, psg: Psg) {
        let Some(mut synth) = self.end(Vec::new(), Vec::new()) else {
            return;
        };
        synth.ym = ym;
        synth.psg = psg;
        self.begin(synth);
    }

    /// Ships the calls logged so far (the scheduler does every 64 lines, right after both
    /// chips' catch-up, so the worker can mix and resample all they make).
    pub(crate) fn ship(&mut self, ym: &mut CallLog<YmCall>, psg: &mut CallLog<PsgCall>) {
        let (y, p) = (
            std::mem::take(&mut ym.calls),
            std::mem::take(&mut psg.calls),
        );
        self.worker().send(Job::Replay(y, p));
    }

    /// Ships what is left, has the worker catch up to `now` and resample, and appends the
    /// samples to `out`.
    pub(crate) fn take(
        &mut self,
        now: u64,
        ym: &mut CallLog<YmCall>,
        psg: &mut CallLog<PsgCall>,
        out: &mut Vec<i16>,
    ) {
        self.ship(ym, psg);
        let buf = std::mem::take(&mut self.spare);
        let w = self.worker();
        w.send(Job::Take(now, buf));
        match w.reply() {
            Reply::Samples(buf) => {
                out.extend_from_slice(&buf);
                self.spare = buf;
            }
            Reply::Snapshot(_) => unreachable!("the sound thread answers in order"),
        }
    }

    /// The running worker, started on first use.
    fn worker(&mut self) -> &Worker {
        if let Link::Idle(_) = self.link {
            let Link::Idle(synth) = std::mem::take(&mut self.link) else {
                unreachable!()
            };
            self.link = Link::Running(Worker::start(synth));
        }
        match &self.link {
            Link::Running(w) => w,
            _ => panic!("no sound thread"),
        }
    }
}
