//! The part of the zip format a `.bk2` needs (PKWARE's APPNOTE.TXT, sections 4.3.7 local file
//! header, 4.3.12 central directory header, 4.3.16 end of central directory record): entries
//! found through the central directory, stored (method 0) or deflated (method 8), each checked
//! against its CRC-32. Not supported, with a message saying so: zip64, encryption, archives
//! split over several disks, other compression methods. Writing stores small entries and
//! deflates the others, with a fixed time stamp (1980-01-01 00:00), so the same movie always
//! gives the same bytes.

use std::io::{Read, Write};

use crate::MovieError;

const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;
/// Fixed sizes of the three records.
const LOCAL_LEN: usize = 30;
const CENTRAL_LEN: usize = 46;
const END_LEN: usize = 22;
/// The largest entry s2lab inflates: far above any input log (a million frames of a
/// two-pad log is about 40 MB) and a bound on what a hostile archive can make us allocate.
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;
/// Entries up to this size are written stored, larger ones deflated.
const STORE_AT_MOST: usize = 4096;
/// MS-DOS date of 1980-01-01 (day 1, month 1, year 0): the stamp written on every entry.
const DOS_DATE_1980: u16 = (1 << 5) | 1;

/// One entry as the central directory describes it.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    flags: u16,
    method: u16,
    crc: u32,
    compressed: u64,
    size: u64,
    local_offset: u64,
}

/// A zip archive in memory.
pub struct Archive<'a> {
    data: &'a [u8],
    pub entries: Vec<Entry>,
}

fn u16_at(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(d.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(d.get(at..at + 4)?.try_into().ok()?))
}

fn zip_err(message: impl Into<String>) -> MovieError {
    MovieError::at("zip", message)
}

impl<'a> Archive<'a> {
    /// Reads the central directory.
    pub fn open(data: &'a [u8]) -> Result<Archive<'a>, MovieError> {
        if !data.starts_with(b"PK") {
            return Err(MovieError::new(
                "not a zip archive (a .bk2 is one; it starts with 'PK')",
            ));
        }
        // The end record is the last 22 bytes plus a comment of up to 65,535 bytes.
        let lowest = data.len().saturating_sub(END_LEN + 0xFFFF);
        let end = (lowest..=data.len().saturating_sub(END_LEN))
            .rev()
            .find(|&at| {
                u32_at(data, at) == Some(END_SIG)
                    && u16_at(data, at + 20)
                        .is_some_and(|c| at + END_LEN + c as usize <= data.len())
            })
            .ok_or_else(|| {
                zip_err("no end-of-central-directory record (the archive is truncated)")
            })?;
        let field = |off: usize| u16_at(data, end + off).unwrap_or(0);
        let (disk, cd_disk, count_here, count) = (field(4), field(6), field(8), field(10));
        let cd_size = u32_at(data, end + 12).unwrap_or(0);
        let cd_offset = u32_at(data, end + 16).unwrap_or(0);
        if count == 0xFFFF || cd_size == u32::MAX || cd_offset == u32::MAX {
            return Err(zip_err("a zip64 archive (not supported)"));
        }
        if disk != 0 || cd_disk != 0 || count_here != count {
            return Err(zip_err(
                "an archive split over several disks (not supported)",
            ));
        }
        let cd_end = cd_offset as usize + cd_size as usize;
        if cd_end > end {
            return Err(zip_err(format!(
                "the central directory (offset {cd_offset}, {cd_size} bytes) lies outside the \
                 archive's {} bytes",
                end
            )));
        }
        let mut entries = Vec::with_capacity(count as usize);
        let mut at = cd_offset as usize;
        for i in 0..count {
            let bad = |what: &str| zip_err(format!("central directory entry {}: {what}", i + 1));
            if at + CENTRAL_LEN > cd_end || u32_at(data, at) != Some(CENTRAL_SIG) {
                return Err(bad("missing or cut short"));
            }
            let h = |off: usize| u16_at(data, at + off).unwrap_or(0);
            let w = |off: usize| u32_at(data, at + off).unwrap_or(0);
            let (name_len, extra_len, comment_len) = (h(28) as usize, h(30) as usize, h(32));
            let name_end = at + CENTRAL_LEN + name_len;
            if name_end > cd_end {
                return Err(bad("its name runs past the central directory"));
            }
            let name = String::from_utf8_lossy(&data[at + CENTRAL_LEN..name_end]).into_owned();
            let (compressed, size, local_offset) = (w(20), w(24), w(42));
            if [compressed, size, local_offset].contains(&u32::MAX) {
                return Err(zip_err(format!("'{name}': a zip64 entry (not supported)")));
            }
            entries.push(Entry {
                name,
                flags: h(8),
                method: h(10),
                crc: w(16),
                compressed: compressed as u64,
                size: size as u64,
                local_offset: local_offset as u64,
            });
            at = name_end + extra_len + comment_len as usize;
        }
        Ok(Archive { data, entries })
    }

    /// The names of the entries, for messages.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }

    /// The contents of entry `name`, or `None` when there is none.
    pub fn read(&self, name: &str) -> Result<Option<Vec<u8>>, MovieError> {
        let Some(e) = self.entries.iter().find(|e| e.name == name) else {
            return Ok(None);
        };
        let bad = |what: String| MovieError::at(format!("zip entry '{name}'"), what);
        if e.flags & 1 != 0 {
            return Err(bad("encrypted (not supported)".into()));
        }
        if e.size > MAX_ENTRY_BYTES {
            return Err(bad(format!(
                "{} bytes uncompressed, more than the {MAX_ENTRY_BYTES} s2lab reads",
                e.size
            )));
        }
        let at = e.local_offset as usize;
        if u32_at(self.data, at) != Some(LOCAL_SIG) {
            return Err(bad(format!("no local header at offset {at}")));
        }
        let skip = u16_at(self.data, at + 26).unwrap_or(0) as usize
            + u16_at(self.data, at + 28).unwrap_or(0) as usize;
        let start = at + LOCAL_LEN + skip;
        let raw = start
            .checked_add(e.compressed as usize)
            .and_then(|stop| self.data.get(start..stop))
            .ok_or_else(|| {
                bad(format!(
                    "its {} compressed bytes run past the end of the archive",
                    e.compressed
                ))
            })?;
        let out = match e.method {
            0 => raw.to_vec(),
            8 => {
                let mut out = Vec::with_capacity(e.size as usize);
                flate2::read::DeflateDecoder::new(raw)
                    .take(e.size + 1)
                    .read_to_end(&mut out)
                    .map_err(|err| bad(format!("bad deflate data: {err}")))?;
                out
            }
            m => {
                return Err(bad(format!(
                    "compression method {m} (only 0, stored, and 8, deflate, are supported)"
                )));
            }
        };
        if out.len() as u64 != e.size {
            return Err(bad(format!(
                "{} bytes after decompression, the directory says {}",
                out.len(),
                e.size
            )));
        }
        let mut crc = flate2::Crc::new();
        crc.update(&out);
        if crc.sum() != e.crc {
            return Err(bad(format!(
                "CRC-32 {:08x}, the directory says {:08x} (the archive is damaged)",
                crc.sum(),
                e.crc
            )));
        }
        Ok(Some(out))
    }
}

/// An archive of the entries, in the order given (stored up to 4 KiB, deflated above).
pub fn write(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in entries {
        // Small entries are stored: a deflate encoder's tables cost more than they save there.
        let method: u16 = if data.len() > STORE_AT_MOST { 8 } else { 0 };
        let packed = if method == 8 {
            // Level 2, BizHawk's own default for movies (`MovieCompressionLevel`): level 9 made a
            // 5,000-frame input log 722 bytes instead of 1,124 in 2.4 times the time, and the
            // movie fuzz target, which exports every movie it reads, spent 43 % of its time there.
            let level = flate2::Compression::new(2);
            let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), level);
            enc.write_all(data).expect("writing to memory");
            enc.finish().expect("writing to memory")
        } else {
            data.to_vec()
        };
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let offset = out.len() as u32;
        // Fields shared by the local and the central header, from "version needed" on.
        let mut common = Vec::new();
        common.extend_from_slice(&20u16.to_le_bytes()); // version 2.0: deflate
        common.extend_from_slice(&0u16.to_le_bytes()); // flags
        common.extend_from_slice(&method.to_le_bytes()); // 0 stored, 8 deflate
        common.extend_from_slice(&0u16.to_le_bytes()); // time 00:00
        common.extend_from_slice(&DOS_DATE_1980.to_le_bytes());
        common.extend_from_slice(&crc.sum().to_le_bytes());
        common.extend_from_slice(&(packed.len() as u32).to_le_bytes());
        common.extend_from_slice(&(data.len() as u32).to_le_bytes());
        common.extend_from_slice(&(name.len() as u16).to_le_bytes());
        common.extend_from_slice(&0u16.to_le_bytes()); // extra length

        out.extend_from_slice(&LOCAL_SIG.to_le_bytes());
        out.extend_from_slice(&common);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&packed);

        central.extend_from_slice(&CENTRAL_SIG.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // made by: MS-DOS, version 2.0
        central.extend_from_slice(&common);
        central.extend_from_slice(&0u16.to_le_bytes()); // comment length
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&END_SIG.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored entry laid out by hand from APPNOTE 4.3.7/4.3.12/4.3.16 (CRC-32 of "hello"
    /// is 0x3610a686, the standard check value).
    pub(crate) fn stored_zip(name: &str, data: &[u8], crc: u32) -> Vec<u8> {
        let mut z = Vec::new();
        z.extend_from_slice(b"PK\x03\x04");
        z.extend_from_slice(&[10, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
        z.extend_from_slice(&crc.to_le_bytes());
        z.extend_from_slice(&(data.len() as u32).to_le_bytes());
        z.extend_from_slice(&(data.len() as u32).to_le_bytes());
        z.extend_from_slice(&(name.len() as u16).to_le_bytes());
        z.extend_from_slice(&[0, 0]);
        z.extend_from_slice(name.as_bytes());
        z.extend_from_slice(data);
        let cd = z.len() as u32;
        z.extend_from_slice(b"PK\x01\x02");
        z.extend_from_slice(&[10, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
        z.extend_from_slice(&crc.to_le_bytes());
        z.extend_from_slice(&(data.len() as u32).to_le_bytes());
        z.extend_from_slice(&(data.len() as u32).to_le_bytes());
        z.extend_from_slice(&(name.len() as u16).to_le_bytes());
        z.extend_from_slice(&[0; 12]);
        z.extend_from_slice(&0u32.to_le_bytes());
        z.extend_from_slice(name.as_bytes());
        let cd_len = z.len() as u32 - cd;
        z.extend_from_slice(b"PK\x05\x06");
        z.extend_from_slice(&[0, 0, 0, 0, 1, 0, 1, 0]);
        z.extend_from_slice(&cd_len.to_le_bytes());
        z.extend_from_slice(&cd.to_le_bytes());
        z.extend_from_slice(&[0, 0]);
        z
    }

    #[test]
    fn reads_a_hand_made_stored_entry() {
        let z = stored_zip("a.txt", b"hello", 0x3610_a686);
        let a = Archive::open(&z).unwrap();
        assert_eq!(a.names(), ["a.txt"]);
        assert_eq!(a.read("a.txt").unwrap().unwrap(), b"hello");
        assert!(a.read("b.txt").unwrap().is_none());
    }

    #[test]
    fn a_wrong_crc_is_refused() {
        let z = stored_zip("a.txt", b"hello", 0x1234_5678);
        let e = Archive::open(&z).unwrap().read("a.txt").unwrap_err();
        assert!(e.to_string().contains("CRC-32 3610a686"), "{e}");
    }

    #[test]
    fn writes_what_it_reads() {
        let big = "|..|U.......|\n".repeat(1000);
        let z = write(&[("x", b"one"), ("Input Log.txt", big.as_bytes())]);
        let a = Archive::open(&z).unwrap();
        assert_eq!(a.read("x").unwrap().unwrap(), b"one");
        assert_eq!(a.read("Input Log.txt").unwrap().unwrap(), big.as_bytes());
        assert!(z.len() < big.len() / 10);
    }

    #[test]
    fn truncation_and_garbage_are_refused() {
        let z = write(&[("x", b"one")]);
        for cut in 0..z.len() {
            assert!(Archive::open(&z[..cut]).is_err(), "cut at {cut}");
        }
        assert!(
            Archive::open(b"not a zip")
                .err()
                .unwrap()
                .to_string()
                .contains("not a zip archive")
        );
    }
}
