//! Line plots of the game and the model over the window around the first divergence (SVG).

use std::fmt::Write as _;

use super::detail::Window;

/// The fields plotted for a difference: where Sonic is and how fast he goes.
pub const PLOTTED: [&str; 5] = ["x_pos", "y_pos", "x_vel", "y_vel", "inertia"];
const PLOT_W: f64 = 420.0;
const PLOT_H: f64 = 120.0;

/// `down`: larger values plot lower (screen coordinates, for y_pos: a jump goes up).
fn polyline(
    values: &[i32],
    columns: usize,
    (lo, hi): (i32, i32),
    down: bool,
    class: &str,
) -> String {
    let span = (hi - lo).max(1) as f64;
    let mut pts = String::new();
    for (i, v) in values.iter().enumerate() {
        let x = i as f64 / (columns.max(2) - 1) as f64 * PLOT_W;
        let t = (*v - lo) as f64 / span * PLOT_H;
        let y = if down { t } else { PLOT_H - t };
        write!(pts, "{x:.1},{y:.1} ").ok();
    }
    format!("<polyline class=\"{class}\" points=\"{pts}\"/>")
}

/// One field's plot: the game (wide, blue), the model (red), the divergence (dashed), the frame
/// numbers at both ends.
pub fn field_plot(w: &Window, i: usize, at: Option<u64>) -> String {
    let name = &w.fields[i];
    let game = &w.game[i];
    let model = &w.model[i];
    let columns = game.len().max(model.len());
    let lo = game.iter().chain(model).copied().min().unwrap_or(0);
    let hi = game.iter().chain(model).copied().max().unwrap_or(1);
    let mut svg = format!(
        "<svg class=\"plot\" viewBox=\"-2 -14 {} {}\" width=\"{}\" height=\"{}\"><text x=\"0\" y=\"-3\">{name} ({lo}…{hi})</text>",
        PLOT_W + 4.0,
        PLOT_H + 30.0,
        PLOT_W + 4.0,
        PLOT_H + 30.0
    );
    let down = name == "y_pos";
    svg.push_str(&polyline(game, columns, (lo, hi), down, "game"));
    svg.push_str(&polyline(model, columns, (lo, hi), down, "model"));
    if let Some(k) = at
        && k >= w.start
        && ((k - w.start) as usize) < columns
    {
        let x = (k - w.start) as f64 / (columns.max(2) - 1) as f64 * PLOT_W;
        write!(
            svg,
            "<line class=\"div\" x1=\"{x:.1}\" y1=\"0\" x2=\"{x:.1}\" y2=\"{PLOT_H}\"/>"
        )
        .ok();
    }
    let last = w.start + columns.saturating_sub(1) as u64;
    write!(
        svg,
        "<text x=\"0\" y=\"{y}\">frame {}</text><text x=\"{PLOT_W}\" y=\"{y}\" text-anchor=\"end\">frame {last}</text></svg>",
        w.start,
        y = PLOT_H + 12.0
    )
    .ok();
    svg
}
