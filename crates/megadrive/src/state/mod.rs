//! Save states: the whole machine as versioned plain bytes that round-trip bit-exact.
//!
//! Layout: the magic `MDST`, a format version (u32), the ROM's length and FNV-1a hash (a state
//! loads only into a machine built from the same ROM), then every component in a fixed order,
//! little-endian, variable-length fields prefixed with their length, the large memories as runs
//! of one value and literal stretches (`packed`). The line renderer keeps
//! no state across frames and restarts from its initial state. The 68000's part names its core
//! (ours or `m68k`), and loading a state brings that core back with it.
//!
//! Here: the format's version, its error and its field writer and reader; `save` and `load`
//! walk the machine in the layout's order, `cpu` writes and reads the 68000's part, `packed` the
//! large memories.

mod cpu;
mod load;
mod packed;
mod save;

const MAGIC: &[u8; 4] = b"MDST";
/// Bump on any layout change. 4: the 68000's double-bus-fault halt; 5: which 68000 core,
/// then its state; 6: the large memories as runs (`packed`); 7: the one-instruction interrupt
/// latency (`vdp::irq`); 8: the hardware FIFO switch (`Timing::hardware_vdp`).
pub const STATE_VERSION: u32 = 8;

/// Why a state could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    NotAState,
    Version {
        found: u32,
        supported: u32,
    },
    /// The state's ROM (length, FNV-1a) is not the machine's.
    RomMismatch {
        state: (u64, u64),
        machine: (u64, u64),
    },
    Truncated {
        offset: usize,
    },
    Invalid {
        offset: usize,
        what: &'static str,
    },
    TrailingBytes {
        offset: usize,
    },
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StateError::NotAState => write!(f, "not a Mega Drive save state (bad magic)"),
            StateError::Version { found, supported } if found < supported => write!(
                f,
                "save state version {found} was written by an older build (this build reads \
                 version {supported} only): make the state again"
            ),
            StateError::Version { found, supported } => write!(
                f,
                "save state version {found} was written by a newer build (this build reads \
                 version {supported} only)"
            ),
            StateError::RomMismatch { state, machine } => write!(
                f,
                "the save state was made with another ROM ({} bytes, FNV-1a {:016x}), not this \
                 one ({} bytes, FNV-1a {:016x})",
                state.0, state.1, machine.0, machine.1
            ),
            StateError::Truncated { offset } => write!(f, "save state truncated at byte {offset}"),
            StateError::Invalid { offset, what } => {
                write!(f, "save state invalid at byte {offset}: {what}")
            }
            StateError::TrailingBytes { offset } => {
                write!(f, "save state has unexpected bytes after byte {offset}")
            }
        }
    }
}

impl std::error::Error for StateError {}

/// FNV-1a over the ROM, to tie a state to its cartridge.
pub fn rom_hash(rom: &[u8]) -> u64 {
    rom.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

#[derive(Default)]
struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn bool(&mut self, v: bool) {
        self.u8(u8::from(v));
    }
    fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, v: &[u8]) {
        self.u32(v.len() as u32);
        self.buf.extend_from_slice(v);
    }
    fn u16s(&mut self, v: &[u16]) {
        self.u32(v.len() as u32);
        for &x in v {
            self.u16(x);
        }
    }
    fn u32s(&mut self, v: &[u32]) {
        self.u32(v.len() as u32);
        for &x in v {
            self.u32(x);
        }
    }
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

type R<T> = Result<T, StateError>;

impl Reader<'_> {
    fn take(&mut self, n: usize) -> R<&[u8]> {
        let end = self
            .pos
            .checked_add(n)
            .ok_or(StateError::Truncated { offset: self.pos })?;
        let s = self
            .buf
            .get(self.pos..end)
            .ok_or(StateError::Truncated { offset: self.pos })?;
        self.pos = end;
        Ok(s)
    }
    fn invalid(&self, what: &'static str) -> StateError {
        StateError::Invalid {
            offset: self.pos,
            what,
        }
    }
    fn u8(&mut self) -> R<u8> {
        Ok(self.take(1)?[0])
    }
    fn bool(&mut self) -> R<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self.invalid("boolean not 0 or 1")),
        }
    }
    fn u16(&mut self) -> R<u16> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().unwrap_or_default(),
        ))
    }
    fn u32(&mut self) -> R<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }
    fn u64(&mut self) -> R<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or_default(),
        ))
    }
    fn i32(&mut self) -> R<i32> {
        Ok(i32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }
    fn len(&mut self, max: usize) -> R<usize> {
        let n = self.u32()? as usize;
        if n > max {
            return Err(self.invalid("length out of range"));
        }
        Ok(n)
    }
    fn bytes_exact(&mut self, n: usize) -> R<Vec<u8>> {
        let len = self.len(n)?;
        if len != n {
            return Err(self.invalid("unexpected block length"));
        }
        Ok(self.take(n)?.to_vec())
    }
    fn bytes(&mut self, max: usize) -> R<Vec<u8>> {
        let len = self.len(max)?;
        Ok(self.take(len)?.to_vec())
    }
    fn u16_array<const N: usize>(&mut self) -> R<[u16; N]> {
        let len = self.len(N)?;
        if len != N {
            return Err(self.invalid("unexpected array length"));
        }
        let mut out = [0u16; N];
        for x in &mut out {
            *x = self.u16()?;
        }
        Ok(out)
    }
    fn u32_array<const N: usize>(&mut self) -> R<[u32; N]> {
        let len = self.len(N)?;
        if len != N {
            return Err(self.invalid("unexpected array length"));
        }
        let mut out = [0u32; N];
        for x in &mut out {
            *x = self.u32()?;
        }
        Ok(out)
    }
}
