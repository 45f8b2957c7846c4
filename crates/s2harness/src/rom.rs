//! ROM files: sanity checks, the cartridge header, and identification against `roms.toml`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use serde::Deserialize;
use sha1::{Digest, Sha1};

/// The largest cartridge the Mega Drive maps without a bank switcher (and what the
/// emulator's SSF2 mapper covers beyond that is not needed by any known Sonic 2 ROM).
pub const MAX_ROM_BYTES: usize = 4 * 1024 * 1024;
/// Vectors ($000-$0FF) and header ($100-$1FF): a file shorter than this cannot boot.
pub const HEADER_END: usize = 0x200;

/// Why a file cannot be a Mega Drive ROM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RomError {
    Empty,
    TooLarge { bytes: usize },
    OddLength { bytes: usize },
    TooSmall { bytes: usize },
}

impl fmt::Display for RomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RomError::Empty => write!(f, "the file is empty"),
            RomError::TooLarge { bytes } => write!(
                f,
                "the file is {bytes} bytes, larger than the largest Mega Drive ROM ({MAX_ROM_BYTES} bytes, 4 MiB)"
            ),
            RomError::OddLength { bytes } => write!(
                f,
                "the file is {bytes} bytes, not a whole number of 2-byte words (the 68000 bus is 16 bits wide)"
            ),
            RomError::TooSmall { bytes } => write!(
                f,
                "the file is {bytes} bytes, too small to hold the 68000 vectors and the cartridge header ({HEADER_END} bytes)"
            ),
        }
    }
}

impl std::error::Error for RomError {}

/// The cartridge header at $100-$1FF, as text fields (trailing spaces trimmed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub system: String,
    pub copyright: String,
    pub title_domestic: String,
    pub title_overseas: String,
    pub serial: String,
    pub checksum: u16,
    pub io_support: String,
    pub region: String,
}

fn text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            0 => ' ',
            0x20..0x7F => b as char,
            _ => '.',
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

impl Header {
    fn parse(rom: &[u8]) -> Header {
        Header {
            system: text(&rom[0x100..0x110]),
            copyright: text(&rom[0x110..0x120]),
            title_domestic: text(&rom[0x120..0x150]),
            title_overseas: text(&rom[0x150..0x180]),
            serial: text(&rom[0x180..0x18E]),
            checksum: u16::from_be_bytes([rom[0x18E], rom[0x18F]]),
            io_support: text(&rom[0x190..0x1A0]),
            region: text(&rom[0x1F0..0x1F3]),
        }
    }
}

/// A file that passed the checks: its bytes, hash, header and any warnings.
#[derive(Debug, Clone)]
pub struct RomImage {
    pub bytes: Vec<u8>,
    pub sha1: String,
    pub header: Header,
    pub warnings: Vec<String>,
}

impl RomImage {
    /// Checks that `bytes` can be a Mega Drive ROM. A missing "SEGA" at $100 is only a warning:
    /// some cartridges omit it and run on consoles without TMSS.
    pub fn new(bytes: Vec<u8>) -> Result<RomImage, RomError> {
        let n = bytes.len();
        if n == 0 {
            return Err(RomError::Empty);
        }
        if n > MAX_ROM_BYTES {
            return Err(RomError::TooLarge { bytes: n });
        }
        if !n.is_multiple_of(2) {
            return Err(RomError::OddLength { bytes: n });
        }
        if n < HEADER_END {
            return Err(RomError::TooSmall { bytes: n });
        }
        let header = Header::parse(&bytes);
        let mut warnings = Vec::new();
        if !bytes[0x100..0x110].windows(4).any(|w| w == b"SEGA") {
            warnings.push(format!(
                "no \"SEGA\" in the system field at $100 (found {:?}): a console with TMSS would not start it",
                header.system
            ));
        }
        Ok(RomImage {
            sha1: sha1_hex(&bytes),
            bytes,
            header,
            warnings,
        })
    }

    /// The known ROM this is, if any.
    pub fn known(&self) -> Option<&'static KnownRom> {
        RomDb::builtin().by_sha1(&self.sha1)
    }
}

/// Lower-case hex SHA-1 of `bytes`.
pub fn sha1_hex(bytes: &[u8]) -> String {
    Sha1::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One known Sonic 2 revision, from `roms.toml`.
#[derive(Debug, Clone, Deserialize)]
pub struct KnownRom {
    pub id: String,
    pub revision: String,
    pub no_intro_name: String,
    pub size: usize,
    pub sha1: String,
    pub symbols: BTreeMap<String, u32>,
}

impl KnownRom {
    /// The address of a symbol; the names are the disassembly's.
    pub fn symbol(&self, name: &str) -> Option<u32> {
        self.symbols.get(name).copied()
    }
}

/// The contents of `roms.toml`.
#[derive(Debug, Clone, Deserialize)]
pub struct RomDb {
    #[serde(rename = "rom")]
    pub roms: Vec<KnownRom>,
}

/// `roms.toml` is part of the program: compiled in, so a user's working directory never matters.
const ROMS_TOML: &str = include_str!("../../../roms.toml");

impl RomDb {
    pub fn parse(text: &str) -> Result<RomDb, String> {
        toml::from_str(text).map_err(|e| format!("roms.toml: {e}"))
    }

    pub fn builtin() -> &'static RomDb {
        static DB: OnceLock<RomDb> = OnceLock::new();
        DB.get_or_init(|| RomDb::parse(ROMS_TOML).expect("the bundled roms.toml parses (tested)"))
    }

    pub fn by_sha1(&self, sha1: &str) -> Option<&KnownRom> {
        self.roms.iter().find(|r| r.sha1.eq_ignore_ascii_case(sha1))
    }

    pub fn by_id(&self, id: &str) -> Option<&KnownRom> {
        self.roms.iter().find(|r| r.id == id)
    }

    /// "Rev 00 (14dd06fc…), Rev A (…), Rev B (…)": for messages refusing an unknown ROM.
    pub fn describe_known(&self) -> String {
        self.roms
            .iter()
            .map(|r| format!("{} \"{}\" (SHA-1 {})", r.revision, r.no_intro_name, r.sha1))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Refuses a ROM that is not a known Sonic 2 revision, naming the ones that are.
pub fn require_known(rom: &RomImage) -> Result<&'static KnownRom, String> {
    rom.known().ok_or_else(|| {
        format!(
            "this ROM (SHA-1 {}) is not a known Sonic the Hedgehog 2 revision; the Sonic 2 features need one of: {}",
            rom.sha1,
            RomDb::builtin().describe_known()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal image: `n` bytes with "SEGA MEGA DRIVE" at $100 when `sega`.
    fn image(n: usize, sega: bool) -> Vec<u8> {
        let mut v = vec![0u8; n];
        if sega && n >= 0x110 {
            v[0x100..0x10F].copy_from_slice(b"SEGA MEGA DRIVE");
        }
        v
    }

    #[test]
    fn rejects_empty_large_odd_and_tiny_files() {
        assert_eq!(RomImage::new(vec![]).unwrap_err(), RomError::Empty);
        assert_eq!(
            RomImage::new(image(MAX_ROM_BYTES + 2, true)).unwrap_err(),
            RomError::TooLarge {
                bytes: MAX_ROM_BYTES + 2
            }
        );
        assert_eq!(
            RomImage::new(image(0x401, true)).unwrap_err(),
            RomError::OddLength { bytes: 0x401 }
        );
        assert_eq!(
            RomImage::new(image(0x100, true)).unwrap_err(),
            RomError::TooSmall { bytes: 0x100 }
        );
        assert!(
            RomError::OddLength { bytes: 3 }
                .to_string()
                .contains("2-byte words")
        );
    }

    #[test]
    fn accepts_exactly_4_mib_and_warns_without_sega() {
        let ok = RomImage::new(image(MAX_ROM_BYTES, true)).unwrap();
        assert!(ok.warnings.is_empty());
        assert_eq!(ok.header.system, "SEGA MEGA DRIVE");
        let warned = RomImage::new(image(0x200, false)).unwrap();
        assert_eq!(warned.warnings.len(), 1);
        assert!(warned.warnings[0].contains("SEGA"));
        assert!(warned.known().is_none());
    }

    #[test]
    fn sha1_of_known_strings() {
        // FIPS 180-1 appendix A test vector.
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }

    #[test]
    fn bundled_roms_toml_lists_the_three_revisions() {
        let db = RomDb::builtin();
        let ids: Vec<_> = db.roms.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["rev00", "reva", "revb"]);
        let revb = db
            .by_sha1("2AF1003247AEC262089C8DF22D05E80D04A1B5E4")
            .unwrap();
        assert_eq!(revb.revision, "Rev B");
        // The RAM map moved above $FFFF60 in Rev B (s2-symbols.json).
        assert_eq!(
            db.by_id("reva").unwrap().symbol("Player_option"),
            Some(0xFFFF72)
        );
        assert_eq!(revb.symbol("Player_option"), Some(0xFFFF7C));
        assert_eq!(revb.symbol("Game_Mode"), Some(0xFFF600));
        let unknown = RomImage::new(image(0x200, true)).unwrap();
        let msg = require_known(&unknown).unwrap_err();
        assert!(msg.contains("Rev 00") && msg.contains("Rev A") && msg.contains("Rev B"));
    }
}
