//! The VDP's picture: one line of planes A/B, window, sprites, priorities and shadow/highlight.
//!
//! Contract with the VDP core (`vdp/mod.rs`): the core owns registers and memories and calls
//! [`Renderer::render_line`] once per active line, at the moment the hardware fetches it, with
//! views of its current state. Output pixels are [`Pixel`]s (the 9-bit CRAM colour plus the
//! shadow/highlight intensity); converting to RGB is a separate, swappable step ([`to_rgb888`]).
//!
//! Modules, one job each: `pixel` is the output pixel, `line` what a line is drawn from,
//! `config` decodes the registers, `pattern` decodes name-table entries and pattern rows,
//! `pattern_rows` keeps the rows decoded (and draws a cell row from them), `name_row` keeps a
//! plane's name-table row decoded, `planes` draws the scroll planes,
//! `window` the window plane, `sprites` the sprite layer (with `sprite_table`: the link list
//! and which entries each line shows),
//! `compose` merges layers (priorities, shadow/highlight), `palette` keeps the line's colour
//! tables, `colour` converts pixels to the RGB the reference emulator outputs, `cache` keeps
//! what lines share (the line configuration, the sprite table's list and line index) and
//! `deferred` counts headless lines that need no drawing until their flags are looked at; derived
//! state is checked against the memory it came from on every line (or, while the VDP core's
//! count of writes to that memory stands, known to still equal it).
//!
//! The behaviour follows Charles MacDonald's "Sega Genesis VDP documentation" (genvdp.txt),
//! with hardware quirks as Genesis Plus GX models them, since golden frames are recorded
//! there (stable-retro's Genesis Plus GX core).
//!
//! Not modelled (none matters for Sonic 2): register or VRAM changes in the middle of a line
//! (each line uses one state); the VDP's internal copy of the sprite table and its
//! one-line-ahead sprite evaluation (we read the table from VRAM when the line is drawn);
//! 128 KiB VRAM mode; Master System mode 4.
//!
//! Cost: the layer line buffers kept between lines (the planes' only overwritten, the
//! sprites' cleared where drawn); plane and window cells read from pattern rows kept decoded
//! in their four flips (`pattern_rows`, one load a cell; the VDP core marks the VRAM it
//! writes), a plane's cells through its name-table row kept decoded (`name_row`: two loads
//! and two ORs a cell), sprite rows decoded through a table, one lookup per half row (four
//! pixels); the layers merged in vectorised byte masks, 64 pixels at a time, and coloured two
//! pixels per lookup (`compose`, `palette`); the caches are rebuilt only when their memory
//! changed (the sprite index in place, when the game rewrites its table: 373 times in the
//! bench script's first 1,200 frames). docs/performance.md has the measurements.

mod cache;
mod colour;
mod compose;
mod config;
mod deferred;
mod line;
mod name_row;
mod palette;
mod pattern;
mod pattern_rows;
mod pixel;
mod planes;
mod sprite_table;
mod sprites;
mod window;

#[cfg(test)]
mod tests;

pub use colour::{cram_to_pixel, to_rgb565, to_rgb888};
pub use line::RenderInput;
pub use pattern_rows::DirtyPatterns;
pub use pixel::{INTENSITY_HIGHLIGHT, INTENSITY_NORMAL, INTENSITY_SHADOW, Pixel};

use line::{LINE_BUF, LineBuf, LineCtx, MARGIN};
use planes::Plane;

/// Status the line produced for the VDP's status register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineStatus {
    pub sprite_overflow: bool,
    pub sprite_collision: bool,
}

/// Renderer state kept between lines. Plain data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renderer {
    /// The previous rendered line hit the sprite pixel limit, so an x = 0 sprite masks from
    /// the start of the next one. Like Genesis Plus GX this carries over from the last line
    /// of one frame to the first of the next, and is left alone while the display is off.
    sprite_mask_armed: bool,
    /// Headless lines counted but not yet applied ([`deferred`]); settled before anything
    /// looks at what they change.
    deferral: Deferral,
    /// Derived from the VDP's memories, checked against them before each use.
    cache: cache::Caches,
    palette: palette::Palette,
    planes: PlaneLines,
    /// Every VRAM long word decoded as a pattern row, kept up to date by
    /// [`Renderer::sync_patterns`] (or decoded again in full on a line whose VRAM version
    /// it does not know).
    rows: pattern_rows::PatternRows,
}

/// Lines counted since the last line evaluated, and what they were counted under. Closed
/// (`until` 0) when nothing is owed and no line may be counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Deferral {
    /// Lines `from..to` are owed.
    from: u16,
    to: u16,
    /// Lines below this need no drawing for the collision flag.
    until: u16,
    display: bool,
    vram_version: u64,
}

/// The plane B and plane A/window layer lines, kept from line to line instead of cleared for
/// each: every drawn line overwrites all their visible pixels (plane B's columns span the
/// width, plane A's and the window's columns share it between them, and the finely scrolled
/// partial column only adds pixels left of the first); the sprite layer, cleared after each
/// line over the span its sprites drew; and each plane's decoded name-table row
/// (`name_row`). Scratch space: compares equal to any other, never saved.
#[derive(Clone)]
struct PlaneLines {
    a: LineBuf,
    b: LineBuf,
    /// The sprite layer: all 0 between lines (each line clears the span it drew).
    s: LineBuf,
    /// Each plane's name-table row, kept decoded between lines.
    a_row: name_row::NameRow,
    b_row: name_row::NameRow,
}

impl Default for PlaneLines {
    fn default() -> Self {
        Self {
            a: [0; LINE_BUF],
            b: [0; LINE_BUF],
            s: [0; LINE_BUF],
            a_row: Default::default(),
            b_row: Default::default(),
        }
    }
}

impl std::fmt::Debug for PlaneLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlaneLines").finish_non_exhaustive()
    }
}

equal_to_any!(PlaneLines);

impl Renderer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Brings the decoded pattern rows up to `vram` as of the caller's VRAM version
    /// `version` ([`RenderInput::vram_version`]), decoding the 32-byte blocks `dirty` marks
    /// as written since the last sync (all of VRAM the first time), and clears the marks.
    /// A line drawn with that version (and registers `regs`) then reads the rows as they
    /// are. The rows' layout follows interlace mode 2 (reg 12).
    pub fn sync_patterns(
        &mut self,
        regs: &[u8; 24],
        vram: &pattern::Vram,
        dirty: &mut DirtyPatterns,
        version: u64,
    ) {
        let interlace2 = self.cache.config(regs).interlace2;
        self.rows.sync(vram, dirty, version, interlace2);
    }

    /// Renders active line `line` (0-based from the top of the active area; in interlace mode 2
    /// the core passes the field's line and `odd_field`) into `out`, whose length is the active
    /// width (256 in H32, 320 in H40). With the display disabled (reg 1 bit 6 clear) the line is
    /// the backdrop colour. If `out` is wider than the mode's width the rest is backdrop.
    pub fn render_line(
        &mut self,
        input: &RenderInput<'_>,
        line: u16,
        odd_field: bool,
        out: &mut [Pixel],
    ) -> LineStatus {
        let cfg = self.cache.config(input.regs);
        self.palette.update(
            input.cram,
            cfg.full_palette,
            cfg.backdrop,
            input.cram_version,
        );
        let backdrop = self.palette.single()[0];
        let width = cfg.width.min(out.len());
        if !cfg.display {
            out.fill(backdrop);
            return LineStatus::default();
        }
        let ctx = LineCtx {
            cfg: &cfg,
            vram: input.vram,
            rows: self
                .rows
                .current(input.vram, input.vram_version, cfg.interlace2),
            vsram: input.vsram,
            vram_version: input.vram_version,
            line: line as u32,
            odd: odd_field,
        };

        let PlaneLines {
            a: plane_a,
            b: plane_b,
            s: sprite_layer,
            a_row,
            b_row,
        } = &mut self.planes;
        planes::draw_plane(&ctx, Plane::B, 0, cfg.columns, plane_b, b_row);
        let split = window::split(&cfg, ctx.line);
        planes::draw_plane(
            &ctx,
            Plane::A,
            split.plane_a.0,
            split.plane_a.1,
            plane_a,
            a_row,
        );
        if split.window.0 < split.window.1 {
            window::draw_window(&ctx, split.window.0, split.window.1, plane_a);
        }
        let sprite_line = sprites::SpriteLine::new(input, ctx.line, odd_field);
        let table = self
            .cache
            .sprite_table(&sprite_line.mode, input.vram, input.vram_version);
        let sprites = sprites::draw_sprites(
            &sprite_line,
            table,
            &mut self.sprite_mask_armed,
            sprite_layer,
        );

        let visible = MARGIN..MARGIN + width;
        // The drawn span in screen pixels (sprites may hang off either edge).
        let drawn = sprites.drawn.0.saturating_sub(MARGIN)..sprites.drawn.1.saturating_sub(MARGIN);
        compose::compose(
            &plane_a[visible.clone()],
            &plane_b[visible.clone()],
            &sprite_layer[visible],
            drawn,
            &self.palette,
            cfg.shadow_highlight,
            &mut out[..width],
        );
        if sprites.drawn.0 < sprites.drawn.1 {
            sprite_layer[sprites.drawn.0..sprites.drawn.1].fill(0);
        }
        if cfg.blank_left {
            // reg 0 bit 5: the leftmost column shows the backdrop at normal intensity, even in
            // shadow/highlight mode (games hide their scroll-in column with it).
            out[..width.min(8)].fill(backdrop);
        }
        out[width..].fill(backdrop);
        LineStatus {
            sprite_overflow: sprites.overflow,
            sprite_collision: sprites.collision,
        }
    }

    /// What [`Renderer::render_line`] reports and changes for line `line`, without drawing:
    /// the sprite scan, limits and masking run as when drawing, so the status flags and the
    /// masking state carried to the next line are the same. The collision flag is only
    /// computed when `want_collision` (the caller's flag is not set already).
    #[inline]
    pub fn evaluate_line(
        &mut self,
        input: &RenderInput<'_>,
        line: u16,
        odd_field: bool,
        want_collision: bool,
    ) -> LineStatus {
        if let Some(version) = input.vram_version
            && let Some(status) =
                self.quick_line(input.regs, Some(input.vram), version, line, want_collision)
        {
            return status;
        }
        // As in `quick_line`, which answers first when the VRAM version is known.
        if !config::display_enabled(input.regs) {
            return LineStatus::default();
        }
        self.evaluate_line_from_vram(input, line, odd_field, want_collision)
    }

    /// [`Renderer::evaluate_line`] when the sprite table is as at the previous line (the
    /// registers the same, and the VRAM version `vram_version` or, when `vram` is given, the
    /// table's bytes): the line's outcome from the
    /// table's index, unless its collision flag is wanted and its sprites may overlap (what
    /// `evaluate_sprites` decides from the same index). `None` when it cannot tell. The field
    /// does not matter: the index is the same for both (only drawing reads the field).
    #[inline]
    pub fn quick_line(
        &mut self,
        regs: &[u8; 24],
        vram: Option<&pattern::Vram>,
        vram_version: u64,
        line: u16,
        want_collision: bool,
    ) -> Option<LineStatus> {
        // Only the sprite pass's few register bits: nothing else of the line is looked at.
        if !config::display_enabled(regs) {
            return Some(LineStatus::default());
        }
        let table = self
            .cache
            .current_sprite_table(regs, Some(vram_version), vram)?;
        let outcome = table.outcome(line as u32)?;
        if want_collision && outcome.may_collide() && table.refine_line(line as u32) {
            return None;
        }
        self.sprite_mask_armed = outcome.full();
        Some(LineStatus {
            sprite_overflow: outcome.overflow(),
            sprite_collision: false,
        })
    }

    /// [`Renderer::evaluate_line`] with the sprite table checked against VRAM (and rebuilt if
    /// it changed), and the collision flag drawn out when wanted.
    #[inline(never)]
    fn evaluate_line_from_vram(
        &mut self,
        input: &RenderInput<'_>,
        line: u16,
        odd_field: bool,
        want_collision: bool,
    ) -> LineStatus {
        let sprite_line = sprites::SpriteLine::new(input, line as u32, odd_field);
        let table = self
            .cache
            .sprite_table(&sprite_line.mode, input.vram, input.vram_version);
        let sprites = sprites::evaluate_sprites(
            &sprite_line,
            table,
            &mut self.sprite_mask_armed,
            want_collision,
        );
        LineStatus {
            sprite_overflow: sprites.overflow,
            sprite_collision: sprites.collision,
        }
    }

    /// Called at the start of each frame. Nothing resets here: the sprite masking state
    /// carries over from the previous frame's last line, as in Genesis Plus GX.
    pub fn start_frame(&mut self) {}
}
