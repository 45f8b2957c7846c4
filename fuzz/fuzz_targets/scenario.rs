//! The scenario parser: any text is a scenario or an error naming the place; a scenario's
//! stage, initial state and warnings can be built.
#![no_main]

use libfuzzer_sys::fuzz_target;
use s2model::Scenario;

fuzz_target!(|text: &str| {
    if let Ok(sc) = Scenario::parse(text, "<fuzz>", None) {
        let _ = sc.stage();
        let _ = sc.initial_state();
        let _ = sc.warnings();
    }
});
