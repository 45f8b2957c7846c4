//! A seeded sweep of damaged movies, uninstrumented (the cargo-fuzz target `movie` is the
//! coverage-guided one): valid `.bk2` (stored and deflated entries, with and without a LogKey)
//! and `.gmv` files with random byte changes, insertions, deletions and truncations, read as a
//! `.bk2`, a `.gmv` and by signature. Nothing may panic; an error has a message; a movie that
//! reads exports to a `.bk2` that reads back to the same frames.
//!
//! 20,000 mutations by default (well under a second in release); `S2LAB_RANDOM_MOVIES=N[,SEED]`
//! runs N (docs/fuzzing.md).

use movie::{Format, bk2, gmv};

/// xorshift64*.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let info = bk2::ExportInfo {
        game_name: "Sonic".into(),
        sha1: Some("7b905383a4befd1a8f0bef6d9a6d5b1b7bad15d6".into()),
        emu_version: "test".into(),
    };
    let short = padscript::parse("R*3 RC . S UDLRABCS").unwrap();
    let long = padscript::parse("R*60 RC*30 . S*5 L*100 A B C").unwrap(); // deflated log
    let no_key = movie::zip::write(&[
        ("Header.txt", b"Platform GEN\nSHA1 00\n"),
        (
            "Input Log.txt",
            b"[Input]\n|..|U..R....|........|\n|..|.......S|........|\n",
        ),
    ]);
    vec![
        bk2::write(&short, &info),
        bk2::write(&long, &info),
        no_key,
        gmv::write(&short, "seed"),
    ]
}

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut m = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(5) {
            0 | 1 => {
                if !m.is_empty() {
                    let at = rng.below(m.len());
                    m[at] = rng.next() as u8;
                }
            }
            2 => {
                let at = rng.below(m.len() + 1);
                m.insert(at, rng.next() as u8);
            }
            3 => {
                if !m.is_empty() {
                    let at = rng.below(m.len());
                    m.remove(at);
                }
            }
            _ => {
                let keep = rng.below(m.len() + 1);
                m.truncate(keep);
            }
        }
    }
    m
}

#[test]
fn damaged_movies_never_panic() {
    let spec = std::env::var("S2LAB_RANDOM_MOVIES").unwrap_or_default();
    let mut parts = spec.split(',');
    let count: u64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let seed: u64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = Rng(seed.max(1));
    let seeds = seeds();
    let (mut ok, mut refused) = (0u64, 0u64);
    for i in 0..count {
        let data = mutate(&mut rng, &seeds[(i % seeds.len() as u64) as usize]);
        for format in [None, Some(Format::Bk2), Some(Format::Gmv)] {
            match movie::read(&data, format) {
                Ok(m) => {
                    ok += 1;
                    let again = bk2::write(&m.frames, &bk2::ExportInfo::default());
                    assert_eq!(movie::read(&again, None).unwrap().frames, m.frames);
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.message.is_empty(), "mutation {i}");
                }
            }
        }
    }
    eprintln!("{count} damaged movies, 3 readings each: {ok} read, {refused} refused");
    assert!(ok > 0 && refused > 0);
}
