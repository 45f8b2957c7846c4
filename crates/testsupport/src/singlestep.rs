//! The SingleStepTests 68000 vectors (`shared/data/m68000/v1/*.json.bin.gz`, recorded from
//! MAME's microcoded 68000): the binary file format, where the files are, and the lists of
//! vectors a core is expected to fail (`FILE<TAB>REASON<TAB>INDICES`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

/// One bus transaction of a vector, with the clock at which it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub write: bool,
    pub fc: u8,
    pub addr: u32,
    pub data: u16,
    /// Upper and lower data strobes (both for a word).
    pub uds: bool,
    pub lds: bool,
    pub cycle: u64,
}

/// The registers, prefetch queue and touched RAM (word-wide) before or after a vector.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub d: [u32; 8],
    pub a: [u32; 7],
    pub usp: u32,
    pub ssp: u32,
    pub sr: u16,
    pub pc: u32,
    pub prefetch: [u16; 2],
    pub ram: Vec<(u32, u16)>,
}

/// One test: one instruction from `initial` to `expected` in `cycles` clocks.
pub struct Vector {
    pub name: String,
    pub initial: State,
    pub expected: State,
    pub cycles: u32,
    /// Expected bus cycles (address errors excluded: they never reach the bus).
    pub accesses: Vec<Access>,
    pub address_error: bool,
}

/// A little-endian reader over one decompressed file, with errors naming the offset.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> Result<u8, String> {
        let v = *self
            .buf
            .get(self.pos)
            .ok_or_else(|| format!("truncated at byte {}", self.pos))?;
        self.pos += 1;
        Ok(v)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let bytes = self
            .buf
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| format!("truncated at byte {}", self.pos))?;
        self.pos += 4;
        Ok(u32::from_le_bytes(bytes.try_into().unwrap()))
    }
    fn magic(&mut self, want: u32) -> Result<(), String> {
        let at = self.pos;
        let got = self.u32()?;
        if got != want {
            return Err(format!(
                "bad magic {got:#x} at byte {at}, expected {want:#x}"
            ));
        }
        Ok(())
    }
    fn state(&mut self) -> Result<State, String> {
        self.u32()?;
        self.magic(0x0123_4567)?;
        let mut r = [0u32; 19];
        for v in &mut r {
            *v = self.u32()?;
        }
        let prefetch = [self.u32()? as u16, self.u32()? as u16];
        let n = self.u32()?;
        let mut ram = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let addr = self.u32()?;
            let lo = self.u8()? as u16;
            let hi = self.u8()? as u16;
            ram.push((addr, (hi << 8) | lo));
        }
        Ok(State {
            d: r[0..8].try_into().unwrap(),
            a: r[8..15].try_into().unwrap(),
            usp: r[15],
            ssp: r[16],
            sr: r[17] as u16,
            pc: r[18],
            prefetch,
            ram,
        })
    }
}

/// Every vector of one `.json.bin.gz` file, in order.
pub fn parse_file(path: &Path) -> Result<Vec<Vector>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buf = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut buf)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut r = Reader { buf: &buf, pos: 0 };
    let fail = |e: String| format!("{}: {e}", path.display());
    r.magic(0x1A3F_5D71).map_err(fail)?;
    let count = r.u32().map_err(fail)?;
    let mut out = Vec::with_capacity(count as usize);
    for index in 0..count {
        (|| -> Result<(), String> {
            r.u32()?;
            r.magic(0xABC1_2367)?;
            r.u32()?;
            r.magic(0x89AB_CDEF)?;
            let len = r.u32()? as usize;
            let name = r
                .buf
                .get(r.pos..r.pos + len)
                .ok_or_else(|| format!("truncated name at byte {}", r.pos))?;
            let name = String::from_utf8_lossy(name).into_owned();
            r.pos += len;
            let initial = r.state()?;
            let expected = r.state()?;
            r.u32()?;
            r.magic(0x4567_89AB)?;
            let cycles = r.u32()?;
            let n = r.u32()?;
            let mut address_error = false;
            let mut accesses = Vec::new();
            let mut at = 0u64;
            for _ in 0..n {
                let kind = r.u8()?;
                let len = r.u32()? as u64;
                if kind != 0 {
                    let fc = r.u32()? as u8;
                    let addr = r.u32()?;
                    let data = r.u32()? as u16;
                    let uds = r.u32()? != 0;
                    let lds = r.u32()? != 0;
                    match kind {
                        1..=3 => accesses.push(Access {
                            write: kind == 1,
                            fc,
                            addr,
                            data,
                            uds,
                            lds,
                            cycle: at,
                        }),
                        4 | 5 => address_error = true,
                        _ => return Err(format!("transaction kind {kind}")),
                    }
                }
                at += len;
            }
            out.push(Vector {
                name,
                initial,
                expected,
                cycles,
                accesses,
                address_error,
            });
            Ok(())
        })()
        .map_err(|e| fail(format!("test {index}: {e}")))?;
    }
    Ok(out)
}

/// Writes the expectation list from a run's failures `(file, index, reason)`, grouped by file
/// and reason, under `header` (comment lines saying how to regenerate it); written to a
/// temporary file and renamed into place.
pub fn write_expectations(path: &Path, header: &str, failures: &[(String, usize, String)]) {
    let mut groups: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for (file, index, reason) in failures {
        groups
            .entry((file.clone(), reason.clone()))
            .or_default()
            .push(*index);
    }
    let mut text = header.to_string();
    for ((file, reason), indices) in groups {
        let mut ranges: Vec<String> = Vec::new();
        let mut i = 0;
        while i < indices.len() {
            let mut j = i;
            while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
                j += 1;
            }
            ranges.push(if i == j {
                indices[i].to_string()
            } else {
                format!("{}-{}", indices[i], indices[j])
            });
            i = j + 1;
        }
        text.push_str(&format!("{file}\t{reason}\t{}\n", ranges.join(",")));
    }
    let tmp = path.with_extension("txt.tmp");
    std::fs::write(&tmp, text).expect("write expectation list");
    std::fs::rename(&tmp, path).expect("rename expectation list");
}

/// Expected failures: `FILE<TAB>REASON<TAB>INDICES`, indices (0-based positions in the file) as
/// comma-separated ranges (`3,7-9`); `#` lines are comments. No file: an empty list.
pub fn load_expectations(path: &Path) -> Result<BTreeMap<(String, usize), String>, String> {
    let mut map = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(map);
    };
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split('\t');
        let (Some(file), Some(reason), Some(indices)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!(
                "{}:{}: expected FILE<TAB>REASON<TAB>INDICES",
                path.display(),
                n + 1
            ));
        };
        for range in indices.split(',') {
            let (lo, hi) = range.split_once('-').unwrap_or((range, range));
            let parse = |s: &str| -> Result<usize, String> {
                s.trim()
                    .parse()
                    .map_err(|_| format!("{}:{}: bad index {s:?}", path.display(), n + 1))
            };
            for i in parse(lo)?..=parse(hi)? {
                map.insert((file.to_string(), i), reason.to_string());
            }
        }
    }
    Ok(map)
}

/// The vector directory in `shared/` beside the repository (or beside the directory of
/// worktrees), seen from a crate's manifest directory; `None` when it is not there.
pub fn vector_dir(manifest: &Path) -> Option<PathBuf> {
    ["../../../shared", "../../../../shared"]
        .iter()
        .map(|up| manifest.join(up).join("data/m68000/v1"))
        .find(|d| d.is_dir())
}

/// The vector files in `dir`, sorted by name.
pub fn vector_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable vector directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".json.bin.gz"))
        .collect();
    files.sort();
    files
}

/// A run's results checked against its expected-failure list: a failure not on the list, a
/// listed vector that passes, and (when every file ran) a listed vector not in the files are
/// all unexpected.
pub struct Ledger {
    path: PathBuf,
    expected: BTreeMap<(String, usize), String>,
    seen: BTreeSet<(String, usize)>,
    failures: Vec<(String, usize, String)>,
    pub passed: u64,
    pub unexpected: Vec<String>,
}

impl Ledger {
    /// Reads the list at `path` (none there: an empty list).
    pub fn open(path: &Path) -> Result<Ledger, String> {
        Ok(Ledger {
            path: path.to_path_buf(),
            expected: load_expectations(path)?,
            seen: BTreeSet::new(),
            failures: Vec::new(),
            passed: 0,
            unexpected: Vec::new(),
        })
    }

    /// Vector `index` of `file` (`name`) passed.
    pub fn pass(&mut self, file: &str, index: usize, name: &str) {
        self.passed += 1;
        let key = (file.to_string(), index);
        if self.expected.contains_key(&key) {
            self.unexpected.push(format!(
                "{file} #{index} {name}: passes but is listed as an expected failure"
            ));
        }
        self.seen.insert(key);
    }

    /// Vector `index` of `file` (`name`) failed with `diffs`; `reason` is the list's wording.
    pub fn fail(&mut self, file: &str, index: usize, name: &str, diffs: &[String], reason: String) {
        let key = (file.to_string(), index);
        if !self.expected.contains_key(&key) {
            self.unexpected
                .push(format!("{file} #{index} {name}: {}", diffs.join(", ")));
        }
        self.failures.push((file.to_string(), index, reason));
        self.seen.insert(key);
    }

    /// Failures so far.
    pub fn failed(&self) -> usize {
        self.failures.len()
    }

    /// After the run: with `whole_run`, listed vectors never seen are unexpected; with `write`
    /// (the list's header) the list is rewritten from this run's failures and nothing counts
    /// as unexpected. Prints the first `show` unexpected results; returns how many there are.
    pub fn finish(&mut self, whole_run: bool, write: Option<&str>, show: usize) -> usize {
        if whole_run {
            for key in self.expected.keys().filter(|k| !self.seen.contains(*k)) {
                self.unexpected.push(format!(
                    "{} #{}: listed but not in the vectors",
                    key.0, key.1
                ));
            }
        }
        if let Some(header) = write {
            write_expectations(&self.path, header, &self.failures);
            println!(
                "wrote {} failures to {}",
                self.failures.len(),
                self.path.display()
            );
            self.unexpected.clear();
        }
        for line in self.unexpected.iter().take(show) {
            println!("UNEXPECTED {line}");
        }
        if self.unexpected.len() > show {
            println!(
                "… and {} more unexpected results",
                self.unexpected.len() - show
            );
        }
        self.unexpected.len()
    }
}
