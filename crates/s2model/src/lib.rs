//! s2model
