//! Helpers shared by the unit tests of the modules.

use crate::{GoRegex, compile};

/// Go's `err.Error()` for `pattern`, or "OK".
pub(crate) fn go_result(pattern: &str) -> String {
    match compile(pattern) {
        Ok(_) => "OK".to_owned(),
        Err(e) => e.to_string(),
    }
}

/// Compares without printing megabytes on failure.
pub(crate) fn assert_go(pattern: &str, want: &str) {
    let got = go_result(pattern);
    if got != want {
        let cut = |s: &str| s.chars().take(120).collect::<String>();
        panic!(
            "pattern {:?} ({} bytes): got {:?}, want {:?}",
            cut(pattern),
            pattern.len(),
            cut(&got),
            cut(want)
        );
    }
}

/// Compiles `pattern`, which must be accepted.
pub(crate) fn re(pattern: &str) -> GoRegex {
    match compile(pattern) {
        Ok(re) => re,
        Err(e) => panic!("{pattern:?} should compile: {e}"),
    }
}
