//! Assembles the test ROM from `src/asm` with the GNU m68k binutils and writes
//! `$OUT_DIR/testrom.bin`: padded to 64 KiB, with the header's ROM end and checksum filled
//! in. The tools are `m68k-linux-gnu-as`, `-ld` and `-objcopy` (Debian package
//! `binutils-m68k-linux-gnu`); set `M68K_BINUTILS_PREFIX` to use another triple's tools,
//! e.g. `m68k-elf-`.

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

/// The padded image size: every part of the ROM fits many times over, and a power of two
/// is what mappers and emulators expect of a cartridge.
const ROM_SIZE: usize = 0x10000;
const HEADER_CHECKSUM: usize = 0x18E;
const HEADER_ROM_END: usize = 0x1A4;

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let asm = manifest.join("src/asm");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    println!("cargo:rerun-if-env-changed=M68K_BINUTILS_PREFIX");
    for entry in fs::read_dir(&asm).expect("read src/asm") {
        let path = entry.expect("read src/asm entry").path();
        println!("cargo:rerun-if-changed={}", path.display());
    }

    let prefix = env::var("M68K_BINUTILS_PREFIX").unwrap_or_else(|_| "m68k-linux-gnu-".into());
    let obj = out.join("testrom.o");
    let elf = out.join("testrom.elf");
    let raw = out.join("testrom.raw");

    run(
        &prefix,
        "as",
        Command::new(format!("{prefix}as"))
            .args(["-m68000", "--register-prefix-optional", "-I"])
            .arg(&asm)
            .arg("-o")
            .arg(&obj)
            .arg(asm.join("main.s")),
    );
    run(
        &prefix,
        "ld",
        Command::new(format!("{prefix}ld"))
            .arg("-T")
            .arg(asm.join("link.ld"))
            .arg("-o")
            .arg(&elf)
            .arg(&obj),
    );
    run(
        &prefix,
        "objcopy",
        Command::new(format!("{prefix}objcopy"))
            .args(["-O", "binary"])
            .arg(&elf)
            .arg(&raw),
    );

    let mut rom = fs::read(&raw).expect("read the assembled image");
    assert!(
        rom.len() > 0x200 && rom.len() <= ROM_SIZE,
        "assembled image is {} bytes; expected a header and at most {ROM_SIZE}",
        rom.len()
    );
    rom.resize(ROM_SIZE, 0);
    finish_header(&mut rom);
    fs::write(out.join("testrom.bin"), &rom).expect("write testrom.bin");
}

/// Fills in the ROM end address and the checksum (the 16-bit sum of the big-endian words
/// from $200 to the end, which the boot code of some games and emulator headers check).
fn finish_header(rom: &mut [u8]) {
    let end = (rom.len() - 1) as u32;
    rom[HEADER_ROM_END..HEADER_ROM_END + 4].copy_from_slice(&end.to_be_bytes());
    let sum = rom[0x200..].chunks_exact(2).fold(0u16, |acc, w| {
        acc.wrapping_add(u16::from_be_bytes([w[0], w[1]]))
    });
    rom[HEADER_CHECKSUM..HEADER_CHECKSUM + 2].copy_from_slice(&sum.to_be_bytes());
}

fn run(prefix: &str, tool: &str, cmd: &mut Command) {
    let name = format!("{prefix}{tool}");
    let output = match cmd.output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "\n\n`{name}` was not found: the test ROM is assembled from source with the GNU \
             m68k binutils.\nInstall them with `apt-get install binutils-m68k-linux-gnu` \
             (Debian/Ubuntu), or set M68K_BINUTILS_PREFIX to another m68k toolchain's \
             prefix.\n\n"
        ),
        Err(e) => panic!("could not run `{name}`: {e}"),
    };
    if !output.status.success() {
        panic!(
            "`{name}` failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
