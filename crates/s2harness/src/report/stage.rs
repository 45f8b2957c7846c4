//! The stage as a picture: solid cells in grey (a terrain run's blocks by their collision heights,
//! path 1 grey and path 2 alone pink), Sonic's path in the game (blue) and in the model
//! (red), the start and the first divergence marked, in the game's pixel coordinates (y down).

use std::fmt::Write as _;

use super::detail::Detail;

/// Margin around the paths, pixels.
const MARGIN: i32 = 96;
/// The drawing's width on the page.
const WIDTH: f64 = 860.0;

fn points(path: &[[i32; 2]]) -> String {
    let mut s = String::new();
    for [x, y] in path {
        write!(s, "{x},{y} ").ok();
    }
    s
}

/// The SVG of the stage around both paths.
pub fn stage_svg(d: &Detail) -> String {
    let all = d.game_path.iter().chain(&d.model_path);
    let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for [x, y] in all {
        x0 = x0.min(*x);
        x1 = x1.max(*x);
        y0 = y0.min(*y);
        y1 = y1.max(*y);
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0, 320, 0, 224);
    }
    x0 -= MARGIN;
    x1 += MARGIN;
    y0 -= MARGIN;
    y1 += MARGIN;
    // Keep the picture between 4:1 and 3:2 so a long run stays readable and a fall stays small.
    let (w, h) = (x1 - x0, y1 - y0);
    if h * 4 < w {
        let grow = w / 4 - h;
        y0 -= grow / 2;
        y1 += grow - grow / 2;
    } else if w * 2 < h * 3 {
        let grow = h * 3 / 2 - w;
        x0 -= grow / 2;
        x1 += grow - grow / 2;
    }
    let (w, h) = (x1 - x0, y1 - y0);
    let height = WIDTH * h as f64 / w as f64;
    // Strokes in screen pixels whatever the zoom.
    let px = w as f64 / WIDTH;
    let mut svg = format!(
        "<svg class=\"stage\" viewBox=\"{x0} {y0} {w} {h}\" width=\"{WIDTH}\" height=\"{height:.0}\">"
    );
    if let Some(t) = &d.terrain {
        write!(
            svg,
            "<path class=\"terrain\" d=\"{}\"/><path class=\"terrain2\" d=\"{}\"/>",
            t.path1, t.path2
        )
        .ok();
    }
    for [cx, cy, cw, ch] in &d.solid {
        let (rx, ry, rw, rh) = (
            *cx as i32 * 16,
            *cy as i32 * 16,
            *cw as i32 * 16,
            *ch as i32 * 16,
        );
        if rx > x1 || rx + rw < x0 || ry > y1 || ry + rh < y0 {
            continue;
        }
        write!(
            svg,
            "<rect class=\"solid\" x=\"{rx}\" y=\"{ry}\" width=\"{rw}\" height=\"{rh}\"/>"
        )
        .ok();
    }
    for (class, path, mark) in [
        ("game", &d.game_path, d.game_mark),
        ("model", &d.model_path, d.model_mark),
    ] {
        write!(
            svg,
            // Inline: the page's stylesheet widths are for the plots' scale, not the stage's.
            "<polyline class=\"{class}\" style=\"stroke-width:{:.2}\" points=\"{}\"/>",
            if class == "game" { 3.0 * px } else { 1.2 * px },
            points(path)
        )
        .ok();
        if let Some([x, y]) = mark.and_then(|i| path.get(i)) {
            write!(
                svg,
                "<circle class=\"{class}\" cx=\"{x}\" cy=\"{y}\" r=\"{:.1}\"/>",
                4.0 * px
            )
            .ok();
        }
    }
    if let Some([x, y]) = d.game_path.first() {
        write!(
            svg,
            "<rect class=\"start\" x=\"{:.1}\" y=\"{:.1}\" width=\"{s:.1}\" height=\"{s:.1}\"/>",
            *x as f64 - 3.0 * px,
            *y as f64 - 3.0 * px,
            s = 6.0 * px
        )
        .ok();
    }
    svg.push_str("</svg>");
    svg
}
