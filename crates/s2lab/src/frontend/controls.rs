//! Held inputs to what the console and the front end see: both pads' buttons (level) and the
//! commands pressed since the last poll (edges), through the bindings.

use std::collections::BTreeMap;

use super::bindings::{Action, Bindings, Command};
use super::inputs::{Held, Input};

/// One poll's outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Polled {
    /// Button masks of pads 1 and 2.
    pub pads: [u16; 2],
    /// Commands whose input went down in this poll, in binding order.
    pub pressed: Vec<Command>,
    /// Fast forward held down.
    pub fast_hold: bool,
}

pub struct Controls {
    map: BTreeMap<Input, Vec<Action>>,
    was_held: Held,
}

impl Controls {
    pub fn new(bindings: &Bindings) -> Controls {
        Controls {
            map: bindings.by_input(),
            was_held: Held::new(),
        }
    }

    pub fn poll(&mut self, held: &Held) -> Polled {
        let mut out = Polled::default();
        for input in held {
            let Some(actions) = self.map.get(input) else {
                continue;
            };
            let went_down = !self.was_held.contains(input);
            for action in actions {
                match *action {
                    Action::Pad(port, mask) => out.pads[port] |= mask,
                    Action::Command(Command::FastForwardHold) => out.fast_hold = true,
                    Action::Command(c) if went_down && !out.pressed.contains(&c) => {
                        out.pressed.push(c)
                    }
                    Action::Command(_) => {}
                }
            }
        }
        self.was_held = held.clone();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use megadrive::buttons;

    fn held(names: &[&str]) -> Held {
        names.iter().map(|n| Input::parse(n).unwrap()).collect()
    }

    #[test]
    fn buttons_are_levels_and_commands_are_edges() {
        let mut c = Controls::new(&Bindings::default());
        let p = c.poll(&held(&["Right", "S", "NumPad1", "P", "Tab"]));
        assert_eq!(p.pads, [buttons::RIGHT | buttons::B, buttons::A]);
        assert_eq!(p.pressed, vec![Command::Pause]);
        assert!(p.fast_hold);
        let p = c.poll(&held(&["Right", "P"]));
        assert_eq!(p.pads, [buttons::RIGHT, 0]);
        assert!(p.pressed.is_empty() && !p.fast_hold);
        c.poll(&held(&[]));
        let p = c.poll(&held(&["P", "Gamepad1.South", "Gamepad2.Start"]));
        assert_eq!(p.pressed, vec![Command::Pause]);
        assert_eq!(p.pads, [buttons::B, buttons::START]);
    }
}
