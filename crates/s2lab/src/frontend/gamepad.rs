//! Gamepads through `gilrs`: each connected pad gets a slot (1, 2, ... in connection order,
//! kept while it stays connected) and reports its held buttons as [`Input::Gamepad`]; the left
//! stick past half way counts as four more buttons.

use gilrs::{Axis, Button, GamepadId, Gilrs};

use super::inputs::{Held, HostInput, Input, MAX_GAMEPADS, PadButton};

/// Stick deflection that counts as a direction held.
const STICK_THRESHOLD: f32 = 0.5;

pub struct Gamepads {
    gilrs: Gilrs,
    /// Slot i holds the pad given number i + 1.
    slots: Vec<Option<GamepadId>>,
}

const BUTTONS: [(Button, PadButton); 15] = [
    (Button::South, PadButton::South),
    (Button::East, PadButton::East),
    (Button::North, PadButton::North),
    (Button::West, PadButton::West),
    (Button::LeftTrigger, PadButton::LeftTrigger),
    (Button::LeftTrigger2, PadButton::LeftTrigger2),
    (Button::RightTrigger, PadButton::RightTrigger),
    (Button::RightTrigger2, PadButton::RightTrigger2),
    (Button::Select, PadButton::Select),
    (Button::Start, PadButton::Start),
    (Button::Mode, PadButton::Mode),
    (Button::DPadUp, PadButton::DPadUp),
    (Button::DPadDown, PadButton::DPadDown),
    (Button::DPadLeft, PadButton::DPadLeft),
    (Button::DPadRight, PadButton::DPadRight),
];

impl Gamepads {
    /// `Err` with a one-line reason when the platform's gamepad support cannot start.
    pub fn open() -> Result<Gamepads, String> {
        let gilrs = Gilrs::new().map_err(|e| format!("gamepads unavailable: {e}"))?;
        let mut g = Gamepads {
            gilrs,
            slots: Vec::new(),
        };
        let ids: Vec<GamepadId> = g.gilrs.gamepads().map(|(id, _)| id).collect();
        for id in ids {
            g.assign(id);
        }
        Ok(g)
    }

    fn assign(&mut self, id: GamepadId) {
        if self.slots.contains(&Some(id)) {
            return;
        }
        if let Some(free) = self.slots.iter_mut().find(|s| s.is_none()) {
            *free = Some(id);
        } else if self.slots.len() < MAX_GAMEPADS as usize {
            self.slots.push(Some(id));
        }
    }

    /// Names of the connected pads by slot, for the start-up message.
    pub fn describe(&self) -> Vec<String> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                s.map(|id| format!("Gamepad{}: {}", i + 1, self.gilrs.gamepad(id).name()))
            })
            .collect()
    }
}

impl HostInput for Gamepads {
    fn held(&mut self, held: &mut Held) {
        while let Some(ev) = self.gilrs.next_event() {
            match ev.event {
                gilrs::EventType::Connected => self.assign(ev.id),
                gilrs::EventType::Disconnected => {
                    for s in &mut self.slots {
                        if *s == Some(ev.id) {
                            *s = None;
                        }
                    }
                }
                _ => {}
            }
        }
        for (i, slot) in self.slots.iter().enumerate() {
            let Some(id) = slot else { continue };
            let pad = self.gilrs.gamepad(*id);
            let n = i as u8 + 1;
            for (b, name) in BUTTONS {
                if pad.is_pressed(b) {
                    held.insert(Input::Gamepad(n, name));
                }
            }
            let x = pad.value(Axis::LeftStickX);
            let y = pad.value(Axis::LeftStickY);
            for (on, name) in [
                (y > STICK_THRESHOLD, PadButton::StickUp),
                (y < -STICK_THRESHOLD, PadButton::StickDown),
                (x < -STICK_THRESHOLD, PadButton::StickLeft),
                (x > STICK_THRESHOLD, PadButton::StickRight),
            ] {
                if on {
                    held.insert(Input::Gamepad(n, name));
                }
            }
        }
    }
}
