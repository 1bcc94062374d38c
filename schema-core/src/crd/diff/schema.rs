//! The two structural schemas of a version, walked together through
//! `properties`, `items` and `additionalProperties` with an explicit
//! stack: each node pair is compared once (type, extensions, nullable,
//! default, value validations, CEL rules, junctors, list and map types,
//! required fields), then its common children are visited; a removed or
//! added subtree is one finding, not one per field in it.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use serde_json::{Number, Value};

use crate::go::formats::is_supported_format;
use crate::go::json::{deep_equal, go_json};
use crate::model::schema_step::SchemaStep;
use crate::model::wire::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, ValidationRule};

use super::equal::schemas_equal;
use super::path::{PathId, Paths};
use super::text::{name_list, quoted, value, value_list};
use super::{Finding, Rule, rules};

/// Appended to the message of every ratcheted finding.
const RATCHETED: &str = "; ratcheted: on update, values left unchanged still pass, but creates and changed values must satisfy it";

/// Compares the schemas of `version` of `crd`.
pub(super) fn diff_schema(
    crd: &str,
    version: &str,
    old: &JsonSchemaProps,
    new: &JsonSchemaProps,
    out: &mut Vec<Finding>,
) {
    let empty = JsonSchemaProps::default();
    let mut w = Walk {
        crd,
        version,
        paths: Paths::new(),
        out,
    };
    let mut stack: Vec<(&JsonSchemaProps, &JsonSchemaProps, PathId)> =
        vec![(old, new, Paths::ROOT)];
    while let Some((o, n, id)) = stack.pop() {
        if !w.node(o, n, id) {
            continue;
        }
        w.children(o, n, id, &empty, &mut stack);
    }
}

struct Walk<'a, 'o> {
    crd: &'o str,
    version: &'o str,
    paths: Paths<'a>,
    out: &'o mut Vec<Finding>,
}

/// `items`, when it is one schema.
fn items(s: &JsonSchemaProps) -> Option<&JsonSchemaProps> {
    match &s.items {
        Some(SchemaOrArray::Schema(b)) => Some(b),
        _ => None,
    }
}

/// `additionalProperties`: its schema, `empty` for `true`.
fn additional<'a>(
    s: &'a JsonSchemaProps,
    empty: &'a JsonSchemaProps,
) -> Option<&'a JsonSchemaProps> {
    match &s.additional_properties {
        Some(SchemaOrBool::Schema(b)) => Some(b),
        Some(SchemaOrBool::Bool(true)) => Some(empty),
        _ => None,
    }
}

fn type_name(t: &str) -> String {
    if t.is_empty() {
        "(none)".to_string()
    } else {
        quoted(t)
    }
}

impl<'a> Walk<'a, '_> {
    fn finding(
        &mut self,
        rule: &Rule,
        old_path: Option<String>,
        new_path: Option<String>,
        message: String,
        ratcheted: bool,
    ) {
        let mut f = Finding::new(rule, self.crd, message);
        f.version = Some(self.version.to_string());
        f.old_path = old_path;
        f.new_path = new_path;
        f.ratcheted = ratcheted;
        self.out.push(f);
    }

    /// A finding at the node `id`, present on both sides.
    fn at(&mut self, rule: &Rule, id: PathId, message: String) {
        let p = self.paths.render(id);
        self.finding(rule, Some(p.clone()), Some(p), message, false);
    }

    /// A ratcheted finding at the node `id`.
    fn ratcheted(&mut self, rule: &Rule, id: PathId, message: String) {
        let p = self.paths.render(id);
        self.finding(rule, Some(p.clone()), Some(p), message + RATCHETED, true);
    }

    /// Compares one pair of nodes; false when their children are not
    /// comparable (the type changed).
    fn node(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) -> bool {
        if o.is_int_or_string() != n.is_int_or_string() {
            let (from, to) = if n.is_int_or_string() {
                (type_name(o.type_str()), "int-or-string".to_string())
            } else {
                ("int-or-string".to_string(), type_name(n.type_str()))
            };
            self.at(
                &rules::INT_OR_STRING_CHANGED,
                id,
                format!("x-kubernetes-int-or-string changes the field from {from} to {to}: stored values of the other JSON type fail validation, and typed clients fail to decode"),
            );
            return false;
        }
        let (ot, nt) = (o.type_str(), n.type_str());
        if ot != nt {
            if ot == "integer" && nt == "number" {
                self.at(
                    &rules::TYPE_WIDENED,
                    id,
                    "type widens from \"integer\" to \"number\": stored values still pass, but clients holding an integer fail on fractional values".to_string(),
                );
            } else {
                self.at(
                    &rules::TYPE_CHANGED,
                    id,
                    format!(
                        "type changes from {} to {}: stored values fail validation on every update, and clients decoding the old type break",
                        type_name(ot),
                        type_name(nt)
                    ),
                );
                return false;
            }
        }
        if o.is_embedded_resource() != n.is_embedded_resource() {
            let msg = if n.is_embedded_resource() {
                "x-kubernetes-embedded-resource is added: values must now carry apiVersion, kind and valid metadata, and unknown metadata fields are pruned"
            } else {
                "x-kubernetes-embedded-resource is removed: apiVersion, kind and metadata of the embedded object are pruned unless the schema lists them"
            };
            self.at(&rules::EMBEDDED_RESOURCE_CHANGED, id, msg.to_string());
        }
        match (o.preserves_unknown_fields(), n.preserves_unknown_fields()) {
            (true, false) => self.at(
                &rules::PRESERVE_UNKNOWN_FIELDS_REMOVED,
                id,
                "x-kubernetes-preserve-unknown-fields is removed: fields the schema does not list are pruned from stored objects on their next write".to_string(),
            ),
            (false, true) => self.at(
                &rules::PRESERVE_UNKNOWN_FIELDS_ADDED,
                id,
                "x-kubernetes-preserve-unknown-fields is added: unknown fields are kept instead of pruned".to_string(),
            ),
            _ => {}
        }
        if o.is_nullable() && !n.is_nullable() {
            self.at(
                &rules::NULLABLE_REMOVED,
                id,
                "nullable is removed: explicit nulls are dropped from requests (or refused), so clients sending null get different results".to_string(),
            );
        }
        self.defaults(o, n, id);
        self.enums(o, n, id);
        self.bounds(o, n, id);
        self.limits(o, n, id);
        self.pattern_format(o, n, id);
        self.multiple_of(o, n, id);
        self.rules(o, n, id);
        self.junctors(o, n, id);
        self.list_map(o, n, id);
        self.required(o, n, id);
        true
    }

    fn defaults(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        let od = o.default.as_ref().filter(|v| !v.is_null());
        let nd = n.default.as_ref().filter(|v| !v.is_null());
        match (od, nd) {
            (None, Some(v)) => self.at(
                &rules::DEFAULT_ADDED,
                id,
                format!(
                    "default {} is added: the server also defaults on read, so existing objects without the field read back with it and store it on their next write",
                    value(v)
                ),
            ),
            (Some(a), Some(b)) if !deep_equal(a, b) => self.at(
                &rules::DEFAULT_CHANGED,
                id,
                format!(
                    "default changes from {} to {}: new objects, and existing ones without the field when read, get the new value",
                    value(a),
                    value(b)
                ),
            ),
            (Some(a), None) => self.at(
                &rules::DEFAULT_REMOVED,
                id,
                format!(
                    "default {} is removed: new objects without the field keep it absent",
                    value(a)
                ),
            ),
            _ => {}
        }
    }

    fn enums(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        let oe = o.enum_.as_deref().unwrap_or(&[]);
        let ne = n.enum_.as_deref().unwrap_or(&[]);
        if oe.len() == ne.len() && oe.iter().zip(ne).all(|(a, b)| deep_equal(a, b)) {
            return;
        }
        match (oe.is_empty(), ne.is_empty()) {
            (true, true) => {}
            (true, false) => self.ratcheted(
                &rules::ENUM_ADDED,
                id,
                format!(
                    "an enum of {} value(s) is added ({}): other values are refused",
                    ne.len(),
                    value_list(ne.iter())
                ),
            ),
            (false, true) => self.at(
                &rules::ENUM_REMOVED,
                id,
                "the enum is removed: any value is accepted".to_string(),
            ),
            (false, false) => {
                let okeys: HashSet<String> = oe.iter().map(enum_key).collect();
                let nkeys: HashSet<String> = ne.iter().map(enum_key).collect();
                let removed = distinct_missing(oe, &nkeys);
                let added = distinct_missing(ne, &okeys);
                if !removed.is_empty() {
                    self.ratcheted(
                        &rules::ENUM_VALUES_REMOVED,
                        id,
                        format!(
                            "enum values are removed ({}): they are refused",
                            value_list(removed.into_iter())
                        ),
                    );
                }
                if !added.is_empty() {
                    self.at(
                        &rules::ENUM_VALUES_ADDED,
                        id,
                        format!(
                            "enum values are added ({}): clients switching over the values may meet new ones",
                            value_list(added.into_iter())
                        ),
                    );
                }
            }
        }
    }

    fn bounds(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        let om = (o.maximum.as_ref(), o.exclusive_maximum == Some(true));
        let nm = (n.maximum.as_ref(), n.exclusive_maximum == Some(true));
        let describe = |(b, excl): (Option<&Number>, bool)| match b {
            None => "none".to_string(),
            Some(b) if excl => format!("{b} (exclusive)"),
            Some(b) => b.to_string(),
        };
        if tighter(om, nm, Ordering::Less) {
            self.ratcheted(
                &rules::MAXIMUM_LOWERED,
                id,
                format!(
                    "maximum changes from {} to {}: larger numbers are refused",
                    describe(om),
                    describe(nm)
                ),
            );
        } else if tighter(nm, om, Ordering::Less) {
            self.at(
                &rules::MAXIMUM_RAISED,
                id,
                format!(
                    "maximum changes from {} to {}: larger numbers are accepted",
                    describe(om),
                    describe(nm)
                ),
            );
        }
        let omin = (o.minimum.as_ref(), o.exclusive_minimum == Some(true));
        let nmin = (n.minimum.as_ref(), n.exclusive_minimum == Some(true));
        if tighter(omin, nmin, Ordering::Greater) {
            self.ratcheted(
                &rules::MINIMUM_RAISED,
                id,
                format!(
                    "minimum changes from {} to {}: smaller numbers are refused",
                    describe(omin),
                    describe(nmin)
                ),
            );
        } else if tighter(nmin, omin, Ordering::Greater) {
            self.at(
                &rules::MINIMUM_LOWERED,
                id,
                format!(
                    "minimum changes from {} to {}: smaller numbers are accepted",
                    describe(omin),
                    describe(nmin)
                ),
            );
        }
    }

    fn limits(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        let maxes = [
            (
                "maxLength",
                o.max_length,
                n.max_length,
                &rules::MAX_LENGTH_LOWERED,
                &rules::MAX_LENGTH_RAISED,
                "longer strings",
            ),
            (
                "maxItems",
                o.max_items,
                n.max_items,
                &rules::MAX_ITEMS_LOWERED,
                &rules::MAX_ITEMS_RAISED,
                "longer lists",
            ),
            (
                "maxProperties",
                o.max_properties,
                n.max_properties,
                &rules::MAX_PROPERTIES_LOWERED,
                &rules::MAX_PROPERTIES_RAISED,
                "objects with more properties",
            ),
        ];
        let show = |v: Option<i64>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
        for (key, ov, nv, lowered, raised, what) in maxes {
            let msg = |verb: &str| {
                format!(
                    "{key} changes from {} to {}: {what} are {verb}",
                    show(ov),
                    show(nv)
                )
            };
            match (ov, nv) {
                (_, Some(b)) if ov.is_none_or(|a| b < a) => {
                    self.ratcheted(lowered, id, msg("refused"));
                }
                (Some(a), _) if nv.is_none_or(|b| b > a) => {
                    self.at(raised, id, msg("accepted"));
                }
                _ => {}
            }
        }
        let mins = [
            (
                "minLength",
                o.min_length,
                n.min_length,
                &rules::MIN_LENGTH_RAISED,
                &rules::MIN_LENGTH_LOWERED,
                "shorter strings",
            ),
            (
                "minItems",
                o.min_items,
                n.min_items,
                &rules::MIN_ITEMS_RAISED,
                &rules::MIN_ITEMS_LOWERED,
                "shorter lists",
            ),
            (
                "minProperties",
                o.min_properties,
                n.min_properties,
                &rules::MIN_PROPERTIES_RAISED,
                &rules::MIN_PROPERTIES_LOWERED,
                "objects with fewer properties",
            ),
        ];
        for (key, ov, nv, raised, lowered, what) in mins {
            let (a, b) = (ov.unwrap_or(0), nv.unwrap_or(0));
            let msg = |verb: &str| {
                format!(
                    "{key} changes from {} to {}: {what} are {verb}",
                    show(ov),
                    show(nv)
                )
            };
            match b.cmp(&a) {
                Ordering::Greater => self.ratcheted(raised, id, msg("refused")),
                Ordering::Less => self.at(lowered, id, msg("accepted")),
                Ordering::Equal => {}
            }
        }
    }

    fn pattern_format(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        let op = o.pattern.as_deref().unwrap_or("");
        let np = n.pattern.as_deref().unwrap_or("");
        if op != np {
            if np.is_empty() {
                self.at(
                    &rules::PATTERN_REMOVED,
                    id,
                    format!("pattern {} is removed: any string is accepted", quoted(op)),
                );
            } else if op.is_empty() {
                self.ratcheted(
                    &rules::PATTERN_CHANGED,
                    id,
                    format!(
                        "pattern {} is added: strings not matching it are refused",
                        quoted(np)
                    ),
                );
            } else {
                self.ratcheted(
                    &rules::PATTERN_CHANGED,
                    id,
                    format!(
                        "pattern changes from {} to {}: strings not matching the new one are refused",
                        quoted(op),
                        quoted(np)
                    ),
                );
            }
        }
        let of = o.format.as_deref().unwrap_or("");
        let nf = n.format.as_deref().unwrap_or("");
        if of != nf {
            let change = if of.is_empty() {
                format!("format {} is added", quoted(nf))
            } else {
                format!("format changes from {} to {}", quoted(of), quoted(nf))
            };
            if nf.is_empty() {
                self.at(
                    &rules::FORMAT_REMOVED,
                    id,
                    format!("format {} is removed: no format check any more", quoted(of)),
                );
            } else if is_supported_format(n.type_str(), nf) {
                self.ratcheted(
                    &rules::FORMAT_CHANGED,
                    id,
                    format!("{change}: values not in that format are refused"),
                );
            } else {
                self.at(
                    &rules::FORMAT_CHANGED_UNCHECKED,
                    id,
                    format!("{change}: the server does not validate that format, so no value is refused for it"),
                );
            }
        }
    }

    fn multiple_of(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        match (o.multiple_of.as_ref(), n.multiple_of.as_ref()) {
            (None, None) => {}
            (Some(a), None) => self.at(
                &rules::MULTIPLE_OF_LOOSENED,
                id,
                format!("multipleOf {a} is removed"),
            ),
            (None, Some(b)) => self.ratcheted(
                &rules::MULTIPLE_OF_CHANGED,
                id,
                format!("multipleOf {b} is added: other numbers are refused"),
            ),
            (Some(a), Some(b)) if cmp_numbers(a, b) == Ordering::Equal => {}
            (Some(a), Some(b)) if is_multiple(a, b) => self.at(
                &rules::MULTIPLE_OF_LOOSENED,
                id,
                format!("multipleOf changes from {a} to {b}, a divisor: every value accepted before still is"),
            ),
            (Some(a), Some(b)) => self.ratcheted(
                &rules::MULTIPLE_OF_CHANGED,
                id,
                format!("multipleOf changes from {a} to {b}: numbers that are not multiples of {b} are refused"),
            ),
        }
    }

    fn rules(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        let or: &[ValidationRule] = o.x_validations.as_deref().unwrap_or(&[]);
        let nr: &[ValidationRule] = n.x_validations.as_deref().unwrap_or(&[]);
        if or.len() == nr.len() && or.iter().zip(nr).all(|(a, b)| a.rule == b.rule) {
            return;
        }
        let mut remaining: HashMap<&str, usize> = HashMap::with_capacity(or.len());
        for r in or {
            *remaining
                .entry(r.rule.as_deref().unwrap_or(""))
                .or_default() += 1;
        }
        let mut added = Vec::new();
        for r in nr {
            let t = r.rule.as_deref().unwrap_or("");
            match remaining.get_mut(t) {
                Some(c) if *c > 0 => *c -= 1,
                _ => added.push(r),
            }
        }
        let mut removed = Vec::new();
        for r in or {
            let t = r.rule.as_deref().unwrap_or("");
            if let Some(c) = remaining.get_mut(t)
                && *c > 0
            {
                *c -= 1;
                removed.push(r);
            }
        }
        let paired = removed.len().min(added.len());
        for (old_rule, new_rule) in removed.iter().zip(&added) {
            let nt = new_rule.rule.as_deref().unwrap_or("");
            let ot = old_rule.rule.as_deref().unwrap_or("");
            let msg = format!(
                "CEL rule {} changes to {}: values it refuses are refused",
                quoted(ot),
                quoted(nt)
            );
            self.rule_finding(&rules::VALIDATION_RULE_CHANGED, id, new_rule, msg);
        }
        for new_rule in added.iter().skip(paired) {
            let nt = new_rule.rule.as_deref().unwrap_or("");
            let msg = format!(
                "CEL rule {} is added: values it refuses are refused",
                quoted(nt)
            );
            self.rule_finding(&rules::VALIDATION_RULE_ADDED, id, new_rule, msg);
        }
        for old_rule in removed.iter().skip(paired) {
            let ot = old_rule.rule.as_deref().unwrap_or("");
            self.at(
                &rules::VALIDATION_RULE_REMOVED,
                id,
                format!("CEL rule {} is removed", quoted(ot)),
            );
        }
    }

    /// A new or changed rule: ratcheted unless it is a transition rule.
    fn rule_finding(&mut self, rule: &Rule, id: PathId, r: &ValidationRule, msg: String) {
        if uses_old_self(r.rule.as_deref().unwrap_or("")) || r.optional_old_self == Some(true) {
            self.at(
                rule,
                id,
                msg + "; a transition rule (it reads oldSelf), which the server does not ratchet",
            );
        } else {
            self.ratcheted(rule, id, msg);
        }
    }

    fn junctors(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        let mut changed = Vec::new();
        for (key, a, b) in [
            ("allOf", &o.all_of, &n.all_of),
            ("anyOf", &o.any_of, &n.any_of),
            ("oneOf", &o.one_of, &n.one_of),
        ] {
            if !schemas_equal(a.as_deref().unwrap_or(&[]), b.as_deref().unwrap_or(&[])) {
                changed.push(key);
            }
        }
        let not_equal = match (&o.not, &n.not) {
            (None, None) => false,
            (Some(a), Some(b)) => !schemas_equal(
                std::slice::from_ref(a.as_ref()),
                std::slice::from_ref(b.as_ref()),
            ),
            _ => true,
        };
        if not_equal {
            changed.push("not");
        }
        if !changed.is_empty() {
            self.ratcheted(
                &rules::JUNCTOR_CHANGED,
                id,
                format!(
                    "the value validations under {} change: values accepted before may be refused",
                    changed.join(", ")
                ),
            );
        }
    }

    fn list_map(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        let olt = o.x_list_type.as_deref();
        let nlt = n.x_list_type.as_deref();
        if olt != nlt {
            let (a, b) = (list_type_or_default(olt), list_type_or_default(nlt));
            if a == b {
                self.at(
                    &rules::LIST_TYPE_EQUIVALENT,
                    id,
                    format!(
                        "x-kubernetes-list-type changes from {} to {}, which mean the same (unset is \"atomic\")",
                        spelled(olt),
                        spelled(nlt)
                    ),
                );
            } else {
                let why = match (a, b) {
                    (_, "atomic") => {
                        "server-side apply stops merging items: every manager that owned an item now owns the whole list, so further applies conflict"
                    }
                    ("atomic", "set") => {
                        "duplicate items are refused, and server-side apply cannot infer who owns the items of existing objects"
                    }
                    ("atomic", "map") => {
                        "items with equal keys are refused, and server-side apply cannot infer who owns the items of existing objects"
                    }
                    _ => {
                        "items are identified differently: server-side apply's ownership of items no longer matches, and other lists are refused"
                    }
                };
                self.at(
                    &rules::LIST_TYPE_CHANGED,
                    id,
                    format!(
                        "x-kubernetes-list-type changes from {} to {}: {why}",
                        spelled(olt),
                        spelled(nlt)
                    ),
                );
            }
        }
        if list_type_or_default(olt) == "map" && list_type_or_default(nlt) == "map" {
            let ok = o.x_list_map_keys.as_deref().unwrap_or(&[]);
            let nk = n.x_list_map_keys.as_deref().unwrap_or(&[]);
            let os: HashSet<&str> = ok.iter().map(String::as_str).collect();
            let ns: HashSet<&str> = nk.iter().map(String::as_str).collect();
            if os != ns {
                self.at(
                    &rules::LIST_MAP_KEYS_CHANGED,
                    id,
                    format!(
                        "x-kubernetes-list-map-keys change from [{}] to [{}]: uniqueness is checked on the new keys, and server-side apply's ownership of items is keyed by the old ones",
                        key_list(ok),
                        key_list(nk)
                    ),
                );
            }
        }
        let omt = o.x_map_type.as_deref();
        let nmt = n.x_map_type.as_deref();
        if omt != nmt {
            let rule = match (map_type_or_default(omt), map_type_or_default(nmt)) {
                (a, b) if a == b => &rules::MAP_TYPE_EQUIVALENT,
                ("atomic", "granular") => &rules::MAP_TYPE_MADE_GRANULAR,
                _ => &rules::MAP_TYPE_CHANGED,
            };
            let why = if rule.id == rules::MAP_TYPE_EQUIVALENT.id {
                "which mean the same (unset is \"granular\")"
            } else if rule.id == rules::MAP_TYPE_MADE_GRANULAR.id {
                "nothing is refused or conflicts, but server-side apply cannot infer who owns the members of existing objects"
            } else {
                "every manager that owned a member now owns the whole value, so further server-side applies conflict"
            };
            self.at(
                rule,
                id,
                format!(
                    "x-kubernetes-map-type changes from {} to {}: {why}",
                    spelled(omt),
                    spelled(nmt)
                ),
            );
        }
    }

    fn required(&mut self, o: &JsonSchemaProps, n: &JsonSchemaProps, id: PathId) {
        if o.required.as_deref().unwrap_or(&[]) == n.required.as_deref().unwrap_or(&[]) {
            return;
        }
        let oreq: HashSet<&str> = o.required.iter().flatten().map(String::as_str).collect();
        let nreq: HashSet<&str> = n.required.iter().flatten().map(String::as_str).collect();
        let mut seen = HashSet::new();
        for name in n.required.iter().flatten() {
            let name = name.as_str();
            if oreq.contains(name) || !seen.insert(name) {
                continue;
            }
            let prop = n.properties.as_ref().and_then(|p| p.get(name));
            // The server defaults before it validates, and on reads: a
            // required field with a default is never missing.
            if prop.is_some_and(|p| p.default.as_ref().is_some_and(|d| !d.is_null())) {
                continue;
            }
            let existed = o.properties.as_ref().is_some_and(|p| p.contains_key(name));
            let msg = if existed {
                "the field becomes required: creates and updates of objects without it are refused"
            } else {
                "a new required field: existing objects lack it, so their updates are refused, as are creates without it"
            };
            let p = self.paths.render_child(id, SchemaStep::Property(name));
            self.finding(
                &rules::FIELD_REQUIRED,
                Some(p.clone()),
                Some(p),
                msg.to_string(),
                false,
            );
        }
        let mut seen = HashSet::new();
        for name in o.required.iter().flatten() {
            let name = name.as_str();
            if nreq.contains(name) || !seen.insert(name) {
                continue;
            }
            if !n.properties.as_ref().is_some_and(|p| p.contains_key(name)) {
                continue;
            }
            let p = self.paths.render_child(id, SchemaStep::Property(name));
            self.finding(
                &rules::FIELD_OPTIONAL,
                Some(p.clone()),
                Some(p),
                "the field is no longer required: clients reading it must cope with its absence"
                    .to_string(),
                false,
            );
        }
    }

    /// Pushes the common children and reports the removed and added ones.
    fn children(
        &mut self,
        o: &'a JsonSchemaProps,
        n: &'a JsonSchemaProps,
        id: PathId,
        empty: &'a JsonSchemaProps,
        stack: &mut Vec<(&'a JsonSchemaProps, &'a JsonSchemaProps, PathId)>,
    ) {
        // Properties usually keep their order: a key at the same index is
        // matched without hashing, and when every key matched so, NEW has
        // no key OLD lacks.
        let np = n.properties.as_ref();
        let mut aligned = o.properties.as_ref().map_or(0, |p| p.len()) == np.map_or(0, |p| p.len());
        if let Some(op) = &o.properties {
            for (i, (name, os)) in op.iter().enumerate() {
                let ns = match np.and_then(|p| p.get_index(i)) {
                    Some((k, v)) if k == name => Some(v),
                    _ => {
                        aligned = false;
                        np.and_then(|p| p.get(name))
                    }
                };
                match ns {
                    Some(ns) => {
                        let child = self.paths.push(id, SchemaStep::Property(name));
                        stack.push((os, ns, child));
                    }
                    None => self.removed(n, id, SchemaStep::Property(name)),
                }
            }
        }
        if !aligned && let Some(np) = np {
            for (name, ns) in np {
                if !o.properties.as_ref().is_some_and(|p| p.contains_key(name)) {
                    self.added(o, ns, id, SchemaStep::Property(name));
                }
            }
        }
        match (items(o), items(n)) {
            (Some(os), Some(ns)) => {
                let child = self.paths.push(id, SchemaStep::Items);
                stack.push((os, ns, child));
            }
            (Some(_), None) => self.removed(n, id, SchemaStep::Items),
            (None, Some(ns)) => self.added(o, ns, id, SchemaStep::Items),
            (None, None) => {}
        }
        match (additional(o, empty), additional(n, empty)) {
            (Some(os), Some(ns)) => {
                let child = self.paths.push(id, SchemaStep::AdditionalProperties);
                stack.push((os, ns, child));
            }
            (Some(_), None) => self.removed(n, id, SchemaStep::AdditionalProperties),
            (None, Some(ns)) => self.added(o, ns, id, SchemaStep::AdditionalProperties),
            (None, None) => {}
        }
    }

    fn removed(&mut self, n: &JsonSchemaProps, id: PathId, seg: SchemaStep<&'_ str>) {
        let p = self.paths.render_child(id, seg);
        if n.preserves_unknown_fields() {
            self.finding(
                &rules::FIELD_REMOVED_PRESERVED,
                Some(p),
                None,
                "the field leaves the schema but its parent keeps unknown fields: values are kept, no longer validated or defaulted, and the published OpenAPI loses the field".to_string(),
                false,
            );
        } else {
            self.finding(
                &rules::FIELD_REMOVED,
                Some(p),
                None,
                "the field leaves the schema: the server prunes it, so stored values are dropped on the next write of each object and clients setting it lose it silently".to_string(),
                false,
            );
        }
    }

    fn added(
        &mut self,
        o: &JsonSchemaProps,
        ns: &JsonSchemaProps,
        id: PathId,
        seg: SchemaStep<&'_ str>,
    ) {
        let p = self.paths.render_child(id, seg);
        let mut msg = String::from("a new field");
        if let Some(d) = ns.default.as_ref().filter(|d| !d.is_null()) {
            msg.push_str(&format!(
                " with default {}: existing objects read back with it",
                value(d)
            ));
        }
        if o.preserves_unknown_fields() {
            msg.push_str("; its parent kept unknown fields, so values already stored under this name are now validated");
        }
        self.finding(&rules::FIELD_ADDED, None, Some(p), msg, false);
    }
}

/// Whether `new` is stricter than `old` for a bound whose tighter side is
/// `tighter` (`Less` for a maximum, `Greater` for a minimum): a bound where
/// there was none, a bound further in, or the same bound made exclusive.
fn tighter(old: (Option<&Number>, bool), new: (Option<&Number>, bool), tighter: Ordering) -> bool {
    match (old.0, new.0) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(a), Some(b)) => {
            let c = cmp_numbers(b, a);
            c == tighter || (c == Ordering::Equal && new.1 && !old.1)
        }
    }
}

/// Orders two JSON numbers exactly when both are integers, else as `f64`.
fn cmp_numbers(a: &Number, b: &Number) -> Ordering {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x.cmp(&y);
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x.cmp(&y);
    }
    let x = a.as_f64().unwrap_or(0.0);
    let y = b.as_f64().unwrap_or(0.0);
    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
}

/// Whether `a` is a multiple of `b` (so `multipleOf: b` accepts everything
/// `multipleOf: a` did).
fn is_multiple(a: &Number, b: &Number) -> bool {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return y != 0 && x.checked_rem(y) == Some(0);
    }
    let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) else {
        return false;
    };
    if y == 0.0 {
        return false;
    }
    let q = x / y;
    q.is_finite() && q.fract() == 0.0
}

/// The identity of an enum value: its JSON with sorted keys, Go's numbers.
fn enum_key(v: &Value) -> String {
    go_json(v, true)
}

/// The values of `values` whose key is not in `other`, each once, in order.
fn distinct_missing<'v>(values: &'v [Value], other: &HashSet<String>) -> Vec<&'v Value> {
    let mut seen = HashSet::new();
    values
        .iter()
        .filter(|v| {
            let k = enum_key(v);
            !other.contains(&k) && seen.insert(k)
        })
        .collect()
}

/// Whether a CEL expression names `oldSelf` (as an identifier, outside
/// string literals), which makes it a transition rule the server does not
/// ratchet. A lexical check: enough for the identifier, which no other
/// token contains.
pub(super) fn uses_old_self(rule: &str) -> bool {
    let bytes = rule.as_bytes();
    let mut i = 0;
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' | b'\'' => {
                // Skip a string literal (triple-quoted ones too); escapes
                // skip the next byte.
                let triple = bytes.get(i + 1) == Some(&b) && bytes.get(i + 2) == Some(&b);
                i += if triple { 3 } else { 1 };
                while let Some(&c) = bytes.get(i) {
                    if c == b'\\' {
                        i += 2;
                        continue;
                    }
                    if c == b
                        && (!triple
                            || (bytes.get(i + 1) == Some(&b) && bytes.get(i + 2) == Some(&b)))
                    {
                        i += if triple { 3 } else { 1 };
                        break;
                    }
                    i += 1;
                }
            }
            _ if ident(b) => {
                let start = i;
                while bytes.get(i).is_some_and(|&c| ident(c)) {
                    i += 1;
                }
                if bytes.get(start..i) == Some(b"oldSelf".as_slice()) {
                    return true;
                }
            }
            _ => i += 1,
        }
    }
    false
}

/// An array's list type; unset is `atomic`.
fn list_type_or_default(t: Option<&str>) -> &str {
    t.unwrap_or("atomic")
}

/// An object's map type; unset is `granular`.
fn map_type_or_default(t: Option<&str>) -> &str {
    t.unwrap_or("granular")
}

fn spelled(t: Option<&str>) -> String {
    t.map_or_else(|| "(unset)".to_string(), quoted)
}

fn key_list(keys: &[String]) -> String {
    name_list(keys.iter().map(String::as_str))
}
