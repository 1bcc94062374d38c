//! The schema keys controller-gen v0.21 derives from the markers of a Go
//! struct, as patches below the struct's schema.
//!
//! controller-gen builds a schema per Go type (the type's markers applied
//! to it), a schema per field use (a reference plus the field's markers),
//! and merges the two when it inlines the reference: the field's keys over
//! the type's for `x-kubernetes-map-type`, the type's `enum` kept, the
//! field's `x-kubernetes-validations` first; embedded (`,inline`) structs
//! merge into the embedding struct the same way, `required` lists joined.
//! Only the markers it registers for the crd generator have an effect; a
//! marker it rejects (a list type on a string, a key without a list type of
//! `map`) makes it report an error and leaves the schema unchanged, which is
//! recorded here as an [`Issue`].
//!
//! This file walks the Go types and merges the schemas; `registry.rs` knows
//! which markers controller-gen registers, `validation.rs` and
//! `extensions.rs` apply them to a node, `arguments.rs` parses their
//! arguments.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::extensions;
use super::go::{Decl, Field, GoType, Markers, Release, TypeRef, builtin};
use super::node::{Node, rule};
use super::registry::{Def, Target, lines, lookup, priority, split_marker};
use super::validation;

/// A path below a schema: property names, `[]` for array items, `{}` for
/// map values.
pub type SubPath = Vec<String>;

/// Keys to set at each path.
pub type Keys = BTreeMap<SubPath, BTreeMap<String, Value>>;

/// A marker controller-gen rejects (it reports an error and the marker has
/// no effect on the schema).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Issue {
    /// `package.Type.Field` (or `package.Type`).
    pub at: String,
    /// The marker line.
    pub marker: String,
    /// controller-gen's reason.
    pub reason: String,
}

/// The types controller-gen replaces by a fixed schema (its
/// `KnownPackages`, and `ObjectMeta` with `generateEmbeddedObjectMeta`):
/// their markers never reach a schema.
pub const KNOWN_TYPES: [(&str, &str); 9] = [
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "ObjectMeta"),
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Time"),
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "MicroTime"),
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Duration"),
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Fields"),
    ("k8s.io/apimachinery/pkg/api/resource", "Quantity"),
    ("k8s.io/apimachinery/pkg/runtime", "RawExtension"),
    (
        "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured",
        "Unstructured",
    ),
    ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString"),
];

fn is_known(r: &TypeRef) -> bool {
    KNOWN_TYPES.iter().any(|(p, n)| *p == r.pkg && *n == r.name)
}

/// The string constants of a `+k8s:enum` type: controller-gen lists the
/// constants of that type whose value is a string literal, which the
/// marker data does not record. `(release, package, type)` to the values;
/// an empty list is a type whose constants are all conversions
/// (`DeviceAllocationMode("All")`), for which controller-gen reports "no
/// enum values found".
pub type EnumConsts = [(u32, &'static str, &'static str, &'static [&'static str])];

/// What controller-gen derives for one struct.
#[derive(Clone, Debug, Default)]
pub struct StructOut {
    /// Keys below the struct: paths start with a property name.
    pub fields: Keys,
    /// The property names, in order (embedded structs' inlined).
    pub properties: Vec<String>,
    /// controller-gen's `required`, sorted.
    pub required: Vec<String>,
    /// Keys of the struct's own node besides `required`
    /// (`x-kubernetes-map-type`, `x-kubernetes-validations`, …).
    pub own: BTreeMap<String, Value>,
}

/// Translates the structs of one release.
pub struct Translator<'a> {
    rel: &'a Release,
    enums: &'a EnumConsts,
    /// The markers controller-gen rejects.
    pub issues: Vec<Issue>,
    cache: BTreeMap<TypeRef, StructOut>,
    /// The structs being translated (embedding cycles).
    stack: Vec<TypeRef>,
}

impl<'a> Translator<'a> {
    pub fn new(rel: &'a Release, enums: &'a EnumConsts) -> Self {
        Translator {
            rel,
            enums,
            issues: Vec::new(),
            cache: BTreeMap::new(),
            stack: Vec::new(),
        }
    }

    /// The struct a named type stands for: itself, or the struct a
    /// defined type (`type A v1.B`) or alias names. `None` for a
    /// non-struct or a type outside the data.
    pub fn struct_of(&self, r: &TypeRef) -> Result<Option<TypeRef>> {
        let mut r = r.clone();
        for _ in 0..16 {
            match self.rel.decl(&r) {
                Some(Decl::Struct { .. }) => return Ok(Some(r)),
                Some(Decl::Named {
                    underlying: GoType::Name { qualifier, name },
                    ..
                }) => match self.rel.resolve(&r.pkg, qualifier.as_deref(), name)? {
                    Some(next) => r = next,
                    None => return Ok(None),
                },
                _ => return Ok(None),
            }
        }
        bail!("{}.{}: type definitions nest too deep", r.pkg, r.name)
    }

    /// The schema keys of the struct `r` (which [`Self::struct_of`] found).
    pub fn struct_out(&mut self, r: &TypeRef) -> Result<StructOut> {
        if let Some(out) = self.cache.get(r) {
            return Ok(out.clone());
        }
        if self.stack.contains(r) {
            bail!("{}.{} embeds itself", r.pkg, r.name);
        }
        self.stack.push(r.clone());
        let out = self.translate_struct(r);
        self.stack.pop();
        let out = out.with_context(|| format!("{}.{}", r.pkg, r.name))?;
        self.cache.insert(r.clone(), out.clone());
        Ok(out)
    }

    fn translate_struct(&mut self, r: &TypeRef) -> Result<StructOut> {
        let Some(Decl::Struct { markers, fields }) = self.rel.decl(r).cloned() else {
            bail!("not a struct");
        };
        let mut out = StructOut::default();
        let mut embedded = Vec::new();
        let mut immutable = Vec::new();
        for field in &fields {
            let at = format!("{}.{}.{}", r.pkg, r.name, field.go_name);
            let Some(tag) = &field.json else {
                // controller-gen: "encountered struct field without JSON
                // tag"; the field is left out.
                self.issues.push(Issue {
                    at,
                    marker: String::new(),
                    reason: "no json tag: controller-gen reports an error and leaves the field out"
                        .to_string(),
                });
                continue;
            };
            let opts: Vec<&str> = tag.split(',').collect();
            if opts.len() == 1 && opts[0] == "-" {
                continue;
            }
            let name = opts[0];
            let inline = name.is_empty() || opts[1..].contains(&"inline");
            let omitempty = opts[1..].contains(&"omitempty");
            if requiredness(&field.markers, inline, omitempty) {
                if inline {
                    bail!("{at}: an inline field marked required");
                }
                out.required.push(name.to_string());
            }
            if inline {
                embedded.push(self.embedded(r, field, &at)?);
                continue;
            }
            if field
                .markers
                .iter()
                .any(|(n, _)| lookup(n, Target::Field) == Some((Def::Immutable, false)))
            {
                immutable.push(name.to_string());
            }
            let keys = self.field_keys(&r.pkg, field, &at)?;
            for (path, k) in keys {
                let mut full = vec![name.to_string()];
                full.extend(path);
                out.fields.insert(full, k);
            }
            out.properties.push(name.to_string());
        }
        out.required.sort();
        out.required.dedup();
        // The struct's own node: the rules of optional immutable fields,
        // then the type's markers.
        let mut own = Node::of_type("object");
        let rules: Vec<Value> = immutable
            .iter()
            .filter(|f| !out.required.contains(f))
            .map(|f| {
                rule(
                    &format!("!has(oldSelf.{f}) || has(self.{f})"),
                    &format!("field {f} is immutable once set"),
                )
            })
            .collect();
        if !rules.is_empty() {
            own.keys
                .insert("x-kubernetes-validations".to_string(), Value::Array(rules));
        }
        let at = format!("{}.{}", r.pkg, r.name);
        self.apply(&mut own, None, &markers, Target::Type, r, &at)?;
        out.own = own.keys;
        // Embedded structs merge into this one, in order.
        for emb in embedded {
            for p in emb.properties {
                if out.properties.contains(&p) {
                    bail!("{at}: property {p} is defined twice (embedded)");
                }
                out.properties.push(p);
            }
            for (path, keys) in emb.fields {
                out.fields.insert(path, keys);
            }
            out.required.extend(emb.required);
            out.own = merge(out.own, emb.own, &at)?;
        }
        out.required.sort();
        out.required.dedup();
        Ok(out)
    }

    /// An embedded (inline) field's struct.
    fn embedded(&mut self, r: &TypeRef, field: &Field, at: &str) -> Result<StructOut> {
        let schema_markers: Vec<String> = lines(&field.markers)
            .into_iter()
            .filter(|l| lookup(l, Target::Field).is_some_and(|(d, _)| d != Def::Requiredness))
            .collect();
        if !schema_markers.is_empty() {
            bail!(
                "{at}: schema markers on an inline field ({schema_markers:?}) are not translated"
            );
        }
        let mut ty = &field.ty;
        while let GoType::Ptr(inner) = ty {
            ty = inner;
        }
        let GoType::Name { qualifier, name } = ty else {
            bail!("{at}: an inline field of type {:?}", field.ty);
        };
        let target = self
            .rel
            .resolve(&r.pkg, qualifier.as_deref(), name)?
            .with_context(|| format!("{at}: inline predeclared type"))?;
        if is_known(&target) {
            bail!("{at}: inline {}.{}", target.pkg, target.name);
        }
        let s = self
            .struct_of(&target)?
            .with_context(|| format!("{at}: inline non-struct {}.{}", target.pkg, target.name))?;
        self.struct_out(&s)
    }

    /// The keys of one field's schema: the field node (empty path) and the
    /// nodes below it that named types give keys.
    fn field_keys(&mut self, pkg: &str, field: &Field, at: &str) -> Result<Keys> {
        let schemaless = lines(&field.markers)
            .iter()
            .any(|l| lookup(l, Target::Field) == Some((Def::Schemaless, false)));
        if schemaless {
            bail!("{at}: kubebuilder:validation:Schemaless is not translated");
        }
        let mut node = Node::of_type(&self.use_type(pkg, &field.ty)?);
        let mut items = match &field.ty {
            GoType::Slice(e) | GoType::Array(e) if !is_byte(e) => {
                Some(Node::of_type(&self.use_type(pkg, e)?))
            }
            _ => None,
        };
        let owner = TypeRef {
            pkg: pkg.to_string(),
            name: String::new(),
        };
        self.apply(
            &mut node,
            items.as_mut(),
            &field.markers,
            Target::Field,
            &owner,
            at,
        )?;
        // The field's keys merge over those of the named types it uses.
        let mut keys = self.named_keys(pkg, &field.ty)?;
        let mut put = |path: SubPath, src: BTreeMap<String, Value>| -> Result<()> {
            let dst = keys.remove(&path).unwrap_or_default();
            let merged = merge(dst, src, at)?;
            if !merged.is_empty() {
                keys.insert(path, merged);
            }
            Ok(())
        };
        if let Some(items) = items {
            put(vec!["[]".to_string()], items.keys)?;
        }
        // A struct-typed field: its own rules follow the field's.
        let mut own = node.keys;
        if own.contains_key("x-kubernetes-validations") {
            if let Some(s) = self.direct_struct(pkg, &field.ty)? {
                let type_rules: BTreeMap<String, Value> = self
                    .struct_out(&s)?
                    .own
                    .into_iter()
                    .filter(|(k, _)| k == "x-kubernetes-validations")
                    .collect();
                own = merge(type_rules, own, at)?;
            }
        }
        put(Vec::new(), own)?;
        Ok(keys)
    }

    /// The struct a field's node is, through pointers.
    fn direct_struct(&self, pkg: &str, ty: &GoType) -> Result<Option<TypeRef>> {
        match ty {
            GoType::Ptr(t) => self.direct_struct(pkg, t),
            GoType::Name { qualifier, name } => {
                match self.rel.resolve(pkg, qualifier.as_deref(), name)? {
                    Some(r) if !is_known(&r) => self.struct_of(&r),
                    _ => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// The keys the type-level markers of named non-struct types give the
    /// nodes of `ty` (a struct's own keys stay with its schema).
    fn named_keys(&mut self, pkg: &str, ty: &GoType) -> Result<Keys> {
        let mut out = Keys::new();
        match ty {
            GoType::Ptr(t) => return self.named_keys(pkg, t),
            GoType::Slice(e) | GoType::Array(e) if !is_byte(e) => {
                for (mut path, k) in self.named_keys(pkg, e)? {
                    path.insert(0, "[]".to_string());
                    out.insert(path, k);
                }
            }
            GoType::Map(_, v) => {
                for (mut path, k) in self.named_keys(pkg, v)? {
                    path.insert(0, "{}".to_string());
                    out.insert(path, k);
                }
            }
            GoType::Name { qualifier, name } => {
                let Some(r) = self.rel.resolve(pkg, qualifier.as_deref(), name)? else {
                    return Ok(out);
                };
                if is_known(&r) {
                    return Ok(out);
                }
                match self.rel.decl(&r).cloned() {
                    Some(Decl::Named {
                        markers,
                        underlying,
                        alias,
                    }) => {
                        // The underlying type's keys, then this type's
                        // markers over them (an alias has no schema of
                        // its own).
                        let mut inner = self.named_keys(&r.pkg, &underlying)?;
                        if !alias {
                            let mut node = Node::of_type(&self.use_type(&r.pkg, &underlying)?);
                            let where_ = format!("{}.{}", r.pkg, r.name);
                            self.apply(&mut node, None, &markers, Target::Type, &r, &where_)?;
                            let dst = inner.remove(&Vec::new()).unwrap_or_default();
                            let merged = merge(dst, node.keys, &where_)?;
                            if !merged.is_empty() {
                                inner.insert(Vec::new(), merged);
                            }
                        }
                        out = inner;
                    }
                    Some(Decl::Struct { .. }) | None => {}
                }
            }
            _ => {}
        }
        Ok(out)
    }

    /// The schema type controller-gen gives a use of `ty` before it inlines
    /// references: a predeclared type's, a same-package named type's whose
    /// underlying type is predeclared, else none (a reference).
    fn use_type(&self, pkg: &str, ty: &GoType) -> Result<String> {
        Ok(match ty {
            GoType::Ptr(t) => self.use_type(pkg, t)?,
            GoType::Slice(e) if is_byte(e) => "string".to_string(),
            GoType::Slice(_) | GoType::Array(_) => "array".to_string(),
            GoType::Map(..) => "object".to_string(),
            GoType::Interface => String::new(),
            GoType::Name {
                qualifier: Some(_), ..
            } => String::new(),
            GoType::Name {
                qualifier: None,
                name,
            } => {
                if let Some(t) = builtin(name) {
                    return Ok(t.to_string());
                }
                let r = TypeRef {
                    pkg: pkg.to_string(),
                    name: name.clone(),
                };
                match self.rel.decl(&r) {
                    Some(Decl::Named {
                        underlying, alias, ..
                    }) => {
                        if *alias {
                            // The alias's right-hand side.
                            self.use_type(pkg, underlying)?
                        } else if self.basic_underlying(&r)? {
                            self.use_type(pkg, underlying)?
                        } else {
                            String::new()
                        }
                    }
                    _ => String::new(),
                }
            }
        })
    }

    /// Whether the underlying type of the named type `r` is predeclared.
    fn basic_underlying(&self, r: &TypeRef) -> Result<bool> {
        let mut r = r.clone();
        for _ in 0..16 {
            match self.rel.decl(&r) {
                Some(Decl::Named {
                    underlying: GoType::Name { qualifier, name },
                    ..
                }) => match self.rel.resolve(&r.pkg, qualifier.as_deref(), name)? {
                    None => return Ok(true),
                    Some(next) => r = next,
                },
                _ => return Ok(false),
            }
        }
        Ok(false)
    }

    /// Applies the markers of one node in controller-gen's order, the
    /// `items:` markers to `items` afterwards.
    fn apply(
        &mut self,
        node: &mut Node,
        mut items: Option<&mut Node>,
        markers: &Markers,
        target: Target,
        owner: &TypeRef,
        at: &str,
    ) -> Result<()> {
        let mut found: Vec<(Def, bool, String)> = Vec::new();
        for line in lines(markers) {
            if let Some((def, is_items)) = lookup(&line, target) {
                found.push((def, is_items, line));
            }
        }
        found.sort_by_key(|(d, is_items, _)| (*is_items, priority(*d)));
        for (def, is_items, line) in found {
            let result = if is_items {
                match items.as_deref_mut() {
                    Some(items) => self.apply_one(items, def, &line, owner),
                    None => Err(format!(
                        "must apply {line} to an array value, found {}",
                        node.ty
                    )),
                }
            } else {
                self.apply_one(node, def, &line, owner)
            };
            match result {
                Ok(()) => {}
                Err(reason) if reason.starts_with("xtask: ") => {
                    bail!("{at}: +{line}: {}", &reason[7..])
                }
                Err(reason) => self.issues.push(Issue {
                    at: at.to_string(),
                    marker: format!("+{line}"),
                    // controller-gen prints the empty type of a reference
                    // as nothing.
                    reason: match reason.strip_suffix("found ") {
                        Some(r) => format!("{r}found \"\" (a reference to a type)"),
                        None => reason,
                    },
                }),
            }
        }
        Ok(())
    }

    /// One marker's `ApplyToSchema`. `Err` is controller-gen's error (the
    /// node unchanged), or one starting with `xtask: ` for a marker this
    /// translation does not know how to apply.
    fn apply_one(
        &self,
        node: &mut Node,
        def: Def,
        line: &str,
        owner: &TypeRef,
    ) -> Result<(), String> {
        let (_, _, value) = split_marker(line);
        let value = value.unwrap_or("");
        if def == Def::K8sEnum {
            return self.k8s_enum(node, owner);
        }
        validation::apply(node, def, value).unwrap_or_else(|| extensions::apply(node, def, value))
    }

    /// `+k8s:enum` on the type `owner`: its string constants (from
    /// [`EnumConsts`]), sorted as controller-gen sorts them.
    fn k8s_enum(&self, node: &mut Node, owner: &TypeRef) -> Result<(), String> {
        if !self.basic_string(owner) {
            return Err(format!("enum type must be a string, not {}", owner.name));
        }
        let Some((_, _, _, consts)) = self
            .enums
            .iter()
            .find(|(m, p, n, _)| *m == self.rel.minor && *p == owner.pkg && *n == owner.name)
        else {
            return Err(format!(
                "xtask: the string constants of {}.{} in 1.{} are not in the enum table \
                 (ENUM_CONSTS): add them from the Go source",
                owner.pkg, owner.name, self.rel.minor
            ));
        };
        if consts.is_empty() {
            return Err(format!("no enum values found for type {}", owner.name));
        }
        // Sorted by their JSON text, as controller-gen sorts them.
        let mut values: Vec<(String, &str)> = consts
            .iter()
            .map(|c| (serde_json::to_string(c).unwrap_or_default(), *c))
            .collect();
        values.sort();
        node.ty = "string".to_string();
        node.set("type", Value::String("string".to_string()));
        node.set(
            "enum",
            Value::Array(
                values
                    .into_iter()
                    .map(|(_, c)| Value::String(c.to_string()))
                    .collect(),
            ),
        );
        Ok(())
    }

    /// Whether `r` is a named type whose underlying type is `string`.
    fn basic_string(&self, r: &TypeRef) -> bool {
        let mut r = r.clone();
        for _ in 0..16 {
            match self.rel.decl(&r) {
                Some(Decl::Named {
                    underlying: GoType::Name { qualifier, name },
                    ..
                }) => match self.rel.resolve(&r.pkg, qualifier.as_deref(), name) {
                    Ok(None) => return name == "string",
                    Ok(Some(next)) => r = next,
                    Err(_) => return false,
                },
                _ => return false,
            }
        }
        false
    }
}

/// Whether the field is in controller-gen's `required` (its
/// `structToSchema`; k8s.io packages set no package-wide default, so a
/// field is required unless optional by marker, `omitempty` or inline).
fn requiredness(markers: &Markers, inline: bool, omitempty: bool) -> bool {
    let has = |n: &str| markers.iter().any(|(m, _)| m == n);
    if has("kubebuilder:validation:Optional") {
        false
    } else if has("kubebuilder:validation:Required") {
        true
    } else if has("optional") || has("k8s:optional") {
        false
    } else if has("required") || has("k8s:required") {
        true
    } else {
        !inline && !omitempty
    }
}

fn is_byte(t: &GoType) -> bool {
    matches!(t, GoType::Name { qualifier: None, name } if name == "byte" || name == "uint8")
}

/// Merges the keys of a field use (`src`) into those of the type it
/// references (`dst`) as controller-gen's `flattenAllOfInto` does.
fn merge(
    mut dst: BTreeMap<String, Value>,
    src: BTreeMap<String, Value>,
    at: &str,
) -> Result<BTreeMap<String, Value>> {
    for (k, v) in src {
        let Some(old) = dst.get(&k) else {
            dst.insert(k, v);
            continue;
        };
        if *old == v {
            continue;
        }
        match k.as_str() {
            "x-kubernetes-map-type" | "x-kubernetes-preserve-unknown-fields" => {
                dst.insert(k, v);
            }
            // The type's enum stays.
            "enum" => {}
            "x-kubernetes-validations" => {
                let mut rules = match v {
                    Value::Array(a) => a,
                    other => vec![other],
                };
                if let Some(Value::Array(old)) = dst.remove(&k) {
                    rules.extend(old);
                }
                dst.insert(k, Value::Array(rules));
            }
            _ => bail!(
                "{at}: `{k}` is {old} on the type and {v} on the field: controller-gen moves \
                 both into an allOf (a non-structural schema), which is not translated"
            ),
        }
    }
    Ok(dst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A release of one package from its types in the marker data's shape.
    fn release(types: Value) -> Release {
        let doc = json!({
            "source": {"kubernetes": "1.35"},
            "imports": {"k8s.io/api/x/v1": {"metav1": "k8s.io/apimachinery/pkg/apis/meta/v1"}},
            "packages": {
                "k8s.io/api/x/v1": types,
                "k8s.io/apimachinery/pkg/apis/meta/v1": {
                    "Time": {"markers": {}, "fields": {"Time": {"type": "time.Time", "embedded": true, "markers": {}}}},
                    "TypeMeta": {"markers": {}, "fields": {
                        "Kind": {"json": "kind,omitempty", "type": "string", "markers": {"optional": true}}
                    }},
                    "LabelSelector": {"markers": {"structType": "atomic"}, "fields": {
                        "MatchLabels": {"json": "matchLabels,omitempty", "type": "map[string]string", "markers": {"optional": true}}
                    }}
                }
            }
        });
        Release::from_json(&doc.to_string()).unwrap()
    }

    const ENUMS: &EnumConsts = &[
        (
            35,
            "k8s.io/api/x/v1",
            "Effect",
            &["NoSchedule", "None", "NoExecute"],
        ),
        (35, "k8s.io/api/x/v1", "Mode", &[]),
    ];

    fn translate(types: Value, name: &str) -> (StructOut, Vec<Issue>) {
        let rel = release(types);
        let mut t = Translator::new(&rel, ENUMS);
        let out = t
            .struct_out(&TypeRef {
                pkg: "k8s.io/api/x/v1".to_string(),
                name: name.to_string(),
            })
            .unwrap();
        (out, t.issues)
    }

    fn at<'o>(out: &'o StructOut, path: &[&str]) -> &'o BTreeMap<String, Value> {
        let path: Vec<String> = path.iter().map(|s| (*s).to_string()).collect();
        out.fields
            .get(&path)
            .unwrap_or_else(|| panic!("no keys at {path:?}: {:?}", out.fields))
    }

    #[test]
    fn list_and_map_types() {
        let (out, issues) = translate(
            json!({"S": {"markers": {}, "fields": {
                "Ports": {"json": "ports,omitempty", "type": "[]Port", "markers": {
                    "listType": "map", "listMapKey": ["containerPort", "protocol"], "patchStrategy": "merge"}},
                "Args": {"json": "args,omitempty", "type": "[]string", "markers": {"listType": "atomic"}},
                "Selector": {"json": "selector,omitempty", "type": "map[string]string", "markers": {"mapType": "atomic"}},
                "Bad": {"json": "bad,omitempty", "type": "*string", "markers": {"listType": "atomic"}},
                "Keys": {"json": "keys,omitempty", "type": "[]string", "markers": {"listType": "set", "listMapKey": ["x"]}}
            }}, "Port": {"markers": {}, "fields": {}}}),
            "S",
        );
        assert_eq!(at(&out, &["ports"])["x-kubernetes-list-type"], "map");
        assert_eq!(
            at(&out, &["ports"])["x-kubernetes-list-map-keys"],
            json!(["containerPort", "protocol"])
        );
        assert_eq!(at(&out, &["args"])["x-kubernetes-list-type"], "atomic");
        assert_eq!(at(&out, &["selector"])["x-kubernetes-map-type"], "atomic");
        // A list type on a string and map keys without `map` are errors
        // in controller-gen and change nothing.
        assert!(!out.fields.contains_key(&vec!["bad".to_string()]));
        assert_eq!(at(&out, &["keys"]).len(), 1);
        assert_eq!(issues.len(), 2, "{issues:?}");
        assert!(
            issues[0]
                .reason
                .contains("must apply listType to an array, found string")
        );
        assert!(issues[1].reason.contains("associative-list"));
    }

    #[test]
    fn required_follows_controller_gen() {
        let (out, _) = translate(
            json!({"S": {"markers": {}, "fields": {
                "TypeMeta": {"json": ",inline", "type": "metav1.TypeMeta", "embedded": true, "markers": {}},
                "A": {"json": "a", "type": "string", "markers": {}},
                "B": {"json": "b,omitempty", "type": "string", "markers": {}},
                "C": {"json": "c", "type": "string", "markers": {"optional": true}},
                "D": {"json": "d,omitempty", "type": "*string", "markers": {"k8s:required": true}},
                "E": {"json": "e,omitzero", "type": "string", "markers": {}},
                "F": {"json": "f", "type": "string", "markers": {"k8s:optional": true, "required": true}},
                "G": {"json": "g,omitempty", "type": "string", "markers": {"kubebuilder:validation:Required": true, "optional": true}},
                "H": {"json": "-", "type": "string", "markers": {}},
                "I": {"json": "i", "type": "string", "markers": {"k8s:alpha(since: \"1.36\")": "+k8s:optional"}}
            }}}),
            "S",
        );
        // `omitzero` does not make a field optional for controller-gen;
        // `k8s:alpha(...)` is not one of its markers.
        assert_eq!(out.required, ["a", "d", "e", "g", "i"]);
        assert!(!out.properties.contains(&"h".to_string()));
    }

    #[test]
    fn defaults_as_controller_gen_parses_them() {
        let (out, _) = translate(
            json!({"S": {"markers": {}, "fields": {
                "P": {"json": "p,omitempty", "type": "Protocol", "markers": {"default": "\"TCP\""}},
                "N": {"json": "n,omitempty", "type": "*int32", "markers": {"default": "100"}},
                "F": {"json": "f,omitempty", "type": "*bool", "markers": {"default": "false"}},
                "R": {"json": "r,omitempty", "type": "*string", "markers": {"default": "ref(SomeConst)"}},
                "O": {"json": "o,omitempty", "type": "map[string]int32", "markers": {"default": "{\"b\": 1.0, \"a\": 2}"}},
                "K": {"json": "k,omitempty", "type": "string", "markers": {"default": "\"x\"", "kubebuilder:default": "\"\""}},
                "L": {"json": "l,omitempty", "type": "[]string", "markers": {"kubebuilder:default": "foo"}}
            }}, "Protocol": {"markers": {"enum": true}, "type": "string"}}),
            "S",
        );
        assert_eq!(at(&out, &["p"])["default"], "TCP");
        assert_eq!(at(&out, &["n"])["default"], json!(100));
        assert_eq!(at(&out, &["f"])["default"], json!(false));
        // `ref(...)` defaults are skipped.
        assert!(!out.fields.contains_key(&vec!["r".to_string()]));
        // Decoded into Go's `any` and encoded again: keys sorted, 1.0 is 1.
        assert_eq!(
            serde_json::to_string(&at(&out, &["o"])["default"]).unwrap(),
            r#"{"a":2,"b":1}"#
        );
        // `kubebuilder:default` applies after `default`.
        assert_eq!(at(&out, &["k"])["default"], "");
        assert_eq!(at(&out, &["l"])["default"], "foo");
        // `+enum` is not a controller-gen marker.
        assert!(!at(&out, &["p"]).contains_key("enum"));
    }

    #[test]
    fn validations() {
        let (out, issues) = translate(
            json!({"S": {"markers": {}, "fields": {
                "Reason": {"json": "reason", "type": "string", "markers": {
                    "kubebuilder:validation:MaxLength": "1024", "kubebuilder:validation:MinLength": "1",
                    "kubebuilder:validation:Pattern": "`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`"}},
                "Status": {"json": "status", "type": "Status", "markers": {"kubebuilder:validation:Enum": "True;False;Unknown"}},
                "Gen": {"json": "gen,omitempty", "type": "int64", "markers": {"kubebuilder:validation:Minimum": "0"}},
                "At": {"json": "at", "type": "metav1.Time", "markers": {
                    "kubebuilder:validation:Type": "string", "kubebuilder:validation:Format": "date-time"}},
                "Ext": {"json": "ext", "type": "Other", "markers": {"kubebuilder:validation:MaxLength": "3"}},
                "Items": {"json": "items", "type": "[]string", "markers": {"kubebuilder:validation:items:MaxLength": "5"}}
            }}, "Status": {"markers": {}, "type": "string"}, "Other": {"markers": {}, "fields": {}}}),
            "S",
        );
        let reason = at(&out, &["reason"]);
        assert_eq!(reason["maxLength"], json!(1024));
        assert_eq!(reason["minLength"], json!(1));
        assert_eq!(
            reason["pattern"],
            "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"
        );
        assert_eq!(
            at(&out, &["status"])["enum"],
            json!(["True", "False", "Unknown"])
        );
        assert_eq!(at(&out, &["gen"])["minimum"], json!(0));
        assert_eq!(at(&out, &["at"])["type"], "string");
        assert_eq!(at(&out, &["at"])["format"], "date-time");
        assert_eq!(at(&out, &["items", "[]"])["maxLength"], json!(5));
        // A reference to a struct has no type when markers apply.
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert!(issues[0].reason.contains("textual"), "{issues:?}");
    }

    #[test]
    fn struct_types_embedding_and_enums() {
        let (out, issues) = translate(
            json!({
                "Ref": {"markers": {"structType": "atomic"}, "fields": {
                    "Name": {"json": "name,omitempty", "type": "string", "markers": {"optional": true, "kubebuilder:default": "\"\""}},
                    "Key": {"json": "key", "type": "string", "markers": {}}
                }},
                "Sel": {"markers": {}, "fields": {
                    "Ref": {"json": ",inline", "type": "Ref", "embedded": true, "markers": {}},
                    "Optional": {"json": "optional,omitempty", "type": "*bool", "markers": {}},
                    "Claim": {"json": "claim,omitempty", "type": "*Ref", "markers": {"structType": "granular"}},
                    "Effects": {"json": "effects", "type": "[]Effect", "markers": {}},
                    "Mode": {"json": "mode", "type": "Mode", "markers": {}},
                    "Labels": {"json": "labels", "type": "metav1.LabelSelector", "markers": {}}
                }},
                "Effect": {"markers": {"k8s:enum": true}, "type": "string"},
                "Mode": {"markers": {"k8s:enum": true}, "type": "string"}
            }),
            "Sel",
        );
        // The embedded struct's properties, required and map type.
        let mut properties = out.properties.clone();
        properties.sort();
        assert_eq!(
            properties,
            [
                "claim", "effects", "key", "labels", "mode", "name", "optional"
            ]
        );
        assert_eq!(out.required, ["effects", "key", "labels", "mode"]);
        assert_eq!(out.own["x-kubernetes-map-type"], "atomic");
        assert_eq!(at(&out, &["name"])["default"], "");
        // A field's structType wins over its type's.
        assert_eq!(at(&out, &["claim"])["x-kubernetes-map-type"], "granular");
        // k8s:enum: the type's string constants, sorted by their JSON text.
        assert_eq!(
            at(&out, &["effects", "[]"])["enum"],
            json!(["NoExecute", "NoSchedule", "None"])
        );
        assert_eq!(at(&out, &["effects", "[]"])["type"], "string");
        // Constants that are conversions: controller-gen finds none.
        assert!(!out.fields.contains_key(&vec!["mode".to_string()]));
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert!(issues[0].reason.contains("no enum values found"));
        // Another package's struct keeps its keys in its own schema.
        assert!(!out.fields.contains_key(&vec!["labels".to_string()]));
    }

    #[test]
    fn immutable_fields() {
        let (out, _) = translate(
            json!({"S": {"markers": {}, "fields": {
                "Spec": {"json": "spec", "type": "string", "markers": {"k8s:immutable": true}},
                "Ref": {"json": "ref,omitempty", "type": "*string", "markers": {"k8s:immutable": true, "k8s:optional": true}}
            }}}),
            "S",
        );
        let immutable = json!([{"rule": "self == oldSelf", "message": "field is immutable"}]);
        assert_eq!(at(&out, &["spec"])["x-kubernetes-validations"], immutable);
        assert_eq!(at(&out, &["ref"])["x-kubernetes-validations"], immutable);
        // An optional immutable field cannot be removed once set.
        assert_eq!(
            out.own["x-kubernetes-validations"],
            json!([{"rule": "!has(oldSelf.ref) || has(self.ref)", "message": "field ref is immutable once set"}])
        );
    }

    #[test]
    fn unknown_markers_are_ignored_and_untranslated_ones_fail() {
        let (out, issues) = translate(
            json!({"S": {"markers": {"genclient": true, "union": true}, "fields": {
                "A": {"json": "a", "type": "[]string", "markers": {
                    "k8s:listType": "atomic", "k8s:maxItems": "4", "featureGate": "X", "patchMergeKey": "name",
                    "k8s:format": "k8s-short-name", "oneOf": "x"}}
            }}}),
            "S",
        );
        assert!(out.fields.is_empty() && out.own.is_empty() && issues.is_empty());
        let rel = release(json!({"S": {"markers": {}, "fields": {
            "A": {"json": "a", "type": "string", "markers": {"kubebuilder:validation:XValidation:rule": "\"self != ''\""}}
        }}}));
        let mut t = Translator::new(&rel, ENUMS);
        let err = t
            .struct_out(&TypeRef {
                pkg: "k8s.io/api/x/v1".to_string(),
                name: "S".to_string(),
            })
            .unwrap_err();
        assert!(
            format!("{err:#}").contains("XValidation markers are not translated"),
            "{err:#}"
        );
    }
}
