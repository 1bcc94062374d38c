//! Character classes as Go's parser builds them: flat lists of inclusive
//! `(lo, hi)` code point pairs, their arithmetic (`appendRange`, `cleanClass`,
//! `negateClass`, ...), and Go's ASCII Perl and POSIX class tables.

/// The largest code point (`unicode.MaxRune`).
pub(crate) const MAX_RUNE: i32 = 0x10_FFFF;

// The surrogate code points, which no Rust `char` (and no text) holds.
pub(crate) const SURROGATE_LO: i32 = 0xD800;
pub(crate) const SURROGATE_HI: i32 = 0xDFFF;

// `\d`, `\s` and `\w` as Go defines them (`perl_groups.go`): ASCII only.
const PERL_DIGIT: &[i32] = &[0x30, 0x39];
const PERL_SPACE: &[i32] = &[0x9, 0xa, 0xc, 0xd, 0x20, 0x20];
const PERL_WORD: &[i32] = &[0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];

/// The Perl class escape `\<b>`: its sign (-1: negated) and its ranges.
pub(crate) fn perl_group(b: u8) -> Option<(i32, &'static [i32])> {
    Some(match b {
        b'd' => (1, PERL_DIGIT),
        b'D' => (-1, PERL_DIGIT),
        b's' => (1, PERL_SPACE),
        b'S' => (-1, PERL_SPACE),
        b'w' => (1, PERL_WORD),
        b'W' => (-1, PERL_WORD),
        _ => return None,
    })
}

/// The POSIX classes of `perl_groups.go`, by their full bracketed name.
pub(crate) fn posix_group(name: &[u8]) -> Option<(i32, &'static [i32])> {
    let inner = name.strip_prefix(b"[:")?.strip_suffix(b":]")?;
    let (sign, inner) = match inner.strip_prefix(b"^") {
        Some(rest) => (-1, rest),
        None => (1, inner),
    };
    let class: &'static [i32] = match inner {
        b"alnum" => &[0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
        b"alpha" => &[0x41, 0x5a, 0x61, 0x7a],
        b"ascii" => &[0x0, 0x7f],
        b"blank" => &[0x9, 0x9, 0x20, 0x20],
        b"cntrl" => &[0x0, 0x1f, 0x7f, 0x7f],
        b"digit" => &[0x30, 0x39],
        b"graph" => &[0x21, 0x7e],
        b"lower" => &[0x61, 0x7a],
        b"print" => &[0x20, 0x7e],
        b"punct" => &[0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
        b"space" => &[0x9, 0xd, 0x20, 0x20],
        b"upper" => &[0x41, 0x5a],
        b"word" => PERL_WORD,
        b"xdigit" => &[0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
        _ => return None,
    };
    Some((sign, class))
}

/// The (lo, hi) pairs of a flat range list.
pub(crate) fn pairs(r: &[i32]) -> impl Iterator<Item = (i32, i32)> + '_ {
    r.chunks_exact(2).filter_map(|p| match *p {
        [lo, hi] => Some((lo, hi)),
        _ => None,
    })
}

/// `appendRange`: appends lo-hi, merging with one of the last two ranges when they
/// overlap or abut.
pub(crate) fn append_range(r: &mut Vec<i32>, lo: i32, hi: i32) {
    let n = r.len();
    for i in [2, 4] {
        if n >= i {
            let (Some(&rlo), Some(&rhi)) = (r.get(n - i), r.get(n - i + 1)) else {
                continue;
            };
            if lo <= rhi + 1 && rlo <= hi + 1 {
                if lo < rlo {
                    if let Some(x) = r.get_mut(n - i) {
                        *x = lo;
                    }
                }
                if hi > rhi {
                    if let Some(x) = r.get_mut(n - i + 1) {
                        *x = hi;
                    }
                }
                return;
            }
        }
    }
    r.push(lo);
    r.push(hi);
}

/// `appendClass`: appends the ranges of `x`.
pub(crate) fn append_class(r: &mut Vec<i32>, x: &[i32]) {
    for (lo, hi) in pairs(x) {
        append_range(r, lo, hi);
    }
}

/// `appendNegatedClass`: appends the complement of the clean class `x`.
pub(crate) fn append_negated_class(r: &mut Vec<i32>, x: &[i32]) {
    let mut next_lo = 0;
    for (lo, hi) in pairs(x) {
        if next_lo < lo {
            append_range(r, next_lo, lo - 1);
        }
        next_lo = hi + 1;
    }
    if next_lo <= MAX_RUNE {
        append_range(r, next_lo, MAX_RUNE);
    }
}

/// `cleanClass`: sorts the ranges and merges overlapping and abutting ones.
pub(crate) fn clean_class(r: &[i32]) -> Vec<i32> {
    let mut ranges: Vec<(i32, i32)> = pairs(r).collect();
    ranges.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut out: Vec<i32> = Vec::with_capacity(r.len());
    for (lo, hi) in ranges {
        if let Some(last_hi) = out.last_mut() {
            if lo <= *last_hi + 1 {
                if hi > *last_hi {
                    *last_hi = hi;
                }
                continue;
            }
        }
        out.push(lo);
        out.push(hi);
    }
    out
}

/// `negateClass`: the complement of the clean class `r`.
pub(crate) fn negate_class(r: &[i32]) -> Vec<i32> {
    let mut out = Vec::with_capacity(r.len() + 2);
    let mut next_lo = 0;
    for (lo, hi) in pairs(r) {
        if next_lo < lo {
            out.push(next_lo);
            out.push(lo - 1);
        }
        next_lo = hi + 1;
    }
    if next_lo <= MAX_RUNE {
        out.push(next_lo);
        out.push(MAX_RUNE);
    }
    out
}

/// The parts of lo-hi that are Unicode scalar values (surrogates excluded).
pub(crate) fn scalar_parts(lo: i32, hi: i32) -> impl Iterator<Item = (char, char)> {
    let below = (lo, hi.min(SURROGATE_LO - 1));
    let above = (lo.max(SURROGATE_HI + 1), hi);
    [below, above].into_iter().filter_map(|(a, b)| {
        if a > b {
            return None;
        }
        let a = char::from_u32(u32::try_from(a).ok()?)?;
        let b = char::from_u32(u32::try_from(b).ok()?)?;
        Some((a, b))
    })
}
