//! Versions: which are removed, added, served, stored, deprecated, and per
//! version present on both sides, the subresources, printer columns,
//! selectable fields and the schema.

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::Value;

use crate::model::wire::{
    CrdSpec, CrdSubresources, CrdVersion, CustomResourceDefinition, PrinterColumn, ScaleSubresource,
};

use super::path::from_json_path;
use super::text::quoted;
use super::{DiffOptions, Finding, Rule, rules, schema};

/// The versions that hold data: the options', else OLD's
/// `status.storedVersions` when it lists any, else OLD's storage version.
pub(super) fn stored_versions(
    old: &CustomResourceDefinition,
    options: &DiffOptions,
) -> Vec<String> {
    if let Some(v) = &options.stored_versions {
        return v.clone();
    }
    let from_status: Vec<String> = old
        .status
        .as_ref()
        .and_then(|s| s.get("storedVersions"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if !from_status.is_empty() {
        return from_status;
    }
    old.spec
        .as_ref()
        .and_then(|s| s.versions.as_ref())
        .into_iter()
        .flatten()
        .filter(|v| v.storage == Some(true))
        .filter_map(|v| v.name.clone())
        .collect()
}

fn by_name(spec: &CrdSpec) -> IndexMap<&str, &CrdVersion> {
    let mut out = IndexMap::new();
    for v in spec.versions.as_deref().unwrap_or(&[]) {
        out.entry(v.name.as_deref().unwrap_or("")).or_insert(v);
    }
    out
}

fn storage(spec: &CrdSpec) -> Option<&str> {
    spec.versions
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .find(|v| v.storage == Some(true))
        .map(|v| v.name.as_deref().unwrap_or(""))
}

fn at(rule: &Rule, crd: &str, version: &str, message: String) -> Finding {
    let mut f = Finding::new(rule, crd, message);
    f.version = Some(version.to_string());
    f
}

/// The versions of two CRDs of the same name.
pub(super) fn diff_versions(
    crd: &str,
    old: &CrdSpec,
    new: &CrdSpec,
    stored: &[String],
    out: &mut Vec<Finding>,
) {
    let old_versions = by_name(old);
    let new_versions = by_name(new);
    let stored: HashSet<&str> = stored.iter().map(String::as_str).collect();

    for (&name, &o) in &old_versions {
        if new_versions.contains_key(name) {
            continue;
        }
        let served = o.served == Some(true);
        let is_stored = stored.contains(name);
        if served {
            out.push(at(
                &rules::VERSION_REMOVED_SERVED,
                crd,
                name,
                "a served version is removed: clients and controllers using it get 404s"
                    .to_string(),
            ));
        }
        if is_stored {
            out.push(at(
                &rules::VERSION_REMOVED_STORED,
                crd,
                name,
                "the version holds data (status.storedVersions): the server refuses to remove it until every object is migrated to the storage version (read and written back, e.g. by a storage version migration) and the version is dropped from status.storedVersions".to_string(),
            ));
        }
        if !served && !is_stored {
            out.push(at(
                &rules::VERSION_REMOVED,
                crd,
                name,
                "a version neither served nor stored is removed".to_string(),
            ));
        }
    }
    for &name in new_versions.keys() {
        if !old_versions.contains_key(name) {
            out.push(at(
                &rules::VERSION_ADDED,
                crd,
                name,
                "a new version".to_string(),
            ));
        }
    }

    if let (Some(o), Some(n)) = (storage(old), storage(new))
        && o != n
    {
        out.push(at(
            &rules::STORAGE_VERSION_CHANGED,
            crd,
            n,
            format!(
                "the storage version moves from {} to {}: new writes are stored at {}, existing objects stay at {} until rewritten, so {} must stay (served or converted) until a storage migration is done, and a rollback must still understand {}",
                quoted(o),
                quoted(n),
                quoted(n),
                quoted(o),
                quoted(o),
                quoted(n)
            ),
        ));
    }

    for (&name, &o) in &old_versions {
        let Some(&n) = new_versions.get(name) else {
            continue;
        };
        diff_version(crd, name, o, n, out);
    }
}

/// One version present on both sides.
fn diff_version(crd: &str, name: &str, old: &CrdVersion, new: &CrdVersion, out: &mut Vec<Finding>) {
    if old.served == Some(true) && new.served != Some(true) {
        out.push(at(
            &rules::VERSION_UNSERVED,
            crd,
            name,
            "the version is no longer served: clients and controllers using it get 404s; its data stays".to_string(),
        ));
    }
    if old.deprecated != Some(true) && new.deprecated == Some(true) {
        out.push(at(
            &rules::VERSION_DEPRECATED,
            crd,
            name,
            "the version is deprecated: its clients get a deprecation warning".to_string(),
        ));
    }

    let old_schema = old
        .schema
        .as_ref()
        .and_then(|s| s.open_api_v3_schema.as_ref());
    let new_schema = new
        .schema
        .as_ref()
        .and_then(|s| s.open_api_v3_schema.as_ref());
    match (old_schema, new_schema) {
        (Some(o), Some(n)) => schema::diff_schema(crd, name, o, n, out),
        (Some(_), None) => out.push(at(
            &rules::SCHEMA_REMOVED,
            crd,
            name,
            "the version's schema is removed: nothing is validated or pruned any more, and a v1 CRD needs one".to_string(),
        )),
        (None, Some(_)) => out.push(at(
            &rules::SCHEMA_ADDED,
            crd,
            name,
            "the version gets a schema: fields it does not list are pruned, the rest validated".to_string(),
        )),
        (None, None) => {}
    }

    diff_subresources(
        crd,
        name,
        old.subresources.as_ref(),
        new.subresources.as_ref(),
        out,
    );
    diff_columns(crd, name, old, new, out);
    diff_selectable(crd, name, old, new, out);
}

fn diff_subresources(
    crd: &str,
    version: &str,
    old: Option<&CrdSubresources>,
    new: Option<&CrdSubresources>,
    out: &mut Vec<Finding>,
) {
    let status = |s: Option<&CrdSubresources>| s.is_some_and(|s| s.status.is_some());
    match (status(old), status(new)) {
        (true, false) => out.push(at(
            &rules::STATUS_SUBRESOURCE_REMOVED,
            crd,
            version,
            "the status subresource is removed: writes to /status fail, and writes to the object change its status again".to_string(),
        )),
        (false, true) => out.push(at(
            &rules::STATUS_SUBRESOURCE_ADDED,
            crd,
            version,
            "the status subresource is added: writes to the object ignore status, which must now be written to /status".to_string(),
        )),
        _ => {}
    }

    match (
        old.and_then(|s| s.scale.as_ref()),
        new.and_then(|s| s.scale.as_ref()),
    ) {
        (Some(_), None) => out.push(at(
            &rules::SCALE_SUBRESOURCE_REMOVED,
            crd,
            version,
            "the scale subresource is removed: kubectl scale, autoscalers and disruption budgets using /scale fail".to_string(),
        )),
        (None, Some(_)) => out.push(at(
            &rules::SCALE_SUBRESOURCE_ADDED,
            crd,
            version,
            "the scale subresource is added".to_string(),
        )),
        (Some(o), Some(n)) => diff_scale_paths(crd, version, o, n, out),
        (None, None) => {}
    }
}

fn diff_scale_paths(
    crd: &str,
    version: &str,
    old: &ScaleSubresource,
    new: &ScaleSubresource,
    out: &mut Vec<Finding>,
) {
    let pairs = [
        (
            "specReplicasPath",
            &old.spec_replicas_path,
            &new.spec_replicas_path,
        ),
        (
            "statusReplicasPath",
            &old.status_replicas_path,
            &new.status_replicas_path,
        ),
        (
            "labelSelectorPath",
            &old.label_selector_path,
            &new.label_selector_path,
        ),
    ];
    for (key, o, n) in pairs {
        let o = o.as_deref().unwrap_or("");
        let n = n.as_deref().unwrap_or("");
        if o == n {
            continue;
        }
        let mut f = at(
            &rules::SCALE_PATH_CHANGED,
            crd,
            version,
            format!(
                "the scale subresource's {key} changes from {} to {}: /scale reads and writes another field, so autoscalers and kubectl scale act on it",
                quoted(o),
                quoted(n)
            ),
        );
        f.old_path = (!o.is_empty()).then(|| from_json_path(o));
        f.new_path = (!n.is_empty()).then(|| from_json_path(n));
        out.push(f);
    }
}

fn diff_columns(
    crd: &str,
    version: &str,
    old: &CrdVersion,
    new: &CrdVersion,
    out: &mut Vec<Finding>,
) {
    let oc = columns(old);
    let nc = columns(new);
    for (&name, &o) in &oc {
        let Some(&n) = nc.get(name) else {
            out.push(at(
                &rules::PRINTER_COLUMN_REMOVED,
                crd,
                version,
                format!(
                    "printer column {} is removed: kubectl get no longer shows it, and scripts parsing its output break",
                    quoted(name)
                ),
            ));
            continue;
        };
        let mut what = Vec::new();
        if o.json_path != n.json_path {
            what.push(format!(
                "jsonPath {} to {}",
                quoted(o.json_path.as_deref().unwrap_or("")),
                quoted(n.json_path.as_deref().unwrap_or(""))
            ));
        }
        if o.type_ != n.type_ {
            what.push(format!(
                "type {} to {}",
                quoted(o.type_.as_deref().unwrap_or("")),
                quoted(n.type_.as_deref().unwrap_or(""))
            ));
        }
        if o.format != n.format {
            what.push(format!(
                "format {} to {}",
                quoted(o.format.as_deref().unwrap_or("")),
                quoted(n.format.as_deref().unwrap_or(""))
            ));
        }
        if o.priority.unwrap_or(0) != n.priority.unwrap_or(0) {
            what.push(format!(
                "priority {} to {}",
                o.priority.unwrap_or(0),
                n.priority.unwrap_or(0)
            ));
        }
        if !what.is_empty() {
            out.push(at(
                &rules::PRINTER_COLUMN_CHANGED,
                crd,
                version,
                format!(
                    "printer column {} changes {}: kubectl get shows something else",
                    quoted(name),
                    what.join(", ")
                ),
            ));
        }
    }
    for &name in nc.keys() {
        if !oc.contains_key(name) {
            out.push(at(
                &rules::PRINTER_COLUMN_ADDED,
                crd,
                version,
                format!("printer column {} is added", quoted(name)),
            ));
        }
    }
}

/// The printer columns by name, first definition first.
fn columns(v: &CrdVersion) -> IndexMap<&str, &PrinterColumn> {
    let mut m = IndexMap::new();
    for c in v.additional_printer_columns.as_deref().unwrap_or(&[]) {
        m.entry(c.name.as_deref().unwrap_or("")).or_insert(c);
    }
    m
}

fn diff_selectable(
    crd: &str,
    version: &str,
    old: &CrdVersion,
    new: &CrdVersion,
    out: &mut Vec<Finding>,
) {
    let paths = |v: &'_ CrdVersion| -> IndexMap<String, ()> {
        v.selectable_fields
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .map(|f| (f.json_path.clone().unwrap_or_default(), ()))
            .collect()
    };
    let op = paths(old);
    let np = paths(new);
    for p in op.keys() {
        if !np.contains_key(p) {
            let mut f = at(
                &rules::SELECTABLE_FIELD_REMOVED,
                crd,
                version,
                format!(
                    "selectable field {} is removed: list and watch requests selecting on it are refused",
                    quoted(p)
                ),
            );
            f.old_path = Some(from_json_path(p));
            out.push(f);
        }
    }
    for p in np.keys() {
        if !op.contains_key(p) {
            let mut f = at(
                &rules::SELECTABLE_FIELD_ADDED,
                crd,
                version,
                format!("selectable field {} is added", quoted(p)),
            );
            f.new_path = Some(from_json_path(p));
            out.push(f);
        }
    }
}
