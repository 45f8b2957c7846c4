//! A deliberate model defect for tests of the fuzzer (switched on by the `#[doc(hidden)]`
//! `FuzzConfig::planted_defect`, which only tests set): the model's stage loses every solid
//! rectangle one cell high, as if its grid builder skipped single rows. The game still has
//! them, so a scenario where Sonic touches such a slab diverges; one where he does not, agrees.

use s2model::{Scenario, Trace, run_scenario};

/// The real model on the scenario's stage without its one-cell-high rectangles.
#[doc(hidden)]
pub fn defective_model(sc: &Scenario) -> Trace {
    let mut broken = sc.clone();
    broken.solid.retain(|r| r.h != 1);
    run_scenario(&broken)
}
