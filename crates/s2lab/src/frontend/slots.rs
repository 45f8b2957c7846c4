//! Numbered save-state slots: `DATA/states/SHA1-OF-ROM/slot-N.state`, one directory per
//! cartridge. The files are the console's save states (`megadrive::state`: versioned, and tied
//! to their ROM), so a state from another ROM or another format version is refused by the
//! loader with its own message, prefixed here with the slot and file.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use megadrive::Machine;

pub const SLOTS: u8 = 10;

pub struct Slots {
    pub dir: PathBuf,
    pub current: u8,
}

impl Slots {
    pub fn new(dir: PathBuf) -> Slots {
        Slots { dir, current: 1 }
    }

    pub fn path(&self, slot: u8) -> PathBuf {
        self.dir.join(format!("slot-{slot}.state"))
    }

    pub fn select(&mut self, slot: u8) {
        self.current = slot % SLOTS;
    }

    pub fn next(&mut self) {
        self.current = (self.current + 1) % SLOTS;
    }

    pub fn prev(&mut self) {
        self.current = (self.current + SLOTS - 1) % SLOTS;
    }

    pub fn save(&self, m: &Machine) -> Result<PathBuf> {
        let p = self.path(self.current);
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("cannot create {}", self.dir.display()))?;
        outfile::write(&p, m.save_state())
            .with_context(|| format!("cannot write {}", p.display()))?;
        Ok(p)
    }

    pub fn load(&self, m: &mut Machine) -> Result<PathBuf> {
        let p = self.path(self.current);
        if !p.is_file() {
            bail!(
                "slot {} is empty ({} does not exist)",
                self.current,
                p.display()
            );
        }
        let bytes = std::fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
        m.load_state(&bytes)
            .map_err(|e| anyhow!("slot {} ({}): {e}", self.current, p.display()))?;
        Ok(p)
    }
}
