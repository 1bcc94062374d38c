//! Is a CRD change safe to roll out? [`diff`] compares the OLD and NEW
//! CustomResourceDefinitions of an upgrade and reports, as typed
//! [`Finding`]s, what the change does to stored objects, to clients and to
//! the API server's handling of requests.
//!
//! CRDs are paired by `metadata.name`. For each pair the comparison looks
//! at the names and scope ([`rules::SCOPE_CHANGED`] …), the versions
//! (removed, no longer served, storage moved …), and, for every version
//! present on both sides, the subresources, printer columns, selectable
//! fields and the structural schema, whose two trees are walked together
//! through `properties`, `items` and `additionalProperties`.
//!
//! Every finding names a rule of [`rules`], a stable kebab-case id with a
//! fixed severity; the doc comment of each rule argues its severity.
//!
//! # Field paths
//!
//! `old_path` and `new_path` are paths of fields in the custom resources
//! (not in the CRD), written as:
//!
//! - a property by its name, joined with `.`: `spec.template.spec`;
//! - `[*]`: any item of a list (the schema's `items`):
//!   `spec.containers[*].name`;
//! - `{*}`: any value of a map (the schema's `additionalProperties`):
//!   `spec.selector{*}`;
//! - a name that is empty or holds a character other than ASCII letters,
//!   digits, `_`, `-`, `$` and `@`, as a quoted JSON string in brackets:
//!   `metadata.annotations["example.com/x"]`, `spec["a b"]`;
//! - `.` alone: the root of the resource.
//!
//! Selectable fields and scale paths are the CRD's JSON paths without
//! their leading dot (`.spec.replicas` is `spec.replicas`), the same syntax
//! for the simple paths these are. Findings about the CRD as a whole, a
//! version or a printer column have no path.
//!
//! # Order
//!
//! Findings come sorted by CRD name, version (findings of no version
//! first), path (`old_path`, else `new_path`; none first), rule id and
//! message, so the report is a function of its input.
//!
//! # Limits
//!
//! The walk keeps an explicit stack, so a schema of any depth is compared
//! without recursion, and every step is linear in the size of the two
//! schemas (lookups by hash, sets of enum values and rules by hash).
//! Values quoted in messages (enum members, defaults, CEL rules, patterns)
//! are cut to a bounded length, and at most a handful of enum values are
//! listed.

mod equal;
mod evidence;
mod names;
mod path;
pub mod rules;
mod schema;
mod text;
mod versions;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod upstream_tests;

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;

use indexmap::IndexMap;
use indexmap::map::Entry;

use crate::model::wire::CustomResourceDefinition;
use crate::object::resource_version::{
    STAND_IN_RESOURCE_VERSION, resource_version, set_resource_version,
};

pub use evidence::{ObjectEvidence, evidence};
pub use rules::Rule;

/// How much a finding matters for the rollout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; nothing breaks.
    Info,
    /// May break some clients or change what objects read back as; review
    /// before rolling out.
    Warning,
    /// Breaks stored data, clients or the update itself.
    Error,
}

impl Severity {
    /// The lowercase name: `info`, `warning`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Options of [`diff`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffOptions {
    /// The versions that hold data in the cluster (the CRD's
    /// `status.storedVersions` there), for every CRD compared. When `None`,
    /// each OLD CRD's own `status.storedVersions` is used when it lists any
    /// version, else the OLD storage version.
    pub stored_versions: Option<Vec<String>>,
}

/// One thing the change does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule's stable kebab-case id (see [`rules`]).
    pub rule: &'static str,
    /// The rule's severity.
    pub severity: Severity,
    /// The CRD's `metadata.name`.
    pub crd: String,
    /// The CRD version the finding is about, if any.
    pub version: Option<String>,
    /// The field in the OLD CRD's resources (see the module docs for the
    /// syntax), if the finding is about a field there.
    pub old_path: Option<String>,
    /// The field in the NEW CRD's resources, if the finding is about a
    /// field there.
    pub new_path: Option<String>,
    /// One line: what changed and why it matters.
    pub message: String,
    /// Whether the API server ratchets the tightened validation: on update,
    /// values left unchanged keep passing (`CRDValidationRatcheting`, on by
    /// default since Kubernetes 1.30), while creates and changed values
    /// must satisfy it. The message says so too.
    pub ratcheted: bool,
}

impl Finding {
    /// A finding of `rule` about `crd` (no version, no path, not
    /// ratcheted).
    pub(crate) fn new(rule: &Rule, crd: &str, message: String) -> Self {
        Finding {
            rule: rule.id,
            severity: rule.severity,
            crd: crd.to_string(),
            version: None,
            old_path: None,
            new_path: None,
            message,
            ratcheted: false,
        }
    }

    fn sort_key(&self) -> (&str, Option<&str>, Option<&str>, &str, &str) {
        (
            &self.crd,
            self.version.as_deref(),
            self.old_path.as_deref().or(self.new_path.as_deref()),
            self.rule,
            &self.message,
        )
    }
}

/// `severity[rule] crd/version path: message`, on one line (control
/// characters in names are escaped).
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}] {}",
            self.severity,
            self.rule,
            text::one_line(&self.crd)
        )?;
        if let Some(v) = &self.version {
            write!(f, "/{}", text::one_line(v))?;
        }
        match (&self.old_path, &self.new_path) {
            (Some(o), Some(n)) if o == n => write!(f, " {o}")?,
            (Some(o), Some(n)) => write!(f, " {o} -> {n}")?,
            (Some(p), None) | (None, Some(p)) => write!(f, " {p}")?,
            (None, None) => {}
        }
        write!(f, ": {}", self.message)
    }
}

/// The findings of a [`diff`], in their deterministic order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffReport {
    /// What the API server refuses in the update from OLD to NEW
    /// ([`rules::UPDATE_REJECTED`]: `ValidateCustomResourceDefinitionUpdate`'s
    /// errors, with the server's field paths and messages), per CRD in
    /// NEW's order.
    pub rejected: Vec<Finding>,
    /// The findings of the rules, sorted (see the module docs).
    pub findings: Vec<Finding>,
}

impl DiffReport {
    /// Every finding: the update's rejections, then the rules' findings.
    pub fn all(&self) -> impl Iterator<Item = &Finding> {
        self.rejected.iter().chain(&self.findings)
    }

    /// The highest severity found, `None` when nothing changed.
    pub fn max_severity(&self) -> Option<Severity> {
        self.all().map(|f| f.severity).max()
    }

    /// How many findings have `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.all().filter(|f| f.severity == severity).count()
    }

    /// How many errors.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    /// How many warnings.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    /// How many infos.
    pub fn infos(&self) -> usize {
        self.count(Severity::Info)
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }

    /// Whether there are no findings at all.
    pub fn is_empty(&self) -> bool {
        self.rejected.is_empty() && self.findings.is_empty()
    }
}

/// Compares OLD and NEW CRDs (paired by `metadata.name`) and reports what
/// the change does; see the module docs. A CRD only in OLD is
/// [`rules::CRD_REMOVED`], only in NEW [`rules::CRD_ADDED`]; a name given
/// twice on one side is [`rules::DUPLICATE_CRD`] and its first definition
/// is compared.
pub fn diff(
    old: &[CustomResourceDefinition],
    new: &[CustomResourceDefinition],
    options: &DiffOptions,
) -> DiffReport {
    let mut findings = Vec::new();
    let mut rejected = Vec::new();
    let old_by_name = by_name(old, "OLD", &mut findings);
    let new_by_name = by_name(new, "NEW", &mut findings);
    for (name, o) in &old_by_name {
        match new_by_name.get(name) {
            Some(n) => {
                update_rejections(name, o, n, options, &mut rejected);
                diff_crd(name, o, n, options, &mut findings);
            }
            None => findings.push(Finding::new(
                &rules::CRD_REMOVED,
                name,
                "the CRD is removed: deleting it deletes every object of its kind, and clients of the API fail".to_string(),
            )),
        }
    }
    for name in new_by_name.keys() {
        if !old_by_name.contains_key(name) {
            findings.push(Finding::new(
                &rules::CRD_ADDED,
                name,
                "the CRD is new".to_string(),
            ));
        }
    }
    sort(&mut findings);
    DiffReport { rejected, findings }
}

/// How many schema levels `s` nests (1: no subschema), counted without
/// recursion.
fn schema_depth(s: &crate::model::wire::JsonSchemaProps) -> usize {
    use crate::model::wire::{SchemaOrArray, SchemaOrBool};
    let mut deepest = 0;
    let mut stack = vec![(s, 1usize)];
    while let Some((s, d)) = stack.pop() {
        deepest = deepest.max(d);
        for c in s.properties.iter().flat_map(|p| p.values()) {
            stack.push((c, d + 1));
        }
        for c in s.pattern_properties.iter().flat_map(|p| p.values()) {
            stack.push((c, d + 1));
        }
        for c in s.definitions.iter().flat_map(|p| p.values()) {
            stack.push((c, d + 1));
        }
        match &s.items {
            Some(SchemaOrArray::Schema(c)) => stack.push((c, d + 1)),
            Some(SchemaOrArray::Array(cs)) => stack.extend(cs.iter().map(|c| (c, d + 1))),
            None => {}
        }
        for b in [&s.additional_properties, &s.additional_items]
            .into_iter()
            .flatten()
        {
            if let SchemaOrBool::Schema(c) = b {
                stack.push((c, d + 1));
            }
        }
        for list in [&s.all_of, &s.any_of, &s.one_of].into_iter().flatten() {
            stack.extend(list.iter().map(|c| (c, d + 1)));
        }
        if let Some(c) = &s.not {
            stack.push((c, d + 1));
        }
    }
    deepest
}

/// What the API server refuses when OLD is updated to NEW: NEW gets OLD's
/// status, as the server's update strategy copies it
/// (`PrepareForUpdate`), with `status.storedVersions` from the options
/// when given; then `ValidateCustomResourceDefinitionUpdate`.
fn update_rejections(
    name: &str,
    old: &CustomResourceDefinition,
    new: &CustomResourceDefinition,
    options: &DiffOptions,
    rejected: &mut Vec<Finding>,
) {
    // A schema nested deeper than the decoder reads never reaches the
    // server's validation (and is only built in code).
    let deepest = [old, new]
        .iter()
        .filter_map(|c| c.spec.as_ref()?.versions.as_ref())
        .flatten()
        .filter_map(|v| v.schema.as_ref()?.open_api_v3_schema.as_ref())
        .map(schema_depth)
        .max()
        .unwrap_or(0);
    if deepest > crate::model::wire::codec::MAX_SCHEMA_NESTING {
        rejected.push(Finding::new(
            &rules::UPDATE_REJECTED,
            name,
            format!(
                "a schema nests {deepest} levels, deeper than the API server decodes ({}): the update is refused and was not validated further",
                crate::model::wire::codec::MAX_SCHEMA_NESTING
            ),
        ));
        return;
    }
    let mut old = old.clone();
    if let Some(stored) = &options.stored_versions {
        let mut status = match old.status.take() {
            Some(serde_json::Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        status.insert("storedVersions".into(), serde_json::json!(stored));
        old.status = Some(serde_json::Value::Object(status));
    }
    // As a client updates: NEW carries the stored object's resource
    // version (one is given when OLD, a file, has none).
    let stored_version = resource_version(old.metadata.as_ref())
        .unwrap_or(STAND_IN_RESOURCE_VERSION)
        .to_string();
    let with_version = |c: &mut CustomResourceDefinition| {
        if resource_version(c.metadata.as_ref()).is_none() {
            let meta = c.metadata.get_or_insert_with(|| serde_json::json!({}));
            set_resource_version(meta, &stored_version);
        }
    };
    with_version(&mut old);
    let mut new = new.clone();
    with_version(&mut new);
    new.status = old.status.clone();
    for e in crate::crd::validation::update::validate_custom_resource_definition_update(
        &new,
        &old,
        &crate::model::options::Options::default(),
    ) {
        let mut f = Finding::new(
            &rules::UPDATE_REJECTED,
            name,
            // One line: a CEL error's caret lines are joined.
            format!("the API server refuses the update: {e}")
                .split('\n')
                .map(str::trim_end)
                .collect::<Vec<_>>()
                .join(" "),
        );
        f.new_path = Some(e.field.to_string());
        rejected.push(f);
    }
}

/// The CRDs of one side by name, first definition first; later ones are
/// reported once per name.
fn by_name<'a>(
    crds: &'a [CustomResourceDefinition],
    side: &str,
    findings: &mut Vec<Finding>,
) -> IndexMap<&'a str, &'a CustomResourceDefinition> {
    let mut out: IndexMap<&str, &CustomResourceDefinition> = IndexMap::with_capacity(crds.len());
    let mut reported: HashSet<&str> = HashSet::new();
    for crd in crds {
        let name = crd.name().unwrap_or("");
        match out.entry(name) {
            Entry::Vacant(e) => {
                e.insert(crd);
            }
            Entry::Occupied(_) => {
                if reported.insert(name) {
                    findings.push(Finding::new(
                        &rules::DUPLICATE_CRD,
                        name,
                        format!(
                            "the CRD is defined more than once in {side}: only its first definition is compared"
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// One pair of CRDs of the same name.
fn diff_crd(
    name: &str,
    old: &CustomResourceDefinition,
    new: &CustomResourceDefinition,
    options: &DiffOptions,
    findings: &mut Vec<Finding>,
) {
    let empty = crate::model::wire::CrdSpec::default();
    let old_spec = old.spec.as_ref().unwrap_or(&empty);
    let new_spec = new.spec.as_ref().unwrap_or(&empty);
    names::diff_spec(name, old_spec, new_spec, findings);
    let stored = versions::stored_versions(old, options);
    versions::diff_versions(name, old_spec, new_spec, &stored, findings);
}

fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()).then_with(|| cmp_rest(a, b)));
}

/// The remaining fields, so that equal keys still sort totally.
fn cmp_rest(a: &Finding, b: &Finding) -> Ordering {
    (&a.old_path, &a.new_path, a.ratcheted).cmp(&(&b.old_path, &b.new_path, b.ratcheted))
}
