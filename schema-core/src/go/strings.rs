//! Go's `strings` functions whose results differ from Rust's standard
//! library: `strings.ToLower`.

/// Go's `strings.ToLower`: the simple (one-to-one) lowercase mapping of
/// each rune, unlike Rust's `str::to_lowercase` (which maps `İ` to two
/// characters and lowers a final `Σ` to `ς`).
pub(crate) fn to_lower(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c == '\u{130}' {
                return 'i';
            }
            let mut l = c.to_lowercase();
            match (l.next(), l.next()) {
                (Some(one), None) => one,
                _ => c,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowers_one_rune_at_a_time() {
        assert_eq!(to_lower("Example.COM/Key"), "example.com/key");
        assert_eq!(to_lower("İSTANBUL"), "istanbul");
        assert_eq!(to_lower("ΟΔΟΣ"), "οδοσ");
    }
}
