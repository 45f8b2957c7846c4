//! Shrinking a divergence to a small scenario that still diverges at the same field: the script
//! cut after the divergence, then in rounds until nothing changes: Sonic started further along
//! his own path (or moved toward the divergence), the script's segments removed by delta
//! debugging (Zeller's ddmin) and shortened, buttons dropped, and the stage's rectangles removed
//! (ddmin), merged and trimmed. Candidates are tried in a fixed order, a batch at a time on every
//! core; the first that still diverges in the batch order wins, so the result does not depend on
//! the thread count.

use s2model::state::{FIELDS, status};
use s2model::trace::DiffReport;
use s2model::{CellRect, Scenario};

use super::{Case, FuzzConfig, Verdict, divergence_line, evaluate};
use crate::game::Game;

/// Rounds of all passes at most (each round that changes nothing ends the shrinking).
const MAX_ROUNDS: usize = 8;
/// Game runs at most per case.
const MAX_RUNS: usize = 4000;

/// Where the shrinking is, for the progress line.
pub struct Step<'a> {
    pub runs: usize,
    pub scenario: &'a Scenario,
}

struct Shrinker<'a> {
    games: Vec<Game>,
    cfg: &'a FuzzConfig,
    /// The field the divergence must keep (`None`: a frame-count difference).
    field: Option<&'static str>,
    runs: usize,
    cur: Scenario,
    report: &'a (dyn Fn(&Step) + Sync),
}

fn first_field(d: &DiffReport) -> Option<&'static str> {
    d.first
        .as_ref()
        .and_then(|f| f.fields.first().map(|x| x.field))
}

/// Run-length segments of a script.
pub(super) fn segments(input: &[u8]) -> Vec<(u8, usize)> {
    let mut out: Vec<(u8, usize)> = Vec::new();
    for &b in input {
        match out.last_mut() {
            Some((h, n)) if *h == b => *n += 1,
            _ => out.push((b, 1)),
        }
    }
    out
}

pub(super) fn flatten(segs: &[(u8, usize)]) -> Vec<u8> {
    segs.iter()
        .flat_map(|&(b, n)| std::iter::repeat_n(b, n))
        .collect()
}

/// Zeller's ddmin over `items`: remove one of n chunks while the test holds, refine n otherwise.
/// `try_batch` gets the candidates in order and returns the first that holds.
pub(super) fn ddmin<T: Clone>(
    items: Vec<T>,
    mut try_batch: impl FnMut(Vec<Vec<T>>) -> Option<Vec<T>>,
) -> Vec<T> {
    let mut cur = items;
    let mut n = 2usize;
    while !cur.is_empty() {
        let chunk = cur.len().div_ceil(n.min(cur.len()));
        let cands: Vec<Vec<T>> = (0..cur.len())
            .step_by(chunk)
            .map(|s| {
                let mut c = cur[..s].to_vec();
                c.extend_from_slice(&cur[(s + chunk).min(cur.len())..]);
                c
            })
            .collect();
        if let Some(c) = try_batch(cands) {
            cur = c;
            n = (n - 1).max(2);
        } else if chunk == 1 {
            break;
        } else {
            n = (n * 2).min(cur.len());
        }
    }
    cur
}

impl Shrinker<'_> {
    /// Does `sc` still diverge at the field?
    fn holds(&self, game: &Game, sc: &Scenario) -> bool {
        match evaluate(game, self.cfg, sc) {
            Verdict::Diverged { diff, .. } => match (self.field, diff.first.as_ref()) {
                (Some(f), Some(first)) => first.fields.iter().any(|x| x.field == f),
                (None, Some(first)) => first.fields.is_empty(),
                _ => false,
            },
            _ => false,
        }
    }

    /// The first candidate, in order, that still diverges (evaluated a batch per core at a time).
    fn first_holding(&mut self, cands: Vec<Scenario>) -> Option<Scenario> {
        for batch in cands.chunks(self.games.len()) {
            if self.runs >= MAX_RUNS {
                return None;
            }
            self.runs += batch.len();
            let this = &*self;
            let ok: Vec<bool> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .iter()
                    .zip(&this.games)
                    .map(|(sc, game)| scope.spawn(move || this.holds(game, sc)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("no shrink worker panicked"))
                    .collect()
            });
            if let Some(i) = ok.iter().position(|&b| b) {
                let found = batch[i].clone();
                (self.report)(&Step {
                    runs: self.runs,
                    scenario: &found,
                });
                return Some(found);
            }
        }
        None
    }

    /// Takes the first candidate that holds; true when one did.
    fn take(&mut self, cands: Vec<Scenario>) -> bool {
        match self.first_holding(cands) {
            Some(sc) => {
                self.cur = sc;
                true
            }
            None => false,
        }
    }

    /// The current scenario's game trace and divergence line.
    fn current(&self) -> Option<(s2model::Trace, usize)> {
        match evaluate(&self.games[0], self.cfg, &self.cur) {
            Verdict::Diverged { diff, game, .. } => Some((game, divergence_line(&diff)?)),
            _ => None,
        }
    }

    /// Cuts the script after the divergence (nothing after it can matter: both sides are causal).
    fn truncate(&mut self) {
        if let Some((_, k)) = self.current() {
            let mut sc = self.cur.clone();
            sc.input.resize(k + 1, 0);
            sc.frames = None;
            if sc != self.cur {
                self.take(vec![sc]);
            }
        }
    }

    /// Sonic starts further along his own path (standing where the game had him at an earlier
    /// frame, the script from there on), or nearer the divergence with the same script.
    fn move_start(&mut self) -> bool {
        let Some((game, k)) = self.current() else {
            return false;
        };
        let field = |name: &str| FIELDS.iter().position(|f| *f == name).expect("a field");
        let (x, y, st) = (field("x_pos"), field("y_pos"), field("status"));
        let mut cands = Vec::new();
        for (num, den) in [(7, 8), (3, 4), (1, 2), (1, 4)] {
            let j = k * num / den;
            let Some(f) = game.frames.get(j) else {
                continue;
            };
            let v = &f.values;
            if v[st] as u8 & status::IN_AIR != 0 || v[y] != self.cur.y as i32 {
                continue;
            }
            let mut sc = self.cur.clone();
            sc.x = v[x] as u16;
            sc.facing_left = v[st] as u8 & status::FACING_LEFT != 0;
            sc.input = self.cur.input[j + 1..].to_vec();
            if sc.input.len() < self.cur.input.len() {
                cands.push(sc);
            }
        }
        if let Some(f) = game.frames.get(k) {
            let tx = f.values[x];
            for den in [2, 4] {
                let nx = self.cur.x as i32 + (tx - self.cur.x as i32) / den;
                if nx != self.cur.x as i32 {
                    let mut sc = self.cur.clone();
                    sc.x = nx as u16;
                    cands.push(sc);
                }
            }
        }
        self.take(cands)
    }

    fn with_segments(&self, segs: &[(u8, usize)]) -> Scenario {
        let mut sc = self.cur.clone();
        sc.input = flatten(segs);
        sc
    }

    /// ddmin over the script's segments.
    fn remove_segments(&mut self) -> bool {
        let before = self.cur.input.len();
        let segs = segments(&self.cur.input);
        let kept = ddmin(segs, |cands| {
            let scs: Vec<Scenario> = cands.iter().map(|c| self.with_segments(c)).collect();
            let found = self.first_holding(scs)?;
            cands.into_iter().find(|c| flatten(c) == found.input)
        });
        self.cur.input = flatten(&kept);
        self.cur.input.len() < before
    }

    /// Each segment as short as it can be (1 frame, a quarter, a half, three quarters, one less).
    fn shorten_segments(&mut self) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < segments(&self.cur.input).len() {
            let segs = segments(&self.cur.input);
            let n = segs[i].1;
            let mut lens: Vec<usize> = vec![1, n / 4, n / 2, n * 3 / 4, n - 1];
            lens.retain(|&l| l >= 1 && l < n);
            lens.dedup();
            let cands: Vec<Scenario> = lens
                .iter()
                .map(|&l| {
                    let mut s = segs.clone();
                    s[i].1 = l;
                    self.with_segments(&s)
                })
                .collect();
            changed |= self.take(cands);
            i += 1;
        }
        changed
    }

    /// Fewer buttons: each segment without each of its buttons.
    fn drop_buttons(&mut self) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < segments(&self.cur.input).len() {
            let segs = segments(&self.cur.input);
            let held = segs[i].0;
            let cands: Vec<Scenario> = (0..8)
                .map(|b| 1u8 << b)
                .filter(|bit| held & bit != 0)
                .map(|bit| {
                    let mut s = segs.clone();
                    s[i].0 = held & !bit;
                    self.with_segments(&s)
                })
                .collect();
            changed |= self.take(cands);
            i += 1;
        }
        changed
    }

    fn with_solid(&self, solid: Vec<CellRect>) -> Scenario {
        let mut sc = self.cur.clone();
        sc.solid = solid;
        sc
    }

    /// ddmin over the stage's rectangles.
    fn remove_blocks(&mut self) -> bool {
        let before = self.cur.solid.len();
        let kept = ddmin(self.cur.solid.clone(), |cands| {
            let scs: Vec<Scenario> = cands.iter().map(|c| self.with_solid(c.clone())).collect();
            let found = self.first_holding(scs)?;
            Some(found.solid)
        });
        self.cur.solid = kept;
        self.cur.solid.len() < before
    }

    /// Two rectangles of the same rows (or the same columns) made one: the box around both
    /// (a floor joined across its pit, a wall and its neighbour).
    fn merge_blocks(&mut self) -> bool {
        let mut changed = false;
        'again: loop {
            let solid = self.cur.solid.clone();
            let mut cands = Vec::new();
            for i in 0..solid.len() {
                for j in i + 1..solid.len() {
                    let (a, b) = (solid[i], solid[j]);
                    let rows = a.y == b.y && a.h == b.h;
                    let cols = a.x == b.x && a.w == b.w;
                    if !(rows || cols) {
                        continue;
                    }
                    let x = a.x.min(b.x);
                    let y = a.y.min(b.y);
                    let merged = CellRect {
                        x,
                        y,
                        w: (a.x + a.w).max(b.x + b.w) - x,
                        h: (a.y + a.h).max(b.y + b.h) - y,
                    };
                    let mut s: Vec<CellRect> = solid
                        .iter()
                        .enumerate()
                        .filter(|(k, _)| *k != i && *k != j)
                        .map(|(_, r)| *r)
                        .collect();
                    s.insert(i, merged);
                    cands.push(self.with_solid(s));
                }
            }
            if self.take(cands) {
                changed = true;
                continue 'again;
            }
            return changed;
        }
    }

    /// Each rectangle cut down from either end (by halves, then quarters).
    fn trim_blocks(&mut self) -> bool {
        let mut changed = false;
        for i in 0..self.cur.solid.len() {
            loop {
                let r = self.cur.solid[i];
                let mut cands = Vec::new();
                for cut in [r.w / 2, r.w / 4] {
                    if cut == 0 {
                        continue;
                    }
                    for left in [true, false] {
                        let mut s = self.cur.solid.clone();
                        s[i].w -= cut;
                        if left {
                            s[i].x += cut;
                        }
                        cands.push(self.with_solid(s));
                    }
                }
                if !self.take(cands) {
                    break;
                }
                changed = true;
            }
        }
        changed
    }
}

/// Shrinks the divergence `d` of `sc` (campaign run `index`); `None` if it does not reproduce.
pub fn shrink(
    game: &Game,
    cfg: &FuzzConfig,
    index: u64,
    sc: &Scenario,
    d: &DiffReport,
    report: &(dyn Fn(&Step) + Sync),
) -> Option<Case> {
    let mut s = Shrinker {
        games: (0..cfg.threads.max(1)).map(|_| game.clone()).collect(),
        cfg,
        field: first_field(d),
        runs: 0,
        cur: sc.clone(),
        report,
    };
    s.truncate();
    for _ in 0..MAX_ROUNDS {
        let mut changed = s.move_start();
        s.truncate();
        changed |= s.remove_segments();
        changed |= s.remove_blocks();
        changed |= s.merge_blocks();
        changed |= s.trim_blocks();
        s.truncate();
        changed |= s.shorten_segments();
        changed |= s.drop_buttons();
        s.truncate();
        if !changed || s.runs >= MAX_RUNS {
            break;
        }
    }
    let Verdict::Diverged { diff, game, model } = evaluate(game, cfg, &s.cur) else {
        return None;
    };
    let mut shrunk = s.cur.clone();
    shrunk.name = format!("{}-shrunk", sc.name);
    shrunk.note = Some(format!(
        "shrunk from {} ({} blocks, {} input frames) in {} game runs; diverges at {}",
        sc.name,
        sc.solid.len(),
        sc.input.len(),
        s.runs,
        s.field.unwrap_or("the frame count")
    ));
    Some(Case {
        index,
        original: sc.clone(),
        shrunk,
        game,
        model,
        diff,
        field: s.field.map(str::to_string),
        shrink_runs: s.runs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ddmin_finds_the_two_needed_items() {
        // The test holds while 3 and 7 are both kept.
        let items: Vec<u32> = (0..20).collect();
        let mut calls = 0;
        let kept = ddmin(items, |cands| {
            calls += cands.len();
            cands.into_iter().find(|c| c.contains(&3) && c.contains(&7))
        });
        assert_eq!(kept, vec![3, 7]);
        assert!(calls < 200, "{calls}");
    }

    #[test]
    fn segments_round_trip() {
        let input = [0, 0, 8, 8, 8, 0x28, 0];
        let s = segments(&input);
        assert_eq!(s, vec![(0, 2), (8, 3), (0x28, 1), (0, 1)]);
        assert_eq!(flatten(&s), input);
    }
}
