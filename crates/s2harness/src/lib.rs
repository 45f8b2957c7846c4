//! s2harness
