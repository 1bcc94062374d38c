//! The content of the reference documents for a set of CRDs: grouped by
//! API group, then version (in Kubernetes' version priority: GA, beta,
//! alpha, each newest first, then other names alphabetically), one entry
//! per kind served at that version, with the kind's summary and its field
//! tree.
//!
//! Fields are listed in pre-order (a field, then its fields, in the
//! schema's property order), each with its path ([`super::path`]), type,
//! required flag, description and facts ([`super::facts`], the field's own
//! and those of its list items and map values). An object shape met again
//! (`shape`) is not listed again: the later field says which field
//! lists its fields ([`Field::same_as`]). Shapes of a single scalar field
//! are listed each time: a link would hide less than it costs to follow.
//!
//! Limits: fields below [`MAX_DOCUMENTED_DEPTH`] schema levels are not
//! listed (the field above says so, [`Field::truncated`]); descriptions are
//! cut at [`MAX_DESCRIPTION_BYTES`] ([`Description::omitted_bytes`]). The
//! walk is iterative and the schema is read through a copy bounded at a few
//! levels below the limit, so a schema of any depth is documented in time
//! and space linear in what is shown.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use serde_json::Value;

use super::facts::{self, Element, Fact};
use super::path;
use super::shape::Shapes;
use crate::go::versions::priority_order;
use crate::model::schema_step::SchemaStep;
use crate::model::wire::{
    CrdVersion, CustomResourceDefinition, JsonSchemaProps, SchemaOrArray, SchemaOrBool,
};

/// The deepest schema level whose fields are listed (a root property is
/// level 1; each property, list items and map values add one). Real CRDs
/// stay below 25.
pub const MAX_DOCUMENTED_DEPTH: usize = 64;

/// The longest description shown, in bytes (cut at a character boundary);
/// the longest in the shared corpus is about 7 KB.
pub const MAX_DESCRIPTION_BYTES: usize = 16 * 1024;

/// Schema levels read below [`MAX_DOCUMENTED_DEPTH`], so that the deepest
/// listed field still has its type, facts and whether it has fields.
const READ_BELOW_LIMIT: usize = 16;

/// Why a set of CRDs cannot be documented. Each names the input CRD (by
/// its index in the slice) where the problem shows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DocsError {
    /// A group, version or kind that cannot name a page.
    #[error("{what} {value:?} cannot name a documentation page: {why}")]
    InvalidName {
        /// The CRD's index in the input.
        index: usize,
        /// `group`, `version` or `kind`.
        what: &'static str,
        /// The name.
        value: String,
        /// What it must be.
        why: &'static str,
    },
}

impl DocsError {
    /// The index of the input CRD where the problem shows.
    pub fn index(&self) -> usize {
        match self {
            DocsError::InvalidName { index, .. } => *index,
        }
    }
}

/// The whole model: API groups by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Docs {
    /// The groups, sorted by name.
    pub groups: Vec<Group>,
    /// The CRDs left out because an earlier one documents their kind, in
    /// input order.
    pub passed_over: Vec<PassedOver>,
}

impl Docs {
    /// How much the documents hold, as their index says it: `N kind
    /// version(s) in M API group(s).`
    pub fn summary(&self) -> String {
        let kinds: usize = self
            .groups
            .iter()
            .flat_map(|g| &g.versions)
            .map(|v| v.kinds.len())
            .sum();
        let groups = self.groups.len();
        format!(
            "{kinds} kind version{} in {groups} API group{}.",
            if kinds == 1 { "" } else { "s" },
            if groups == 1 { "" } else { "s" }
        )
    }
}

/// A CRD left out of the documents: an earlier CRD of the input defines
/// its kind differently, or a kind of its group whose name differs only
/// in case (whose pages would be one file on a case-insensitive file
/// system). The earlier one is documented. (A CRD equal to an earlier one
/// is left out silently.)
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "kind {kind} of group {group} is documented from CRD {first_name:?} (kind {first_kind}), given earlier; this CRD is passed over"
)]
pub struct PassedOver {
    /// The CRD's index in the input.
    pub index: usize,
    /// Its group.
    pub group: String,
    /// Its kind.
    pub kind: String,
    /// The index of the earlier CRD.
    pub first: usize,
    /// The `metadata.name` of the earlier CRD.
    pub first_name: String,
    /// The kind the earlier CRD defines (equal to `kind` but for case).
    pub first_kind: String,
}

/// An API group.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Its name (`argoproj.io`).
    pub name: String,
    /// Its served versions, in version priority.
    pub versions: Vec<GroupVersion>,
}

/// A served version of a group.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupVersion {
    /// Its name (`v1alpha1`).
    pub name: String,
    /// The kinds served at it, sorted by name.
    pub kinds: Vec<KindVersion>,
}

/// What is true of a kind at every version: its CRD's names, scope and
/// versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindSummary {
    /// The CRD's `metadata.name`.
    pub crd_name: String,
    /// The group.
    pub group: String,
    /// The kind.
    pub kind: String,
    /// `names.listKind` (defaulted to `<kind>List`).
    pub list_kind: String,
    /// `names.plural`.
    pub plural: String,
    /// `names.singular` (defaulted to the lowercase kind).
    pub singular: String,
    /// `names.shortNames`.
    pub short_names: Vec<String>,
    /// `names.categories`.
    pub categories: Vec<String>,
    /// `Namespaced` or `Cluster`.
    pub scope: String,
    /// The conversion strategy (`None` when not given).
    pub conversion: String,
    /// Every version of the CRD, served or not, in version priority.
    pub versions: Vec<VersionSummary>,
}

/// One version of a CRD as its summary lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionSummary {
    /// The name.
    pub name: String,
    /// Whether it is served.
    pub served: bool,
    /// Whether it is the storage version.
    pub storage: bool,
    /// Whether it is deprecated.
    pub deprecated: bool,
    /// Its `deprecationWarning`, if any.
    pub deprecation_warning: Option<String>,
}

/// The scale subresource's paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scale {
    /// `specReplicasPath`.
    pub spec_replicas_path: String,
    /// `statusReplicasPath`.
    pub status_replicas_path: String,
    /// `labelSelectorPath`, if any.
    pub label_selector_path: Option<String>,
}

/// An `additionalPrinterColumns` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// `name`.
    pub name: String,
    /// `type`.
    pub type_: String,
    /// `format`, if any.
    pub format: Option<String>,
    /// `jsonPath`.
    pub json_path: String,
    /// `priority` (0: shown by default).
    pub priority: i64,
    /// `description`, if any.
    pub description: Option<Description>,
}

/// A kind at one served version: one page of the documents.
#[derive(Clone, Debug, PartialEq)]
pub struct KindVersion {
    /// The kind's summary.
    pub summary: KindSummary,
    /// This version.
    pub version: VersionSummary,
    /// Whether the status subresource is enabled.
    pub status_subresource: bool,
    /// The scale subresource, if enabled.
    pub scale: Option<Scale>,
    /// `additionalPrinterColumns`.
    pub columns: Vec<Column>,
    /// `selectableFields`, their JSON paths.
    pub selectable_fields: Vec<String>,
    /// The schema, if the version has one.
    pub schema: Option<SchemaDoc>,
}

impl KindVersion {
    /// The first paragraph of the kind's description on one line, cut at
    /// 200 characters.
    pub fn excerpt(&self) -> Option<String> {
        const MAX: usize = 200;
        let d = self.schema.as_ref()?.description.as_ref()?;
        let mut s = String::new();
        let mut chars = 0;
        let lines = d.text.lines().map(str::trim).skip_while(|l| l.is_empty());
        for line in lines.take_while(|l| !l.is_empty()) {
            for word in line.split_whitespace() {
                if chars + word.chars().count() + 1 > MAX {
                    if s.is_empty() {
                        s.extend(word.chars().take(MAX));
                    }
                    s.push('…');
                    return Some(s);
                }
                if !s.is_empty() {
                    s.push(' ');
                    chars += 1;
                }
                s.push_str(word);
                chars += word.chars().count();
            }
        }
        (!s.is_empty()).then_some(s)
    }
}

/// A version's schema: the root's description and facts, and its fields.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaDoc {
    /// The root's description.
    pub description: Option<Description>,
    /// The root's facts (its CEL rules, mostly), its list items' and map
    /// values' too should the root be a container.
    pub facts: Vec<ScopedFact>,
    /// The root's type ([`facts::type_name`]).
    pub type_name: String,
    /// Every field, in pre-order.
    pub fields: Vec<Field>,
    /// Whether the root's own fields are below [`MAX_DOCUMENTED_DEPTH`]
    /// (never for a real schema).
    pub truncated: bool,
}

/// A description, cut at [`MAX_DESCRIPTION_BYTES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// The text shown.
    pub text: String,
    /// How many bytes were cut off (0: the whole description).
    pub omitted_bytes: usize,
}

impl Description {
    /// `text` cut at [`MAX_DESCRIPTION_BYTES`]; `None` when empty.
    pub fn new(text: &str) -> Option<Self> {
        if text.trim().is_empty() {
            return None;
        }
        let mut end = text.len().min(MAX_DESCRIPTION_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Some(Description {
            text: text[..end].to_string(),
            omitted_bytes: text.len() - end,
        })
    }
}

/// A fact of a field, or of its list items or map values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopedFact {
    /// Whose fact: `""` for the field itself, else `items`, `values`,
    /// `items of values`, ... (innermost first).
    pub of: String,
    /// The fact.
    pub fact: Fact,
}

/// One field of a schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The path, its anchor ([`super::path`]).
    pub path: String,
    /// The property name.
    pub name: String,
    /// The index of the field it belongs to (`None` at the root).
    pub parent: Option<usize>,
    /// 1 for a root property, one more per enclosing field.
    pub depth: usize,
    /// The type as a person reads it ([`facts::type_name`]).
    pub type_name: String,
    /// Whether the object it belongs to requires it.
    pub required: bool,
    /// Its description.
    pub description: Option<Description>,
    /// Its facts, then those of its list items or map values.
    pub facts: Vec<ScopedFact>,
    /// The path its fields continue from: its own path with a `[]` or `{}`
    /// per container level (`spec.containers[]`).
    pub children_base: String,
    /// Whether its fields follow it in the list.
    pub has_children: bool,
    /// The index of the earlier field that lists the same fields, when
    /// its object shape was met before; its fields are not listed again.
    pub same_as: Option<usize>,
    /// Whether it has fields below [`MAX_DOCUMENTED_DEPTH`], not listed.
    pub truncated: bool,
}

/// Builds the model of `crds`.
///
/// A CRD whose kind an earlier CRD of the input defines (or a kind whose
/// name differs only in case) is left out: silently when it equals the
/// earlier one, else listed in [`Docs::passed_over`].
///
/// # Errors
///
/// A group that is not a DNS subdomain with a dot (or is the name of one
/// of the site's files), a version that is not a DNS label, a kind that is
/// not a letter then letters, digits and dashes ([`DocsError::InvalidName`]).
pub fn build(crds: &[CustomResourceDefinition]) -> Result<Docs, DocsError> {
    // group -> version -> kind -> page
    let mut tree: BTreeMap<String, BTreeMap<String, BTreeMap<String, KindVersion>>> =
        BTreeMap::new();
    // (group, lowercase kind) -> (index, kind)
    let mut seen: HashMap<(String, String), (usize, String)> = HashMap::new();
    let mut passed_over = Vec::new();
    for (index, crd) in crds.iter().enumerate() {
        let summary = summary(index, crd)?;
        match seen.entry((summary.group.clone(), summary.kind.to_ascii_lowercase())) {
            Entry::Occupied(e) => {
                let (first, first_kind) = e.get();
                let earlier = crds.get(*first);
                if earlier != Some(crd) {
                    passed_over.push(PassedOver {
                        index,
                        group: summary.group,
                        kind: summary.kind,
                        first: *first,
                        first_name: earlier
                            .and_then(CustomResourceDefinition::name)
                            .unwrap_or("")
                            .to_string(),
                        first_kind: first_kind.clone(),
                    });
                }
                continue;
            }
            Entry::Vacant(v) => {
                v.insert((index, summary.kind.clone()));
            }
        }
        let versions = crd
            .spec
            .as_ref()
            .and_then(|s| s.versions.as_deref())
            .unwrap_or(&[]);
        for v in versions.iter().filter(|v| v.served == Some(true)) {
            let page = kind_version(&summary, v);
            tree.entry(summary.group.clone())
                .or_default()
                .entry(page.version.name.clone())
                .or_default()
                .insert(summary.kind.clone(), page);
        }
    }
    Ok(Docs {
        groups: tree
            .into_iter()
            .map(|(name, versions)| {
                let mut versions: Vec<GroupVersion> = versions
                    .into_iter()
                    .map(|(name, kinds)| GroupVersion {
                        name,
                        kinds: kinds.into_values().collect(),
                    })
                    .collect();
                versions.sort_by(|a, b| version_order(&a.name, &b.name));
                Group { name, versions }
            })
            .collect(),
        passed_over,
    })
}

/// The site's files at its root, which no group may be named as.
const RESERVED_FILES: [&str; 4] = ["index.html", "style.css", "site.js", "search-index.js"];

fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

fn check_group(index: usize, group: &str) -> Result<(), DocsError> {
    let invalid = |why| DocsError::InvalidName {
        index,
        what: "group",
        value: group.to_string(),
        why,
    };
    if group.len() > 253 || !group.contains('.') || !group.split('.').all(is_dns_label) {
        return Err(invalid(
            "a DNS subdomain with at least one dot (lowercase letters, digits, '-' and '.')",
        ));
    }
    if RESERVED_FILES.contains(&group) {
        return Err(invalid("not the name of one of the site's own files"));
    }
    Ok(())
}

fn check_version(index: usize, version: &str) -> Result<(), DocsError> {
    if is_dns_label(version) && version.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Ok(());
    }
    Err(DocsError::InvalidName {
        index,
        what: "version",
        value: version.to_string(),
        why: "a DNS label starting with a letter (lowercase letters, digits and '-')",
    })
}

fn check_kind(index: usize, kind: &str) -> Result<(), DocsError> {
    let ok = kind.len() <= 63
        && kind.starts_with(|c: char| c.is_ascii_alphabetic())
        && kind.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if ok {
        return Ok(());
    }
    Err(DocsError::InvalidName {
        index,
        what: "kind",
        value: kind.to_string(),
        why: "a letter followed by letters, digits and '-', at most 63",
    })
}

/// The kind's summary, its names checked.
fn summary(index: usize, crd: &CustomResourceDefinition) -> Result<KindSummary, DocsError> {
    let spec = crd.spec.as_ref();
    let names = spec.and_then(|s| s.names.as_ref());
    let group = spec.and_then(|s| s.group.clone()).unwrap_or_default();
    let kind = names.and_then(|n| n.kind.clone()).unwrap_or_default();
    check_group(index, &group)?;
    check_kind(index, &kind)?;
    let mut versions: Vec<VersionSummary> = Vec::new();
    for v in spec.and_then(|s| s.versions.as_deref()).unwrap_or(&[]) {
        let name = v.name.clone().unwrap_or_default();
        check_version(index, &name)?;
        versions.push(version_summary(v));
    }
    versions.sort_by(|a, b| version_order(&a.name, &b.name));
    let text = |s: Option<&String>| s.cloned().unwrap_or_default();
    Ok(KindSummary {
        crd_name: crd.name().unwrap_or("").to_string(),
        list_kind: names
            .and_then(|n| n.list_kind.clone())
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| format!("{kind}List")),
        plural: text(names.and_then(|n| n.plural.as_ref())),
        singular: names
            .and_then(|n| n.singular.clone())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| kind.to_ascii_lowercase()),
        short_names: names
            .and_then(|n| n.short_names.clone())
            .unwrap_or_default(),
        categories: names.and_then(|n| n.categories.clone()).unwrap_or_default(),
        scope: text(spec.and_then(|s| s.scope.as_ref())),
        conversion: spec
            .and_then(|s| s.conversion.as_ref())
            .and_then(|c| c.strategy.clone())
            .unwrap_or_else(|| "None".to_string()),
        versions,
        group,
        kind,
    })
}

fn version_summary(v: &CrdVersion) -> VersionSummary {
    VersionSummary {
        name: v.name.clone().unwrap_or_default(),
        served: v.served == Some(true),
        storage: v.storage == Some(true),
        deprecated: v.deprecated == Some(true),
        deprecation_warning: v.deprecation_warning.clone().filter(|w| !w.is_empty()),
    }
}

fn kind_version(summary: &KindSummary, v: &CrdVersion) -> KindVersion {
    let sub = v.subresources.as_ref();
    let scale = sub.and_then(|s| s.scale.as_ref()).map(|s| Scale {
        spec_replicas_path: s.spec_replicas_path.clone().unwrap_or_default(),
        status_replicas_path: s.status_replicas_path.clone().unwrap_or_default(),
        label_selector_path: s.label_selector_path.clone().filter(|p| !p.is_empty()),
    });
    let columns = v
        .additional_printer_columns
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|c| Column {
            name: c.name.clone().unwrap_or_default(),
            type_: c.type_.clone().unwrap_or_default(),
            format: c.format.clone().filter(|f| !f.is_empty()),
            json_path: c.json_path.clone().unwrap_or_default(),
            priority: c.priority.unwrap_or(0),
            description: c.description.as_deref().and_then(Description::new),
        })
        .collect();
    KindVersion {
        summary: summary.clone(),
        version: version_summary(v),
        status_subresource: sub.is_some_and(|s| s.status.is_some()),
        scale,
        columns,
        selectable_fields: v
            .selectable_fields
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .filter_map(|f| f.json_path.clone())
            .collect(),
        schema: v
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .map(schema_doc),
    }
}

/// Kubernetes' version priority (`v2` before `v1` before `v1beta2` before
/// `v1beta1` before `v1alpha1`, then other names alphabetically), names
/// equal in priority (`v1`, `v01`) by their text.
fn version_order(a: &str, b: &str) -> std::cmp::Ordering {
    priority_order(a, b).then_with(|| a.cmp(b))
}

/// A copy of a schema as JSON, `budget` levels deep: below, nodes keep
/// their own keys but lose `properties`, `items`, `additionalProperties`
/// and the junctors. `patternProperties`, `dependencies`,
/// `additionalItems` and `definitions` (which the server rejects) are left
/// out everywhere.
fn schema_value(p: &JsonSchemaProps, budget: usize) -> Value {
    let shallow = JsonSchemaProps {
        id: p.id.clone(),
        schema: p.schema.clone(),
        reference: p.reference.clone(),
        description: p.description.clone(),
        type_: p.type_.clone(),
        format: p.format.clone(),
        title: p.title.clone(),
        default: p.default.clone(),
        maximum: p.maximum.clone(),
        exclusive_maximum: p.exclusive_maximum,
        minimum: p.minimum.clone(),
        exclusive_minimum: p.exclusive_minimum,
        max_length: p.max_length,
        min_length: p.min_length,
        pattern: p.pattern.clone(),
        max_items: p.max_items,
        min_items: p.min_items,
        unique_items: p.unique_items,
        multiple_of: p.multiple_of.clone(),
        enum_: p.enum_.clone(),
        max_properties: p.max_properties,
        min_properties: p.min_properties,
        required: p.required.clone(),
        items: None,
        all_of: None,
        one_of: None,
        any_of: None,
        not: None,
        properties: None,
        additional_properties: match &p.additional_properties {
            Some(SchemaOrBool::Bool(b)) => Some(SchemaOrBool::Bool(*b)),
            _ => None,
        },
        pattern_properties: None,
        dependencies: None,
        additional_items: None,
        definitions: None,
        external_docs: p.external_docs.clone(),
        example: p.example.clone(),
        nullable: p.nullable,
        x_preserve_unknown_fields: p.x_preserve_unknown_fields,
        x_embedded_resource: p.x_embedded_resource,
        x_int_or_string: p.x_int_or_string,
        x_list_map_keys: p.x_list_map_keys.clone(),
        x_list_type: p.x_list_type.clone(),
        x_map_type: p.x_map_type.clone(),
        x_validations: p.x_validations.clone(),
        extra: p.extra.clone(),
        explicit_nulls: p.explicit_nulls.clone(),
    };
    let mut v = shallow.to_value();
    let (Some(below), Value::Object(m)) = (budget.checked_sub(1), &mut v) else {
        return v;
    };
    let list =
        |l: &[JsonSchemaProps]| Value::Array(l.iter().map(|s| schema_value(s, below)).collect());
    if let Some(props) = &p.properties {
        let props = props
            .iter()
            .map(|(k, s)| (k.clone(), schema_value(s, below)))
            .collect();
        m.insert("properties".into(), Value::Object(props));
    }
    match &p.items {
        Some(SchemaOrArray::Schema(s)) => {
            m.insert("items".into(), schema_value(s, below));
        }
        Some(SchemaOrArray::Array(a)) => {
            m.insert("items".into(), list(a));
        }
        None => {}
    }
    if let Some(SchemaOrBool::Schema(s)) = &p.additional_properties {
        m.insert("additionalProperties".into(), schema_value(s, below));
    }
    for (key, branches) in [
        ("allOf", &p.all_of),
        ("anyOf", &p.any_of),
        ("oneOf", &p.one_of),
    ] {
        if let Some(b) = branches {
            m.insert(key.into(), list(b));
        }
    }
    if let Some(n) = &p.not {
        m.insert("not".into(), schema_value(n, below));
    }
    v
}

/// The non-empty `properties` of a node.
fn properties(node: &Value) -> Option<&serde_json::Map<String, Value>> {
    node.get("properties")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty())
}

/// The container levels below a node ([`facts::element`]), bounded by the
/// copy's depth, and the node whose properties are the field's fields.
fn containers(node: &Value) -> (Vec<(Element, &Value)>, &Value) {
    let mut chain = Vec::new();
    let mut cur = node;
    while let Some((e, next)) = facts::element(cur) {
        chain.push((e, next));
        cur = next;
    }
    (chain, cur)
}

/// Whether an object's fields are worth one listing shared by every
/// occurrence: more than one field, or a field with fields of its own.
fn shareable(props: &serde_json::Map<String, Value>) -> bool {
    let mut it = props.values();
    match (it.next(), it.next()) {
        (Some(_), Some(_)) => true,
        (Some(only), None) => properties(containers(only).1).is_some(),
        _ => false,
    }
}

/// The field's facts and those of its container levels.
fn scoped_facts(node: &Value, chain: &[(Element, &Value)]) -> Vec<ScopedFact> {
    let mut out: Vec<ScopedFact> = facts::facts(node)
        .into_iter()
        .map(|fact| ScopedFact {
            of: String::new(),
            fact,
        })
        .collect();
    let mut of = String::new();
    for (e, n) in chain {
        let word = match e {
            Element::Items => "items",
            Element::Values => "values",
        };
        of = if of.is_empty() {
            word.to_string()
        } else {
            format!("{word} of {of}")
        };
        out.extend(facts::facts(n).into_iter().map(|fact| ScopedFact {
            of: of.clone(),
            fact,
        }));
    }
    out
}

/// A field waiting to be listed.
struct Pending<'v> {
    node: &'v Value,
    name: &'v str,
    parent: Option<usize>,
    base: String,
    level: usize,
    depth: usize,
    required: bool,
}

/// Pushes the properties of `provider` for listing, first on top.
fn push_children<'v>(
    stack: &mut Vec<Pending<'v>>,
    provider: &'v Value,
    props: &'v serde_json::Map<String, Value>,
    parent: Option<usize>,
    base: &str,
    level: usize,
    depth: usize,
) {
    let required: Vec<&str> = facts::required(provider).collect();
    for (name, node) in props.iter().rev() {
        stack.push(Pending {
            node,
            name,
            parent,
            base: base.to_string(),
            level,
            depth,
            required: required.contains(&name.as_str()),
        });
    }
}

fn schema_doc(root_props: &JsonSchemaProps) -> SchemaDoc {
    let root = schema_value(root_props, MAX_DOCUMENTED_DEPTH + READ_BELOW_LIMIT);
    let (chain, provider) = containers(&root);
    let mut base = String::new();
    for (e, _) in &chain {
        path::push(&mut base, step(*e));
    }
    let mut fields = Vec::new();
    let mut shapes = Shapes::new();
    let mut first_of_shape: HashMap<u128, usize> = HashMap::new();
    let mut stack = Vec::new();
    let root_level = chain.len() + 1;
    let truncated = properties(provider).is_some() && root_level > MAX_DOCUMENTED_DEPTH;
    if let Some(props) = properties(provider).filter(|_| !truncated) {
        push_children(&mut stack, provider, props, None, &base, root_level, 1);
    }
    while let Some(p) = stack.pop() {
        let path = path::child(&p.base, p.name);
        let (chain, provider) = containers(p.node);
        let mut children_base = path.clone();
        for (e, _) in &chain {
            path::push(&mut children_base, step(*e));
        }
        let index = fields.len();
        let mut field = Field {
            name: p.name.to_string(),
            parent: p.parent,
            depth: p.depth,
            type_name: facts::type_name(p.node),
            required: p.required,
            description: facts::description(p.node).and_then(Description::new),
            facts: scoped_facts(p.node, &chain),
            has_children: false,
            same_as: None,
            truncated: false,
            path,
            children_base,
        };
        if let Some(props) = properties(provider) {
            let level = p.level + chain.len() + 1;
            if level > MAX_DOCUMENTED_DEPTH {
                field.truncated = true;
            } else if shareable(props) {
                match first_of_shape.entry(shapes.shape(provider)) {
                    Entry::Occupied(e) => field.same_as = Some(*e.get()),
                    Entry::Vacant(e) => {
                        e.insert(index);
                        field.has_children = true;
                    }
                }
            } else {
                field.has_children = true;
            }
            if field.has_children {
                push_children(
                    &mut stack,
                    provider,
                    props,
                    Some(index),
                    &field.children_base,
                    level,
                    p.depth + 1,
                );
            }
        }
        fields.push(field);
    }
    SchemaDoc {
        description: facts::description(&root).and_then(Description::new),
        facts: scoped_facts(&root, &chain),
        type_name: facts::type_name(&root),
        fields,
        truncated,
    }
}

fn step(e: Element) -> SchemaStep<&'static str> {
    match e {
        Element::Items => SchemaStep::Items,
        Element::Values => SchemaStep::AdditionalProperties,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_priority() {
        let mut v = vec![
            "v1alpha1",
            "v1",
            "foo",
            "v2beta1",
            "v1beta2",
            "v2",
            "v1beta1",
            "v10alpha1",
            "bar",
            "v1alpha10",
            "v01",
        ];
        v.sort_by(|a, b| version_order(a, b));
        assert_eq!(
            v,
            [
                "v2",
                "v01",
                "v1",
                "v2beta1",
                "v1beta2",
                "v1beta1",
                "v10alpha1",
                "v1alpha10",
                "v1alpha1",
                "bar",
                "foo"
            ]
        );
    }

    #[test]
    fn descriptions_are_cut_at_a_char_boundary() {
        let s = "é".repeat(MAX_DESCRIPTION_BYTES);
        let d = Description::new(&s).unwrap();
        assert!(d.text.len() <= MAX_DESCRIPTION_BYTES);
        assert_eq!(d.text.len() + d.omitted_bytes, s.len());
        assert_eq!(Description::new("  \n"), None);
        assert_eq!(Description::new("x").unwrap().omitted_bytes, 0);
    }
}
