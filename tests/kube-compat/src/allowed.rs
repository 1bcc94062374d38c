//! The differences between kube-derive's CRDs and ours that are meant:
//! one row per difference, with the reason. The comparison fails on a
//! difference no row lists and on a row that no longer matches any
//! difference (the list only ever says what is true). Every CRD a row
//! matches must be accepted by the API server on both sides (the verdict
//! tests judge every CRD of every source).

use std::fmt;

use crate::diff::{Change, Difference};

/// One meant difference.
#[derive(Clone, Copy, Debug)]
pub struct Allowed {
    /// The source (its file name under `src/shapes/`), or `*` for every
    /// source.
    pub source: &'static str,
    /// The CRD's name in the source's `crds()`, or `*` for all of them.
    pub crd: &'static str,
    /// The node's JSON pointer; a segment `*` matches any one segment.
    pub path: &'static str,
    /// How it differs.
    pub change: Change,
    /// Why ours differs, and why the API server accepts both.
    pub reason: &'static str,
}

/// The meant differences.
pub const ALLOWED: &[Allowed] = &[
    Allowed {
        source: "*",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/apiVersion",
        change: Change::OursOnly,
        reason: ROOT_FIELDS,
    },
    Allowed {
        source: "*",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/kind",
        change: Change::OursOnly,
        reason: ROOT_FIELDS,
    },
    Allowed {
        source: "*",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/metadata",
        change: Change::OursOnly,
        reason: ROOT_FIELDS,
    },
    Allowed {
        source: "crd_derive_schema",
        crd: "knobs",
        path: "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/plainList/items/format",
        change: Change::Differs,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_derive_schema",
        crd: "knobs",
        path: "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/plainList/items/maximum",
        change: Change::OursOnly,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_derive_multi",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/legacy/format",
        change: Change::Differs,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_derive_multi",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/legacy/maximum",
        change: Change::OursOnly,
        reason: UNSIGNED,
    },
    Allowed {
        source: "*",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/status/properties/replicas/format",
        change: Change::KubeOnly,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_mixed_enum",
        crd: "newtypes",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/B/format",
        change: Change::Differs,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_mixed_enum",
        crd: "newtypes",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/B/maximum",
        change: Change::OursOnly,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_mixed_enum",
        crd: "newtypeandstructs",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/B/properties/inner/format",
        change: Change::Differs,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_mixed_enum",
        crd: "newtypeandstructs",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/B/properties/inner/maximum",
        change: Change::OursOnly,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_mixed_enum",
        crd: "sharedfields",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/inner/format",
        change: Change::Differs,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_mixed_enum",
        crd: "sharedfields",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/inner/maximum",
        change: Change::OursOnly,
        reason: UNSIGNED,
    },
    Allowed {
        source: "crd_schema",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/optionalRoleWithDoc/description",
        change: Change::Differs,
        reason: OPTIONAL_ENUM_DOC,
    },
    Allowed {
        source: "crd_schema",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/set/x-kubernetes-list-type",
        change: Change::OursOnly,
        reason: SET_LIST_TYPE,
    },
    Allowed {
        source: "crd_schema",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/optional_port/anyOf",
        change: Change::OursOnly,
        reason: INT_OR_STRING,
    },
    Allowed {
        source: "crd_schema",
        crd: "*",
        path: "/spec/versions/*/schema/openAPIV3Schema/properties/spec/properties/required_port/anyOf",
        change: Change::OursOnly,
        reason: INT_OR_STRING,
    },
];

/// Why ours describes the root's `apiVersion`, `kind` and `metadata`.
const ROOT_FIELDS: &str = "ours describes the root's apiVersion and kind (strings, with \
     their documentation) and metadata (an object) as controller-gen does; kube-derive leaves \
     them out. The server accepts both: it validates these three itself, and a root schema may \
     describe them (metadata only as `type: object`)";

/// Why ours gives unsigned integers bounds instead of a format.
const UNSIGNED: &str = "schemars writes unsigned integers with `format: uint32` or `uint`, \
     formats the API server does not recognize and validates nothing with; ours writes the \
     range (`minimum: 0`, and `maximum` below 64 bits), which the server enforces, with \
     `int32`/`int64`. The server accepts both";

/// Why ours keeps the field's documentation on an `Option` of an enum.
const OPTIONAL_ENUM_DOC: &str = "an `Option` of a string enum with a doc comment: kube's \
     rewrite of schemars' `anyOf: [enum, null]` replaces the node with the enum's own schema, \
     and so the field's description with the enum's; ours keeps the field's. Descriptions do \
     not validate";

/// Why ours marks a set's list type.
const SET_LIST_TYPE: &str = "a `BTreeSet`/`HashSet`: kube-derive drops schemars' \
     `uniqueItems` (which the server forbids) and writes a plain list; ours writes \
     `x-kubernetes-list-type: set`, which the server enforces and which a serialized Rust set \
     always satisfies. The server accepts both";

/// Why ours writes an int-or-string's `anyOf`.
const INT_OR_STRING: &str = "an `IntOrString`: ours writes controller-gen's shape \
     (`x-kubernetes-int-or-string: true` with `anyOf: [{type: integer}, {type: string}]`), \
     kube-derive k8s-openapi's (the extension alone). The server accepts both and validates \
     the same values";

/// A difference found in one CRD of one source.
#[derive(Clone, Debug)]
pub struct Found {
    /// The source's name.
    pub source: &'static str,
    /// The CRD's name in the source's `crds()`.
    pub crd: &'static str,
    /// The difference.
    pub difference: Difference,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.source, self.crd, self.difference)
    }
}

impl Allowed {
    /// Whether this row lists `found`.
    pub fn lists(&self, found: &Found) -> bool {
        (self.source == "*" || self.source == found.source)
            && (self.crd == "*" || self.crd == found.crd)
            && self.change == found.difference.change
            && pointer_matches(self.path, &found.difference.path)
    }

    /// The row as Rust, to paste into [`ALLOWED`] (the reason left to
    /// write).
    pub fn row_for(found: &Found) -> String {
        format!(
            "Allowed {{ source: {:?}, crd: {:?}, path: {:?}, change: Change::{:?}, reason: \"...\" }},",
            found.source, found.crd, found.difference.path, found.difference.change
        )
    }
}

/// What the allow-list says of a comparison's differences.
#[derive(Debug, Default)]
pub struct Verdict<'a> {
    /// Differences no row lists.
    pub unlisted: Vec<&'a Found>,
    /// Differences some row lists, each with its row.
    pub listed: Vec<(&'a Found, &'static Allowed)>,
    /// Rows of `rows` that list none of the differences.
    pub stale: Vec<&'static Allowed>,
}

/// Sorts `found` by the rows of `rows` (normally [`ALLOWED`]).
pub fn judge<'a>(found: &'a [Found], rows: &'static [Allowed]) -> Verdict<'a> {
    let mut verdict = Verdict::default();
    for f in found {
        match rows.iter().find(|row| row.lists(f)) {
            Some(row) => verdict.listed.push((f, row)),
            None => verdict.unlisted.push(f),
        }
    }
    verdict.stale = rows
        .iter()
        .filter(|row| !found.iter().any(|f| row.lists(f)))
        .collect();
    verdict
}

/// Whether the pointer `pattern` (segments `*` matching any one segment)
/// names `path`.
fn pointer_matches(pattern: &str, path: &str) -> bool {
    let mut want = pattern.split('/');
    let mut have = path.split('/');
    loop {
        match (want.next(), have.next()) {
            (None, None) => return true,
            (Some(w), Some(h)) if w == "*" || w == h => {}
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Allowed, Found, judge, pointer_matches};
    use crate::diff::{Change, Difference};

    fn found(crd: &'static str, path: &str, change: Change) -> Found {
        Found {
            source: "src",
            crd,
            difference: Difference {
                path: path.to_string(),
                change,
                kube: Some(json!(1)),
                ours: None,
            },
        }
    }

    #[test]
    fn a_star_segment_matches_one_segment() {
        assert!(pointer_matches("/a/*/c", "/a/b/c"));
        assert!(!pointer_matches("/a/*/c", "/a/b/x/c"));
        assert!(!pointer_matches("/a/*", "/a"));
    }

    #[test]
    fn unlisted_differences_and_stale_rows_are_reported() {
        static ROWS: &[Allowed] = &[
            Allowed {
                source: "*",
                crd: "a",
                path: "/x/*",
                change: Change::KubeOnly,
                reason: "meant",
            },
            Allowed {
                source: "src",
                crd: "*",
                path: "/gone",
                change: Change::Differs,
                reason: "fixed since",
            },
        ];
        let all = [
            found("a", "/x/y", Change::KubeOnly),
            found("a", "/x/y", Change::OursOnly),
            found("b", "/x/y", Change::KubeOnly),
        ];
        let verdict = judge(&all, ROWS);
        assert_eq!(verdict.listed.len(), 1);
        assert_eq!(verdict.unlisted.len(), 2);
        assert_eq!(verdict.stale.len(), 1);
        assert_eq!(verdict.stale[0].path, "/gone");
        assert_eq!(
            Allowed::row_for(verdict.unlisted[0]),
            "Allowed { source: \"src\", crd: \"a\", path: \"/x/y\", change: Change::OursOnly, reason: \"...\" },"
        );
    }
}
