//! Recording pad 1 into an input script (formats.md §1), and reading one back for replay.
//!
//! A recording made from a save state travels as two files side by side: `NAME.txt` (the
//! script) and `NAME.state` (the machine at the recording's start). The script's header
//! comments say which: a line `# start: power-on` or `# start: state NAME.state` (a path
//! relative to the script). Script frame k is the k-th frame run after that start, as
//! `s2lab run --input` applies it, so `s2lab run ROM --input NAME.txt --load-state NAME.state
//! --frames N` replays it headless.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The pad bits an input script can hold: the 3-button pad's (`megadrive::buttons` keeps them
/// in its low byte in padscript's order). X, Y, Z and Mode are not part of the format.
pub const SCRIPT_BITS: u16 = 0x00FF;

/// Where a recording starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    PowerOn,
    /// The state file's path as the header writes it (relative to the script).
    State(PathBuf),
}

pub struct Recorder {
    pub script: PathBuf,
    start_state: Option<Vec<u8>>,
    rom_line: String,
    rom_path: PathBuf,
    held: Vec<u8>,
}

impl Recorder {
    /// Starts a recording to `script`, from power-on (`None`) or from this machine state.
    pub fn new(
        script: PathBuf,
        start_state: Option<Vec<u8>>,
        rom_line: String,
        rom_path: PathBuf,
    ) -> Recorder {
        Recorder {
            script,
            start_state,
            rom_line,
            rom_path,
            held: Vec::new(),
        }
    }

    /// One frame's pad 1 (already limited to [`SCRIPT_BITS`] by the caller).
    pub fn push(&mut self, pad: u16) {
        self.held.push((pad & SCRIPT_BITS) as u8);
    }

    pub fn frames(&self) -> usize {
        self.held.len()
    }

    /// The state file beside the script.
    pub fn state_path(&self) -> PathBuf {
        self.script.with_extension("state")
    }

    /// Writes the state (when there is one) and the script; returns the headless replay
    /// command.
    pub fn finish(self) -> Result<String> {
        if let Some(dir) = self.script.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let state_path = self.state_path();
        let mut header = format!(
            "# s2lab recording: pad 1 as an input script (docs/formats.md §1); frame k of the\n\
             # script is the k-th frame run after the start below.\n# rom: {}\n",
            self.rom_line
        );
        let mut replay = format!(
            "s2lab run {} --input {}",
            self.rom_path.display(),
            self.script.display()
        );
        match &self.start_state {
            Some(bytes) => {
                outfile::write(&state_path, bytes)
                    .with_context(|| format!("cannot write {}", state_path.display()))?;
                let name = state_path.file_name().unwrap_or_default().to_string_lossy();
                header.push_str(&format!("# start: state {name}\n"));
                replay.push_str(&format!(" --load-state {}", state_path.display()));
            }
            None => header.push_str("# start: power-on\n"),
        }
        replay.push_str(&format!(" --frames {}", self.held.len()));
        header.push_str(&format!(
            "# frames: {}\n# replay headless: {replay}\n",
            self.held.len()
        ));
        let body = padscript::format(&self.held);
        // Wrap the one-line script so that long recordings stay readable.
        let mut text = header;
        let mut line = String::new();
        for tok in body.split(' ').filter(|t| !t.is_empty()) {
            if line.len() + tok.len() + 1 > 96 {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(tok);
        }
        text.push_str(&line);
        text.push('\n');
        outfile::write(&self.script, text)
            .with_context(|| format!("cannot write {}", self.script.display()))?;
        Ok(replay)
    }
}

/// The start a script's header names (`None` when it has no `# start:` line).
pub fn header_start(text: &str) -> Result<Option<Start>, String> {
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim().strip_prefix('#') else {
            if line.trim().is_empty() {
                continue;
            }
            break; // the header ends at the first line of buttons
        };
        let Some(start) = rest.trim().strip_prefix("start:") else {
            continue;
        };
        let start = start.trim();
        return match start {
            "power-on" => Ok(Some(Start::PowerOn)),
            s => match s.strip_prefix("state ") {
                Some(p) if !p.trim().is_empty() => Ok(Some(Start::State(PathBuf::from(p.trim())))),
                _ => Err(format!(
                    "line {}: '# start:' wants 'power-on' or 'state FILE', got '{s}'",
                    i + 1
                )),
            },
        };
    }
    Ok(None)
}

/// A script to replay: one pad mask per frame, and the state it starts from (`--state`, else
/// its header's, resolved beside the script).
pub struct ReplayFile {
    pub frames: Vec<u16>,
    pub state: Option<(PathBuf, Vec<u8>)>,
}

pub fn read_replay(script: &Path, state: Option<&Path>) -> Result<ReplayFile> {
    let text = std::fs::read_to_string(script)
        .with_context(|| format!("cannot read {}", script.display()))?;
    let frames = megadrive::input_script::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", script.display()))?;
    let state_path = match state {
        Some(p) => Some(p.to_path_buf()),
        None => {
            match header_start(&text).map_err(|e| anyhow::anyhow!("{}: {e}", script.display()))? {
                Some(Start::State(rel)) => Some(script.parent().unwrap_or(Path::new("")).join(rel)),
                Some(Start::PowerOn) | None => None,
            }
        }
    };
    let state = match state_path {
        Some(p) => {
            let bytes = std::fs::read(&p).with_context(|| {
                format!(
                    "cannot read {} (the save state the replay {} starts from)",
                    p.display(),
                    script.display()
                )
            })?;
            Some((p, bytes))
        }
        None => None,
    };
    if frames.is_empty() {
        bail!("{}: the script has no frames", script.display());
    }
    Ok(ReplayFile { frames, state })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_the_start() {
        assert_eq!(
            header_start("# start: power-on\nR").unwrap(),
            Some(Start::PowerOn)
        );
        assert_eq!(
            header_start("# x\n#start: state a b.state\n").unwrap(),
            Some(Start::State("a b.state".into()))
        );
        assert_eq!(header_start("R\n# start: power-on").unwrap(), None);
        assert!(
            header_start("# start: later")
                .unwrap_err()
                .contains("line 1")
        );
    }

    #[test]
    fn finish_writes_a_script_that_parses_to_the_frames() {
        let dir = std::env::temp_dir().join(format!("s2lab-rec-{}", std::process::id()));
        let script = dir.join("r.txt");
        let mut r = Recorder::new(
            script.clone(),
            Some(vec![1, 2, 3]),
            "test".into(),
            "rom.bin".into(),
        );
        let frames: Vec<u16> = (0..500u16).map(|i| (i / 7) & 0xFF).collect();
        for &f in &frames {
            r.push(f | 0x0100); // X is not part of a script
        }
        let cmd = r.finish().unwrap();
        assert!(cmd.ends_with("--frames 500"), "{cmd}");
        let back = read_replay(&script, None).unwrap();
        assert_eq!(back.frames, frames);
        assert_eq!(back.state.unwrap().1, vec![1, 2, 3]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
