//! Evidence from stored objects: the objects a rollout from OLD to NEW
//! would break, found by admitting them as the API server would (the
//! object admission of `object::admission`), rather than by the rules
//! alone.
//!
//! Each object is first stored under OLD (pruned and defaulted as the
//! server stored it; an object OLD itself refuses is left out), then, under
//! NEW, read back (pruned and defaulted again) and written back unchanged
//! as an update (which ratchets values left alone), and created anew.

use serde_json::Value;

use super::{Finding, rules};
use crate::model::options::Options;
use crate::model::wire::CustomResourceDefinition;
use crate::object::admission::Admission;
use crate::object::resource_version::as_stored;

/// What NEW does to one stored object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectEvidence {
    /// The position of the object in the input.
    pub index: usize,
    /// `Kind namespace/name` (or `Kind name`).
    pub object: String,
    /// The findings, each with the object's version and field.
    pub findings: Vec<Finding>,
}

/// The most paths listed for one object and one rule.
const MAX_PATHS: usize = 20;

/// The CRD of `crds` that defines `group` and `kind`.
fn crd_for<'c>(
    crds: &'c [CustomResourceDefinition],
    group: &str,
    kind: &str,
) -> Option<&'c CustomResourceDefinition> {
    crds.iter().find(|c| {
        let spec = c.spec.as_ref();
        spec.and_then(|s| s.group.as_deref()) == Some(group)
            && spec
                .and_then(|s| s.names.as_ref())
                .and_then(|n| n.kind.as_deref())
                == Some(kind)
    })
}

fn is_served(crd: &CustomResourceDefinition, version: &str) -> bool {
    crate::crd::publish::served_versions(crd).contains(&version)
}

/// `Kind namespace/name` of an object.
fn describe(obj: &Value, kind: &str) -> String {
    let meta = obj.get("metadata");
    let field = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str);
    match (field("namespace"), field("name")) {
        (Some(ns), Some(n)) => format!("{kind} {ns}/{n}"),
        (None, Some(n)) => format!("{kind} {n}"),
        _ => kind.to_string(),
    }
}

/// The paths (dot-joined, `[i]` for items) where `after` has a value that
/// `before` lacks or holds differently, without recursion.
fn changed_paths(before: &Value, after: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), Some(before), after)];
    while let Some((path, b, a)) = stack.pop() {
        match (b, a) {
            (Some(Value::Object(bm)), Value::Object(am)) => {
                for (k, av) in am.iter().rev() {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    stack.push((p, bm.get(k), av));
                }
            }
            (Some(Value::Array(ba)), Value::Array(aa)) if ba.len() == aa.len() => {
                for (i, av) in aa.iter().enumerate().rev() {
                    stack.push((format!("{path}[{i}]"), ba.get(i), av));
                }
            }
            (Some(b), a) if b == a => {}
            (_, a) => out.push((path, a.clone())),
        }
    }
    out
}

/// A finding of `rule` about the object's field `path`.
fn finding(
    rule: &rules::Rule,
    crd: &str,
    version: &str,
    path: Option<String>,
    message: String,
) -> Finding {
    let mut f = Finding::new(rule, crd, message);
    f.version = Some(version.to_string());
    f.new_path = path;
    f
}

/// What rolling out NEW does to each of `objects` (stored objects, as
/// YAML or JSON values) that belongs to a CRD of OLD; objects of other
/// kinds, and objects OLD itself refuses, are left out.
pub fn evidence(
    old: &[CustomResourceDefinition],
    new: &[CustomResourceDefinition],
    objects: &[Value],
) -> Vec<ObjectEvidence> {
    let mut out = Vec::new();
    for (index, obj) in objects.iter().enumerate() {
        let api_version = obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
        let Some((group, version)) = api_version.rsplit_once('/') else {
            continue;
        };
        let Some(old_crd) = crd_for(old, group, kind) else {
            continue;
        };
        let Ok(old_admission) = Admission::for_crd(old_crd, version, &Options::default()) else {
            continue;
        };
        let stored = old_admission.create(obj.clone());
        if !stored.errors.is_empty() || stored.rejected.is_some() {
            continue;
        }
        let stored = stored.object;
        let crd = old_crd.name().unwrap_or_default().to_string();
        let mut findings = Vec::new();
        match crd_for(new, group, kind) {
            None => findings.push(finding(
                &rules::OBJECT_KIND_REMOVED,
                &crd,
                version,
                None,
                "NEW has no CRD for its kind: the object is deleted with the CRD".into(),
            )),
            Some(new_crd) if !is_served(new_crd, version) => findings.push(finding(
                &rules::OBJECT_VERSION_NOT_SERVED,
                &crd,
                version,
                None,
                format!(
                    "NEW does not serve {api_version}: the object cannot be read or written there"
                ),
            )),
            Some(new_crd) => match Admission::for_crd(new_crd, version, &Options::default()) {
                Err(e) => findings.push(finding(
                    &rules::OBJECT_UPDATE_REJECTED,
                    &crd,
                    version,
                    None,
                    format!("NEW's schema of {version} cannot admit objects: {e}"),
                )),
                Ok(new_admission) => {
                    object_findings(&new_admission, &stored, &crd, version, &mut findings);
                }
            },
        }
        if !findings.is_empty() {
            out.push(ObjectEvidence {
                index,
                object: describe(obj, kind),
                findings,
            });
        }
    }
    out
}

/// The findings of one stored object under NEW's admission.
fn object_findings(
    admission: &Admission,
    stored: &Value,
    crd: &str,
    version: &str,
    findings: &mut Vec<Finding>,
) {
    // As stored, the object has a resource version; the update carries it.
    let stored = &as_stored(stored.clone());
    let update = admission.update(stored.clone(), stored.clone());
    if let Some(why) = &update.rejected {
        findings.push(finding(
            &rules::OBJECT_UPDATE_REJECTED,
            crd,
            version,
            None,
            why.clone(),
        ));
        return;
    }
    for e in update.errors.iter().take(MAX_PATHS) {
        findings.push(finding(
            &rules::OBJECT_UPDATE_REJECTED,
            crd,
            version,
            Some(e.field.to_string()),
            format!("writing the object back unchanged is refused: {e}"),
        ));
    }
    let created = admission.create(stored.clone());
    for e in created.errors.iter().take(MAX_PATHS) {
        let mut f = finding(
            &rules::OBJECT_INVALID,
            crd,
            version,
            Some(e.field.to_string()),
            format!("{e} (an update leaving the value alone passes: ratcheted)"),
        );
        f.ratcheted = true;
        findings.push(f);
    }
    for p in update.pruned.iter().take(MAX_PATHS) {
        findings.push(finding(
            &rules::OBJECT_FIELDS_PRUNED,
            crd,
            version,
            Some(p.clone()),
            "the field is not in NEW's schema: the server drops it on the next write".into(),
        ));
    }
    for (p, v) in changed_paths(stored, &update.object)
        .into_iter()
        .take(MAX_PATHS)
    {
        let shown = super::text::bounded(
            &super::text::one_line(&v.to_string()),
            super::text::MAX_VALUE_CHARS,
        );
        findings.push(finding(
            &rules::OBJECT_DEFAULTED,
            crd,
            version,
            Some(p),
            format!("reads back as {shown} under NEW's defaults"),
        ));
    }
}
