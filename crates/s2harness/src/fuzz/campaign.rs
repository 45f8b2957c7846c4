//! What both kinds of campaign share (built stages, `run_campaign`; Emerald Hill's terrain,
//! `terrain::run_terrain_campaign`): the loop that hands this shard's scenario indices out to
//! worker threads until the count, the time or the stop-after limit, results kept in index
//! order; then the shrinking of the first divergences and the campaign's summary.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::{FuzzConfig, Progress};

/// How a run came out, as the campaign counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    Identical,
    Diverged,
    Error,
}

/// What the loop needs of a finished run.
pub trait CampaignRun: Send {
    fn index(&self) -> u64;
    fn frames(&self) -> usize;
    fn tally(&self) -> Tally;
}

/// What a campaign found.
#[derive(Clone, Debug)]
pub struct Outcome<R, C> {
    /// Every run, in index order.
    pub runs: Vec<R>,
    /// The divergences shrunk.
    pub cases: Vec<C>,
    pub frames: u64,
    /// Wall time of the runs (before shrinking) and of the shrinking.
    pub run_seconds: f64,
    pub shrink_seconds: f64,
}

/// A worker thread's way of running scenario `index` (made once per thread: its own copy of
/// the game).
pub type Worker<'a, R> = Box<dyn FnMut(u64) -> R + 'a>;

/// Runs this shard's scenarios on `cfg.threads` workers, each made by `make`. Returns the runs
/// in index order (none after the `cfg.stop_after`-th divergence) and the final counts.
pub fn run_scenarios<'a, R: CampaignRun>(
    cfg: &FuzzConfig,
    start: Instant,
    phase: &str,
    make: &(dyn Fn() -> Worker<'a, R> + Sync),
    progress: &(dyn Fn(&Progress) + Sync),
) -> (Vec<R>, Progress) {
    let shard = cfg.shard;
    // The j-th scenario of this shard is campaign index (k - 1) + j n.
    let index_of = |j: u64| (shard.k - 1) + j * shard.n;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let stop_index = AtomicU64::new(u64::MAX);
    let counts = Mutex::new(Progress {
        phase: phase.into(),
        ..Progress::default()
    });
    let results: Mutex<BTreeMap<u64, R>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| {
                let mut work = make();
                loop {
                    if stop.load(Ordering::Relaxed)
                        || cfg.time.is_some_and(|t| start.elapsed() >= t)
                    {
                        break;
                    }
                    let index = index_of(next.fetch_add(1, Ordering::Relaxed));
                    if cfg.count.is_some_and(|c| index >= c) {
                        break;
                    }
                    let run = work(index);
                    let snapshot = {
                        let mut c = counts.lock().expect("no worker panicked");
                        c.runs += 1;
                        c.frames += run.frames() as u64;
                        match run.tally() {
                            Tally::Diverged => c.divergences += 1,
                            Tally::Error => c.errors += 1,
                            Tally::Identical => {}
                        }
                        c.seconds = start.elapsed().as_secs_f64();
                        c.clone()
                    };
                    let mut r = results.lock().expect("no worker panicked");
                    r.insert(index, run);
                    if let Some(limit) = cfg.stop_after {
                        // The limit-th divergence in index order among the runs so far; every
                        // index below it has been taken already, so it is final once all finish.
                        let nth = r
                            .values()
                            .filter(|x| x.tally() == Tally::Diverged)
                            .nth(limit.saturating_sub(1));
                        if let Some(x) = nth {
                            stop_index.fetch_min(x.index(), Ordering::Relaxed);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    drop(r);
                    progress(&snapshot);
                }
            });
        }
    });
    let cut = stop_index.load(Ordering::Relaxed);
    // With a time limit the finished runs are a prefix of this shard's list plus the runs in
    // flight when time ran out; all of them are kept (the map keeps them in index order).
    let runs = results
        .into_inner()
        .expect("no worker panicked")
        .into_values()
        .filter(|r| r.index() <= cut)
        .collect();
    (runs, counts.into_inner().expect("no worker panicked"))
}

/// The campaign's summary once [`run_scenarios`] returned `ran` (call it at once: the time of the
/// runs is taken here): the first `cfg.shrink` divergences in index order go to `shrink`, which
/// says what it is doing through its second argument (the progress line's phase).
pub fn shrink_divergences<R: CampaignRun, C>(
    cfg: &FuzzConfig,
    start: Instant,
    ran: (Vec<R>, Progress),
    progress: &(dyn Fn(&Progress) + Sync),
    shrink: impl Fn(&R, &(dyn Fn(String) + Sync)) -> Option<C>,
) -> Outcome<R, C> {
    let (runs, base) = ran;
    let run_seconds = start.elapsed().as_secs_f64();
    let frames = runs.iter().map(|r| r.frames() as u64).sum();
    let shrink_start = Instant::now();
    let report = |phase: String| {
        progress(&Progress {
            seconds: start.elapsed().as_secs_f64(),
            phase,
            ..base.clone()
        })
    };
    let diverged = runs.iter().filter(|r| r.tally() == Tally::Diverged);
    let cases = diverged
        .take(cfg.shrink)
        .filter_map(|run| shrink(run, &report))
        .collect();
    Outcome {
        runs,
        cases,
        frames,
        run_seconds,
        shrink_seconds: shrink_start.elapsed().as_secs_f64(),
    }
}
