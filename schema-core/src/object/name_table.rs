//! A lookup table for a fixed set of names (a schema node's properties),
//! built once and queried with every key of every object the node
//! validates.
//!
//! A key is summarized by its length and its first and last eight bytes
//! (fewer for short keys), read as integers: for keys of at most 16 bytes
//! that summary is the whole key, so a match needs no further comparison,
//! and longer keys compare the whole key. A multiply-shift of the summary
//! picks the one slot a key can be in: the table is built with the
//! smallest size (from twice the names up) and a multiplier for which no
//! two names share a slot. The summaries sit in the table itself, so a
//! lookup reads the key once and one slot, and follows no pointer unless
//! a long key matches a summary.

/// The summary of a key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Head {
    len: usize,
    first: u64,
    last: u64,
}

const INLINE: usize = 16;

fn word(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    for (d, s) in w.iter_mut().zip(b) {
        *d = *s;
    }
    u64::from_le_bytes(w)
}

impl Head {
    #[inline(always)]
    fn of(key: &str) -> Head {
        let b = key.as_bytes();
        let len = b.len();
        let (first, last) = if len >= 8 {
            (
                b.first_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w)),
                b.last_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w)),
            )
        } else if len >= 4 {
            (
                b.first_chunk::<4>()
                    .map_or(0, |w| u64::from(u32::from_le_bytes(*w))),
                b.last_chunk::<4>()
                    .map_or(0, |w| u64::from(u32::from_le_bytes(*w))),
            )
        } else {
            (word(b), 0)
        };
        Head { len, first, last }
    }

    #[inline]
    fn fold(self) -> u64 {
        self.first ^ self.last.rotate_left(29) ^ (self.len as u64).wrapping_mul(0x9e37_79b9)
    }
}

/// Candidate multipliers: odd constants from a splitmix64 sequence.
fn multipliers() -> impl Iterator<Item = u64> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    std::iter::repeat_with(move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) | 1
    })
}

#[inline]
fn slot(fold: u64, mul: u64, shift: u32) -> usize {
    usize::try_from(fold.wrapping_mul(mul) >> shift).unwrap_or(0)
}

/// How many multipliers a table tries at each size.
const TRIES: usize = 32;

/// Names to their positions in the list they were built from.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameTable {
    /// By slot: the summary and the position plus one (0: empty slot).
    slots: Box<[(Head, usize)]>,
    /// The names, by position (for long keys' middles).
    names: Box<[Box<str>]>,
    mul: u64,
    shift: u32,
}

impl NameTable {
    /// A table of `names` (positions in iteration order). Duplicate names
    /// resolve to their first position.
    pub(crate) fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> NameTable {
        let names: Vec<Box<str>> = names.into_iter().map(Box::from).collect();
        // Duplicates would never hash apart: keep the first of each.
        let mut seen = std::collections::HashSet::new();
        let keep: Vec<bool> = names.iter().map(|n| seen.insert(n.clone())).collect();
        let positions: Vec<usize> = (0..names.len())
            .filter(|i| keep.get(*i) == Some(&true))
            .collect();
        if names.is_empty() {
            return NameTable::default();
        }
        let heads: Vec<(Head, usize)> = positions
            .iter()
            .filter_map(|&i| names.get(i).map(|n| (Head::of(n), i)))
            .collect();
        // The smallest table, from twice the names up, for which one of the
        // multipliers puts every name in a slot of its own.
        let base = heads.len().next_power_of_two().trailing_zeros() + 1;
        for bits in base..base + 8 {
            let shift = 64 - bits;
            let size = 1usize << bits;
            for mul in multipliers().take(TRIES) {
                let mut slots = vec![(Head::default(), 0usize); size];
                let perfect =
                    heads
                        .iter()
                        .all(|&(h, i)| match slots.get_mut(slot(h.fold(), mul, shift)) {
                            Some(e) if e.1 == 0 => {
                                *e = (h, i + 1);
                                true
                            }
                            _ => false,
                        });
                if perfect {
                    return NameTable {
                        slots: slots.into_boxed_slice(),
                        names: names.into_boxed_slice(),
                        mul,
                        shift,
                    };
                }
            }
        }
        // Not reached for sets of distinct names of any realistic size; a
        // linear table (one slot, searched) keeps lookups correct anyway.
        NameTable {
            slots: heads.into_iter().map(|(h, i)| (h, i + 1)).collect(),
            names: names.into_boxed_slice(),
            mul: 0,
            shift: 64,
        }
    }

    /// The position of `key` among the names.
    #[inline(always)]
    pub(crate) fn get(&self, key: &str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let head = Head::of(key);
        let matches = |&(h, i): &(Head, usize)| {
            i != 0
                && h == head
                && (head.len <= INLINE
                    || self
                        .names
                        .get(i - 1)
                        .is_some_and(|n| n.as_bytes() == key.as_bytes()))
        };
        if self.shift == 64 {
            let e = self.slots.iter().find(|e| matches(e))?;
            return e.1.checked_sub(1);
        }
        let e = self.slots.get(slot(head.fold(), self.mul, self.shift))?;
        if matches(e) { e.1.checked_sub(1) } else { None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_names() {
        let names: Vec<String> = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "abcdefghXjklmnopq",
            "apiVersion",
            "kind",
            "metadata",
            "é",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "aaaaaaaaaaaaaaaaaaaabaaaaaaaaaaaaaaaaaaa",
        ]
        .iter()
        .map(ToString::to_string)
        .chain((0..100).map(|i| format!("prop{i}")))
        .collect();
        let t = NameTable::new(names.iter().map(String::as_str));
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.get(n), Some(i), "{n:?}");
        }
        for miss in [
            "b",
            "abcdefghijklmnoq",
            "abcdefghYjklmnopq",
            "aaaaaaaaaaaaaaaaaaaacaaaaaaaaaaaaaaaaaaa",
            "prop100",
            "\0",
            "a\0",
            "kind ",
        ] {
            assert_eq!(t.get(miss), None, "{miss:?}");
        }
        assert_eq!(NameTable::new([]).get(""), None);
        // Without the two long names that share a summary, slots are
        // perfect; duplicates resolve to the first.
        let t = NameTable::new(names.iter().take(11).map(String::as_str));
        assert_ne!(t.shift, 64);
        for (i, n) in names.iter().take(11).enumerate() {
            assert_eq!(t.get(n), Some(i), "{n:?}");
        }
        let many: Vec<String> = (0..300).map(|i| format!("property-{i}")).collect();
        let t = NameTable::new(many.iter().map(String::as_str));
        assert_ne!(t.shift, 64);
        for (i, n) in many.iter().enumerate() {
            assert_eq!(t.get(n), Some(i), "{n:?}");
        }
        assert_eq!(t.get("property-300"), None);
        let t = NameTable::new(["a", "b", "a"]);
        assert_eq!((t.get("a"), t.get("b")), (Some(0), Some(1)));
        assert_eq!(NameTable::new(["x"]).get("x"), Some(0));
    }
}
