//! The decoding walk: pruning of unknown fields, removal of non-nullable
//! nulls and defaulting, alone or fused in one walk.
//!
//! The API server decodes a custom resource in steps, each a walk of the
//! whole object: pruning ([`crate::object::prune`]), removal of non-nullable nulls
//! and metadata coercion, then defaulting ([`crate::object::default`]). This walk
//! does any of pruning, null removal and defaulting at once, each
//! following its own schema node, and gives exactly what the steps give
//! one after the other:
//!
//! - at an object, pruning and null removal decide on each key from the
//!   schema and the key's value alone (pruning never makes a value null,
//!   and a removed null has nothing below it), so deciding both before
//!   descending is the same as two walks;
//! - defaulting then sees the keys that survive, as it would after the two
//!   walks: a surviving null is replaced by its default in place, as the
//!   server's insertion does, and the missing properties with defaults are
//!   appended in the properties' order after the keys are walked (the
//!   server appends them before, which gives the same keys in the same
//!   order, as walking below a key does not depend on its siblings);
//! - a value that defaulting puts in is only defaulted below, never pruned
//!   nor stripped of nulls (the server defaults after those steps).
//!
//! Metadata coercion runs between null removal and defaulting, and may
//! fail, in which case nothing is defaulted. [`decode_resource`] fuses the
//! steps when coercion can only act at the resource root (no embedded
//! resource below it), by pruning the root's `apiVersion`, `kind` and
//! `metadata` first, coercing, then walking the rest with defaulting on or
//! off; otherwise it runs the steps one after the other.
//!
//! Pruned paths are recorded lazily (a chain of borrowed path segments on
//! the stack) and returned sorted, as the server reports them.

use serde_json::{Map, Value};

use crate::model::depth::{MAX_VALUE_NESTING, deeper_than};
use crate::model::field::{DottedPath, FieldError, Path};
use crate::model::structural::Structural;
use crate::object::metadata::walk::coerce_value_view;
use crate::object::name_table::NameTable;
use crate::object::schema_view::View;
use crate::object::value_validation::{
    Check, NodeRef, TRIVIAL_ARRAY, TRIVIAL_BOOL, TRIVIAL_OBJECT, TRIVIAL_STRING,
};

const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

fn is_meta(k: &str) -> bool {
    META_FIELDS.contains(&k)
}

/// What pruning does at a value.
#[derive(Clone, Copy)]
pub(crate) enum P<'a> {
    /// Nothing (pruning does not descend here).
    Off,
    /// `prune(x, s, rootEmbedded)`: a nil schema prunes everything.
    Prune(Option<View<'a>>, bool),
    /// `skipPrune(x, s, rootEmbedded)` (under
    /// `x-kubernetes-preserve-unknown-fields`).
    Skip(View<'a>, bool),
}

/// Which keys of an object pruning and null removal handle (defaulting
/// handles all of them).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keys {
    All,
    /// `apiVersion`, `kind` and `metadata` only.
    Meta,
    /// All but `apiVersion`, `kind` and `metadata`.
    NotMeta,
}

impl Keys {
    fn allows(self, k: &str) -> bool {
        match self {
            Keys::All => true,
            Keys::Meta => is_meta(k),
            Keys::NotMeta => !is_meta(k),
        }
    }
}

struct Cx {
    track: bool,
    unknown: Vec<String>,
    /// [`decode_resource_checked`]: no check has failed yet.
    valid: bool,
    /// [`decode_resource_checked`]: the object nests deeper than the
    /// decoder's limit.
    too_deep: bool,
}

impl Cx {
    fn new(track: bool) -> Self {
        Cx {
            track,
            unknown: Vec::new(),
            valid: true,
            too_deep: false,
        }
    }
}

impl Cx {
    /// Notes the pruned field `k` of the object at `at`: the server's
    /// `parent + "." + k`, or `k` at an empty parent.
    fn record(&mut self, at: &DottedPath<'_>, k: &str) {
        if self.track {
            self.unknown.push(DottedPath::Child(at, k).render());
        }
    }
}

/// Runs the walk from the top: pruning as `p` says (`None`: no pruning),
/// null removal along `n`, defaulting along `d`. Returns the sorted pruned
/// paths (empty unless `track`).
pub(crate) fn run(
    x: &mut Value,
    p: Option<(Option<View<'_>>, bool)>,
    n: Option<View<'_>>,
    d: Option<View<'_>>,
    track: bool,
) -> Vec<String> {
    let mut cx = Cx::new(track);
    let empty = Structural::default();
    let p = match p {
        None => P::Off,
        Some((s, true)) => P::Prune(Some(s.unwrap_or(View::plain(&empty))), true),
        Some((s, false)) => P::Prune(s, false),
    };
    walk(x, p, n, d, &DottedPath::Root, &mut cx);
    cx.unknown.sort();
    cx.unknown
}

/// What decoding a resource did.
#[derive(Debug, Default)]
pub struct Decoded {
    /// The sorted paths of the pruned fields.
    pub pruned: Vec<String>,
    /// The metadata coercion error; nothing is defaulted when there is one.
    pub error: Option<FieldError>,
}

/// The decoding of a resource root: when `prune`,
/// `prune(obj, s, true, true)` and
/// `PruneNonNullableNullsWithoutDefaults(obj, s)`; then
/// `coerce(root, obj, s, true)`, and when it succeeds `Default(obj, s)`.
pub fn decode_resource(obj: &mut Value, s: Option<View<'_>>, prune: bool) -> Decoded {
    let root = Path::root();
    let fusable = prune && s.is_some_and(|s| checkable(obj, s));
    let Some(s) = s.filter(|_| fusable) else {
        let pruned = if prune {
            run(obj, Some((s, true)), s, None, true)
        } else {
            Vec::new()
        };
        let error = coerce_value_view(&root, obj, s, true);
        if error.is_none() {
            run(obj, None, None, s, false);
        }
        return Decoded { pruned, error };
    };
    let mut cx = Cx::new(true);
    let p = enter(P::Prune(Some(s), true));
    let error = prune_and_coerce_meta(obj, p, s, &mut cx);
    let d = if error.is_none() { Some(s) } else { None };
    if let Value::Object(map) = obj {
        walk_object(
            map,
            p,
            Some(s),
            d.filter(|d| d.may_default_below()),
            &DottedPath::Root,
            &mut cx,
            Keys::NotMeta,
        );
    }
    cx.unknown.sort();
    Decoded {
        pruned: cx.unknown,
        error,
    }
}

/// The first part of decoding a resource root under `s` (entered as
/// `p`): its apiVersion, kind and metadata pruned and stripped of nulls,
/// as coercion reads them (nothing else is pruned at those keys), then
/// coerced; returns the coercion's error.
fn prune_and_coerce_meta<'a>(
    obj: &mut Value,
    p: P<'a>,
    s: View<'a>,
    cx: &mut Cx,
) -> Option<FieldError> {
    if let Value::Object(map) = obj {
        walk_object(map, p, Some(s), None, &DottedPath::Root, cx, Keys::Meta);
    }
    coerce_value_view(&Path::root(), obj, Some(s), true)
}

/// Whether null removal drops a `null` whose schema is `s`.
fn drops_null(s: Option<View<'_>>) -> bool {
    s.is_some_and(|p| {
        let g = &p.schema().generic;
        !g.nullable && g.default.is_none()
    })
}

/// The value `null` takes under defaulting, where it is replaced: the
/// default of a non-nullable schema (`null` without one).
fn null_default(s: View<'_>) -> Option<Value> {
    let g = &s.schema().generic;
    (!g.nullable).then(|| g.default.clone().unwrap_or(Value::Null))
}

/// The property `k` of `s`: `found` when `s` is `base`.
#[inline(always)]
fn child<'a>(
    s: View<'a>,
    base: Option<View<'a>>,
    found: Option<(usize, View<'a>)>,
    k: &str,
) -> Option<(usize, View<'a>)> {
    if base.is_some_and(|b| b.same(s)) {
        found
    } else {
        s.prop_indexed(k)
    }
}

/// Whether the steps can do anything below `v` (none of them changes a
/// scalar).
fn is_container(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Array(_))
}

/// Pruning under `x-kubernetes-preserve-unknown-fields` skips.
fn enter(p: P<'_>) -> P<'_> {
    match p {
        P::Prune(Some(s), root_embedded) if s.schema().extensions.preserve_unknown_fields => {
            P::Skip(s, root_embedded)
        }
        p => p,
    }
}

fn walk(
    x: &mut Value,
    p: P<'_>,
    n: Option<View<'_>>,
    d: Option<View<'_>>,
    at: &DottedPath<'_>,
    cx: &mut Cx,
) {
    let p = enter(p);
    let d = d.filter(|d| d.may_default_below());
    match x {
        Value::Object(map) => walk_object(map, p, n, d, at, cx, Keys::All),
        Value::Array(items) => {
            let pc = match p {
                P::Off => P::Off,
                P::Prune(s, _) => P::Prune(s.and_then(View::items), false),
                P::Skip(s, _) => s.items().map_or(P::Off, |i| P::Skip(i, false)),
            };
            let nc = n.and_then(View::items);
            let dc = d.and_then(View::items);
            if matches!(pc, P::Off) && nc.is_none() && dc.is_none() {
                return;
            }
            for (i, v) in items.iter_mut().enumerate() {
                if v.is_null() {
                    if let Some(new) = dc.and_then(null_default) {
                        *v = new;
                        walk(v, P::Off, None, dc, at, cx);
                    }
                } else if is_container(v) {
                    walk(v, pc, nc, dc, &DottedPath::Index(at, i), cx);
                }
            }
        }
        _ => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn walk_object<'a>(
    map: &mut Map<String, Value>,
    p: P<'a>,
    n: Option<View<'a>>,
    d: Option<View<'a>>,
    at: &DottedPath<'_>,
    cx: &mut Cx,
    keys: Keys,
) {
    // (schema, embedded, skipping); `None` with `prune_all` prunes every key.
    let (ps, prune_all) = match p {
        P::Off => (None, false),
        P::Prune(None, _) => (None, true),
        P::Prune(Some(s), re) => (
            Some((s, re || s.schema().extensions.embedded_resource, false)),
            false,
        ),
        P::Skip(s, re) => (
            Some((s, re || s.schema().extensions.embedded_resource, true)),
            false,
        ),
    };
    if ps.is_none() && !prune_all && n.is_none() && d.is_none() {
        return;
    }
    // The node the steps usually share, looked up once per key.
    let base = ps.map(|(s, ..)| s).or(n).or(d);
    let defaulted = d.and_then(View::defaulted).filter(|x| x.len() <= 64);
    let mut present: u64 = 0;
    map.retain(|k, v| {
        let found = base.and_then(|b| b.prop_indexed(k));
        let look = |s: View<'a>| child(s, base, found, k);
        let mut pc = P::Off;
        let mut nc = None;
        if keys.allows(k) {
            if prune_all {
                cx.record(at, k);
                // Dropped without recursion, however deep.
                crate::model::depth::drop_deep(std::mem::take(v));
                return false;
            }
            if let Some((s, embedded, skipping)) = ps {
                if embedded && is_meta(k) {
                    // Kept as is.
                } else if let Some((_, prop)) = look(s) {
                    pc = P::Prune(Some(prop), false);
                } else if let Some(ap) = s.additional() {
                    pc = P::Prune(ap, false);
                } else if !skipping {
                    if !is_meta(k) || !at.is_empty() {
                        cx.record(at, k);
                    }
                    crate::model::depth::drop_deep(std::mem::take(v));
                    return false;
                }
            }
            nc = n.and_then(|ns| {
                look(ns)
                    .map(|(_, c)| c)
                    .or_else(|| ns.additional().flatten())
            });
            if v.is_null() && drops_null(nc) {
                return false;
            }
        }
        let mut dc = None;
        let mut replaced = false;
        if let Some(ds) = d {
            if let Some((i, prop)) = look(ds) {
                dc = Some(prop);
                let g = &prop.schema().generic;
                if let Some(def) = &g.default {
                    if v.is_null() && !g.nullable {
                        *v = def.clone();
                        replaced = true;
                    }
                    if let Some(slot) = defaulted.and_then(|x| x.iter().position(|&j| j == i)) {
                        present |= 1 << slot;
                    }
                }
            } else if let Some(ap) = ds.additional() {
                dc = ap;
                if v.is_null() {
                    if let Some(new) = ap.and_then(null_default) {
                        *v = new;
                        replaced = true;
                    }
                }
            }
        }
        if replaced {
            // A default: only defaulted below.
            walk(v, P::Off, None, dc, at, cx);
        } else if is_container(v) && (!matches!(pc, P::Off) || nc.is_some() || dc.is_some()) {
            walk(v, pc, nc, dc, &DottedPath::Child(at, k), cx);
        }
        true
    });
    let Some(ds) = d else { return };
    // The missing properties with defaults, in the properties' order.
    let props = &ds.schema().properties;
    let insert = |map: &mut Map<String, Value>, k: &String, prop: &Structural, cx: &mut Cx| {
        let Some(def) = &prop.generic.default else {
            return;
        };
        let mut v = def.clone();
        walk(&mut v, P::Off, None, ds.prop(k), at, cx);
        map.insert(k.clone(), v);
    };
    match defaulted {
        Some(defaulted) => {
            for (slot, &i) in defaulted.iter().enumerate() {
                if present & (1 << slot) == 0 {
                    if let Some((k, prop)) = props.get_index(i) {
                        insert(map, k, prop, cx);
                    }
                }
            }
        }
        None => {
            for (k, prop) in props {
                if prop.generic.default.is_some() && !map.contains_key(k) {
                    insert(map, k, prop, cx);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Decoding and value validation in one walk.

/// What a [`Plan`] node checks of the values it meets.
enum Need {
    /// Nothing: an ancestor checks its whole value.
    Covered,
    /// The node's own checks; its properties, additional properties and
    /// items check themselves.
    Own(Check),
    /// The node's whole validation, run on its value once decoded.
    Whole(Check),
    /// Unknown: the validator must run.
    Never,
}

/// [`Plan::flags`]: `x-kubernetes-preserve-unknown-fields`.
const PRESERVE: u8 = 1;
/// [`Plan::flags`]: `nullable`.
const NULLABLE: u8 = 2;
/// [`Plan::flags`]: a node strictly below has a default.
const DEFAULTS_BELOW: u8 = 4;

/// A structural schema paired with its value validator for
/// [`decode_resource_checked`]: per node, what decoding needs (the
/// property lookup, the flags, the default) and what value validation
/// checks there, in one place.
///
/// A node whose validation splits into its own checks and its children's
/// (see [`NodeRef::is_separable`]) keeps only its own, and its children
/// keep theirs; any other node keeps its whole validation, and nothing
/// below it checks anything. The resource root's `apiVersion`, `kind` and
/// `metadata` keep their whole validation (decoding does not follow them).
pub(crate) struct Plan {
    names: NameTable,
    props: Box<[Plan]>,
    items: Option<Box<Plan>>,
    /// `additionalProperties`: `Some(None)` when it is a boolean.
    additional: Option<Option<Box<Plan>>>,
    flags: u8,
    default: Option<Value>,
    /// The properties with a default, by index, with their names.
    defaulted: Box<[(usize, String)]>,
    need: Need,
    /// With [`Need::Own`], the values that pass whatever they hold
    /// ([`NodeRef::trivial`]); an object also needs [`Plan::required`].
    trivial: u8,
    /// The required properties, by index (with [`TRIVIAL_OBJECT`]).
    required: u64,
}

impl Plan {
    /// The plan of a resource root `s` validated by `v` (the validator
    /// built from the same schema).
    pub(crate) fn for_resource(s: &Structural, v: NodeRef<'_>) -> Plan {
        Plan::build(s, Some(v), false, true)
    }

    fn build(s: &Structural, v: Option<NodeRef<'_>>, covered: bool, root: bool) -> Plan {
        let own = v.filter(|v| v.is_separable() && pairs(s, *v));
        let need = match (covered, v, own) {
            (true, ..) => Need::Covered,
            (false, _, Some(v)) => Need::Own(v.shallow()),
            (false, Some(v), None) => Need::Whole(v.full()),
            // Not reached: a node is paired unless covered.
            (false, None, None) => Need::Never,
        };
        let below_covered = covered || own.is_none();
        let child =
            |c: &Structural, cv: Option<NodeRef<'_>>| Plan::build(c, cv, below_covered, false);
        let props: Box<[Plan]> = s
            .properties
            .iter()
            .map(|(k, c)| {
                let cv = own.and_then(|v| v.prop(k));
                if root && !below_covered && is_meta(k) {
                    // Decoding does not follow these: checked whole.
                    Plan::build(c, None, true, false)
                        .with_need(cv.map_or(Need::Never, |cv| Need::Whole(cv.full())))
                } else {
                    child(c, cv)
                }
            })
            .collect();
        let items = s
            .items
            .as_deref()
            .map(|i| Box::new(child(i, own.and_then(NodeRef::items))));
        let additional = s.generic.additional_properties.as_ref().map(|a| {
            a.structural
                .as_deref()
                .map(|a| Box::new(child(a, own.and_then(NodeRef::additional))))
        });
        let mut flags = 0;
        if s.extensions.preserve_unknown_fields {
            flags |= PRESERVE;
        }
        if s.generic.nullable {
            flags |= NULLABLE;
        }
        let defaulted: Box<[(usize, String)]> = s
            .properties
            .iter()
            .enumerate()
            .filter(|(_, (_, p))| p.generic.default.is_some())
            .map(|(i, (k, _))| (i, k.clone()))
            .collect();
        let has_default = |p: &Plan| p.default.is_some() || p.flags & DEFAULTS_BELOW != 0;
        if !defaulted.is_empty()
            || props.iter().any(|p| p.flags & DEFAULTS_BELOW != 0)
            || items.as_deref().is_some_and(has_default)
            || additional
                .as_ref()
                .and_then(Option::as_deref)
                .is_some_and(has_default)
        {
            flags |= DEFAULTS_BELOW;
        }
        // Required properties as a mask, when they fit one.
        let (mut trivial, mut required) = (0, 0u64);
        if let (Need::Own(_), Some(v)) = (&need, own) {
            trivial = v.trivial();
            for k in v.required() {
                match s.properties.get_index_of(k.as_str()).filter(|&i| i < 64) {
                    Some(i) => required |= 1 << i,
                    None => trivial &= !TRIVIAL_OBJECT,
                }
            }
        }
        Plan {
            names: NameTable::new(s.properties.keys().map(String::as_str)),
            props,
            items,
            additional,
            flags,
            default: s.generic.default.clone(),
            defaulted,
            need,
            trivial,
            required,
        }
    }

    fn with_need(mut self, need: Need) -> Plan {
        self.need = need;
        self
    }

    /// Whether the root object passes the root's own checks (its
    /// children's are [`decode_resource_checked`]'s).
    pub(crate) fn root_passes(&self, obj: &Value) -> bool {
        match &self.need {
            Need::Covered => true,
            Need::Own(c) | Need::Whole(c) => c.passes(obj),
            Need::Never => false,
        }
    }
}

/// Whether the validator node `v` has exactly the children of `s`.
fn pairs(s: &Structural, v: NodeRef<'_>) -> bool {
    v.prop_count() == s.properties.len()
        && s.properties.keys().all(|k| v.prop(k).is_some())
        && s.items.is_some() == v.items().is_some()
        && s.generic
            .additional_properties
            .as_ref()
            .and_then(|a| a.structural.as_deref())
            .is_some()
            == v.additional().is_some()
}

/// What [`decode_resource_checked`] found.
#[derive(Debug, Default)]
pub(crate) struct Checked {
    /// What decoding did.
    pub(crate) decoded: Decoded,
    /// Every value below the root passes its value validation (the
    /// root's own checks are [`Plan::root_passes`]). `false` proves
    /// nothing: the validator must run.
    pub(crate) valid: bool,
    /// The object nests more than [`MAX_VALUE_NESTING`] levels: nothing else
    /// counts (the object is left part way through).
    pub(crate) too_deep: bool,
}

/// Whether [`decode_resource_checked`] can decode `obj` as a resource
/// under `s`: what [`decode_resource`] fuses into one walk.
pub(crate) fn checkable(obj: &Value, s: View<'_>) -> bool {
    obj.is_object() && s.is_prepared() && !s.may_embed_below()
}

/// [`decode_resource`] with pruning, in one walk that also checks each
/// value's validation (following `plan`, built for `s`) and the
/// decoder's depth limit, for a [`checkable`] object.
pub(crate) fn decode_resource_checked(obj: &mut Value, s: View<'_>, plan: &Plan) -> Checked {
    let mut cx = Cx::new(true);
    let Value::Object(map) = obj else {
        return Checked::default();
    };
    // The parts decoding follows below check their depth as they go; the
    // root's apiVersion, kind and metadata are decoded and coerced first.
    if META_FIELDS
        .iter()
        .filter_map(|k| map.get(*k))
        .any(|v| deeper_than(v, MAX_VALUE_NESTING - 1))
    {
        return Checked {
            too_deep: true,
            ..Checked::default()
        };
    }
    let p = enter(P::Prune(Some(s), true));
    let error = prune_and_coerce_meta(obj, p, s, &mut cx);
    let Value::Object(map) = obj else {
        return Checked::default();
    };
    if error.is_none() {
        let here = Here {
            plan,
            mode: Mode::Root,
            defaults: plan.flags & DEFAULTS_BELOW != 0,
            skipping: plan.flags & PRESERVE != 0,
            level: 1,
            at: &DottedPath::Root,
        };
        checked_object(map, here, &mut cx);
    } else {
        // Nothing is defaulted, and nothing is validated.
        if deeper_than(obj, MAX_VALUE_NESTING) {
            cx.too_deep = true;
        } else if let Value::Object(map) = obj {
            walk_object(
                map,
                p,
                Some(s),
                None,
                &DottedPath::Root,
                &mut cx,
                Keys::NotMeta,
            );
        }
        cx.valid = false;
    }
    cx.unknown.sort();
    Checked {
        decoded: Decoded {
            pruned: cx.unknown,
            error,
        },
        valid: cx.valid && !cx.too_deep,
        too_deep: cx.too_deep,
    }
}

/// How [`checked_object`] treats keys.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Pruning, null removal and defaulting.
    Decode,
    /// The resource root's keys but `apiVersion`, `kind` and `metadata`
    /// are decoded; those are only defaulted.
    Root,
    /// Defaulting only (below a default put in).
    Default,
}

/// Checks `v` against `plan`'s need (an object's `required`, with
/// [`TRIVIAL_OBJECT`], is [`checked_object`]'s).
#[inline]
fn check(plan: &Plan, v: &Value, cx: &mut Cx) {
    if !cx.valid {
        return;
    }
    match &plan.need {
        Need::Covered => {}
        Need::Own(c) => {
            let trivial = match v {
                Value::String(_) => TRIVIAL_STRING,
                Value::Bool(_) => TRIVIAL_BOOL,
                Value::Object(_) => TRIVIAL_OBJECT,
                Value::Array(_) => TRIVIAL_ARRAY,
                Value::Null | Value::Number(_) => 0,
            };
            if plan.trivial & trivial == 0 && !c.passes(v) {
                cx.valid = false;
            }
        }
        Need::Whole(c) => {
            if !c.passes(v) {
                cx.valid = false;
            }
        }
        Need::Never => cx.valid = false,
    }
}

/// The depth limit of a value at `level` that the walk does not follow.
#[inline]
fn limit_unfollowed(v: &Value, level: usize, cx: &mut Cx) {
    if is_container(v) && deeper_than(v, (MAX_VALUE_NESTING + 1).saturating_sub(level)) {
        cx.too_deep = true;
    }
}

/// A container [`checked_value`] walks: its plan, how its keys are
/// decoded, whether defaulting acts in it, whether pruning skips in it,
/// its nesting level (the root object is 1) and its path.
#[derive(Clone, Copy)]
struct Here<'a, 'p> {
    plan: &'a Plan,
    mode: Mode,
    defaults: bool,
    skipping: bool,
    level: usize,
    at: &'p DottedPath<'p>,
}

/// Decodes (as `mode` says) and checks the container `x` at nesting
/// `level`; `skip`: pruning skips here (an array under
/// `x-kubernetes-preserve-unknown-fields` passes that on to its items).
fn checked_value(
    x: &mut Value,
    plan: &Plan,
    mode: Mode,
    skip: bool,
    level: usize,
    at: &DottedPath<'_>,
    cx: &mut Cx,
) {
    if level > MAX_VALUE_NESTING {
        cx.too_deep = true;
        return;
    }
    let here = Here {
        plan,
        mode,
        defaults: plan.flags & DEFAULTS_BELOW != 0,
        skipping: skip || plan.flags & PRESERVE != 0,
        level,
        at,
    };
    match x {
        Value::Object(map) => checked_object(map, here, cx),
        Value::Array(items) => checked_array(items, here, cx),
        _ => {}
    }
    if !cx.too_deep {
        check(plan, x, cx);
    }
}

fn checked_array(items: &mut [Value], here: Here<'_, '_>, cx: &mut Cx) {
    let Here {
        mode, level, at, ..
    } = here;
    let Some(ip) = here.plan.items.as_deref() else {
        for v in items.iter() {
            limit_unfollowed(v, level + 1, cx);
        }
        if mode != Mode::Default && !here.skipping && !cx.too_deep {
            // Pruning without a schema: every field below goes.
            for (i, v) in items.iter_mut().enumerate() {
                if is_container(v) {
                    walk(
                        v,
                        P::Prune(None, false),
                        None,
                        None,
                        &DottedPath::Index(at, i),
                        cx,
                    );
                }
            }
        }
        return;
    };
    for (i, v) in items.iter_mut().enumerate() {
        if cx.too_deep {
            return;
        }
        if v.is_null() && here.defaults && ip.flags & NULLABLE == 0 {
            *v = ip.default.clone().unwrap_or(Value::Null);
            checked_value(v, ip, Mode::Default, false, level + 1, at, cx);
        } else if is_container(v) {
            checked_value(
                v,
                ip,
                mode,
                here.skipping,
                level + 1,
                &DottedPath::Index(at, i),
                cx,
            );
        } else {
            check(ip, v, cx);
        }
    }
}

fn checked_object(map: &mut Map<String, Value>, here: Here<'_, '_>, cx: &mut Cx) {
    let plan = here.plan;
    let mut present: u64 = 0;
    // The positions of the keys to remove, removed after the walk: it
    // reads the map and writes only to values (`retain` costs more, on
    // the common maps that keep every key).
    let mut removed: Vec<usize> = Vec::new();
    for (nth, (k, v)) in map.iter_mut().enumerate() {
        if cx.too_deep {
            return;
        }
        if !checked_entry(k, v, here, &mut present, cx) {
            removed.push(nth);
        }
    }
    if !removed.is_empty() {
        let mut nth = 0;
        let mut next = removed.iter().peekable();
        map.retain(|_, _| {
            let keep = next.next_if_eq(&&nth).is_none();
            nth += 1;
            keep
        });
    }
    if here.defaults {
        insert_defaults(map, here, &mut present, cx);
    }
    if here.mode != Mode::Root
        && cx.valid
        && plan.trivial & TRIVIAL_OBJECT != 0
        && present & plan.required != plan.required
    {
        cx.valid = false;
    }
}

/// Decodes and checks the key `k` of an object `here`; `false`: the key
/// goes. Known properties are marked in `present` (the first 64).
#[inline(always)]
fn checked_entry(
    k: &str,
    v: &mut Value,
    here: Here<'_, '_>,
    present: &mut u64,
    cx: &mut Cx,
) -> bool {
    let Here {
        plan, level, at, ..
    } = here;
    let decode = match here.mode {
        Mode::Decode => true,
        Mode::Root => !is_meta(k),
        Mode::Default => false,
    };
    let index = plan.names.get(k);
    let child = match index {
        Some(i) => plan.props.get(i),
        None => match &plan.additional {
            Some(Some(a)) => Some(&**a),
            Some(None) => {
                // A boolean: pruning drops every field below.
                limit_unfollowed(v, level + 1, cx);
                if decode && is_container(v) && !cx.too_deep {
                    walk(
                        v,
                        P::Prune(None, false),
                        None,
                        None,
                        &DottedPath::Child(at, k),
                        cx,
                    );
                }
                return true;
            }
            None => None,
        },
    };
    let Some(child) = child else {
        limit_unfollowed(v, level + 1, cx);
        if decode && !here.skipping {
            if !is_meta(k) || !at.is_empty() {
                cx.record(at, k);
            }
            crate::model::depth::drop_deep(std::mem::take(v));
            return false;
        }
        return true;
    };
    let nullable = child.flags & NULLABLE != 0;
    if decode && v.is_null() && !nullable && child.default.is_none() {
        return false;
    }
    if let Some(i) = index.filter(|&i| i < 64) {
        *present |= 1 << i;
    }
    let mut replaced = false;
    if here.defaults && v.is_null() && !nullable {
        // A property's default, or additionalProperties' (null without
        // one).
        match (index, &child.default) {
            (Some(_), Some(def)) => {
                *v = def.clone();
                replaced = true;
            }
            (Some(_), None) => {}
            (None, def) => {
                *v = def.clone().unwrap_or(Value::Null);
                replaced = true;
            }
        }
    }
    if replaced {
        // A default: only defaulted below.
        checked_value(v, child, Mode::Default, false, level + 1, at, cx);
    } else if is_container(v) {
        let mode = if decode { Mode::Decode } else { Mode::Default };
        checked_value(
            v,
            child,
            mode,
            false,
            level + 1,
            &DottedPath::Child(at, k),
            cx,
        );
    } else {
        check(child, v, cx);
    }
    true
}

/// Puts in the missing properties with defaults, in the properties'
/// order.
fn insert_defaults(
    map: &mut Map<String, Value>,
    here: Here<'_, '_>,
    present: &mut u64,
    cx: &mut Cx,
) {
    let Here {
        plan, level, at, ..
    } = here;
    let small = plan.props.len() <= 64;
    for (i, k) in &plan.defaulted {
        let missing = if small {
            *present & (1 << i) == 0
        } else {
            !map.contains_key(k)
        };
        if !missing {
            continue;
        }
        let Some(prop) = plan.props.get(*i) else {
            continue;
        };
        let Some(def) = &prop.default else { continue };
        let mut v = def.clone();
        checked_value(&mut v, prop, Mode::Default, false, level + 1, at, cx);
        map.insert(k.clone(), v);
        if *i < 64 {
            *present |= 1 << i;
        }
    }
}
