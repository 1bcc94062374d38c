//! Simple case folding, as Go's `(?i)` applies it to literals and classes, computed
//! from `regex-syntax`'s Unicode tables.

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

use crate::char_class::{
    SURROGATE_HI, SURROGATE_LO, append_class, append_range, clean_class, pairs, scalar_parts,
};

// `minFold` and `maxFold` of `regexp/syntax`: the smallest and largest code points
// that take part in case folding.
const MIN_FOLD: i32 = 0x0041;
const MAX_FOLD: i32 = 0x1_e943;

/// `appendFoldedRange`: lo-hi and everything case-folding equivalent to it.
pub(crate) fn append_folded_range(r: &mut Vec<i32>, lo: i32, hi: i32) {
    if (lo <= MIN_FOLD && hi >= MAX_FOLD) || hi < MIN_FOLD || lo > MAX_FOLD {
        // Full, or outside the folding range: folding adds nothing.
        append_range(r, lo, hi);
        return;
    }
    let (mut lo, mut hi) = (lo, hi);
    if lo < MIN_FOLD {
        append_range(r, lo, MIN_FOLD - 1);
        lo = MIN_FOLD;
    }
    if hi > MAX_FOLD {
        append_range(r, MAX_FOLD + 1, hi);
        hi = MAX_FOLD;
    }
    append_class(r, &fold_closure(&[lo, hi]));
}

/// `appendFoldedClass`: appends the ranges of `x` and everything case-folding
/// equivalent to them.
pub(crate) fn append_folded_class(r: &mut Vec<i32>, x: &[i32]) {
    for (lo, hi) in pairs(x) {
        append_folded_range(r, lo, hi);
    }
}

/// The clean class of `x` closed under simple case folding (surrogates kept as
/// they are: they never fold).
pub(crate) fn fold_closure(x: &[i32]) -> Vec<i32> {
    let mut ranges = Vec::new();
    let mut surrogates = Vec::new();
    for (lo, hi) in pairs(x) {
        ranges.extend(scalar_parts(lo, hi).map(|(a, b)| ClassUnicodeRange::new(a, b)));
        let (slo, shi) = (lo.max(SURROGATE_LO), hi.min(SURROGATE_HI));
        if slo <= shi {
            surrogates.extend([slo, shi]);
        }
    }
    let mut class = ClassUnicode::new(ranges);
    // Without the case tables (never, with regex-syntax's default features) the
    // class stays unfolded.
    let _ = class.try_case_fold_simple();
    let mut out: Vec<i32> = class
        .iter()
        .flat_map(|r| [r.start() as i32, r.end() as i32])
        .collect();
    out.extend(surrogates);
    clean_class(&out)
}

/// The case-folding orbit of `r`, sorted (just `r` when it does not fold).
fn orbit(r: i32) -> Vec<i32> {
    if !(MIN_FOLD..=MAX_FOLD).contains(&r) {
        return vec![r];
    }
    let folded = fold_closure(&[r, r]);
    let all: Vec<i32> = pairs(&folded).flat_map(|(lo, hi)| lo..=hi).collect();
    if all.is_empty() { vec![r] } else { all }
}

/// `unicode.SimpleFold`: the next rune of `r`'s orbit, wrapping around.
pub(crate) fn simple_fold(r: i32) -> i32 {
    let o = orbit(r);
    o.iter()
        .copied()
        .find(|&x| x > r)
        .or_else(|| o.first().copied())
        .unwrap_or(r)
}

/// `minFoldRune`: the smallest rune fold-equivalent to `r`.
pub(crate) fn min_fold_rune(r: i32) -> i32 {
    orbit(r).first().copied().unwrap_or(r).min(r)
}

#[cfg(test)]
mod tests {
    use crate::test_support::re;

    #[test]
    fn case_folding() {
        assert!(re("(?i)k").is_match("\u{212A}"));
        assert!(re("(?i)[a-z]").is_match("\u{17F}"));
        assert!(re(r"(?i)\w").is_match("\u{212A}"));
        assert!(!re(r"\w").is_match("\u{212A}"));
        assert!(re("(?i)straße").is_match("STRAẞE") || !re("(?i)ß").is_match("ẞ"));
        assert!(re("(?i:a)b").is_match("Ab"));
        assert!(!re("(?i:a)b").is_match("AB"));
        assert!(re("[Aa]bc").is_match("abc"));
        assert!(!re("(?i)İ").is_match("i"));
        assert!(re("(?i)[^k]").is_match("x"));
        assert!(!re("^(?i)[^k]$").is_match("K"));
    }
}
