//! Ctrl-C: the first press sets a flag that long commands check between runs and frames, so
//! they stop cleanly, keep what finished and say what did not run; a second press exits at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag, installing the handler on first use.
pub fn flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // Without a handler (another one installed, or no signals) Ctrl-C simply kills.
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\ninterrupted: finishing the current step (Ctrl-C again to quit now)");
        });
        flag
    })
    .clone()
}
