//! The options every command that runs the game shares: which ROM, and which 68000 core.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use megadrive::CpuBackend;
use s2harness::game::Game;
use s2harness::rom::RomImage;
use s2harness::store;

#[derive(clap::Args, Debug, Clone)]
pub struct RomOpt {
    /// The Sonic 2 ROM (default: $S2_ROM, else the ROM store's copy of --revision).
    #[arg(long)]
    pub rom: Option<PathBuf>,
    /// Which revision to take from the store when no ROM is given: rev00, reva or revb.
    #[arg(long, default_value = "revb")]
    pub revision: String,
    /// The console's 68000: ours (the default) or m68k (the pinned crate, to cross-check).
    #[arg(long, default_value = "ours")]
    pub cpu: CpuBackend,
}

impl RomOpt {
    /// Finds and checks the ROM.
    pub fn read(&self) -> Result<(PathBuf, RomImage)> {
        let path = store::locate(self.rom.as_deref(), &self.revision).map_err(|e| anyhow!(e))?;
        let rom = store::read_rom(&path).map_err(|e| anyhow!(e))?;
        Ok((path, rom))
    }

    /// Finds, checks and boots the ROM to Emerald Hill Act 1.
    pub fn boot(&self) -> Result<Game> {
        let (path, rom) = self.read()?;
        let game = self.boot_quietly(&path, &rom)?;
        Self::announce(&path, &game);
        Ok(game)
    }

    /// Boots `rom` (read from `path` by [`RomOpt::read`]) without saying so.
    pub fn boot_quietly(&self, path: &Path, rom: &RomImage) -> Result<Game> {
        Game::boot_with_cpu(rom, self.cpu).map_err(|e| anyhow!("{}: {e}", path.display()))
    }

    /// The line [`RomOpt::boot`] prints once the game has booted.
    pub fn announce(path: &Path, game: &Game) {
        eprintln!(
            "{}: Sonic 2 {}, booted to Emerald Hill Act 1 in {} frames",
            path.display(),
            game.revision().revision,
            game.boot_frames
        );
    }
}
