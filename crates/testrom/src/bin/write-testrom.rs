//! Writes the test ROM to a file: `cargo run -p testrom --bin write-testrom -- OUT.md`.
//! (stable-retro picks its Genesis core by the `.md` extension.)

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!("usage: write-testrom OUT.md");
        return ExitCode::from(2);
    };
    match std::fs::write(&path, testrom::rom()) {
        Ok(()) => {
            println!(
                "wrote {} bytes to {}",
                testrom::rom().len(),
                path.to_string_lossy()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("write {}: {e}", path.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}
