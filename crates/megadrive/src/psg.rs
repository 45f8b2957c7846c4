//! The SN76489 PSG's bus side: the latch/data writes are decoded into its registers (no sound
//! synthesised yet).

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Psg {
    /// Tone periods (10 bits) and noise control per channel 0-3.
    pub tone: [u16; 4],
    pub volume: [u8; 4],
    pub latched: u8,
}

impl Psg {
    pub fn new() -> Self {
        Psg {
            volume: [0x0F; 4],
            ..Psg::default()
        }
    }

    pub fn write(&mut self, value: u8) {
        if value & 0x80 != 0 {
            self.latched = (value >> 4) & 7;
            let ch = (self.latched >> 1) as usize;
            if self.latched & 1 != 0 {
                self.volume[ch] = value & 0x0F;
            } else {
                self.tone[ch] = (self.tone[ch] & 0x3F0) | (value & 0x0F) as u16;
            }
        } else {
            let ch = (self.latched >> 1) as usize;
            if self.latched & 1 != 0 {
                self.volume[ch] = value & 0x0F;
            } else if ch == 3 {
                self.tone[3] = (value & 0x07) as u16;
            } else {
                self.tone[ch] = (self.tone[ch] & 0x0F) | (((value & 0x3F) as u16) << 4);
            }
        }
    }
}
