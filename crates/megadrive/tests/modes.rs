//! Headless, video and full runs of our test ROM agree on everything the game can observe:
//! the VDP status, interrupts and sprite masking after every line, all of the observable
//! state after every frame, over every scene (sprite limits and masking included) with the
//! pads pressed. No ROM needed.

use megadrive::clock::MCLK_PER_LINE;
use megadrive::mode::{line_difference, observable_difference};
use megadrive::{Machine, Mode, Options, RunStop, buttons};

#[test]
fn headless_video_and_full_agree_line_by_line_on_the_test_rom() {
    let frames = testrom::SCENE_FRAMES * testrom::SCENES.len() as u64 + 8;
    let mut machines: Vec<Machine> = Mode::ALL
        .iter()
        .map(|&mode| {
            let mut m = Machine::new(testrom::rom().to_vec(), Options::default()).unwrap();
            m.set_mode(mode);
            assert_eq!(m.mode(), mode);
            m
        })
        .collect();
    let mut audio = Vec::new();
    for frame in 1..=frames {
        let pad = match frame % 4 {
            0 => buttons::A | buttons::RIGHT,
            1 => buttons::START,
            2 => buttons::C | buttons::DOWN,
            _ => 0,
        };
        for m in &mut machines {
            m.set_pad(0, pad);
        }
        loop {
            let stops: Vec<RunStop> = machines.iter_mut().map(|m| m.run(MCLK_PER_LINE)).collect();
            assert!(stops.iter().all(|&s| s == stops[0]), "frame {frame}");
            for (m, mode) in machines[1..].iter().zip(&Mode::ALL[1..]) {
                if let Some(d) = line_difference(&machines[0], m) {
                    panic!("frame {frame}: full vs {mode}: {d}");
                }
            }
            if stops[0] == RunStop::FrameEnd {
                break;
            }
        }
        for (m, mode) in machines[1..].iter().zip(&Mode::ALL[1..]) {
            if let Some(d) = observable_difference(&machines[0], m) {
                panic!("end of frame {frame}: full vs {mode}: {d}");
            }
        }
        audio.clear();
        machines[0].take_audio(&mut audio);
    }
    assert!(!audio.is_empty(), "the full machine makes sound");
    assert!(machines[1..].iter().all(|m| m.audio_rate().is_none()));
}
