//! What a report shows of one difference: both traces in a window around the first divergence,
//! both paths through the stage, and the stage's solid rectangles. Small enough to travel in a
//! shard's results file, so a merged report draws exactly what an unsharded one would.

use s2model::CellRect;
use s2model::state::FIELDS;
use s2model::trace::{DiffAt, DiffReport, Trace};
use serde::{Deserialize, Serialize};

use super::plot::PLOTTED;
use super::terrain_shape::{TerrainShape, around, terrain_shape};

/// Frames shown before and after the first divergence.
const BEFORE: usize = 60;
const AFTER: usize = 30;
/// Points kept of each path (evenly spaced; the start, the divergence and the end always).
const PATH_POINTS: usize = 400;

/// The plotted fields around the first divergence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// The frame number of the first column.
    pub start: u64,
    /// Field names, one per series.
    pub fields: Vec<String>,
    /// Per field, the game's values from `start` on.
    pub game: Vec<Vec<i32>>,
    /// Per field, the model's values from `start` on.
    pub model: Vec<Vec<i32>>,
}

/// One difference, drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Detail {
    /// Where the game's trace came from (its `source`: the emulator, or a MAME recording).
    pub truth: String,
    /// The first differing frame (`None`: the initial state differs).
    pub at: Option<u64>,
    /// The fields that differ there.
    pub fields: Vec<String>,
    /// The stage: solid rectangles as [x, y, w, h] in cells.
    pub solid: Vec<[u16; 4]>,
    pub window: Window,
    /// Sonic's (x_pos, y_pos) in the game and in the model, thinned to a few hundred points.
    pub game_path: Vec<[i32; 2]>,
    pub model_path: Vec<[i32; 2]>,
    /// The index in each path of the point at the divergence (when it is inside that path).
    pub game_mark: Option<usize>,
    pub model_mark: Option<usize>,
    /// A terrain run's terrain around both paths (drawn from the act's terrain read from the
    /// user's ROM when the report was made; absent for flat stages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<TerrainShape>,
}

fn field(name: &str) -> usize {
    FIELDS
        .iter()
        .position(|f| *f == name)
        .expect("a compared field")
}

/// The path's points, every `step`-th frame plus the initial state, the divergence and the end;
/// returns the points and the index of the divergence among them.
fn path(t: &Trace, at: Option<usize>) -> (Vec<[i32; 2]>, Option<usize>) {
    let (x, y) = (field("x_pos"), field("y_pos"));
    let mut pts = vec![[t.header.initial[x], t.header.initial[y]]];
    let mut mark = None;
    let n = t.frames.len();
    let step = n.div_ceil(PATH_POINTS).max(1);
    for (i, f) in t.frames.iter().enumerate() {
        let is_mark = Some(i) == at;
        if i % step == 0 || i + 1 == n || is_mark {
            if is_mark {
                mark = Some(pts.len());
            }
            pts.push([f.values[x], f.values[y]]);
        }
    }
    if at.is_none() {
        mark = Some(0);
    }
    (pts, mark)
}

impl Detail {
    /// `game` and `model` traces, the stage they ran on, and their comparison (model as A).
    pub fn build(game: &Trace, model: &Trace, solid: &[CellRect], d: &DiffReport) -> Detail {
        let first = d.first.as_ref();
        let at = first.map_or(Some(d.frames_compared as u64), |f| match f.at {
            DiffAt::Initial => None,
            DiffAt::Frame(k) => Some(k),
        });
        // The line index of the divergence (frame numbers start at 0 and count up by one in
        // every trace the lab writes or reads).
        let line = at.map(|_| d.frames_compared);
        let k = line.unwrap_or(0);
        let start = k.saturating_sub(BEFORE);
        let end = (k + AFTER + 1).min(game.frames.len().max(model.frames.len()));
        let cols = |t: &Trace| -> Vec<Vec<i32>> {
            PLOTTED
                .iter()
                .map(|name| {
                    let i = field(name);
                    t.frames
                        .get(start..end.min(t.frames.len()))
                        .unwrap_or_default()
                        .iter()
                        .map(|f| f.values[i])
                        .collect()
                })
                .collect()
        };
        let (game_path, game_mark) = path(game, line);
        let (model_path, model_mark) = path(model, line);
        Detail {
            truth: game.header.source.clone(),
            at,
            fields: first.map_or_else(Vec::new, |f| {
                f.fields.iter().map(|x| x.field.to_string()).collect()
            }),
            solid: solid.iter().map(|r| [r.x, r.y, r.w, r.h]).collect(),
            window: Window {
                start: game
                    .frames
                    .get(start)
                    .or(model.frames.get(start))
                    .map_or(start as u64, |f| f.frame),
                fields: PLOTTED.iter().map(|s| s.to_string()).collect(),
                game: cols(game),
                model: cols(model),
            },
            game_path,
            model_path,
            game_mark: game_mark.filter(|_| line.is_none_or(|l| l < game.frames.len())),
            model_mark: model_mark.filter(|_| line.is_none_or(|l| l < model.frames.len())),
            terrain: None,
        }
    }

    /// This detail with `level`'s terrain around both paths.
    pub fn with_terrain(mut self, level: &impl s2model::Level) -> Detail {
        let both: Vec<[i32; 2]> = self
            .game_path
            .iter()
            .chain(&self.model_path)
            .copied()
            .collect();
        let (x0, y0, x1, y1) = around(&both);
        self.terrain = Some(terrain_shape(level, x0, y0, x1, y1));
        self
    }
}
