//! Sound synthesis on a second thread (`full` mode's default,
//! `Machine::set_sound_thread`).
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
//! The worker mixes and resamples each batch as it comes ([`Ahead`]). A `take_audio` at
//! clock `now` does not wait for the worker: it replays whatever batches the worker has not
//! started yet and the calls not shipped itself, catches up to `now` and resamples, on the
//! emulation thread (the batches are replayed in order by whichever thread holds the
//! synthesis side), so the caller gets the same samples at the same call, whatever the
//! threads' timing, and waits at most for the one batch the worker is replaying (longer
//! only if the worker loses its core in the middle of one). A worker that is late or not
//! scheduled at all (a busy machine) so costs the emulation thread the work it would have
//! done on one thread, not a wait for a wake-up.
//!
//! A `take_audio_ready` returns the samples up to the end of the last batch shipped but one
//! (the scheduler's last 64-line catch-up but one, 64-127 lines behind the clock: a point
//! fixed by the emulated clock alone, so every run returns the same samples at the same
//! call), waiting for the worker if it is replaying that batch and replaying it itself only
//! if the worker has not started it (asleep: see `WAKE_AT`). The worker marks where each
//! batch's samples end ([`Mark`]) and the output stage there, so that what is left after
//! such a take is what one thread would hold after a take at that catch-up; a later
//! `take_audio` returns the rest.
//!
//! A shipment is a lock and a push onto a queue; every second one (`WAKE_AT`) also unparks
//! the worker, which sleeps as soon as the queue is empty, so a wake-up (a futex call and a
//! context switch) buys two batches' work. Emptied batches go back to the emulation thread's logs, so logging
//! allocates nothing in the long run. `Machine::set_sound_thread(false)` keeps everything on
//! one thread.
//!
//! Anything that reads or replaces the synthesis state first brings it up to date: a save
//! state serialises the worker's chips with the calls not yet shipped applied to a copy
//! ([`SoundThread::snapshot`]); a clone of the machine starts from a copy of the worker's
//! state; loading a state gives the worker the loaded chips; turning the thread or sound off
//! moves the worker's chips back into the machine, as they would have been there.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{JoinHandle, Thread};

use super::calls::{CallLog, PsgCall, YmCall};
use super::mixer::AudioOut;
use super::psg::Psg;
use super::ym2612::Ym2612;

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

/// One shipment: the calls logged on both chips since the last one.
#[derive(Default)]
struct Batch {
    ym: Vec<YmCall>,
    psg: Vec<PsgCall>,
}

/// The shipments not replayed yet, in order, and emptied ones for reuse.
#[derive(Default)]
struct Queue {
    batches: VecDeque<Batch>,
    free: Vec<Batch>,
}

/// What both threads share. Whoever replays holds `ahead` while it pops a batch and replays
/// it, so the batches are replayed in the order they were shipped, by the worker or by the
/// emulation thread, whichever gets there first; the samples are the same either way.
struct Shared {
    ahead: Mutex<Ahead>,
    queue: Mutex<Queue>,
    /// Batches in `queue` (read without its lock by the worker's poll).
    pending: AtomicUsize,
    stop: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// Replays the oldest batch not replayed yet into `ahead`; false when there is none.
    fn replay_next(&self, ahead: &mut Ahead) -> bool {
        let Some(mut batch) = lock(&self.queue).batches.pop_front() else {
            return false;
        };
        self.pending.fetch_sub(1, Ordering::Relaxed);
        ahead.synth.replay(&batch.ym, &batch.psg);
        ahead.mix();
        ahead.mark();
        batch.ym.clear();
        batch.psg.clear();
        lock(&self.queue).free.push(batch);
        true
    }

    /// `ahead` with every batch shipped so far replayed.
    fn caught_up(&self) -> MutexGuard<'_, Ahead> {
        let mut ahead = lock(&self.ahead);
        while self.replay_next(&mut ahead) {}
        ahead
    }
}

/// Batches waiting when a shipment wakes the worker (it sleeps once the queue is empty).
const WAKE_AT: usize = 2;

/// A running worker.
struct Worker {
    shared: Arc<Shared>,
    thread: Thread,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    fn start(synth: Box<Synth>) -> Worker {
        let shared = Arc::new(Shared {
            ahead: Mutex::new(Ahead::new(synth)),
            queue: Mutex::new(Queue::default()),
            pending: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let theirs = Arc::clone(&shared);
        let handle = std::thread::Builder::new()
            .name("sound".into())
            .spawn(move || serve(&theirs))
            .expect("cannot start the sound thread");
        Worker {
            shared,
            thread: handle.thread().clone(),
            handle: Some(handle),
        }
    }

    /// Queues the logged calls for the worker, leaving the logs empty (with the capacity of
    /// a batch already replayed, so logging allocates nothing in the long run).
    fn ship(&self, ym: &mut Vec<YmCall>, psg: &mut Vec<PsgCall>) {
        {
            let mut queue = lock(&self.shared.queue);
            let mut batch = queue.free.pop().unwrap_or_default();
            std::mem::swap(&mut batch.ym, ym);
            std::mem::swap(&mut batch.psg, psg);
            queue.batches.push_back(batch);
        }
        let pending = self.shared.pending.fetch_add(1, Ordering::Release) + 1;
        // The worker drains the queue and sleeps; waking it (a futex call on this thread and
        // a context switch on its) costs about what a batch's synthesis does, so it is woken
        // only once WAKE_AT batches wait, and replays them in one go. The newest batch is the
        // one a ready-take never needs, so with WAKE_AT 2 a take finds every batch it needs
        // replayed or being replayed; a take that must wait wakes the worker itself.
        if pending >= WAKE_AT {
            self.thread.unpark();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.thread.unpark();
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
    /// Batches replayed since the worker started.
    replayed: u64,
    /// Batches whose samples have been taken (all of them up to this one).
    taken: u64,
    /// Where each batch replayed but not taken ended, oldest first.
    marks: VecDeque<Mark>,
}

/// The end of one replayed batch's samples in [`Ahead`]'s buffers, and the output stage as
/// it was there: what a ready-take up to this batch leaves behind.
struct Mark {
    batch: u64,
    produced: usize,
    ym_mixed: usize,
    psg_mixed: usize,
    out: AudioOut,
}

impl Ahead {
    fn new(synth: Box<Synth>) -> Ahead {
        Ahead {
            at_take: synth.out.clone(),
            synth,
            ym_mixed: Vec::new(),
            psg_mixed: Vec::new(),
            produced: Vec::new(),
            replayed: 0,
            taken: 0,
            marks: VecDeque::new(),
        }
    }

    /// Records where the batch just replayed (and mixed) ends.
    fn mark(&mut self) {
        self.replayed += 1;
        self.marks.push_back(Mark {
            batch: self.replayed,
            produced: self.produced.len(),
            ym_mixed: self.ym_mixed.len(),
            psg_mixed: self.psg_mixed.len(),
            out: self.synth.out.clone(),
        });
    }

    /// Appends to `out` what was resampled since the last take up to the end of batch
    /// `batch` (replayed already), and leaves the rest as a take there would have.
    fn take_through(&mut self, batch: u64, out: &mut Vec<i16>) {
        if batch <= self.taken {
            return;
        }
        while let Some(m) = self.marks.pop_front() {
            if m.batch < batch {
                continue;
            }
            out.extend_from_slice(&self.produced[..m.produced]);
            self.produced.drain(..m.produced);
            self.ym_mixed.drain(..m.ym_mixed);
            self.psg_mixed.drain(..m.psg_mixed);
            for later in &mut self.marks {
                later.produced -= m.produced;
                later.ym_mixed -= m.ym_mixed;
                later.psg_mixed -= m.psg_mixed;
            }
            self.at_take = m.out;
            break;
        }
        self.taken = batch;
    }

    /// Mixes and resamples what both chips have made.
    fn mix(&mut self) {
        let Synth { ym, psg, out } = &mut *self.synth;
        let (ym_mixed, psg_mixed) = (&mut self.ym_mixed, &mut self.psg_mixed);
        super::mixer::mix_made(ym, psg, out, &mut self.produced, |y, p| {
            ym_mixed.extend_from_slice(y);
            psg_mixed.extend_from_slice(p);
        });
    }

    /// Catches up to `now`, and appends to `out` what was resampled since the last take.
    fn take(&mut self, now: u64, out: &mut Vec<i16>) {
        self.synth.ym.sync(now);
        self.synth.psg.sync(now);
        self.mix();
        out.extend_from_slice(&self.produced);
        self.produced.clear();
        self.ym_mixed.clear();
        self.psg_mixed.clear();
        self.at_take.clone_from(&self.synth.out);
        self.marks.clear();
        self.taken = self.replayed;
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

/// The worker's loop: replays the batches as they come until the emulation side goes away.
fn serve(shared: &Shared) {
    loop {
        if shared.pending.load(Ordering::Acquire) > 0 {
            let mut ahead = lock(&shared.ahead);
            shared.replay_next(&mut ahead);
            continue;
        }
        if shared.stop.load(Ordering::Acquire) {
            return;
        }
        // Sleeps rather than polls: a polling worker takes a core from a busy machine's
        // other work, the emulation thread's included (bench --mode full, 3,600 frames,
        // load average 5-6 on the 2-core VM: 5.2-5.5 s polling for 200 us, 3.7 s for
        // 50 us, 2.8 s sleeping at once), and no take waits for its wake-up any more.
        // A shipment that wakes it between the check and the park leaves the token: no
        // lost wake-up. One below WAKE_AT leaves a batch waiting here until the next
        // shipment, a ready-take that needs it, a take (which replays it itself) or stop.
        std::thread::park();
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

/// Whether synthesis may run on a thread, and the link to it. Lives in the bus's `System`
/// beside the chips whose calls it ships.
pub struct SoundThread {
    /// Synthesise on a thread when sound is on (the default); off, the machine's own chips
    /// synthesise as they are called, on the caller's thread.
    pub(crate) allowed: bool,
    link: Link,
    /// Batches shipped to the current synthesis side.
    shipped: u64,
}

impl Default for SoundThread {
    fn default() -> Self {
        SoundThread {
            allowed: true,
            link: Link::Off,
            shipped: 0,
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
            Link::Running(w) => Link::Idle(w.shared.caught_up().snapshot()),
        };
        SoundThread {
            allowed: self.allowed,
            link,
            shipped: 0,
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
        self.shipped = 0;
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
                let mut copy = w.shared.caught_up().snapshot();
                copy.replay(ym, psg);
                Some(copy)
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
                let mut copy = w.shared.caught_up().snapshot();
                copy.replay(&ym, &psg);
                Some(copy)
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
        self.worker().ship(&mut ym.calls, &mut psg.calls);
        self.shipped += 1;
    }

    /// Appends to `out` the samples up to the last catch-up but one (all the batches shipped
    /// but the newest), waiting for the worker to finish the one it is replaying and replaying
    /// any it has not started. Which samples that is depends on the emulated clock alone.
    pub(crate) fn take_ready(&mut self, out: &mut Vec<i16>) {
        let batch = self.shipped.saturating_sub(1);
        let Link::Running(w) = &self.link else {
            return;
        };
        let shared = &w.shared;
        let mut ahead = lock(&shared.ahead);
        if batch <= ahead.taken {
            return;
        }
        // Holding the lock, the worker is not in the middle of a batch: one it has not
        // started (asleep below WAKE_AT, or just woken) costs less replayed here than a
        // wake-up and a wait for it.
        while ahead.replayed < batch && shared.replay_next(&mut ahead) {}
        ahead.take_through(batch, out);
    }

    /// Replays on this thread what the worker has not started yet and the calls not shipped,
    /// catches up to `now`, resamples, and appends the samples to `out`.
    pub(crate) fn take(
        &mut self,
        now: u64,
        ym: &mut CallLog<YmCall>,
        psg: &mut CallLog<PsgCall>,
        out: &mut Vec<i16>,
    ) {
        let w = self.worker();
        let mut ahead = w.shared.caught_up();
        ahead.synth.replay(&ym.calls, &psg.calls);
        ym.calls.clear();
        psg.calls.clear();
        ahead.mix();
        ahead.take(now, out);
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
