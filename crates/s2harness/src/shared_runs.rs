//! Runs that begin alike are run alike once. A run's machine state depends only on where it
//! starts (the stage, its block, Sonic's place and facing: all that `Game` writes before
//! frame 0) and on the input so far, for the machine is deterministic. So runs with the same
//! start whose inputs agree on their first frames pass through the same states there: sorted
//! by input, each run goes on from a checkpoint an earlier run of its chain took where their
//! inputs part ([`Game::run_shared`]), and a run whose input equals an earlier one's is not
//! run at all. The traces are the same bits either way.

use s2model::Scenario;
use s2model::stage::Stage;

use s2model::Trace;

use crate::game::{Checkpoint, Game, HarnessError, Resume};

/// Runs that share fewer first frames than this are run alone: a checkpoint costs two copies
/// of the machine, about as much host work as 4 frames.
pub const MIN_SHARED_FRAMES: usize = 16;

/// One run of a chain: the job, the frames it shares with the run before it in the chain,
/// the frame counts (ascending) after which later runs need its checkpoints, and whether it
/// is the last run to go on from its checkpoint (it then takes the checkpoint instead of
/// copying it, and the chain holds it no longer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub job: usize,
    pub shared: usize,
    pub keep: Vec<usize>,
    pub takes: bool,
}

/// All a run's state before frame 0 depends on: the stage (with its block), Sonic's place and
/// facing (the stage last: its grid is the costly one to compare).
fn start(sc: &Scenario) -> (u16, u16, bool, Stage) {
    (sc.x, sc.y, sc.facing_left, sc.stage())
}

/// The pad's byte for each frame the run may take.
fn held(sc: &Scenario) -> Vec<u8> {
    (0..sc.frame_count())
        .map(|k| sc.input.get(k).copied().unwrap_or(0))
        .collect()
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The jobs in chains (`None`: a job that runs alone): every job in exactly one chain, each
/// chain in the order its runs go, the chains in the order of their first job.
pub fn plan(scenarios: &[Option<&Scenario>]) -> Vec<Vec<Link>> {
    // Jobs by start: the first job of each group stands for it.
    let starts: Vec<_> = scenarios.iter().map(|sc| sc.map(start)).collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, st) in starts.iter().enumerate() {
        let found = st.as_ref().and_then(|st| {
            groups
                .iter_mut()
                .find(|g| starts[g[0]].as_ref() == Some(st))
        });
        match found {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    let mut chains = Vec::new();
    for group in groups {
        let mut runs: Vec<(Vec<u8>, usize)> = group
            .iter()
            .map(|&i| (scenarios[i].map(held).unwrap_or_default(), i))
            .collect();
        runs.sort();
        // shared[j]: the frames run j shares with run j - 1 (0 for the first).
        let shared: Vec<usize> = (0..runs.len())
            .map(|j| {
                if j == 0 {
                    0
                } else {
                    common_prefix(&runs[j - 1].0, &runs[j].0)
                }
            })
            .collect();
        let mut start = 0;
        for end in 1..=runs.len() {
            if end < runs.len() && shared[end] >= MIN_SHARED_FRAMES {
                continue;
            }
            let mut links: Vec<Link> = (start..end)
                .map(|j| Link {
                    job: runs[j].1,
                    shared: if j == start { 0 } else { shared[j] },
                    keep: keep_after(&shared[j + 1..end]),
                    takes: false,
                })
                .collect();
            mark_last_takers(&mut links);
            chains.push(links);
            start = end;
        }
    }
    chains.sort_by_key(|c| c.iter().map(|l| l.job).min());
    chains
}

/// The checkpoints a run must take, given what the runs after it share with their
/// predecessors (`later[0]` is what the next run shares with it): each frame count a later run
/// goes on from that no run in between can give, for they all start deeper (the running
/// minima), ascending.
fn keep_after(later: &[usize]) -> Vec<usize> {
    let mut keep: Vec<usize> = Vec::new();
    for &d in later {
        if keep.last().is_none_or(|&last| d < last) {
            keep.push(d);
        }
    }
    keep.reverse();
    keep
}

/// Sets [`Link::takes`] on each run that is the last to go on from its checkpoint, by
/// following the chain's stack as [`Chain::run`] will (checkpoints named by the run that took
/// them and their depth).
fn mark_last_takers(links: &mut [Link]) {
    let mut stack: Vec<(usize, usize)> = Vec::new();
    // For each checkpoint, the last run that went on from it so far.
    let mut last: Vec<((usize, usize), usize)> = Vec::new();
    for (j, link) in links.iter().enumerate() {
        while stack.last().is_some_and(|&(d, _)| d > link.shared) {
            stack.pop();
        }
        let depth = match stack.last() {
            Some(&(d, by)) => {
                match last.iter_mut().find(|(id, _)| *id == (d, by)) {
                    Some(l) => l.1 = j,
                    None => last.push(((d, by), j)),
                }
                d
            }
            None => 0,
        };
        stack.extend(link.keep.iter().filter(|&&d| d > depth).map(|&d| (d, j)));
    }
    for (_, j) in last {
        links[j].takes = true;
    }
}

/// The checkpoints a chain's runs have left for the runs after them, deepest last.
#[derive(Default)]
pub struct Chain {
    stack: Vec<(usize, Checkpoint)>,
}

impl Chain {
    /// Where a run sharing `shared` frames with the run before it goes on from (the deepest
    /// checkpoint within them, taken off the stack when `takes`), and the frame count it was
    /// taken after (0: the start).
    fn resume(&mut self, shared: usize, takes: bool) -> (Resume<'_>, usize) {
        while self.stack.last().is_some_and(|(d, _)| *d > shared) {
            self.stack.pop();
        }
        if takes && let Some((d, c)) = self.stack.pop() {
            return (Resume::Take(c), d);
        }
        match self.stack.last() {
            Some((d, c)) => (Resume::Copy(c), *d),
            None => (Resume::Start, 0),
        }
    }

    /// Runs `sc`, the chain's next run (`link`), in `game`: from the deepest checkpoint
    /// within the frames it shares with the run before it, taking the checkpoints later runs
    /// need. The trace is the one [`Game::run`] gives.
    pub fn run(&mut self, game: &Game, sc: &Scenario, link: &Link) -> Result<Trace, HarnessError> {
        let (from, depth) = self.resume(link.shared, link.takes);
        let keep: Vec<usize> = link.keep.iter().copied().filter(|&d| d > depth).collect();
        let (trace, kept) = game.run_shared(sc, from, &keep);
        // Taken in ascending order, all deeper than the one it went on from.
        self.stack.extend(kept);
        trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_running_minima() {
        assert_eq!(keep_after(&[]), Vec::<usize>::new());
        assert_eq!(keep_after(&[50, 80, 20, 30, 20, 10]), vec![10, 20, 50]);
    }

    /// Each checkpoint is taken by the last run that goes on from it, and only by it.
    #[test]
    fn the_last_run_from_a_checkpoint_takes_it() {
        // Shared frames with the run before: runs 1 and 2 go on from run 0's checkpoint at
        // 40, run 3 from run 2's at 60, run 4 from run 0's at 20 (40 was dropped by then:
        // run 4 shares less).
        let shared = [0, 40, 40, 60, 20];
        let mut links: Vec<Link> = (0..shared.len())
            .map(|j| Link {
                job: j,
                shared: shared[j],
                keep: keep_after(&shared[j + 1..]),
                takes: false,
            })
            .collect();
        mark_last_takers(&mut links);
        let takes: Vec<bool> = links.iter().map(|l| l.takes).collect();
        assert_eq!(takes, [false, false, true, true, true]);
    }
}
