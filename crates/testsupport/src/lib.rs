//! What the crates' tests share: the SingleStepTests 68000 vectors ([`singlestep`]), read by
//! our core's test (`m68000/tests/vectors.rs`) and the `m68k` backend's
//! (`megadrive/tests/m68000_vectors.rs`), and a seeded generator ([`Rng`]) for the tests that
//! draw random cartridges, bus traffic, pad scripts and stop points.
#![forbid(unsafe_code)]

pub mod singlestep;

/// xorshift64*: deterministic, dependency-free, good enough to draw test inputs.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}
