//! Derived data the renderer keeps between lines. Each cache holds a copy of the memory it
//! was derived from and is used only while that copy equals the VDP's memory now. The
//! compare is skipped only while the caller's VRAM version ([`super::RenderInput`]; the VDP
//! core counts its VRAM writes) is the one the copy was last found equal under; without a
//! version (the renderer's tests, a VRAM of another size) every use compares, and a state
//! load starts a new renderer. Derived state only: never saved, compares equal to any other
//! cache.

use super::config::{Config, SpriteMode};
use super::pattern::Vram;
use super::sprite_table::SpriteTable;

#[derive(Clone, Debug, Default)]
pub(super) struct Caches {
    /// The line configuration and the registers it was decoded from: registers change a
    /// few times a frame at most, lines are 224.
    config: Option<([u8; 24], Config)>,
    sprites: SpriteCache,
}

equal_to_any!(Caches);

/// The sprite table's list and line index ([`SpriteTable`]) for the table bytes, base and
/// mode it was built from. Only the bytes the link walk read are kept and compared (entry 0
/// to the highest entry the list reaches): the rest of the table cannot change the list.
/// The game rewrites the table about once a frame (in vertical blank), the index is read
/// 224 times, and a short list is cheap to check.
#[derive(Clone, Debug, Default)]
struct SpriteCache {
    /// `None` until built.
    mode: Option<SpriteMode>,
    /// Registers 5 and 12 as last decoded into `mode` (the mode is a function of them).
    regs_key: Option<[u8; 2]>,
    /// The caller's VRAM version ([`super::RenderInput::vram_version`]) when `bytes` last
    /// equalled VRAM: while the caller still gives it, VRAM has not been written since.
    version: Option<u64>,
    bytes: Vec<u8>,
    table: SpriteTable,
}

impl Caches {
    /// [`Config::decode`] of `regs`.
    #[inline]
    pub fn config(&mut self, regs: &[u8; 24]) -> Config {
        match &self.config {
            Some((decoded, config)) if decoded == regs => *config,
            _ => {
                let config = Config::decode(regs);
                self.config = Some((*regs, config));
                config
            }
        }
    }

    /// The sprite table's list and line index, for the table as VRAM holds it now.
    /// `version`: [`super::RenderInput::vram_version`]; when it is the one the copy was last
    /// found equal under, VRAM was not written since and the compare is skipped.
    #[inline]
    pub fn sprite_table(
        &mut self,
        mode: &SpriteMode,
        vram: &Vram,
        version: Option<u64>,
    ) -> &SpriteTable {
        let cache = &mut self.sprites;
        cache.regs_key = None;
        if cache.mode != Some(*mode) {
            cache.rebuild(mode, vram);
        } else if version.is_none() || cache.version != version {
            // The walk reads at most the table's length, and the table never wraps: its base
            // is at most $FC00 (H40, 640 bytes) or $FE00 (H32, 512 bytes).
            let base = mode.sat_base;
            if vram[base..base + cache.bytes.len()] != cache.bytes[..] {
                cache.rebuild(mode, vram);
            }
        }
        cache.version = version;
        &cache.table
    }

    /// The sprite table's list and line index as last built, unchecked: for lines known to
    /// have been taken under it ([`super::deferred`]).
    pub fn indexed_sprite_table(&self) -> &SpriteTable {
        &self.sprites.table
    }

    /// The sprite table's list and line index if nothing it came from can have changed since
    /// the last [`Caches::sprite_table`]: registers 5 and 12 as then, and the same
    /// [`super::RenderInput::vram_version`] (`None` never qualifies) or, when `vram` is given,
    /// the table's bytes as they were (VRAM was written elsewhere: the version is taken as
    /// current, as [`Caches::sprite_table`] takes it after the same compare).
    #[inline]
    pub fn current_sprite_table(
        &mut self,
        regs: &[u8; 24],
        version: Option<u64>,
        vram: Option<&Vram>,
    ) -> Option<&mut SpriteTable> {
        let cache = &mut self.sprites;
        let (Some(mode), Some(_)) = (cache.mode, version) else {
            return None;
        };
        let key = [regs[5], regs[12]];
        if cache.regs_key != Some(key) {
            // Other register bits than the mode's may have changed: decode to find out.
            if mode != SpriteMode::decode(regs) {
                return None;
            }
            cache.regs_key = Some(key);
        }
        if cache.version != version {
            let base = mode.sat_base;
            if vram?[base..base + cache.bytes.len()] != cache.bytes[..] {
                return None;
            }
            cache.version = version;
        }
        Some(&mut cache.table)
    }
}

impl SpriteCache {
    #[cold]
    #[inline(never)]
    fn rebuild(&mut self, mode: &SpriteMode, vram: &Vram) {
        self.table.rebuild(mode, vram);
        let read = &vram[mode.sat_base..mode.sat_base + self.table.bytes_read()];
        self.mode = Some(*mode);
        self.bytes.clear();
        self.bytes.extend_from_slice(read);
    }
}
