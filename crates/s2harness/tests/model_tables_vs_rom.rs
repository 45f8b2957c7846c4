//! The model's own tables against every available ROM, byte for byte: `Sine_Data` and
//! `Angle_Data` (computed by the model) and the animation scripts of `SonicAniData` (transcribed
//! from the disassembly's source). The ROM offsets come from `roms.toml`. Needs a ROM (`$S2_ROM`
//! or the store); without one the test says so and passes.

mod common;

use s2model::animate::SONIC_ANI_DATA;
use s2model::trig::{ANGLE_BYTES, ANGLE_DATA, SINE_DATA, SINE_WORDS};

#[test]
fn model_tables_equal_the_roms() {
    let roms = common::available_roms();
    if roms.is_empty() {
        println!("{}", common::skip_message("model_tables_equal_the_roms"));
        return;
    }
    for (path, known) in roms {
        let rom = std::fs::read(&path).unwrap();
        let sym = |name: &str| {
            known
                .symbol(name)
                .unwrap_or_else(|| panic!("{name} in roms.toml")) as usize
        };
        let rev = &known.revision;

        assert_eq!(SINE_DATA.len(), SINE_WORDS);
        let sine = sym("Sine_Data");
        for (i, &model) in SINE_DATA.iter().enumerate() {
            let o = sine + 2 * i;
            let word = i16::from_be_bytes([rom[o], rom[o + 1]]);
            assert_eq!(model, word, "{rev}: Sine_Data[{i:#x}] at ROM {o:#x}");
        }

        assert_eq!(ANGLE_DATA.len(), ANGLE_BYTES);
        let angle = sym("Angle_Data");
        for (i, &model) in ANGLE_DATA.iter().enumerate() {
            assert_eq!(
                model,
                rom[angle + i],
                "{rev}: Angle_Data[{i}] at ROM {:#x}",
                angle + i
            );
        }

        let base = sym("SonicAniData");
        for (id, script) in SONIC_ANI_DATA.iter().enumerate() {
            let off = u16::from_be_bytes([rom[base + 2 * id], rom[base + 2 * id + 1]]) as usize;
            let at = base + off;
            assert_eq!(
                *script,
                &rom[at..at + script.len()],
                "{rev}: SonicAniData script {id:#x} at ROM {at:#x}"
            );
        }
        println!(
            "{rev}: Sine_Data, Angle_Data and {} animation scripts equal the ROM",
            SONIC_ANI_DATA.len()
        );
    }
}
