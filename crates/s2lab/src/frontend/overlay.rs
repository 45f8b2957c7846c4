//! The lab overlay: Sonic's fields as the game holds them, read each frame from work RAM at the
//! addresses `roms.toml` gives for the revision (the harness's symbols), drawn over the picture
//! with the built-in font. Any other cartridge gets the console's frame and input only.

use megadrive::Machine;
use s2harness::rom::KnownRom;

use super::font::{CELL_H, CELL_W, Canvas};

/// Addresses of the fields shown, for one revision.
#[derive(Clone, Debug)]
pub struct Symbols {
    revision: String,
    sst: u32,
    x_pos: u32,
    x_sub: u32,
    y_pos: u32,
    y_sub: u32,
    x_vel: u32,
    y_vel: u32,
    inertia: u32,
    angle: u32,
    status: u32,
    routine: u32,
    anim: u32,
    anim_frame: u32,
    level_frame_counter: u32,
    ctrl_1: u32,
}

impl Symbols {
    /// `None` when the revision lacks one of the symbols (never for the bundled roms.toml).
    pub fn resolve(rom: &KnownRom) -> Option<Symbols> {
        let s = |n: &str| rom.symbol(n);
        Some(Symbols {
            revision: rom.revision.clone(),
            sst: s("MainCharacter")?,
            x_pos: s("x_pos")?,
            x_sub: s("x_sub")?,
            y_pos: s("y_pos")?,
            y_sub: s("y_sub")?,
            x_vel: s("x_vel")?,
            y_vel: s("y_vel")?,
            inertia: s("inertia")?,
            angle: s("angle")?,
            status: s("status")?,
            routine: s("routine")?,
            anim: s("anim")?,
            anim_frame: s("anim_frame")?,
            level_frame_counter: s("Level_frame_counter")?,
            ctrl_1: s("Ctrl_1")?,
        })
    }
}

/// Signed 16-bit as `+$0600` / `-$0680`.
fn signed_hex(v: u16) -> String {
    let v = v as i16;
    let sign = if v < 0 { '-' } else { '+' };
    format!("{sign}${:04X}", v.unsigned_abs())
}

/// Sonic's status bits as letters (disassembly `status` bits 0-6): facing Left, in Air,
/// Spinning, On object, roll-Jump, Pushing, under Water; `.` when clear.
fn status_letters(s: u8) -> String {
    "LASOJPW"
        .chars()
        .enumerate()
        .map(|(i, c)| if s & (1 << i) != 0 { c } else { '.' })
        .collect()
}

/// The pad mask as held letters (`megadrive::buttons` order), `.` for nothing.
pub fn pad_letters(pad: u16) -> String {
    const NAMES: [(u16, char); 12] = [
        (megadrive::buttons::UP, 'U'),
        (megadrive::buttons::DOWN, 'D'),
        (megadrive::buttons::LEFT, 'L'),
        (megadrive::buttons::RIGHT, 'R'),
        (megadrive::buttons::A, 'A'),
        (megadrive::buttons::B, 'B'),
        (megadrive::buttons::C, 'C'),
        (megadrive::buttons::START, 'S'),
        (megadrive::buttons::X, 'X'),
        (megadrive::buttons::Y, 'Y'),
        (megadrive::buttons::Z, 'Z'),
        (megadrive::buttons::MODE, 'M'),
    ];
    let s: String = NAMES
        .iter()
        .filter(|(m, _)| pad & m != 0)
        .map(|(_, c)| *c)
        .collect();
    if s.is_empty() { ".".into() } else { s }
}

/// The overlay's lines for this frame. `input` is what pad 1 held during it.
pub fn lines(m: &Machine, sym: Option<&Symbols>, input: u16) -> Vec<String> {
    let mut out = Vec::new();
    let Some(s) = sym else {
        out.push(format!(
            "FRAME {}  IN {}",
            m.frame_count,
            pad_letters(input)
        ));
        out.push("(NOT A KNOWN SONIC 2 REVISION: NO FIELDS)".into());
        return out;
    };
    let o = |off: u32| s.sst + off;
    let u16_at = |a: u32| m.read_u16(a);
    out.push(format!(
        "SONIC 2 {}  FRAME {}  LVL {}",
        s.revision.to_uppercase(),
        m.frame_count,
        u16_at(s.level_frame_counter)
    ));
    out.push(format!(
        "X ${:04X}.{:04X}  Y ${:04X}.{:04X}",
        u16_at(o(s.x_pos)),
        u16_at(o(s.x_sub)),
        u16_at(o(s.y_pos)),
        u16_at(o(s.y_sub))
    ));
    out.push(format!(
        "XV {}  YV {}  INR {}",
        signed_hex(u16_at(o(s.x_vel))),
        signed_hex(u16_at(o(s.y_vel))),
        signed_hex(u16_at(o(s.inertia)))
    ));
    let status = m.read_u8(o(s.status));
    out.push(format!(
        "ANG ${:02X}  ST ${:02X} {}  RT ${:02X}",
        m.read_u8(o(s.angle)),
        status,
        status_letters(status),
        m.read_u8(o(s.routine))
    ));
    out.push(format!(
        "ANIM ${:02X}:{:02X}  IN {}  CTRL ${:02X}",
        m.read_u8(o(s.anim)),
        m.read_u8(o(s.anim_frame)),
        pad_letters(input),
        m.read_u8(s.ctrl_1)
    ));
    out
}

/// Draws the lines in the picture's top-left corner on a darkened box.
pub fn draw(canvas: &mut Canvas<'_>, lines: &[String]) {
    let w = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) * CELL_W + 3;
    let h = lines.len() * CELL_H + 3;
    canvas.shade(0, 0, w, h);
    for (i, l) in lines.iter().enumerate() {
        canvas.text(2, 2 + i * CELL_H, l, 0xFFFF60);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(signed_hex(0x0600), "+$0600");
        assert_eq!(signed_hex(0xF980), "-$0680");
        assert_eq!(status_letters(0x06), ".AS....");
        assert_eq!(pad_letters(0), ".");
        assert_eq!(
            pad_letters(megadrive::buttons::RIGHT | megadrive::buttons::C),
            "RC"
        );
    }

    #[test]
    fn every_known_revision_has_the_fields() {
        for rom in &s2harness::rom::RomDb::builtin().roms {
            let s = Symbols::resolve(rom).expect(&rom.revision);
            assert_eq!(s.sst, 0xFFB000);
        }
    }
}
