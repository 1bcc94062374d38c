//! The cells of a kind's summary that both reference documents print (the
//! subresources, the rows of the versions table), computed once: the
//! Markdown and HTML renderers only mark them up.

use super::reference::KindVersion;

/// How a row of the versions table names its version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VersionName {
    /// The version the page is about: emphasized.
    Current,
    /// Another served version: a link to its page.
    Served,
    /// A version that is not served: plain text (it has no page).
    Unserved,
}

/// One row of a kind's versions table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VersionRow<'a> {
    /// The version's name, as written.
    pub(crate) name: &'a str,
    /// How the name reads.
    pub(crate) name_kind: VersionName,
    /// The "served" cell: `yes` or `no`.
    pub(crate) served: &'static str,
    /// The "storage" cell: `yes` or `no`.
    pub(crate) storage: &'static str,
    /// The "deprecated" cell, marked up: `yes: <warning>` when the version
    /// is deprecated with a warning, else `yes` or `no`.
    pub(crate) deprecated: String,
}

/// The rows of `k`'s versions table, every version of the CRD in version
/// priority; `escape` marks up a deprecation warning.
pub(crate) fn version_rows<'a>(
    k: &'a KindVersion,
    escape: impl Fn(&str) -> String,
) -> Vec<VersionRow<'a>> {
    k.summary
        .versions
        .iter()
        .map(|other| VersionRow {
            name: &other.name,
            name_kind: if other.name == k.version.name {
                VersionName::Current
            } else if other.served {
                VersionName::Served
            } else {
                VersionName::Unserved
            },
            served: yes(other.served),
            storage: yes(other.storage),
            deprecated: match (other.deprecated, &other.deprecation_warning) {
                (true, Some(w)) => format!("yes: {}", escape(w)),
                (d, _) => yes(d).to_string(),
            },
        })
        .collect()
}

/// The "Subresources" cell of `k`'s summary: `status`, then `scale` with
/// its paths (each marked up by `code`), or `none`.
pub(crate) fn subresources(k: &KindVersion, code: impl Fn(&str) -> String) -> String {
    let mut sub = Vec::new();
    if k.status_subresource {
        sub.push("status".to_string());
    }
    if let Some(scale) = &k.scale {
        let mut parts = vec![
            format!("spec replicas {}", code(&scale.spec_replicas_path)),
            format!("status replicas {}", code(&scale.status_replicas_path)),
        ];
        if let Some(l) = &scale.label_selector_path {
            parts.push(format!("label selector {}", code(l)));
        }
        sub.push(format!("scale ({})", parts.join(", ")));
    }
    if sub.is_empty() {
        "none".to_string()
    } else {
        sub.join("; ")
    }
}

/// `yes` or `no`, as the versions table prints a flag.
fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}
