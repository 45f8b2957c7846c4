//! Hand-built VRAM/CRAM/VSRAM scenes checked against what the hardware documentation says.
//!
//! Sources cited in the comments: genvdp.txt (Charles MacDonald, "Sega Genesis VDP
//! documentation"), Nemesis's sprite masking/limit notes (SpritesMind), Plutiedev, Sega Retro's
//! "Shadow and highlight", and Genesis Plus GX for the quirks it measured on hardware. Expected
//! values are derived in the comments, never taken from the renderer's output.
//!
//! Scene conventions: CRAM entry `i` holds the 9-bit colour `i` (so a pixel's colour equals the
//! CRAM index it came from), the backdrop is entry 0x21, plane A's table is at 0xC000, plane
//! B's at 0xE000, the window's at 0xB000, sprites at 0xA800 and H-scroll at 0xAC00.

use super::*;

const BACKDROP: Pixel = 0x21;
const PLANE_A: usize = 0xC000;
const PLANE_B: usize = 0xE000;
const WINDOW: usize = 0xB000;
const SAT: usize = 0xA800;
const HSCROLL: usize = 0xAC00;

struct Scene {
    regs: [u8; 24],
    vram: Vec<u8>,
    cram: [u16; 64],
    vsram: [u16; 40],
    renderer: Renderer,
}

/// CRAM word (`----bbb-ggg-rrr-`) holding 9-bit colour `c` (`bbbgggrrr`).
fn cram_word(c: u16) -> u16 {
    ((c & 7) << 1) | (((c >> 3) & 7) << 5) | (((c >> 6) & 7) << 9)
}

/// Name-table entry / sprite attribute word: `pccv hnnn nnnn nnnn`.
fn entry(pattern: u16, palette: u16, priority: bool, vflip: bool, hflip: bool) -> u16 {
    (priority as u16) << 15 | palette << 13 | (vflip as u16) << 12 | (hflip as u16) << 11 | pattern
}

/// Colour index `colour` of palette `palette` as our scene's pixel.
fn px(palette: u16, colour: u16) -> Pixel {
    palette * 16 + colour
}

impl Scene {
    fn new(h40: bool) -> Self {
        let mut regs = [0u8; 24];
        regs[0] = 0x04; // full palette
        regs[1] = 0x44; // display on
        regs[2] = (PLANE_A >> 10) as u8;
        regs[3] = (WINDOW >> 10) as u8;
        regs[4] = (PLANE_B >> 13) as u8;
        regs[5] = (SAT >> 9) as u8;
        regs[7] = BACKDROP as u8;
        regs[12] = if h40 { 0x81 } else { 0x00 };
        regs[13] = (HSCROLL >> 10) as u8;
        let mut cram = [0u16; 64];
        for (i, w) in cram.iter_mut().enumerate() {
            *w = cram_word(i as u16);
        }
        let mut scene = Scene {
            regs,
            vram: vec![0; 0x10000],
            cram,
            vsram: [0; 40],
            renderer: Renderer::new(),
        };
        // An empty sprite table: entry 0 off screen (y = 0), link 0.
        scene.sprite(0, -128, 1, 1, 0, 0, 0);
        scene
    }

    fn word(&mut self, addr: usize, value: u16) {
        self.vram[addr] = (value >> 8) as u8;
        self.vram[addr + 1] = value as u8;
    }

    /// 8x8 pattern `index`, each row 8 nibbles, pixel 0 in the top nibble.
    fn tile(&mut self, index: usize, rows: [u32; 8]) {
        for (r, row) in rows.iter().enumerate() {
            self.vram[index * 32 + r * 4..index * 32 + r * 4 + 4]
                .copy_from_slice(&row.to_be_bytes());
        }
    }

    fn solid(&mut self, index: usize, colour: u32) {
        self.tile(index, [colour * 0x1111_1111; 8]);
    }

    /// Name-table entry of a plane with a 32-cell row stride (64 bytes).
    fn cell(&mut self, base: usize, row: usize, col: usize, value: u16) {
        self.word(base + row * 64 + col * 2, value);
    }

    fn hscroll(&mut self, line: usize, a: u16, b: u16) {
        self.word(HSCROLL + line * 4, a);
        self.word(HSCROLL + line * 4 + 2, b);
    }

    /// Sprite entry `i` at screen position (`x`, `y`), `w`x`h` cells.
    #[allow(clippy::too_many_arguments)]
    fn sprite(&mut self, i: usize, y: i32, w: u16, h: u16, link: u16, attr: u16, x: i32) {
        self.sprite_raw(i, (y + 128) as u16, w, h, link, attr, (x + 128) as u16);
    }

    #[allow(clippy::too_many_arguments)]
    fn sprite_raw(&mut self, i: usize, y: u16, w: u16, h: u16, link: u16, attr: u16, x: u16) {
        let a = SAT + 8 * i;
        self.word(a, y);
        self.word(a + 2, ((w - 1) << 10) | ((h - 1) << 8) | link);
        self.word(a + 4, attr);
        self.word(a + 6, x);
    }

    fn render_field(&mut self, line: u16, odd: bool, width: usize) -> (Vec<Pixel>, LineStatus) {
        let mut out = vec![0xFFFF; width];
        let input = RenderInput {
            regs: &self.regs,
            vram: self.vram.as_slice().try_into().expect("64 KiB VRAM"),
            cram: &self.cram,
            vsram: &self.vsram,
            vram_version: None,
            cram_version: None,
        };
        let status = self.renderer.render_line(&input, line, odd, &mut out);
        (out, status)
    }

    fn render(&mut self, line: u16) -> Vec<Pixel> {
        let width = if self.regs[12] & 1 != 0 { 320 } else { 256 };
        self.render_field(line, false, width).0
    }

    fn status(&mut self, line: u16) -> LineStatus {
        let width = if self.regs[12] & 1 != 0 { 320 } else { 256 };
        self.render_field(line, false, width).1
    }
}

// ---------------------------------------------------------------------------------------------
// Display enable, backdrop, widths, leftmost column

#[test]
fn display_disabled_shows_backdrop() {
    // genvdp.txt reg 1 bit 6 (DISP): when clear the display is blanked to the backdrop colour.
    let mut s = Scene::new(true);
    s.solid(1, 5);
    s.cell(PLANE_B, 0, 0, entry(1, 0, false, false, false));
    s.regs[1] = 0x04;
    assert!(s.render(0).iter().all(|&p| p == BACKDROP));
}

#[test]
fn empty_scene_is_backdrop_at_both_widths() {
    // Everything transparent (pattern 0 is all zero) leaves the backdrop, reg 7 (genvdp.txt).
    for h40 in [false, true] {
        let mut s = Scene::new(h40);
        let line = s.render(10);
        assert_eq!(line.len(), if h40 { 320 } else { 256 });
        assert!(line.iter().all(|&p| p == BACKDROP));
    }
}

#[test]
fn h32_draws_256_pixels_h40_320() {
    // H32 shows 32 cells (256 px), H40 40 cells (320 px) (genvdp.txt reg 12 RS0/RS1). Fill
    // plane B's first row with an opaque tile; in H32 a 320-wide output keeps the backdrop
    // beyond pixel 255.
    let mut s = Scene::new(false);
    s.regs[16] = 0x01; // 64-cell wide plane so 40 cells differ
    s.solid(1, 3);
    for col in 0..64 {
        s.word(PLANE_B + col * 2, entry(1, 0, false, false, false));
    }
    let (line, _) = s.render_field(0, false, 320);
    assert_eq!(line[255], px(0, 3));
    assert!(line[256..].iter().all(|&p| p == BACKDROP));
    s.regs[12] = 0x81;
    let line = s.render(0);
    assert!(line.iter().all(|&p| p == px(0, 3)));
}

#[test]
fn leftmost_column_blank() {
    // genvdp.txt reg 0 bit 5 (LCB): the leftmost 8 pixels show the backdrop colour. In
    // shadow/highlight mode they stay at normal intensity (the blanking replaces the pixel).
    let mut s = Scene::new(true);
    s.solid(1, 3);
    for col in 0..2 {
        s.cell(PLANE_B, 0, col, entry(1, 0, false, false, false));
    }
    s.regs[0] |= 0x20;
    let line = s.render(0);
    assert!(line[..8].iter().all(|&p| p == BACKDROP));
    assert_eq!(line[8], px(0, 3));
    s.regs[12] |= 0x08;
    let line = s.render(0);
    assert!(line[..8].iter().all(|&p| p == BACKDROP));
    assert_eq!(line[8], px(0, 3) | INTENSITY_SHADOW);
}

// ---------------------------------------------------------------------------------------------
// Patterns and name-table entries

#[test]
fn pattern_pixels_palette_and_transparency() {
    // genvdp.txt "Patterns": 4 bits per pixel, leftmost pixel in the high nibble of the first
    // byte; colour 0 is transparent. The entry's palette (bits 13-14) picks CRAM 16*p + colour.
    let mut s = Scene::new(false);
    s.tile(1, [0x0123_4567, 0x89AB_CDEF, 0, 0, 0, 0, 0, 0]);
    s.cell(PLANE_B, 0, 0, entry(1, 2, false, false, false));
    let line0 = s.render(0);
    assert_eq!(line0[0], BACKDROP);
    let expected: Vec<Pixel> = (1..8).map(|c| px(2, c)).collect();
    assert_eq!(&line0[1..8], &expected[..]);
    assert_eq!(line0[8], BACKDROP);
    let line1 = s.render(1);
    let expected: Vec<Pixel> = (8..16).map(|c| px(2, c)).collect();
    assert_eq!(&line1[0..8], &expected[..]);
}

#[test]
fn name_entry_flips() {
    // genvdp.txt "Name table": bit 11 flips the cell horizontally, bit 12 vertically.
    let mut s = Scene::new(false);
    s.tile(1, [0x1234_5678, 0, 0, 0, 0, 0, 0, 0x9ABC_DEF1]);
    s.cell(PLANE_B, 0, 0, entry(1, 0, false, false, true));
    s.cell(PLANE_B, 0, 1, entry(1, 0, false, true, false));
    s.cell(PLANE_B, 0, 2, entry(1, 0, false, true, true));
    let line = s.render(0);
    // hflip: row 0 reversed.
    assert_eq!(&line[0..8], &[8, 7, 6, 5, 4, 3, 2, 1]);
    // vflip: line 0 shows row 7.
    assert_eq!(&line[8..16], &[9, 10, 11, 12, 13, 14, 15, 1]);
    // both.
    assert_eq!(&line[16..24], &[1, 15, 14, 13, 12, 11, 10, 9]);
}

// ---------------------------------------------------------------------------------------------
// Plane priority

#[test]
fn plane_priority() {
    // genvdp.txt "Priority": high B is above low A; between equal priorities A is above B;
    // a transparent A pixel shows B.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(2, 2);
    s.tile(3, [0x0000_2222; 8]);
    // column 0: A low opaque, B high opaque -> B
    s.cell(PLANE_A, 0, 0, entry(1, 0, false, false, false));
    s.cell(PLANE_B, 0, 0, entry(2, 1, true, false, false));
    // column 1: both low -> A
    s.cell(PLANE_A, 0, 1, entry(1, 0, false, false, false));
    s.cell(PLANE_B, 0, 1, entry(2, 1, false, false, false));
    // column 2: A high but half transparent, B low -> A where opaque, B elsewhere
    s.cell(PLANE_A, 0, 2, entry(3, 0, true, false, false));
    s.cell(PLANE_B, 0, 2, entry(2, 1, false, false, false));
    let line = s.render(0);
    assert_eq!(line[0], px(1, 2));
    assert_eq!(line[8], px(0, 1));
    assert_eq!(line[16], px(1, 2));
    assert_eq!(line[23], px(0, 2));
}

// ---------------------------------------------------------------------------------------------
// Horizontal scroll

/// Plane A row 0: cell `c` is a solid tile of colour `c % 15 + 1`, for all 32 cells.
fn numbered_row(s: &mut Scene, base: usize, row: usize) {
    for c in 0..15 {
        s.solid(1 + c, c as u32 + 1);
    }
    for col in 0..32 {
        s.cell(
            base,
            row,
            col,
            entry(1 + (col % 15) as u16, 0, false, false, false),
        );
    }
}

fn colour_of_cell(col: usize) -> Pixel {
    (col % 15) as Pixel + 1
}

#[test]
fn full_screen_hscroll() {
    // genvdp.txt "Horizontal scrolling": the value moves the plane right; screen x shows plane
    // x - hscroll, wrapping at the plane width (256 px for 32 cells). Mode 00 uses the first
    // table entry for every line; plane A's word comes first, then plane B's.
    let mut s = Scene::new(false);
    numbered_row(&mut s, PLANE_A, 0);
    s.hscroll(0, 3, 0);
    s.hscroll(5, 40, 0); // ignored in full-screen mode
    let line = s.render(5);
    // x 0..3 -> plane x 253..255 = cell 31; x 3..11 -> cell 0; x 11 -> cell 1.
    assert_eq!(line[0], colour_of_cell(31));
    assert_eq!(line[2], colour_of_cell(31));
    assert_eq!(line[3], colour_of_cell(0));
    assert_eq!(line[10], colour_of_cell(0));
    assert_eq!(line[11], colour_of_cell(1));
    // Negative scroll (10-bit two's complement): -8 shows cell 1 at x 0.
    s.hscroll(0, 0x3F8, 0);
    assert_eq!(s.render(0)[0], colour_of_cell(1));
}

#[test]
fn per_cell_and_per_line_hscroll() {
    // reg 11 bits 0-1: 10 = one entry per 8-line cell row (line & ~7), 11 = one per line; the
    // table holds 4 bytes per line (genvdp.txt "Horizontal scrolling").
    let mut s = Scene::new(false);
    for row in 0..2 {
        numbered_row(&mut s, PLANE_A, row);
    }
    s.hscroll(8, 8, 0);
    s.hscroll(9, 16, 0);
    s.regs[11] = 0x02;
    // line 9 uses entry 8: scroll 8, so x 0 shows plane x -8 = cell 31.
    let line = s.render(9);
    assert_eq!(line[0], colour_of_cell(31));
    assert_eq!(line[8], colour_of_cell(0));
    s.regs[11] = 0x03;
    // line 9 uses entry 9: scroll 16, x 0 shows cell 30.
    let line = s.render(9);
    assert_eq!(line[0], colour_of_cell(30));
    assert_eq!(line[16], colour_of_cell(0));
}

// ---------------------------------------------------------------------------------------------
// Vertical scroll

#[test]
fn full_screen_vscroll() {
    // genvdp.txt "Vertical scrolling": VSRAM word 0 scrolls plane A, word 1 plane B; line y
    // shows plane line y + vscroll.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(2, 2);
    s.cell(PLANE_A, 1, 0, entry(1, 0, false, false, false));
    s.cell(PLANE_B, 2, 0, entry(2, 0, false, false, false));
    s.vsram[0] = 8;
    s.vsram[1] = 16;
    assert_eq!(s.render(0)[0], px(0, 1)); // A row 1 in front
    s.cell(PLANE_A, 1, 0, 0);
    assert_eq!(s.render(7)[0], px(0, 2)); // B line 23 = row 2
    assert_eq!(s.render(8)[0], BACKDROP); // B line 24 = row 3 (empty)
}

#[test]
fn two_cell_column_vscroll() {
    // reg 11 bit 2: each 16-pixel column has its own pair of VSRAM words (A at 2n, B at 2n+1).
    let mut s = Scene::new(false);
    s.regs[11] = 0x04;
    s.solid(1, 1);
    s.solid(2, 2);
    for col in 0..6 {
        s.cell(PLANE_A, 0, col, entry(1, 0, false, false, false));
        s.cell(PLANE_A, 1, col, entry(2, 0, false, false, false));
    }
    s.vsram[2] = 8; // column 1 of plane A scrolled by one cell
    s.vsram[0] = 0;
    s.vsram[3] = 100; // column 1 of plane B: no effect on A
    let line = s.render(0);
    assert_eq!(line[0], px(0, 1));
    assert_eq!(line[15], px(0, 1));
    assert_eq!(line[16], px(0, 2));
    assert_eq!(line[31], px(0, 2));
    assert_eq!(line[32], px(0, 1));
}

#[test]
fn partial_left_column_vscroll_h40_and_h32() {
    // With 2-cell vertical scroll and a fine horizontal scroll, the column partly visible at
    // the left edge has no VSRAM pair. Genesis Plus GX (tested on a PAL MD2): in H40 it uses
    // VSRAM[38] & VSRAM[39], in H32 it is not scrolled. Here hscroll A = 4: x 0..4 show plane
    // x 252..255 (cell 31), the first full column starts at x 4 and uses VSRAM[0].
    let mut s = Scene::new(true);
    s.regs[11] = 0x04;
    s.hscroll(0, 4, 0);
    for c in 1..=4 {
        s.solid(c, c as u32);
    }
    s.cell(PLANE_A, 0, 31, entry(1, 0, false, false, false)); // row 0
    s.cell(PLANE_A, 1, 31, entry(2, 0, false, false, false)); // row 1
    s.cell(PLANE_A, 3, 31, entry(3, 0, false, false, false)); // row 3
    s.cell(PLANE_A, 0, 0, entry(4, 0, false, false, false));
    s.vsram[38] = 0x18; // row 3 ...
    s.vsram[39] = 0x0C; // ... AND row 1.5 -> 0x08 = row 1
    let line = s.render(0);
    assert_eq!(&line[0..4], &[2, 2, 2, 2]);
    assert_eq!(line[4], 4);
    s.regs[12] = 0x00;
    let line = s.render(0);
    assert_eq!(&line[0..4], &[1, 1, 1, 1]);
    assert_eq!(line[4], 4);
}

// ---------------------------------------------------------------------------------------------
// Plane sizes

#[test]
fn plane_sizes_stride_and_wrap() {
    // genvdp.txt reg 16: widths 32/64/128 cells set the row stride (64/128/256 bytes) and the
    // wrap point of horizontal scrolling.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(2, 2);
    s.solid(3, 3);
    // 64x32: row 1 starts 128 bytes in; cell 32 of row 0 is 64 bytes in.
    s.regs[16] = 0x01;
    s.word(PLANE_A + 128, entry(1, 0, false, false, false)); // row 1, col 0
    s.word(PLANE_A + 64, entry(2, 0, false, false, false)); // row 0, col 32
    s.vsram[0] = 8;
    assert_eq!(s.render(0)[0], px(0, 1));
    s.vsram[0] = 0;
    s.hscroll(0, 256, 0); // x 0 -> plane x -256 = 256 in a 512-px plane: cell 32
    assert_eq!(s.render(0)[0], px(0, 2));
    // 32x32 would wrap at 256: plane x 0 = cell 0 (empty).
    s.regs[16] = 0x00;
    assert_eq!(s.render(0)[0], BACKDROP);
    // 128x32: row stride 256 bytes.
    s.regs[16] = 0x03;
    s.hscroll(0, 0, 0);
    s.word(PLANE_A + 256, entry(3, 0, false, false, false));
    s.vsram[0] = 8;
    assert_eq!(s.render(0)[0], px(0, 3));
}

#[test]
fn invalid_plane_size_wraps_in_8k() {
    // A plane table is 8 KiB (genvdp.txt reg 16: 64x128 is not a valid size). The VDP masks the
    // row offset to 13 bits, so a 64x128 setting wraps row 64 back onto row 0 rather than
    // reading the 8 KiB after the table (here plane B's table).
    let mut s = Scene::new(false);
    s.regs[16] = 0x31; // 64 wide, 128 high
    s.solid(1, 1);
    s.solid(2, 2);
    s.word(PLANE_A, entry(1, 0, false, false, false)); // row 0
    s.word(PLANE_A + 0x2000, entry(2, 0, false, false, false)); // would be row 64
    s.vsram[0] = 512; // line 0 -> plane line 512 = row 64
    assert_eq!(s.render(0)[0], px(0, 1));
}

// ---------------------------------------------------------------------------------------------
// Window

#[test]
fn window_left_and_top() {
    // genvdp.txt regs 17/18: WHP counts 2-cell units; RIGT clear puts the window left of it.
    // WVP counts 8-line units; DOWN clear puts the window above it, across the whole line.
    // The window is not scrolled and in H40 its table rows are 64 cells (128 bytes).
    let mut s = Scene::new(true);
    s.solid(1, 1);
    s.solid(2, 2);
    for col in 0..32 {
        s.cell(PLANE_A, 1, col, entry(1, 0, false, false, false));
    }
    for col in 0..40 {
        s.word(WINDOW + 128 + col * 2, entry(2, 0, false, false, false)); // window row 1
        s.word(WINDOW + col * 2, entry(2, 0, false, false, false)); // window row 0
    }
    s.hscroll(0, 5, 0); // window ignores it
    s.vsram[0] = 8; // plane A line y shows row 1 for y < 8
    s.regs[17] = 0x02; // window x 0..32
    s.regs[18] = 0x01; // and lines 0..8
    let line0 = s.render(0);
    assert!(line0.iter().all(|&p| p == px(0, 2)));
    let line8 = s.render(8); // window row 1; plane A line 16 = row 2 (empty)
    assert!(line8[..32].iter().all(|&p| p == px(0, 2)));
    assert!(line8[32..].iter().all(|&p| p == BACKDROP));
    // The H40 window table ignores reg 3 bit 1 (address bit 11).
    s.regs[3] |= 0x02;
    assert_eq!(s.render(8)[0], px(0, 2));
}

#[test]
fn window_right_and_bottom() {
    // RIGT set: window from WHP*16 to the right edge; DOWN set: window from WVP*8 down.
    // In H32 the window table rows are 32 cells (64 bytes).
    let mut s = Scene::new(false);
    s.solid(2, 2);
    for col in 0..32 {
        s.word(WINDOW + 64 * 3 + col * 2, entry(2, 0, false, false, false)); // row 3
    }
    s.regs[17] = 0x80 | 0x0F; // x 240..256
    s.regs[18] = 0x80 | 0x1F; // from line 248: never on screen
    let line = s.render(24);
    assert!(line[..240].iter().all(|&p| p == BACKDROP));
    assert!(line[240..].iter().all(|&p| p == px(0, 2)));
    s.regs[17] = 0x00;
    s.regs[18] = 0x80 | 0x03; // lines 24 and below are window
    assert!(s.render(24).iter().all(|&p| p == px(0, 2)));
    assert!(s.render(23).iter().all(|&p| p == BACKDROP));
}

#[test]
fn window_bug_partial_column() {
    // Plane A finely scrolled next to a left window: the partially shown plane A column right of
    // the window is fetched with the following column's tiles (Genesis Plus GX "window bug",
    // measured on hardware). hscroll 4, window 0..16: x 16..20 would be plane x 12..15
    // (cell 1) but show cell 3's pixels instead.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(3, 3);
    s.cell(PLANE_A, 0, 1, entry(1, 0, false, false, false));
    s.cell(PLANE_A, 0, 3, entry(3, 0, false, false, false));
    s.hscroll(0, 4, 0);
    s.regs[17] = 0x01;
    let line = s.render(0);
    assert_eq!(&line[16..20], &[3, 3, 3, 3]);
    // From x 20 on, plane A is normal again: x 20..28 = plane x 16..23 = cell 2 (empty),
    // x 28..36 = cell 3.
    assert_eq!(line[20], BACKDROP);
    assert_eq!(line[28], px(0, 3));
}

// ---------------------------------------------------------------------------------------------
// Sprites

#[test]
fn sprite_link_order_sets_priority() {
    // genvdp.txt "Sprites": the list is walked from entry 0 by link; a sprite earlier in the
    // list is in front of later ones, whatever its index. List: 0 -> 2 -> 1.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(2, 2);
    s.solid(3, 3);
    s.sprite(0, 0, 1, 1, 2, entry(1, 0, false, false, false), 10);
    s.sprite(2, 0, 1, 1, 1, entry(2, 0, false, false, false), 14);
    s.sprite(1, 0, 1, 1, 0, entry(3, 0, false, false, false), 20);
    let line = s.render(0);
    assert_eq!(&line[9..11], &[BACKDROP, 1]);
    assert_eq!(line[17], 1); // 0 over 2
    assert_eq!(line[18], 2);
    assert_eq!(line[21], 2); // 2 over 1
    assert_eq!(line[22], 3);
    assert_eq!(line[28], BACKDROP);
}

#[test]
fn sprite_vs_plane_priority() {
    // genvdp.txt "Priority": low sprite < high plane < high sprite; low sprite > low planes.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(2, 2);
    s.cell(PLANE_A, 0, 0, entry(1, 0, true, false, false)); // high
    s.cell(PLANE_A, 0, 2, entry(1, 0, false, false, false)); // low
    s.sprite(0, 0, 1, 1, 1, entry(2, 1, false, false, false), 0); // low over high A
    s.sprite(1, 0, 1, 1, 2, entry(2, 2, true, false, false), 8); // high over nothing
    s.sprite(2, 0, 1, 1, 0, entry(2, 3, false, false, false), 16); // low over low A
    let line = s.render(0);
    assert_eq!(line[0], px(0, 1));
    assert_eq!(line[8], px(2, 2));
    assert_eq!(line[16], px(3, 2));
    s.sprite(0, 0, 1, 1, 1, entry(2, 1, true, false, false), 0); // now high
    assert_eq!(s.render(0)[0], px(1, 2));
}

#[test]
fn sprite_sizes_cell_order_and_flips() {
    // genvdp.txt "Sprite attribute table": a WxH sprite uses W*H consecutive patterns, ordered
    // column by column (down first). Horizontal flip mirrors the whole sprite (columns swap and
    // each row is reversed), vertical flip mirrors rows and cell rows.
    let mut s = Scene::new(false);
    // Patterns 4..9 of a 2x3 sprite: pattern p has colour p in pixel 0, colour 1 elsewhere.
    for p in 4..10u32 {
        s.tile(p as usize, [(p << 28) | 0x0111_1111; 8]);
    }
    s.sprite(0, 0, 2, 3, 0, entry(4, 0, false, false, false), 0);
    // Layout: col 0 = 4,5,6 (rows 0-2), col 1 = 7,8,9.
    let l0 = s.render(0);
    assert_eq!((l0[0], l0[8]), (4, 7));
    let l8 = s.render(8);
    assert_eq!((l8[0], l8[8]), (5, 8));
    let l16 = s.render(16);
    assert_eq!((l16[0], l16[8]), (6, 9));
    assert_eq!(s.render(24)[0], BACKDROP);
    // hflip: row 0 shows pattern 7 then 4, each reversed (pixel 0 colour at x 7 and 15).
    s.sprite(0, 0, 2, 3, 0, entry(4, 0, false, false, true), 0);
    let l0 = s.render(0);
    assert_eq!((l0[0], l0[7], l0[8], l0[15]), (1, 7, 1, 4));
    // vflip: line 0 shows the bottom cell row (6, 9).
    s.sprite(0, 0, 2, 3, 0, entry(4, 0, false, true, false), 0);
    let l0 = s.render(0);
    assert_eq!((l0[0], l0[8]), (6, 9));
}

#[test]
fn sprite_vflip_within_cell() {
    // Vertical flip also mirrors the rows inside each cell.
    let mut s = Scene::new(false);
    s.tile(1, [0x1111_1111, 0, 0, 0, 0, 0, 0, 0x2222_2222]);
    s.sprite(0, 0, 1, 1, 0, entry(1, 0, false, true, false), 0);
    assert_eq!(s.render(0)[0], 2);
    assert_eq!(s.render(7)[0], 1);
}

#[test]
fn sprite_per_line_count_limit_and_overflow() {
    // Plutiedev / genvdp.txt: 16 sprites per line in H32, 20 in H40; one more sets the
    // overflow flag (status bit 6) and is not drawn.
    for (h40, limit) in [(false, 16usize), (true, 20)] {
        let mut s = Scene::new(h40);
        s.solid(1, 1);
        for i in 0..=limit {
            let link = if i == limit { 0 } else { i as u16 + 1 };
            s.sprite(
                i,
                0,
                1,
                1,
                link,
                entry(1, 0, false, false, false),
                8 * i as i32 + 8,
            );
        }
        let (line, status) = s.render_field(0, false, if h40 { 320 } else { 256 });
        assert!(status.sprite_overflow);
        assert_eq!(line[8 * limit], 1); // the last one that fits
        assert_eq!(line[8 * limit + 8], BACKDROP); // the extra one
        // Exactly the limit: no overflow.
        s.sprite(
            limit - 1,
            0,
            1,
            1,
            0,
            entry(1, 0, false, false, false),
            8 * limit as i32,
        );
        assert!(!s.status(0).sprite_overflow);
    }
}

#[test]
fn sprite_pixel_limit_counts_offscreen_sprites() {
    // Nemesis (SpritesMind) / Plutiedev: at most 256 (H32) sprite pixels per line, counting
    // sprites off screen; once reached, later sprites are not drawn, and the sprite crossing the
    // limit is cut to the cells that fit. No overflow flag: fewer than 16 sprites.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    // 7 off-screen 32-px sprites (224 px) + one 24-px (248) + a 32-px one on screen at x 50.
    for i in 0..7 {
        s.sprite(
            i,
            0,
            4,
            1,
            i as u16 + 1,
            entry(1, 0, false, false, false),
            -100,
        );
    }
    s.sprite(7, 0, 3, 1, 8, entry(1, 0, false, false, false), -100);
    s.sprite(8, 0, 4, 1, 9, entry(1, 0, false, false, false), 50);
    s.sprite(9, 0, 1, 1, 0, entry(1, 0, false, false, false), 150);
    let (line, status) = s.render_field(0, false, 256);
    assert!(!status.sprite_overflow);
    // 248 + 32 > 256: only 8 pixels (1 cell) of sprite 8 are drawn.
    assert!(line[50..58].iter().all(|&p| p == 1));
    assert_eq!(line[58], BACKDROP);
    // Sprite 9 comes after the limit.
    assert_eq!(line[150], BACKDROP);
}

#[test]
fn sprite_masking_needs_an_earlier_nonzero_x() {
    // Nemesis's masking notes: a sprite with x = 0 (raw) hides the later sprites of the line,
    // but only if a sprite with x != 0 came before it on the line.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(2, 2);
    // x = 0 first: no masking.
    s.sprite_raw(0, 128, 1, 1, 1, entry(1, 0, false, false, false), 0);
    s.sprite(1, 0, 1, 1, 0, entry(2, 0, false, false, false), 40);
    assert_eq!(s.render(0)[40], 2);
    // x != 0, then x = 0, then another: the last one is masked, the first still shows.
    s.sprite(0, 0, 1, 1, 1, entry(1, 0, false, false, false), 20);
    s.sprite_raw(1, 128, 1, 1, 2, entry(1, 0, false, false, false), 0);
    s.sprite(2, 0, 1, 1, 0, entry(2, 0, false, false, false), 40);
    let line = s.render(0);
    assert_eq!(line[20], 1);
    assert_eq!(line[40], BACKDROP);
}

#[test]
fn sprite_masking_after_pixel_overflow_line() {
    // Nemesis: masking also applies at the start of a line when the previous line reached the
    // sprite pixel limit. Lines 0-7: eight 32-px sprites off screen (256 px, the H32 limit).
    // Lines 8-15: an x = 0 sprite then a visible one. Line 8 follows an overflowed line, so
    // the visible sprite is masked; line 9 follows line 8 (no overflow), so it shows.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    for i in 0..8 {
        s.sprite(
            i,
            0,
            4,
            1,
            i as u16 + 1,
            entry(1, 0, false, false, false),
            -100,
        );
    }
    s.sprite_raw(8, 128 + 8, 1, 1, 9, entry(1, 0, false, false, false), 0);
    s.sprite(9, 8, 1, 1, 0, entry(1, 0, false, false, false), 60);
    s.render(7);
    assert_eq!(s.render(8)[60], BACKDROP);
    assert_eq!(s.render(9)[60], 1);
}

#[test]
fn sprite_collision_flag() {
    // genvdp.txt status bit 5: set when two sprites' opaque pixels overlap; transparent pixels
    // don't collide.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.tile(2, [0xF000_0000; 8]); // only pixel 0 opaque
    s.sprite(0, 0, 1, 1, 1, entry(1, 0, false, false, false), 10);
    s.sprite(1, 0, 1, 1, 0, entry(2, 0, false, false, false), 19); // pixel 0 at x 19: clear
    assert!(!s.status(0).sprite_collision);
    s.sprite(1, 0, 1, 1, 0, entry(2, 0, false, false, false), 17); // pixel 0 at x 17: overlap
    assert!(s.status(0).sprite_collision);
    s.sprite(1, 0, 1, 1, 0, entry(2, 0, false, false, false), 3); // overlaps only transparent
    assert!(!s.status(0).sprite_collision);
}

// ---------------------------------------------------------------------------------------------
// Shadow / highlight

fn sh_scene() -> Scene {
    let mut s = Scene::new(false);
    s.regs[12] |= 0x08;
    for c in 1..16 {
        s.solid(c, c as u32);
    }
    s
}

#[test]
fn shadow_highlight_planes() {
    // Sega Retro "Shadow and highlight" / genvdp.txt: planes are shadowed unless plane A or B
    // has a high-priority tile there; the tile's priority counts even where its pixel is
    // transparent; the backdrop takes the same intensity.
    let mut s = sh_scene();
    s.tile(20, [0; 8]); // fully transparent pattern
    s.cell(PLANE_A, 0, 0, entry(3, 0, false, false, false)); // low A
    s.cell(PLANE_A, 0, 1, entry(3, 0, true, false, false)); // high A
    s.cell(PLANE_A, 0, 2, entry(3, 0, false, false, false)); // low A ...
    s.cell(PLANE_B, 0, 2, entry(20, 0, true, false, false)); // ... over a high, empty B
    // column 3: nothing (backdrop, low)
    let line = s.render(0);
    assert_eq!(line[0], 3 | INTENSITY_SHADOW);
    assert_eq!(line[8], 3 | INTENSITY_NORMAL);
    assert_eq!(line[16], 3 | INTENSITY_NORMAL);
    assert_eq!(line[24], BACKDROP | INTENSITY_SHADOW);
}

#[test]
fn shadow_highlight_sprites() {
    // Sega Retro: a low-priority sprite takes the planes' intensity, a high-priority one is
    // normal; colour 14 of palettes 0-2 is never shadowed.
    let mut s = sh_scene();
    s.sprite(0, 0, 1, 1, 1, entry(5, 1, false, false, false), 0); // low over shadowed bg
    s.sprite(1, 0, 1, 1, 2, entry(5, 1, true, false, false), 8); // high
    s.sprite(2, 0, 1, 1, 0, entry(14, 2, false, false, false), 16); // colour 14, palette 2
    let line = s.render(0);
    assert_eq!(line[0], px(1, 5) | INTENSITY_SHADOW);
    assert_eq!(line[8], px(1, 5) | INTENSITY_NORMAL);
    assert_eq!(line[16], px(2, 14) | INTENSITY_NORMAL);
}

#[test]
fn shadow_highlight_operators() {
    // Sega Retro / genvdp.txt: sprite pixels of palette 3 colour 15 shadow what is below them,
    // colour 14 highlights it; a shadowed pixel under the highlight operator returns to normal,
    // and shadow does not stack. The operator pixel itself is not drawn.
    let mut s = sh_scene();
    s.cell(PLANE_A, 0, 0, entry(3, 0, true, false, false)); // high A (normal)
    s.cell(PLANE_A, 0, 1, entry(3, 0, false, false, false)); // low A (shadowed)
    s.cell(PLANE_A, 0, 2, entry(3, 0, true, false, false));
    s.cell(PLANE_A, 0, 3, entry(3, 0, false, false, false));
    s.sprite(0, 0, 1, 1, 1, entry(15, 3, true, false, false), 0); // shadow op over normal
    s.sprite(1, 0, 1, 1, 2, entry(15, 3, true, false, false), 8); // shadow op over shadow
    s.sprite(2, 0, 1, 1, 3, entry(14, 3, true, false, false), 16); // highlight over normal
    s.sprite(3, 0, 1, 1, 0, entry(14, 3, true, false, false), 24); // highlight over shadow
    let line = s.render(0);
    assert_eq!(line[0], 3 | INTENSITY_SHADOW);
    assert_eq!(line[8], 3 | INTENSITY_SHADOW);
    assert_eq!(line[16], 3 | INTENSITY_HIGHLIGHT);
    assert_eq!(line[24], 3 | INTENSITY_NORMAL);
}

#[test]
fn operator_sprite_hides_sprites_behind_it() {
    // Sega Retro: sprites can't shadow/highlight other sprites; an operator pixel in front of
    // another sprite shows the plane (operated on) through it. Backdrop under low tiles is
    // shadowed; the highlight operator brings it back to normal.
    let mut s = sh_scene();
    s.sprite(0, 0, 1, 1, 1, entry(14, 3, false, false, false), 0);
    s.sprite(1, 0, 1, 1, 0, entry(5, 0, true, false, false), 0);
    assert_eq!(s.render(0)[0], BACKDROP | INTENSITY_NORMAL);
}

#[test]
fn low_operator_under_high_plane_has_no_effect() {
    // A low-priority operator sprite behind a high-priority plane pixel is not visible, so the
    // plane pixel shows at its own (normal) intensity.
    let mut s = sh_scene();
    s.cell(PLANE_A, 0, 0, entry(3, 0, true, false, false));
    s.sprite(0, 0, 1, 1, 0, entry(15, 3, false, false, false), 0);
    assert_eq!(s.render(0)[0], 3 | INTENSITY_NORMAL);
}

// ---------------------------------------------------------------------------------------------
// Interlace mode 2

#[test]
fn interlace_mode_2_cell_addressing() {
    // genvdp.txt "Interlace mode 2": cells are 8x16 (64 bytes), the pattern index is doubled
    // (address = index * 64), the even field shows even rows and the odd field odd rows:
    // field line y shows cell row 2*(y%8) + odd. Vertical flip mirrors all 16 rows.
    let mut s = Scene::new(false);
    s.regs[12] |= 0x06;
    // Pattern 1 in IM2 = bytes 64..128: row r has colour r (0-15) in every pixel.
    for r in 0..16u32 {
        let a = 64 + 4 * r as usize;
        s.vram[a..a + 4].copy_from_slice(&(r * 0x1111_1111).to_be_bytes());
    }
    s.cell(PLANE_B, 0, 0, entry(1, 0, false, false, false));
    s.cell(PLANE_B, 0, 1, entry(1, 0, false, true, false));
    let (even0, _) = s.render_field(0, false, 256);
    let (odd0, _) = s.render_field(0, true, 256);
    let (odd7, _) = s.render_field(7, true, 256);
    assert_eq!(even0[0], BACKDROP); // row 0 = colour 0
    assert_eq!(odd0[0], 1);
    assert_eq!(odd7[0], 15);
    assert_eq!(even0[8], 15); // vflip: row 15
    assert_eq!(odd0[8], 14);
}

#[test]
fn interlace_mode_2_sprites() {
    // In interlace mode 2 sprite cells are 8x16 too: pattern index * 64, rows interleaved by
    // field; Y is in double-resolution lines (256 = top of the screen).
    let mut s = Scene::new(false);
    s.regs[12] |= 0x06;
    for r in 0..16u32 {
        let a = 2 * 64 + 4 * r as usize;
        s.vram[a..a + 4].copy_from_slice(&(((r % 15) + 1) * 0x1111_1111).to_be_bytes());
    }
    s.sprite_raw(0, 256, 1, 1, 0, entry(2, 0, false, false, false), 128 + 16);
    let (odd0, _) = s.render_field(0, true, 256);
    let (even1, _) = s.render_field(1, false, 256);
    assert_eq!(odd0[16], 2); // row 1
    assert_eq!(even1[16], 3); // row 2
    let (even8, _) = s.render_field(8, false, 256);
    assert_eq!(even8[16], BACKDROP); // a 1-cell sprite is 8 field lines (16 frame lines) tall
}

// ---------------------------------------------------------------------------------------------
// Colour

#[test]
fn cram_packing_and_palette_mode() {
    // CRAM word ----bbb-ggg-rrr- packs to bbbgggrrr.
    assert_eq!(cram_to_pixel(0x0EEE), 0x1FF);
    assert_eq!(cram_to_pixel(0x0002), 0x001);
    assert_eq!(cram_to_pixel(0x0020), 0x008);
    assert_eq!(cram_to_pixel(0x0200), 0x040);
    // reg 0 bit 2 clear: only each channel's lowest bit reaches the output (Genesis Plus GX).
    let mut s = Scene::new(false);
    s.cram[0x21] = 0x0EEE;
    s.regs[0] = 0x00;
    assert_eq!(s.render(0)[0], 0x049);
}

#[test]
fn rgb888_levels_match_genesis_plus_gx_via_stable_retro() {
    // Derivation (see colour.rs): 4-bit level v = 2c normal, c shadow, c + 7 highlight;
    // RGB565 red/blue = v<<1 | v>>3, green = v<<2 | v>>2; RGB888 = r5<<3, g6<<2, b5<<3.
    // White (c = 7): normal v = 14 -> r5 = 29 -> 232, g6 = 59 -> 236.
    assert_eq!(to_rgb888(0x1FF), 0xE8_EC_E8);
    // Shadow white: v = 7 -> r5 = 14 -> 112, g6 = 29 -> 116.
    assert_eq!(to_rgb888(0x1FF | INTENSITY_SHADOW), 0x70_74_70);
    // Highlight white: v = 14, same as normal white.
    assert_eq!(to_rgb888(0x1FF | INTENSITY_HIGHLIGHT), 0xE8_EC_E8);
    // Highlight black: v = 7.
    assert_eq!(to_rgb888(INTENSITY_HIGHLIGHT), 0x70_74_70);
    assert_eq!(to_rgb888(0), 0);
    // Red 4: v = 8 -> r5 = 17 -> 136. Green 2: v = 4 -> g6 = 17 -> 68. Blue 1: v = 2 -> 4 -> 32.
    assert_eq!(to_rgb888(0x004), 0x88_00_00);
    assert_eq!(to_rgb888(0x010), 0x00_44_00);
    assert_eq!(to_rgb888(0x040), 0x00_00_20);
    // Highlight red 1: v = 8 -> 136, with green and blue 0 highlighted to v = 7 (116, 112).
    // Shadow green 3: v = 3 -> g6 = 12 -> 48.
    assert_eq!(to_rgb888(0x001 | INTENSITY_HIGHLIGHT), 0x88_74_70);
    assert_eq!(to_rgb888(0x018 | INTENSITY_SHADOW), 0x00_30_00);
    assert_eq!(to_rgb565(0x1FF), 0xEF7D);
}

// ---------------------------------------------------------------------------------------------
// Edge cases

#[test]
fn invalid_hscroll_mode_repeats_first_eight_entries() {
    // reg 11 bits 0-1 = 01 is listed as invalid in genvdp.txt; the VDP then indexes the table
    // with line & 7, so the first eight entries repeat down the screen (Genesis Plus GX).
    let mut s = Scene::new(false);
    numbered_row(&mut s, PLANE_A, 1);
    s.regs[11] = 0x01;
    s.hscroll(1, 8, 0);
    s.hscroll(9, 0, 0);
    // line 9 -> entry 1: scroll 8, x 0 shows cell 31.
    assert_eq!(s.render(9)[0], colour_of_cell(31));
}

#[test]
fn window_saturation_cases() {
    // DOWN set with WVP 0: every line is below line 0, so the whole screen is window.
    // RIGT set with WHP 0: the window starts at column 0 (whole line). RIGT clear with WHP past
    // the screen: the window covers the whole line.
    let mut s = Scene::new(false);
    s.solid(2, 2);
    for col in 0..32 {
        s.word(WINDOW + col * 2, entry(2, 0, false, false, false));
    }
    s.regs[18] = 0x80;
    assert!(s.render(0).iter().all(|&p| p == px(0, 2)));
    s.regs[18] = 0x00;
    s.regs[17] = 0x80;
    assert!(s.render(0).iter().all(|&p| p == px(0, 2)));
    s.regs[17] = 0x1F;
    assert!(s.render(0).iter().all(|&p| p == px(0, 2)));
    s.regs[17] = 0x00; // no window at all
    assert!(s.render(0).iter().all(|&p| p == BACKDROP));
}

#[test]
fn sprites_clip_at_screen_edges() {
    // Sprite x is screen x + 128 (genvdp.txt); a sprite partly left of the screen or past its
    // right edge shows only its visible pixels.
    let mut s = Scene::new(false);
    s.tile(1, [0x1234_5678; 8]);
    s.sprite(0, 0, 1, 1, 1, entry(1, 0, false, false, false), -3);
    s.sprite(1, 0, 1, 1, 0, entry(1, 0, false, false, false), 252);
    let line = s.render(0);
    assert_eq!(&line[0..5], &[4, 5, 6, 7, 8]);
    assert_eq!(line[5], BACKDROP);
    assert_eq!(&line[252..256], &[1, 2, 3, 4]);
}

#[test]
fn sprite_y_range_and_height() {
    // Sprite y is screen line + 128; an h-cell sprite covers 8h lines (patterns 1 and 2 here).
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(2, 1);
    s.sprite(0, 10, 1, 2, 0, entry(1, 0, false, false, false), 0);
    assert_eq!(s.render(9)[0], BACKDROP);
    assert_eq!(s.render(10)[0], 1);
    assert_eq!(s.render(25)[0], 1);
    assert_eq!(s.render(26)[0], BACKDROP);
}

#[test]
fn h40_sprite_table_ignores_reg5_bit0() {
    // genvdp.txt reg 5: in H40 the table is 1 KiB aligned, bit 0 (address bit 9) is ignored.
    let mut s = Scene::new(true);
    s.solid(1, 1);
    s.sprite(0, 0, 1, 1, 0, entry(1, 0, false, false, false), 0);
    s.regs[5] |= 0x01;
    assert_eq!(s.render(0)[0], 1);
}

#[test]
fn renderer_state_is_plain_data() {
    // The renderer is cloned into save states: the clone renders the same.
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.sprite(0, 0, 1, 1, 0, entry(1, 0, false, false, false), 5);
    let copy = s.renderer.clone();
    assert_eq!(copy, s.renderer);
    assert_eq!(s.render(0)[5], 1);
}

// ---------------------------------------------------------------------------------------------
// The renderer's caches (`cache`): whatever changes between two lines is seen on the second

#[test]
fn a_changed_sprite_table_palette_or_register_is_seen_on_the_next_line() {
    // One renderer draws every line, so its sprite walk and palette must follow each change
    // (genvdp.txt: the VDP reads the sprite list, CRAM and registers as the line is drawn).
    let mut s = Scene::new(false);
    s.solid(1, 1);
    s.solid(2, 2);
    s.sprite(0, 0, 1, 1, 0, entry(1, 0, false, false, false), 10);
    assert_eq!(s.render(0)[10], 1);
    // Moved right (X) and down (Y) in the table.
    s.sprite(0, 0, 1, 1, 0, entry(1, 0, false, false, false), 20);
    let line = s.render(0);
    assert_eq!((line[10], line[20]), (BACKDROP, 1));
    s.sprite(0, 5, 1, 1, 0, entry(1, 0, false, false, false), 20);
    assert_eq!(s.render(0)[20], BACKDROP);
    assert_eq!(s.render(5)[20], 1);
    // A second sprite linked after the first, then taller (size byte).
    s.sprite(0, 5, 1, 1, 1, entry(1, 0, false, false, false), 20);
    s.sprite(1, 5, 1, 1, 0, entry(2, 0, false, false, false), 40);
    assert_eq!(s.render(5)[40], 2);
    // Two cells high: the second cell row uses the next pattern (genvdp.txt).
    s.solid(3, 3);
    s.sprite(1, 5, 1, 2, 0, entry(2, 0, false, false, false), 40);
    assert_eq!(s.render(13)[40], 3);
    // Unlinked again: the list ends at entry 0.
    s.sprite(0, 5, 1, 1, 0, entry(1, 0, false, false, false), 20);
    assert_eq!(s.render(5)[40], BACKDROP);
    // Another table base (reg 5): an empty table there.
    s.regs[5] = ((SAT + 0x400) >> 9) as u8;
    assert_eq!(s.render(5)[20], BACKDROP);
    s.regs[5] = (SAT >> 9) as u8;
    assert_eq!(s.render(5)[20], 1);
    // H40 reads 80 entries from the same base: entry 70 linked from entry 0 shows.
    s.regs[12] = 0x81;
    s.sprite(0, 5, 1, 1, 70, entry(1, 0, false, false, false), 20);
    s.sprite(70, 5, 1, 1, 0, entry(2, 0, false, false, false), 300);
    assert_eq!(s.render(5)[300], 2);
    // In H32 the link 70 is past the 64-entry table and ends the list.
    s.regs[12] = 0x00;
    assert_eq!(s.render(5)[20], 1);
    s.regs[12] = 0x81;
    // CRAM: entry 1 now holds colour 0x1C0; with reg 0 bit 2 clear only each channel's LSB
    // passes (0x1C0 -> 0x040), as `colour::line_palette` documents.
    s.cram[1] = cram_word(0x1C0);
    assert_eq!(s.render(5)[20], 0x1C0);
    s.regs[0] &= !0x04;
    assert_eq!(s.render(5)[20], 0x040);
    s.regs[0] |= 0x04;
    assert_eq!(s.render(5)[20], 0x1C0);
    // Backdrop register.
    s.regs[7] = 0x22;
    assert_eq!(s.render(5)[0], 0x22);
}

/// A VDP in H32 with the scene's tables, the display and DMA on, CRAM entry `i` = colour `i`.
fn port_vdp() -> crate::vdp::Vdp {
    let mut v = crate::vdp::Vdp::new(false);
    let scene = Scene::new(false);
    v.regs = scene.regs;
    v.regs[1] = 0x54; // display, DMA, mode 5
    v.regs[15] = 2;
    v.cram = scene.cram;
    v.vram.copy_from_slice(&scene.vram);
    v
}

/// Sets up a VRAM copy (genvdp.txt "DMA": reg 23 = $C0, the source in regs 21-22, the length
/// in regs 19-20, the address step in reg 15 = 1), started by the next command with CD5 set.
fn set_vram_copy(v: &mut crate::vdp::Vdp, len: u16, source: u16) {
    v.regs[15] = 1;
    v.regs[19] = len as u8;
    v.regs[20] = (len >> 8) as u8;
    v.regs[21] = source as u8;
    v.regs[22] = (source >> 8) as u8;
    v.regs[23] = 0xC0;
}

fn command(v: &mut crate::vdp::Vdp, code: u16, addr: usize) -> crate::vdp::ports::PortEffect {
    v.write_control(((code & 3) << 14) | (addr as u16 & 0x3FFF), 0);
    v.write_control(((code & 0x3C) << 2) | (addr >> 14) as u16, 0)
}

fn line0(v: &mut crate::vdp::Vdp) -> Vec<Pixel> {
    v.render_line(0);
    v.drawing[..256].to_vec()
}

#[test]
fn writes_through_the_ports_and_dma_are_seen_on_the_next_line() {
    let mut v = port_vdp();
    for (i, b) in v.vram[32..64].iter_mut().enumerate() {
        *b = if i < 32 { 0x11 } else { 0 }; // pattern 1: colour 1
    }
    // Sprite 0 (1x1, pattern 1, link 0) at x = 10 on line 0, written through the data port.
    command(&mut v, 0x01, SAT);
    for w in [128u16, 0x0000, 0x0001, 128 + 10] {
        v.write_data(w, 0, false);
    }
    assert_eq!(line0(&mut v)[10], 1);
    // The data port moves it to x = 30.
    command(&mut v, 0x01, SAT + 6);
    v.write_data(128 + 30, 0, false);
    let line = line0(&mut v);
    assert_eq!((line[10], line[30]), (BACKDROP, 1));
    // A VRAM copy (genvdp.txt "DMA": CD5 with reg 23 = $C0, bytes from the source in regs
    // 21-22) brings in the entry kept at $9000: x = 50.
    v.vram[0x9000..0x9008].copy_from_slice(&[0, 128, 0, 0, 0, 1, 0, 128 + 50]);
    set_vram_copy(&mut v, 8, 0x9000);
    assert_eq!(
        command(&mut v, 0x30, SAT),
        crate::vdp::ports::PortEffect::StartDma
    );
    v.run_copy(8);
    let line = line0(&mut v);
    assert_eq!((line[30], line[50]), (BACKDROP, 1));
    // A CRAM fill (reg 23 = $80; the value comes through the data port) sets entry 1.
    v.regs[15] = 2;
    v.regs[19] = 1;
    v.regs[23] = 0x80;
    command(&mut v, 0x23, 2);
    let (_, effect) = v.write_data(cram_word(0x0C7), 0, false);
    assert_eq!(effect, crate::vdp::ports::PortEffect::StartDma);
    v.run_fill(1);
    assert_eq!(line0(&mut v)[50], 0x0C7);
    // A VRAM fill writes the high byte of the data port's word at the address ^ 1: x's
    // low byte becomes $96 (22 on screen).
    command(&mut v, 0x01, SAT + 6);
    v.fifo.push(0x9600);
    v.run_fill(1);
    let line = line0(&mut v);
    assert_eq!((line[50], line[22]), (BACKDROP, 0x0C7));
    // A bus DMA's runs: words through `write_targets`, then work RAM's bytes as they are.
    command(&mut v, 0x01, SAT + 6);
    v.write_targets(&[128 + 60]);
    let line = line0(&mut v);
    assert_eq!((line[22], line[60]), (BACKDROP, 0x0C7));
    command(&mut v, 0x01, SAT + 6);
    v.write_vram_bytes(&[0, 128 + 70]);
    let line = line0(&mut v);
    assert_eq!((line[60], line[70]), (BACKDROP, 0x0C7));
}

/// Pattern bytes written through each VRAM path of the VDP show in the planes on the next
/// line: the decoded pattern rows follow the blocks the write paths mark.
#[test]
fn pattern_writes_through_every_path_show_on_the_next_line() {
    use crate::vdp::ports::PortEffect;
    let mut v = port_vdp();
    // Every plane entry is 0: pattern 0's row 0 is pixels 0-7 of line 0.
    assert_eq!(line0(&mut v)[..8], [BACKDROP; 8]);
    let colours = |line: &[Pixel]| line[..8].to_vec();
    // The data port: bytes 0-1, pixels 0-3.
    command(&mut v, 0x01, 0);
    v.write_data(0x2222, 0, false);
    let b = BACKDROP;
    let (c2, c4, c5, c6, c7, c8) = (px(0, 2), px(0, 4), px(0, 5), px(0, 6), px(0, 7), px(0, 8));
    assert_eq!(colours(&line0(&mut v)), [c2, c2, c2, c2, b, b, b, b]);
    // A VRAM fill writes the data word's high byte at the address ^ 1: byte 2, pixels 4-5.
    command(&mut v, 0x01, 3);
    v.fifo.push(0x4400);
    v.run_fill(1);
    assert_eq!(colours(&line0(&mut v)), [c2, c2, c2, c2, c4, c4, b, b]);
    // A VRAM copy reads the source ^ 1 and writes the address ^ 1: $9001 to byte 0.
    v.vram[0x9001] = 0x55;
    set_vram_copy(&mut v, 1, 0x9000);
    assert_eq!(command(&mut v, 0x30, 1), PortEffect::StartDma);
    v.run_copy(1);
    assert_eq!(colours(&line0(&mut v)), [c5, c5, c2, c2, c4, c4, b, b]);
    // A bus DMA's runs: words through `write_targets` (bytes 2-3), then bytes as they are
    // (bytes 0-1).
    v.regs[15] = 2;
    command(&mut v, 0x01, 2);
    v.write_targets(&[0x6666]);
    assert_eq!(colours(&line0(&mut v)), [c5, c5, c2, c2, c6, c6, c6, c6]);
    command(&mut v, 0x01, 0);
    v.write_vram_bytes(&[0x77, 0x77]);
    assert_eq!(colours(&line0(&mut v)), [c7, c7, c7, c7, c6, c6, c6, c6]);
    // Written from outside, then announced.
    v.vram[3] = 0x88;
    v.vram_written();
    assert_eq!(colours(&line0(&mut v)), [c7, c7, c7, c7, c6, c6, c8, c8]);
}

/// A copy of a VDP that has drawn goes without the decoded pattern rows, the palette tables
/// and nothing else it needs: after VRAM and CRAM writes through the ports (which mark the
/// rows dirty in the original only since its last line) the copy draws the line the original
/// draws, and the scene's first pixels (pattern pixels of the scene, colour `i` = CRAM `i`).
#[test]
fn a_copy_draws_what_the_original_draws() {
    let mut v = port_vdp();
    let first = line0(&mut v);
    let mut copy = v.clone();
    assert_eq!(line0(&mut copy), first, "the copy decodes the rows again");
    // A pattern write and a CRAM write after the copy: both see them.
    for w in [&mut v, &mut copy] {
        command(w, 1, 0x20);
        w.write_data(0x1234, 0, false);
        command(w, 3, 2);
        w.write_data(0x0E0E, 0, false);
    }
    assert_eq!(line0(&mut copy), line0(&mut v));
    // A never-drawn VDP's frame reads black, its full size.
    let fresh = crate::vdp::Vdp::new(false);
    assert!(fresh.frame.is_empty());
    assert_eq!(fresh.frame_pixels().len(), crate::vdp::FRAME_PIXELS);
    assert!(fresh.frame_pixels().iter().all(|&p| p == 0));
}
