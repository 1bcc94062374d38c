//! A lookup table for a fixed set of names (a schema node's properties),
//! built once and queried with every key of every object the node
//! validates.
//!
//! A key is summarized by its length and its first and last eight bytes
//! (fewer for short keys), read as integers: for keys of at most 16 bytes
//! that summary is the whole key, so a match needs no further comparison,
//! and longer keys compare only their middle. Names are bucketed by a
//! multiply-shift of the summary, with the multiplier chosen among a few
//! when the table is built so that buckets stay small; the summaries sit
//! in the table itself, so a lookup reads the key once and the table, and
//! follows no pointer unless a long key matches a summary.

/// The summary of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

const MULTIPLIERS: [u64; 4] = [
    0x9e37_79b9_7f4a_7c15,
    0xbf58_476d_1ce4_e5b9,
    0x94d0_49bb_1331_11eb,
    0xd6e8_feb8_6659_fd93,
];

#[inline]
fn slot(fold: u64, mul: u64, shift: u32) -> usize {
    usize::try_from(fold.wrapping_mul(mul) >> shift).unwrap_or(0)
}

/// Names to their positions in the list they were built from.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameTable {
    /// `(summary, position)`, grouped by bucket.
    entries: Box<[(Head, usize)]>,
    /// The names, by position (for long keys' middles).
    names: Box<[Box<str>]>,
    /// Bucket `i` is `entries[starts[i]..starts[i + 1]]`.
    starts: Box<[usize]>,
    mul: u64,
    shift: u32,
}

impl NameTable {
    /// A table of `names` (positions in iteration order).
    pub(crate) fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> NameTable {
        let names: Box<[Box<str>]> = names.into_iter().map(Box::from).collect();
        if names.is_empty() {
            return NameTable::default();
        }
        let bits = names.len().next_power_of_two().trailing_zeros() + 1;
        let shift = 64 - bits;
        let slots = 1usize << bits;
        let heads: Vec<Head> = names.iter().map(|n| Head::of(n)).collect();
        let mut sizes = vec![0usize; slots];
        let (mut mul, mut best) = (MULTIPLIERS[0], usize::MAX);
        for m in MULTIPLIERS {
            sizes.fill(0);
            // The number of comparisons of finding every name.
            let mut cost = 0;
            for h in &heads {
                if let Some(n) = sizes.get_mut(slot(h.fold(), m, shift)) {
                    *n += 1;
                    cost += *n;
                }
            }
            if cost < best {
                (mul, best) = (m, cost);
            }
            if cost == heads.len() {
                break;
            }
        }
        let mut entries: Vec<(Head, usize)> = heads.into_iter().zip(0..).collect();
        entries.sort_by_key(|(h, i)| (slot(h.fold(), mul, shift), *i));
        let mut starts = vec![0usize; slots + 1];
        for (h, _) in &entries {
            if let Some(n) = starts.get_mut(slot(h.fold(), mul, shift) + 1) {
                *n += 1;
            }
        }
        for i in 1..starts.len() {
            let prev = starts.get(i - 1).copied().unwrap_or(0);
            if let Some(n) = starts.get_mut(i) {
                *n += prev;
            }
        }
        NameTable {
            entries: entries.into_boxed_slice(),
            names,
            starts: starts.into_boxed_slice(),
            mul,
            shift,
        }
    }

    /// The position of `key` among the names.
    #[inline(always)]
    pub(crate) fn get(&self, key: &str) -> Option<usize> {
        if self.entries.is_empty() {
            return None;
        }
        let head = Head::of(key);
        let s = slot(head.fold(), self.mul, self.shift);
        let start = *self.starts.get(s)?;
        let end = *self.starts.get(s + 1)?;
        self.entries
            .get(start..end)?
            .iter()
            .find(|(h, i)| {
                *h == head
                    && (head.len <= INLINE
                        || self
                            .names
                            .get(*i)
                            .is_some_and(|n| n.as_bytes() == key.as_bytes()))
            })
            .map(|(_, i)| *i)
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
        assert_eq!(NameTable::new(["x"]).get("x"), Some(0));
    }
}
