//! The fully built DFA a [`GoRegex`](crate::GoRegex) switches to once it is used
//! often: it matches in a few nanoseconds, without the lazy DFA's cache.

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

type DenseDfa = regex_automata::dfa::dense::DFA<Vec<u32>>;

/// [`DenseCache::is_match`] builds a DFA after this many calls: a DFA is
/// costly to build, and matches in a few nanoseconds, without the lazy
/// DFA's cache.
const DFA_AFTER: u32 = 64;

/// The largest DFA built, in bytes (larger patterns stay on the lazy DFA).
const DFA_SIZE_LIMIT: usize = 256 << 10;

/// A dense DFA for a `regex` crate matcher, built once the matcher is used often.
pub(crate) struct DenseCache {
    /// How many times [`DenseCache::is_match`] ran, up to [`DFA_AFTER`].
    uses: AtomicU32,
    /// A fully built DFA for [`DenseCache::is_match`], once the pattern is
    /// used often (`None` inside: too big to build).
    dfa: OnceLock<Option<DenseDfa>>,
}

impl Clone for DenseCache {
    fn clone(&self) -> Self {
        DenseCache {
            uses: AtomicU32::new(self.uses.load(Ordering::Relaxed)),
            dfa: self.dfa.clone(),
        }
    }
}

impl DenseCache {
    /// An empty cache: no use counted, no DFA built.
    pub(crate) fn new() -> Self {
        DenseCache {
            uses: AtomicU32::new(0),
            dfa: OnceLock::new(),
        }
    }

    /// Whether `text` contains a match of `regex` (unanchored), as the DFA says;
    /// `None` while there is no DFA (the caller asks `regex` itself).
    pub(crate) fn is_match(&self, regex: &regex::Regex, text: &str) -> Option<bool> {
        let dfa = self.dense(regex)?;
        let input = regex_automata::Input::new(text).earliest(true);
        regex_automata::dfa::Automaton::try_search_fwd(dfa, &input)
            .ok()
            .map(|m| m.is_some())
    }

    /// The DFA's answer, building it now (`None`: it cannot be built).
    #[cfg(test)]
    pub(crate) fn is_match_now(&self, regex: &regex::Regex, text: &str) -> Option<bool> {
        self.uses.store(DFA_AFTER, Ordering::Relaxed);
        self.is_match(regex, text)
    }

    /// The DFA for `regex`, once built.
    fn dense(&self, regex: &regex::Regex) -> Option<&DenseDfa> {
        if let Some(d) = self.dfa.get() {
            return d.as_ref();
        }
        if self.uses.fetch_add(1, Ordering::Relaxed) < DFA_AFTER {
            return None;
        }
        self.dfa
            .get_or_init(|| {
                use regex_automata::dfa::{StartKind, dense};
                dense::Builder::new()
                    .configure(
                        dense::DFA::config()
                            .start_kind(StartKind::Unanchored)
                            .dfa_size_limit(Some(DFA_SIZE_LIMIT))
                            .determinize_size_limit(Some(4 * DFA_SIZE_LIMIT)),
                    )
                    .build(regex.as_str())
                    .ok()
            })
            .as_ref()
    }

    /// Adds the cache's fields to `s`, the `Debug` output of the value holding it.
    pub(crate) fn debug_fields(&self, s: &mut fmt::DebugStruct<'_, '_>) {
        s.field("uses", &self.uses).field("dfa", &self.dfa);
    }
}

#[cfg(test)]
mod tests {
    use crate::compile;

    #[test]
    fn dense_dfa_matches_as_the_lazy_one() {
        let patterns = [
            r"^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$",
            r"^[a-zA-Z_][a-zA-Z0-9_]*$",
            r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
            r"",
            r"^",
            r"$",
            r"^$",
            r"\b",
            r"\B",
            r"x*",
            r"(?m)^",
            r"(?m)$",
            r"(?s).",
            r"(?i)straße",
            r"\pL+",
            r"[^a]",
            r"é|",
            r"\d+",
            r"\w\B",
            r"^\p{Greek}*$",
            r"a|b|",
            r"(?U)a+",
            r"^[[:alpha:]]+$",
            r"\Aab\z",
            r"[\x{80}-\x{10FFFF}]",
        ];
        let texts = [
            "",
            "a",
            "ab",
            "30s",
            "1h30m",
            "é",
            "aé",
            "éa",
            "x\ny",
            "\n",
            "Straße",
            "STRASSE",
            "αβγ",
            "__meta_kubernetes_pod_name",
            "web-1.example.com",
            "-bad",
            "123",
            "a b",
            "\u{10FFFF}",
            "日本語",
        ];
        let mut dense = 0;
        for p in patterns {
            let Ok(r) = compile(p) else { continue };
            for t in texts {
                let want = r.regex.is_match(t);
                if let Some(got) = r.dense.is_match_now(&r.regex, t) {
                    dense += 1;
                    assert_eq!(got, want, "{p:?} on {t:?}");
                }
                assert_eq!(r.is_match(t), want, "{p:?} on {t:?}");
            }
        }
        assert!(dense > 300, "{dense}");
    }
}
