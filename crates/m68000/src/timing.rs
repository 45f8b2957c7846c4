//! Timing profiles.

/// Which clock counts the core charges. Bus cycles keep their order and place; the
/// Genesis Plus GX profile only changes the internal clocks after an instruction's last bus
/// cycle, for the opcodes where its table differs from the microcode:
///
/// | instruction | hardware | Genesis Plus GX 1.7 |
/// |---|---|---|
/// | BCHG/BSET Dn,Dn and #n,Dn | 6/10 below bit 16, 8/12 above | 8/12 |
/// | BCLR Dn,Dn and #n,Dn | 8/12 below bit 16, 10/14 above | 10/14 |
/// | BTST Dn,#imm | 10 | 8 |
/// | ANDI.L #imm,Dn | 16 | 14 |
/// | ADDQ.W #q,An | 8 | 4 |
/// | TAS to memory | 14 + EA | 18 + EA |
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
