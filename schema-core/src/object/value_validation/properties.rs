//! The object checks (kube-openapi's `objectValidator`): `minProperties`,
//! `maxProperties`, `properties`, `required`, `additionalProperties` and
//! `patternProperties`.

use serde_json::{Map, Value};

use super::chain::validate_node;
use super::error::{Kind, Raw};
use super::node::Node;
use crate::model::field::DottedPath;

/// `validatePatternProperty`: validates `value` against every pattern
/// property matching `key`; returns whether one matched.
fn pattern_property<'a>(
    n: &'a Node,
    key: &'a str,
    value: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
    mc: &mut u64,
) -> bool {
    let mut matched = false;
    for (_, re, s) in &n.pattern_properties {
        if re.as_ref().is_some_and(|r| r.is_match(key)) {
            matched = true;
            *mc += validate_node(s, value, &DottedPath::Dot(path, key), out);
        }
    }
    matched
}

/// `objectValidator.Validate`; returns its match count.
pub(super) fn check_object<'a>(
    n: &'a Node,
    map: &'a Map<String, Value>,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    let num = i64::try_from(map.len()).unwrap_or(i64::MAX);
    if let Some(min) = n.min_properties {
        if num < min {
            out.push(Raw {
                origin: None,
                name: path.render(),
                kind: Kind::TooFewProperties { min, n: num },
            });
        }
    }
    if let Some(max) = n.max_properties {
        if num > max {
            out.push(Raw {
                origin: None,
                name: path.render(),
                kind: Kind::TooManyProperties { max, n: num },
            });
        }
    }
    let mut mc = 0;
    // One pass over the keys looks each one up among the properties once,
    // does the additionalProperties and patternProperties checks (their
    // errors come in key order, as kube-openapi's loops give them) and
    // collects the present properties, validated below in the properties'
    // (sorted) order.
    let closed = n
        .additional_properties
        .as_ref()
        .is_some_and(|ap| !ap.allows);
    let ap_schema = n
        .additional_properties
        .as_ref()
        .filter(|ap| ap.allows)
        .and_then(|ap| ap.schema.as_deref());
    let open_checks = !closed && (ap_schema.is_some() || !n.pattern_properties.is_empty());
    let mut object_path: Option<String> = None;
    let mut present = Present::new(n.properties.len());
    for (key, value) in map {
        let index = if n.properties.is_empty() {
            None
        } else {
            n.names.get(key)
        };
        if closed {
            if index.is_none() && !n.pattern_matches(key) {
                let name = object_path.get_or_insert_with(|| path.render()).clone();
                out.push(Raw {
                    origin: None,
                    name,
                    kind: Kind::NotAllowed { key },
                });
            }
        } else if open_checks {
            let matched = pattern_property(n, key, value, path, out, &mut mc);
            if index.is_none() && !matched {
                if let Some(s) = ap_schema {
                    mc += validate_node(s, value, &DottedPath::Dot(path, key), out);
                }
            }
        }
        if let Some(i) = index {
            present.push(i, value);
        }
    }
    present.for_each_sorted(|i, value| {
        if let Some((name, s)) = n.properties.get_index(i) {
            mc += validate_node(s, value, &DottedPath::Child(path, name), out);
        }
    });
    for (key, index) in n.required.iter().zip(&n.required_props) {
        let found = match index {
            Some(i) => present.has(*i),
            None => map.contains_key(key),
        };
        if !found {
            out.push(Raw {
                origin: None,
                name: DottedPath::Dot(path, key).render(),
                kind: Kind::Required,
            });
        }
    }
    if !n.pattern_properties.is_empty() {
        for (key, value) in map {
            let regular = n.properties.contains_key(key);
            let matched = pattern_property(n, key, value, path, out, &mut mc);
            if !regular && matched {
                for (_, re, s) in &n.pattern_properties {
                    if re.as_ref().is_some_and(|r| r.is_match(key)) {
                        mc += validate_node(s, value, &DottedPath::Dot(path, key), out);
                    }
                }
            }
        }
    }
    mc
}

/// The properties present in an object, by index, with their values: a
/// bit set and a table on the stack when the node has at most 64
/// properties (visited in index order by the bits), else a list sorted
/// when visited. The small table lives on the stack on purpose.
#[allow(clippy::large_enum_variant)]
enum Present<'a> {
    Small {
        mask: u64,
        values: [Option<&'a Value>; 64],
    },
    Large(Vec<(usize, &'a Value)>),
}

impl<'a> Present<'a> {
    fn new(properties: usize) -> Self {
        if properties <= 64 {
            Present::Small {
                mask: 0,
                values: [None; 64],
            }
        } else {
            Present::Large(Vec::new())
        }
    }

    fn push(&mut self, i: usize, v: &'a Value) {
        match self {
            Present::Small { mask, values } => {
                if let Some(slot) = values.get_mut(i) {
                    *slot = Some(v);
                    *mask |= 1 << i;
                }
            }
            Present::Large(list) => list.push((i, v)),
        }
    }

    /// Calls `f` on the entries in index order.
    fn for_each_sorted(&mut self, mut f: impl FnMut(usize, &'a Value)) {
        match self {
            Present::Small { mask, values } => {
                let mut m = *mask;
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if let Some(Some(v)) = values.get(i) {
                        f(i, v);
                    }
                }
            }
            Present::Large(list) => {
                list.sort_unstable_by_key(|(i, _)| *i);
                for &(i, v) in list.iter() {
                    f(i, v);
                }
            }
        }
    }

    /// Whether property `i` is present (once sorted, for a large node).
    fn has(&self, i: usize) -> bool {
        match self {
            Present::Small { mask, .. } => i < 64 && mask & (1 << i) != 0,
            Present::Large(list) => list.binary_search_by_key(&i, |(j, _)| *j).is_ok(),
        }
    }
}
