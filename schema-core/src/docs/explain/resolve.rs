//! From what a user types to a CRD version and a field path, as kubectl's
//! REST mapper finds resources from discovery.

use super::{Gvk, closest};
use crate::go::versions::priority_order;
use crate::model::wire::CustomResourceDefinition;

/// A resource and field path to explain.
#[derive(Debug, Clone, PartialEq)]
pub struct Target<'c> {
    /// The CRD that defines the resource.
    pub crd: &'c CustomResourceDefinition,
    /// Its group, the version to explain, and its kind.
    pub gvk: Gvk,
    /// The resource (the CRD's plural).
    pub resource: String,
    /// The field path below the resource.
    pub fields: Vec<String>,
}

/// Why a request names no resource.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No CRD has this kind, plural, singular or short name.
    #[error("the server doesn't have a resource type \"{name}\"{}", did_you_mean(.suggestion))]
    UnknownResource {
        /// The name given.
        name: String,
        /// The closest name known, if one is close.
        suggestion: Option<String>,
    },
    /// Several CRDs of different groups answer to the name.
    #[error(
        "\"{name}\" is ambiguous: it names {}; add the group, as in \"{}\"",
        .candidates.join(", "),
        .candidates.first().map(String::as_str).unwrap_or_default()
    )]
    Ambiguous {
        /// The name given.
        name: String,
        /// `<plural>.<group>` of each CRD it names.
        candidates: Vec<String>,
    },
    /// `--api-version` is not `group/version` of a served version.
    #[error("couldn't find resource for \"{0}\"")]
    VersionNotServed(String),
    /// The CRD serves no version.
    #[error("the resource \"{0}\" has no served version")]
    NoServedVersion(String),
    /// The request is not a dotted path of names.
    #[error("invalid resource or field path {0:?}: expected RESOURCE[.FIELD...]")]
    Syntax(String),
}

fn did_you_mean(s: &Option<String>) -> String {
    s.as_ref()
        .map(|s| format!("; did you mean \"{s}\"?"))
        .unwrap_or_default()
}

/// The names a CRD answers to, lowercased: plural, singular, kind and
/// short names.
fn names_of(crd: &CustomResourceDefinition) -> Vec<String> {
    let Some(n) = crd.spec.as_ref().and_then(|s| s.names.as_ref()) else {
        return Vec::new();
    };
    let mut out: Vec<String> = [&n.plural, &n.singular, &n.kind]
        .into_iter()
        .flatten()
        .map(|s| s.to_lowercase())
        .collect();
    out.extend(n.short_names.iter().flatten().map(|s| s.to_lowercase()));
    out.retain(|s| !s.is_empty());
    out
}

fn group_of(crd: &CustomResourceDefinition) -> &str {
    crd.spec
        .as_ref()
        .and_then(|s| s.group.as_deref())
        .unwrap_or("")
}

fn plural_of(crd: &CustomResourceDefinition) -> &str {
    crd.spec
        .as_ref()
        .and_then(|s| s.names.as_ref())
        .and_then(|n| n.plural.as_deref())
        .unwrap_or("")
}

/// The served versions of a CRD in discovery's order (the preferred
/// first).
pub fn served_versions(crd: &CustomResourceDefinition) -> Vec<&str> {
    let mut v = crate::crd::publish::served_versions(crd);
    v.sort_by(|a, b| priority_order(a, b));
    v
}

/// The resource and field path `request` names among `crds`: its first
/// dot-separated name is a kind, plural, singular or short name
/// (case-insensitive), or `<plural>.<group>` when the name alone is
/// ambiguous; the rest is the field path. The version is `api_version`'s
/// (`group/version`) or the one discovery prefers.
///
/// # Errors
///
/// [`ResolveError`]: the name is unknown or ambiguous, or the version is
/// not served.
pub fn resolve<'c>(
    crds: &'c [CustomResourceDefinition],
    request: &str,
    api_version: Option<&str>,
) -> Result<Target<'c>, ResolveError> {
    let parts: Vec<&str> = request.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(ResolveError::Syntax(request.to_string()));
    }
    let name = parts[0].to_lowercase();
    let mut matches: Vec<&CustomResourceDefinition> = crds
        .iter()
        .filter(|c| names_of(c).contains(&name))
        .collect();
    // The same CRD given twice (or in several files) is one resource.
    matches.dedup_by(|a, b| group_of(a) == group_of(b) && plural_of(a) == plural_of(b));
    let mut fields_from = 1;
    if !matches.is_empty() {
        // `<plural>.<group>...`: the longest group that prefixes the rest.
        let lower = request.to_lowercase();
        let by_group = matches
            .iter()
            .filter(|c| {
                let gr = format!("{}.{}", plural_of(c), group_of(c));
                lower == gr || lower.starts_with(&format!("{gr}."))
            })
            .max_by_key(|c| group_of(c).len());
        if let Some(c) = by_group {
            fields_from = 1 + group_of(c).split('.').count();
            matches = vec![*c];
        }
    }
    if let Some(av) = api_version
        && matches.len() > 1
    {
        let group = av.rsplit_once('/').map_or("", |(g, _)| g);
        matches.retain(|c| group_of(c) == group);
    }
    let crd = match matches.as_slice() {
        [] => {
            let known: Vec<String> = crds.iter().flat_map(names_of).collect();
            return Err(ResolveError::UnknownResource {
                name: parts[0].to_string(),
                suggestion: closest(&name, known.iter().map(String::as_str)),
            });
        }
        [one] => *one,
        many => {
            return Err(ResolveError::Ambiguous {
                name: parts[0].to_string(),
                candidates: many
                    .iter()
                    .map(|c| format!("{}.{}", plural_of(c), group_of(c)))
                    .collect(),
            });
        }
    };
    let group = group_of(crd).to_string();
    let resource = plural_of(crd).to_string();
    let served = served_versions(crd);
    let version = match api_version {
        Some(av) => {
            let (g, v) = av.rsplit_once('/').unwrap_or(("", av));
            if g != group || !served.contains(&v) {
                return Err(ResolveError::VersionNotServed(format!(
                    "{g}/{v}, Resource={resource}"
                )));
            }
            v.to_string()
        }
        None => match served.first() {
            Some(v) => (*v).to_string(),
            None => return Err(ResolveError::NoServedVersion(resource)),
        },
    };
    let kind = crd
        .spec
        .as_ref()
        .and_then(|s| s.names.as_ref())
        .and_then(|n| n.kind.clone())
        .unwrap_or_default();
    Ok(Target {
        crd,
        gvk: Gvk {
            group,
            version,
            kind,
        },
        resource,
        fields: parts[fields_from.min(parts.len())..]
            .iter()
            .map(|s| (*s).to_string())
            .collect(),
    })
}
