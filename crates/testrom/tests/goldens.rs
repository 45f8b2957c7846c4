//! Runs the test ROM in our emulator and compares the golden frames recorded with Genesis
//! Plus GX (`goldens/manifest.json`, recorded by `tools/goldens/record.py`) pixel-exact.
//!
//! Frame N is the picture after the N-th `Machine::run_frame` from power-on, the way the
//! recorder counts `step()`s; the pad input of frame N is set before that frame runs. Both
//! emulators start a frame at the first line of vertical blanking, so "frame N" is the same
//! span of emulated time in both.
//!
//! Every golden must match exactly, except the frames listed in
//! `goldens/known_mismatches.json` (known emulation gaps, each with the reason): those are
//! still compared and reported, and the test fails if one of them starts matching, so the
//! list cannot go stale.
//!
//! With `TESTROM_DUMP=DIR` set, our version of every mismatching frame is written to DIR as
//! a PPM, to look at beside the golden PNG.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

use megadrive::io::buttons;
use megadrive::machine::{Machine, Options};
use serde_json::Value;
use sha1::{Digest, Sha1};

fn goldens_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens")
}

/// An 8-bit RGB image as 0x00RRGGBB.
struct Image {
    width: usize,
    height: usize,
    pixels: Vec<u32>,
}

/// Decodes the PNGs the recorder writes: 8-bit RGB or RGBA, not interlaced (Pillow's
/// output for an RGB array). Enough of PNG to avoid a dependency.
fn decode_png(bytes: &[u8]) -> Result<Image, String> {
    const SIG: &[u8] = b"\x89PNG\r\n\x1a\n";
    if !bytes.starts_with(SIG) {
        return Err("not a PNG".into());
    }
    let mut pos = SIG.len();
    let (mut width, mut height, mut channels) = (0usize, 0usize, 0usize);
    let mut idat = Vec::new();
    while pos + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        let kind = &bytes[pos + 4..pos + 8];
        let data = bytes.get(pos + 8..pos + 8 + len).ok_or("truncated chunk")?;
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                height = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                let (depth, colour, interlace) = (data[8], data[9], data[12]);
                channels = match (depth, colour, interlace) {
                    (8, 2, 0) => 3,
                    (8, 6, 0) => 4,
                    _ => {
                        return Err(format!(
                            "unsupported PNG: depth {depth} colour type {colour} interlace {interlace}"
                        ));
                    }
                };
            }
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        pos += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .map_err(|e| format!("inflate: {e}"))?;
    let stride = width * channels;
    if raw.len() != height * (stride + 1) {
        return Err(format!(
            "image data is {} bytes, expected {}",
            raw.len(),
            height * (stride + 1)
        ));
    }
    let mut prev = vec![0u8; stride];
    let mut pixels = Vec::with_capacity(width * height);
    for y in 0..height {
        let filter = raw[y * (stride + 1)];
        let mut line = raw[y * (stride + 1) + 1..(y + 1) * (stride + 1)].to_vec();
        for i in 0..stride {
            let a = if i >= channels {
                line[i - channels] as i16
            } else {
                0
            };
            let b = prev[i] as i16;
            let c = if i >= channels {
                prev[i - channels] as i16
            } else {
                0
            };
            let predictor = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => (a + b) / 2,
                4 => {
                    let p = a + b - c;
                    let (pa, pb, pc) = ((p - a).abs(), (p - b).abs(), (p - c).abs());
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => return Err(format!("bad filter {f} on row {y}")),
            };
            line[i] = line[i].wrapping_add(predictor as u8);
        }
        for px in line.chunks_exact(channels) {
            pixels.push(u32::from(px[0]) << 16 | u32::from(px[1]) << 8 | u32::from(px[2]));
        }
        prev = line;
    }
    Ok(Image {
        width,
        height,
        pixels,
    })
}

/// Our frame as 0x00RRGGBB, cropped to the golden's size.
fn our_frame(m: &Machine, width: usize, height: usize) -> Option<Vec<u32>> {
    let view = m.frame_buffer();
    if view.width < width || view.height < height {
        return None;
    }
    let rgb = view.to_rgb();
    Some(
        (0..height)
            .flat_map(|y| rgb[y * view.width..y * view.width + width].iter().copied())
            .collect(),
    )
}

/// Differing pixels and the first one, in row order.
fn compare(ours: &[u32], golden: &Image) -> (usize, Option<(usize, usize, u32, u32)>) {
    let mut count = 0;
    let mut first = None;
    for (i, (&o, &g)) in ours.iter().zip(&golden.pixels).enumerate() {
        if o != g {
            count += 1;
            first.get_or_insert((i % golden.width, i / golden.width, o, g));
        }
    }
    (count, first)
}

/// Writes our frame as a binary PPM (for looking at a mismatch: `TESTROM_DUMP=DIR`).
fn write_ppm(path: &Path, pixels: &[u32], width: usize, height: usize) {
    let mut out = format!("P6\n{width} {height}\n255\n").into_bytes();
    for &p in pixels {
        out.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
    }
    if let Err(e) = std::fs::write(path, out) {
        eprintln!("write {}: {e}", path.display());
    }
}

fn button_bit(name: &str) -> u16 {
    match name {
        "UP" => buttons::UP,
        "DOWN" => buttons::DOWN,
        "LEFT" => buttons::LEFT,
        "RIGHT" => buttons::RIGHT,
        "A" => buttons::A,
        "B" => buttons::B,
        "C" => buttons::C,
        "START" => buttons::START,
        "X" => buttons::X,
        "Y" => buttons::Y,
        "Z" => buttons::Z,
        "MODE" => buttons::MODE,
        other => panic!("manifest names an unknown button {other:?}"),
    }
}

struct Golden {
    frame: u64,
    scene: String,
    image: Image,
}

#[test]
fn golden_frames_match_genesis_plus_gx() {
    let dir = goldens_dir();
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("manifest.json")).expect("read goldens/manifest.json"),
    )
    .expect("parse manifest.json");
    let known: BTreeMap<u64, String> =
        match std::fs::read_to_string(dir.join("known_mismatches.json")) {
            Ok(text) => serde_json::from_str::<Value>(&text).expect("parse known_mismatches.json")
                ["frames"]
                .as_object()
                .map(|o| {
                    o.iter()
                        .map(|(k, v)| {
                            (
                                k.parse().expect("frame number"),
                                v.as_str().unwrap_or("").to_string(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default(),
            Err(_) => BTreeMap::new(),
        };

    // Goldens belong to one build of the ROM: after an edit of src/asm they must be recorded
    // again (tools/goldens/record.py), or every scene after the edit would be compared with
    // pictures of different code.
    let recorded = manifest["recorded_with"]["rom_sha1"].as_str().unwrap_or("");
    let built: String = Sha1::digest(testrom::rom())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        built, recorded,
        "the test ROM changed since the goldens were recorded: re-record them with the command \
         in goldens/manifest.json (recorded_with.command)"
    );

    let mut goldens = Vec::new();
    for g in manifest["goldens"].as_array().expect("goldens array") {
        let file = g["file"].as_str().expect("file");
        let image = decode_png(&std::fs::read(dir.join(file)).expect("read golden PNG"))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        goldens.push(Golden {
            frame: g["frame"].as_u64().expect("frame"),
            scene: g["scene"].as_str().unwrap_or("").to_string(),
            image,
        });
    }
    let inputs: Vec<(u64, u64, usize, u16)> = manifest["input"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    let mask = e["buttons"]
                        .as_array()
                        .expect("buttons")
                        .iter()
                        .map(|b| button_bit(b.as_str().expect("button name")))
                        .fold(0, |m, b| m | b);
                    (
                        e["first"].as_u64().expect("first"),
                        e["last"].as_u64().expect("last"),
                        e["port"].as_u64().unwrap_or(0) as usize,
                        mask,
                    )
                })
                .collect()
        })
        .unwrap_or_default();

    // The recording used Genesis Plus GX's default pads, which Options::default() mirrors.
    let mut m = Machine::new(testrom::rom().to_vec(), Options::default()).expect("load test ROM");
    // Our frames N - 1, N and N + 1 for every golden N: the neighbours tell a frame
    // misalignment apart from a rendering fault.
    let wanted: BTreeMap<u64, (usize, usize)> = goldens
        .iter()
        .flat_map(|g| {
            let size = (g.image.width, g.image.height);
            [(g.frame - 1, size), (g.frame, size), (g.frame + 1, size)]
        })
        .collect();
    let last = wanted.keys().max().copied().unwrap_or(0);
    let mut ours: BTreeMap<u64, Option<Vec<u32>>> = BTreeMap::new();
    for frame in 1..=last {
        for port in 0..2 {
            let mask = inputs
                .iter()
                .filter(|&&(first, last, p, _)| p == port && (first..=last).contains(&frame))
                .fold(0, |m, &(.., b)| m | b);
            m.set_pad(port, mask);
        }
        m.run_frame();
        if let Some(&(w, h)) = wanted.get(&frame) {
            ours.insert(frame, our_frame(&m, w, h));
        }
    }

    let mut report = String::new();
    let mut failures = Vec::new();
    let (mut passed, mut known_failed) = (0, 0);
    for g in &goldens {
        let frame = g.frame;
        let label = format!("frame {frame:4} {:28}", g.scene);
        let is_known = known.contains_key(&frame);
        let Some(Some(this)) = ours.get(&frame) else {
            let _ = writeln!(
                report,
                "{label} our frame is smaller than the golden's {}x{}",
                g.image.width, g.image.height
            );
            failures.push(frame);
            continue;
        };
        let (count, first) = compare(this, &g.image);
        if count == 0 {
            passed += 1;
            let _ = writeln!(report, "{label} ok");
            if is_known {
                let _ = writeln!(
                    report,
                    "{label} matches now: remove it from known_mismatches.json"
                );
                failures.push(frame);
            }
            continue;
        }
        if let Some(dir) = std::env::var_os("TESTROM_DUMP") {
            let path = Path::new(&dir).join(format!("frame{frame:04}_ours.ppm"));
            write_ppm(&path, this, g.image.width, g.image.height);
            let _ = writeln!(report, "{label} our frame written to {}", path.display());
        }
        let (x, y, o, gp) = first.expect("a difference");
        let mut line = format!(
            "{label} {count} pixels differ, first at ({x}, {y}): ours #{o:06X}, golden #{gp:06X}"
        );
        let matches = |n: u64| matches!(ours.get(&n), Some(Some(f)) if compare(f, &g.image).0 == 0);
        if matches(frame - 1) {
            line.push_str("; our frame N-1 matches it (we are a frame early)");
        } else if matches(frame + 1) {
            line.push_str("; our frame N+1 matches it (we are a frame late)");
        }
        if is_known {
            known_failed += 1;
            let _ = write!(line, " [known: {}]", known[&frame]);
        } else {
            failures.push(frame);
        }
        let _ = writeln!(report, "{line}");
    }
    println!("{report}");
    println!(
        "goldens: {passed} match, {known_failed} known mismatches, {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "golden frames that fail: {failures:?}\n{report}"
    );
}
