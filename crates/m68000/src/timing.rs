//! Timing profiles.

/// Which clock counts the core charges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Timing {
    /// The 68000's microcode, as the SingleStepTests vectors record it.
    #[default]
    Hardware,
    /// Genesis Plus GX 1.7 (stable-retro's build): Musashi's per-opcode table where it
    /// differs from the microcode. The Sonic 2 results verified against it depend on these.
    Gpgx17,
}

impl Timing {
    /// The console's name for the Genesis Plus GX 1.7 profile.
    pub const GPGX_1_7: Timing = Timing::Gpgx17;
}
