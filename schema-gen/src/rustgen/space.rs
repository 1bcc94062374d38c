//! The type space: every schema node of a version mapped to a Rust type,
//! with identical object shapes (and identical string enums) interned into
//! one named type.
//!
//! Each node is mapped as the inverse of the derive: a Rust type is chosen
//! whose own schema (the derive's, see `schema_core::rust`) is contained in
//! the node, and every key of the node the type does not give becomes a
//! `#[schema(...)]` attribute. Where no type's schema fits (an integer
//! without a format), the node's schema is given by attributes alone
//! (`type = "integer"`). The node's description becomes a doc comment.
//!
//! An object shape is its `properties`, `required` and
//! `x-kubernetes-preserve-unknown-fields`; everything else of an object
//! node (description, rules, defaults, ...) belongs to the place that uses
//! it and is written on the field, so that one type serves every place
//! with the same shape.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use schema_attrs::ValueKind;
use schema_core::model::wire::JsonSchemaProps;
use serde_json::{Map, Value};

use super::names::{self, Scope};
use super::{GenError, Options};

/// A type in the space.
pub type TypeId = usize;

/// A Rust type expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `String`.
    String,
    /// `bool`.
    Bool,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `serde_json::Value`.
    Value,
    /// `serde_json::Map<String, Value>`.
    JsonMap,
    /// k8s-openapi's `IntOrString`.
    IntOrString,
    /// k8s-openapi's `Time`.
    Time,
    /// schema-core's `ObjectMeta` (k8s-openapi's with its feature).
    ObjectMeta,
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// `BTreeMap<String, T>`.
    Map(Box<Ty>),
    /// A type of the space.
    Named(TypeId),
    /// `Option<T>`.
    Option(Box<Ty>),
}

/// An attribute value inside `#[schema(...)]`.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// A bare flag.
    Flag,
    /// `key = "..."`.
    Str(String),
    /// `key = <json>` (numbers, defaults, enums, ...).
    Json(Value),
    /// `key = ["a", "b"]`.
    StrList(Vec<String>),
    /// `items(...)`.
    Nested(Vec<Attr>),
    /// `validation(rule = ..., ...)`: the written keys in order.
    Rule(Vec<(&'static str, Value)>),
    /// `key = path` (`with = tags_schema`): a function of the module.
    Path(String),
}

/// One `key = value` of `#[schema(...)]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    /// The key.
    pub key: &'static str,
    /// The value.
    pub value: AttrValue,
}

impl Attr {
    fn new(key: &'static str, value: AttrValue) -> Self {
        Attr { key, value }
    }
}

/// A node mapped to Rust: the type and what the use site writes.
#[derive(Clone, Debug)]
pub struct Mapped {
    /// The Rust type.
    pub ty: Ty,
    /// The attributes of the use site.
    pub attrs: Vec<Attr>,
    /// The description of the node.
    pub description: Option<String>,
}

/// A field of a struct.
#[derive(Clone, Debug)]
pub struct Field {
    /// The property name.
    pub json_name: String,
    /// The Rust field name (a valid identifier).
    pub rust_name: String,
    /// The mapped property node.
    pub mapped: Mapped,
    /// Whether the property is required.
    pub required: bool,
    /// Whether the property is nullable.
    pub nullable: bool,
    /// A serde default instead of an `Option` (an optional root
    /// `metadata`).
    pub serde_default: bool,
}

impl Field {
    /// A field the schema does not name (`#[schema(skip)]`): an `Option`,
    /// or with `serde_default` the type itself with a serde default.
    pub fn skipped(json: &str, rust: &str, ty: Ty, serde_default: bool) -> Self {
        Field {
            json_name: json.to_string(),
            rust_name: rust.to_string(),
            mapped: Mapped {
                ty,
                attrs: vec![Attr::new("skip", AttrValue::Flag)],
                description: None,
            },
            required: false,
            nullable: false,
            serde_default,
        }
    }

    /// Whether the Rust field is an `Option`.
    pub fn is_option(&self) -> bool {
        !self.serde_default && (!self.required || self.nullable)
    }
}

/// A struct of the space.
#[derive(Clone, Debug)]
pub struct StructDef {
    /// The fields, in property order.
    pub fields: Vec<Field>,
    /// Whether the object keeps unknown fields (a flattened map).
    pub preserve_unknown: bool,
    /// The `required` list when it is not in sorted order.
    pub required_order: Option<Vec<String>>,
}

/// A string enum of the space.
#[derive(Clone, Debug)]
pub struct EnumDef {
    /// `(variant name, value)` in schema order.
    pub variants: Vec<(String, String)>,
}

/// The body of a named type.
#[derive(Clone, Debug)]
pub enum Body {
    /// A struct.
    Struct(StructDef),
    /// A string enum.
    Enum(EnumDef),
}

/// A named type.
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// The Rust name.
    pub name: String,
    /// The body.
    pub body: Body,
    /// The descriptions at every use site (`None` where a use site has
    /// none), to decide whether the type itself carries the doc.
    pub uses: Vec<Option<String>>,
    /// The depth of the first use, for naming.
    pub depth: usize,
}

impl TypeDef {
    /// The doc comment of the type: the description every use site shares.
    pub fn shared_description(&self) -> Option<&str> {
        let first = self.uses.first()?.as_deref()?;
        self.uses
            .iter()
            .all(|u| u.as_deref() == Some(first))
            .then_some(first)
    }
}

/// The type space of one module.
#[derive(Debug, Default)]
pub struct TypeSpace {
    /// The types, in the order they were first met.
    pub types: Vec<TypeDef>,
    by_key: HashMap<String, TypeId>,
    /// The type names taken in this module.
    pub scope: Scope,
    /// 128-bit hashes of the containers of the schema being mapped, by
    /// address (cleared when a new schema starts), so that telling shapes
    /// apart is linear in the schema's size.
    memo: HashMap<usize, u128, std::hash::BuildHasherDefault<AddrHasher>>,
    /// The nodes written as JSON (see [`RawSchema`]), in the order they
    /// were first met.
    pub raws: Vec<RawSchema>,
    raw_by_json: HashMap<String, usize>,
    raw_scope: Scope,
}

/// A node whose schema the generated code writes as JSON, in a function
/// of the module given to `#[schema(with = ...)]`: a node the API server
/// accepts but whose attributes the derive would refuse (a key that has
/// no effect on the node's type, like `maxLength` on an array or `format:
/// int64` on a string, or `type` with `x-kubernetes-int-or-string`), or
/// that no attribute can write (a `false` flag, `items` on an object).
/// The derive takes a `with` function's schema as it is.
#[derive(Clone, Debug)]
pub struct RawSchema {
    /// The function's name.
    pub name: String,
    /// The node, as JSON.
    pub json: String,
    /// How many attributes name it; only those named at least once are
    /// emitted (a node inside a node written as JSON is not).
    pub uses: usize,
}

/// The name of the module function that decodes the JSON of every
/// [`RawSchema`] (claimed first, so that no raw schema takes it).
pub const DECODE_SCHEMA_FN: &str = "decode_schema";

/// The keys of an object node that make its shape.
const SHAPE_KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "x-kubernetes-preserve-unknown-fields",
];

fn obj(v: &Value) -> Option<&Map<String, Value>> {
    v.as_object()
}

fn is_true(n: &Map<String, Value>, key: &str) -> bool {
    n.get(key).and_then(Value::as_bool) == Some(true)
}

fn type_of(n: &Map<String, Value>) -> &str {
    n.get("type").and_then(Value::as_str).unwrap_or("")
}

impl TypeSpace {
    /// Claims a type name for a root type (the kind) before anything else.
    pub fn reserve(&mut self, opts: &Options, name: &str) -> String {
        let name = opts.type_names.get(name).map_or(name, String::as_str);
        self.scope.claim(name)
    }

    /// Maps the node at `path` (for messages) whose name hint is `hint`
    /// (the property name, already singular for array items) and whose
    /// parent type is named `parent`.
    pub fn map(
        &mut self,
        opts: &Options,
        node: &Value,
        path: &str,
        hint: &str,
        parent: &str,
        depth: usize,
    ) -> Result<Mapped, GenError> {
        let n = obj(node).ok_or_else(|| GenError::at(path, "a schema must be an object"))?;
        if depth == 0 {
            self.memo.clear();
        }
        if depth > 200 {
            return Err(GenError::at(
                path,
                "schema nested more than 200 levels deep",
            ));
        }
        let description = n
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string);
        let t = type_of(n);
        let (ty, base) = if is_true(n, "x-kubernetes-int-or-string") {
            self.int_or_string(opts, n)
        } else if t == "object" && n.contains_key("properties") {
            let id = self.intern_struct(opts, n, path, hint, parent, depth)?;
            (Ty::Named(id), shape_base(n))
        } else if t == "object" && n.contains_key("additionalProperties") {
            match n.get("additionalProperties") {
                Some(Value::Object(_)) => {}
                _ => {
                    return Err(GenError::at(
                        path,
                        "`additionalProperties` other than a schema has no Rust mapping",
                    ));
                }
            }
            let inner = Inner {
                node: &n["additionalProperties"],
                key: "additionalProperties",
                type_: "object",
                ty: Ty::Map,
            };
            return self.container(opts, n, inner, description, (path, hint, parent, depth));
        } else if t == "array" {
            let Some(items) = n.get("items") else {
                return Err(GenError::at(
                    path,
                    "an array without `items` has no Rust mapping",
                ));
            };
            if !items.is_object() {
                return Err(GenError::at(path, "`items` must be one schema"));
            }
            let inner = Inner {
                node: items,
                key: "items",
                type_: "array",
                ty: Ty::Vec,
            };
            return self.container(opts, n, inner, description, (path, hint, parent, depth));
        } else if t == "object" && is_true(n, "x-kubernetes-preserve-unknown-fields") {
            let mut base = Map::new();
            base.insert("type".into(), "object".into());
            base.insert("x-kubernetes-preserve-unknown-fields".into(), true.into());
            (Ty::JsonMap, base)
        } else if t.is_empty() && is_true(n, "x-kubernetes-preserve-unknown-fields") {
            let mut base = Map::new();
            base.insert("x-kubernetes-preserve-unknown-fields".into(), true.into());
            (Ty::Value, base)
        } else if t == "string" && self.is_string_enum(n) {
            let id = self.intern_enum(opts, n, hint, parent, depth);
            let mut base = Map::new();
            base.insert("type".into(), "string".into());
            base.insert("enum".into(), n["enum"].clone());
            (Ty::Named(id), base)
        } else {
            self.scalar(opts, n)
        };
        self.finish(n, ty, base, None, description, path, hint)
    }

    fn int_or_string(
        &mut self,
        opts: &Options,
        n: &Map<String, Value>,
    ) -> (Ty, Map<String, Value>) {
        let anyof = serde_json::json!([{"type": "integer"}, {"type": "string"}]);
        let mut base = Map::new();
        if opts.k8s_openapi && n.get("anyOf") == Some(&anyof) {
            base.insert("anyOf".into(), anyof);
            base.insert("x-kubernetes-int-or-string".into(), true.into());
            // Quantities too (their pattern is an attribute): k8s-openapi's
            // `Quantity` would turn a number into a string.
            return (Ty::IntOrString, base);
        }
        // The schema from the attributes alone, on a JSON value.
        (Ty::Value, base)
    }

    fn is_string_enum(&self, n: &Map<String, Value>) -> bool {
        match n.get("enum") {
            Some(Value::Array(values)) => {
                !values.is_empty() && values.iter().all(Value::is_string) && !is_true(n, "nullable")
            }
            _ => false,
        }
    }

    fn scalar(&mut self, opts: &Options, n: &Map<String, Value>) -> (Ty, Map<String, Value>) {
        let t = type_of(n);
        let format = n.get("format").and_then(Value::as_str);
        let mut base = Map::new();
        let ty = match (t, format) {
            ("string", Some("date-time")) if opts.k8s_openapi => {
                base.insert("format".into(), "date-time".into());
                Ty::Time
            }
            ("string", _) => Ty::String,
            ("boolean", _) => Ty::Bool,
            ("integer", Some(f @ ("int32" | "int64")))
            | ("number", Some(f @ ("float" | "double"))) => {
                base.insert("format".into(), f.into());
                match f {
                    "int32" => Ty::I32,
                    "int64" => Ty::I64,
                    "float" => Ty::F32,
                    _ => Ty::F64,
                }
            }
            // No type fits exactly: the type comes from the attributes.
            ("integer", _) => return (Ty::I64, Map::new()),
            ("number", _) => return (Ty::F64, Map::new()),
            ("object", _) => return (Ty::JsonMap, Map::new()),
            _ => return (Ty::Value, Map::new()),
        };
        base.insert("type".into(), t.into());
        (ty, base)
    }

    /// An array or a map: its items or values mapped (named by the
    /// singular of `hint`), then the node finished over the container's
    /// own schema. `at` is the node's path, name hint, parent type and
    /// depth.
    fn container(
        &mut self,
        opts: &Options,
        n: &Map<String, Value>,
        inner: Inner<'_>,
        description: Option<String>,
        at: (&str, &str, &str, usize),
    ) -> Result<Mapped, GenError> {
        let (path, hint, parent, depth) = at;
        let mapped = self.map(
            opts,
            inner.node,
            &format!("{path}.{}", inner.key),
            &names::singular(hint),
            parent,
            depth + 1,
        )?;
        let mut base = Map::new();
        base.insert("type".into(), inner.type_.into());
        base.insert(inner.key.into(), Value::Null);
        let ty = (inner.ty)(Box::new(mapped.ty.clone()));
        self.finish(n, ty, base, Some(mapped), description, path, hint)
    }

    /// Turns the keys of `n` the type's own schema `base` does not give
    /// into attributes. A `base` without `type` means the schema is built
    /// from the attributes alone (`type = ...`). `inner` is the mapped
    /// items (arrays) or values (maps).
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &mut self,
        n: &Map<String, Value>,
        ty: Ty,
        base: Map<String, Value>,
        inner: Option<Mapped>,
        description: Option<String>,
        path: &str,
        hint: &str,
    ) -> Result<Mapped, GenError> {
        let attrs = if refused(n) {
            None
        } else {
            own_attrs(n, &base, inner.as_ref())
        };
        let Some(attrs) = attrs else {
            return Ok(self.raw(n, ty, inner, description, hint));
        };
        // Keys of the type's own schema the node does not have.
        for (k, b) in &base {
            if !b.is_null() && !n.contains_key(k) {
                return Err(GenError::at(
                    path,
                    format!(
                        "internal: the mapped type writes `{k}`, which the schema does not have"
                    ),
                ));
            }
        }
        Ok(Mapped {
            ty,
            attrs,
            description,
        })
    }

    /// A node written as JSON (see [`RawSchema`]): the type `ty` (the
    /// node's values still deserialize into it), and `with` naming the
    /// function that gives its schema. The attributes of `inner` are
    /// dropped: the JSON holds the items (or values) too.
    fn raw(
        &mut self,
        n: &Map<String, Value>,
        ty: Ty,
        inner: Option<Mapped>,
        description: Option<String>,
        hint: &str,
    ) -> Mapped {
        if let Some(inner) = &inner {
            self.release(&inner.attrs);
        }
        let json =
            serde_json::to_string_pretty(&canonical(&Value::Object(n.clone()))).unwrap_or_default();
        let id = match self.raw_by_json.get(&json) {
            Some(&id) => id,
            None => {
                if self.raws.is_empty() {
                    self.raw_scope.try_claim(DECODE_SCHEMA_FN);
                }
                let stem = names::field_name(hint);
                let name = self
                    .raw_scope
                    // `self_` + `_schema` would be `self__schema`, which
                    // is not snake case.
                    .claim(&format!(
                        "{}_schema",
                        stem.trim_start_matches("r#").trim_end_matches('_')
                    ));
                self.raws.push(RawSchema {
                    name,
                    json: json.clone(),
                    uses: 0,
                });
                self.raw_by_json.insert(json, self.raws.len() - 1);
                self.raws.len() - 1
            }
        };
        self.raws[id].uses += 1;
        Mapped {
            ty,
            attrs: vec![Attr::new(
                "with",
                AttrValue::Path(self.raws[id].name.clone()),
            )],
            description,
        }
    }

    /// Forgets the uses of raw schemas by `attrs`, which are dropped.
    fn release(&mut self, attrs: &[Attr]) {
        for a in attrs {
            match &a.value {
                AttrValue::Path(name) if a.key == "with" => {
                    if let Some(r) = self.raws.iter_mut().find(|r| &r.name == name) {
                        r.uses = r.uses.saturating_sub(1);
                    }
                }
                AttrValue::Nested(inner) => self.release(inner),
                _ => {}
            }
        }
    }

    /// The attributes of the root node itself (its rules, ...): every key
    /// but its shape and description.
    pub fn root_attrs(
        &mut self,
        n: &Map<String, Value>,
        path: &str,
    ) -> Result<Vec<Attr>, GenError> {
        let attrs = self
            .finish(n, Ty::JsonMap, shape_base(n), None, None, path, "root")?
            .attrs;
        if attrs.iter().any(|a| a.key == "with") {
            self.release(&attrs);
            return Err(GenError::at(
                path,
                "the root schema has keys that no attribute of a struct can write",
            ));
        }
        Ok(attrs)
    }

    fn intern_enum(
        &mut self,
        opts: &Options,
        n: &Map<String, Value>,
        hint: &str,
        parent: &str,
        depth: usize,
    ) -> TypeId {
        let key = format!(
            "enum:{}",
            Value::Array(n["enum"].as_array().cloned().unwrap_or_default())
        );
        let description = match self.interned(&key, n) {
            Interned::Known(id) => return id,
            Interned::New(description) => description,
        };
        let mut variants = Vec::new();
        let mut scope = Scope::default();
        for v in n["enum"].as_array().into_iter().flatten() {
            let s = v.as_str().unwrap_or_default();
            variants.push((scope.claim(&names::variant_name(s)), s.to_string()));
        }
        let name = self.name_for(opts, hint, parent, depth);
        let id = self.types.len();
        self.types.push(TypeDef {
            name,
            body: Body::Enum(EnumDef { variants }),
            uses: vec![description],
            depth,
        });
        self.by_key.insert(key, id);
        id
    }

    /// The type interned under `key`, with one more use described by
    /// `n`'s description; else that description, for the new type.
    fn interned(&mut self, key: &str, n: &Map<String, Value>) -> Interned {
        let description = n
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string);
        match self.by_key.get(key) {
            Some(&id) => {
                self.types[id].uses.push(description);
                Interned::Known(id)
            }
            None => Interned::New(description),
        }
    }

    fn intern_struct(
        &mut self,
        opts: &Options,
        n: &Map<String, Value>,
        path: &str,
        hint: &str,
        parent: &str,
        depth: usize,
    ) -> Result<TypeId, GenError> {
        let key = format!("struct:{:032x}", self.shape_hash(n));
        let description = match self.interned(&key, n) {
            Interned::Known(id) => return Ok(id),
            Interned::New(description) => description,
        };
        let name = self.name_for(opts, hint, parent, depth);
        // Reserve the slot first so that nested types come after it.
        let id = self.types.len();
        self.types.push(TypeDef {
            name: name.clone(),
            body: Body::Struct(StructDef {
                fields: Vec::new(),
                preserve_unknown: false,
                required_order: None,
            }),
            uses: vec![description],
            depth,
        });
        self.by_key.insert(key, id);
        let def = self.struct_def(opts, n, path, &name, depth)?;
        self.types[id].body = Body::Struct(def);
        Ok(id)
    }

    /// The fields of an object node.
    pub fn struct_def(
        &mut self,
        opts: &Options,
        n: &Map<String, Value>,
        path: &str,
        name: &str,
        depth: usize,
    ) -> Result<StructDef, GenError> {
        if depth == 0 {
            self.memo.clear();
        }
        let no_props = Map::new();
        let props = match n.get("properties") {
            // A root that only keeps unknown fields.
            None => &no_props,
            Some(p) => p
                .as_object()
                .ok_or_else(|| GenError::at(path, "`properties` must be an object"))?,
        };
        let required: Vec<String> = match n.get("required") {
            None => Vec::new(),
            Some(v) => string_list(v).ok_or_else(|| unsupported(path, "required"))?,
        };
        for r in &required {
            if !props.contains_key(r) {
                return Err(GenError::at(
                    path,
                    format!(
                        "`required` names `{r}`, which is not a property; a Rust type cannot express that"
                    ),
                ));
            }
        }
        let mut fields = Vec::new();
        let mut scope = Scope::default();
        let preserve_unknown = is_true(n, "x-kubernetes-preserve-unknown-fields");
        if preserve_unknown {
            scope.try_claim("extra");
        }
        for (pname, pnode) in props {
            let ppath = format!("{path}.properties[{pname}]");
            let hint = pname.clone();
            let mapped = self.map(opts, pnode, &ppath, &hint, name, depth + 1)?;
            let nullable = pnode.get("nullable").and_then(Value::as_bool) == Some(true);
            fields.push(Field {
                json_name: pname.clone(),
                rust_name: scope.claim(&names::field_name(pname)),
                mapped,
                required: required.contains(pname),
                nullable,
                serde_default: false,
            });
        }
        // The derive sorts `required` as controller-gen does; another order
        // is written out.
        let mut sorted = required.clone();
        sorted.sort();
        let required_order = (sorted != required).then(|| required.clone());
        Ok(StructDef {
            fields,
            preserve_unknown,
            required_order,
        })
    }

    /// The hash of an object node's shape: its `SHAPE_KEYS`, in order.
    fn shape_hash(&mut self, n: &Map<String, Value>) -> u128 {
        let mut parts = Vec::new();
        for k in SHAPE_KEYS {
            if let Some(v) = n.get(*k) {
                parts.push((*k, self.subtree_hash(v)));
            }
        }
        hash128(&parts)
    }

    /// A 128-bit hash of a JSON value, key order included; objects are
    /// memoized by address, so hashing every node of a schema is linear.
    fn subtree_hash(&mut self, v: &Value) -> u128 {
        let (mut a, mut b) = hashers();
        match v {
            Value::Object(m) => {
                let addr = std::ptr::from_ref(v) as usize;
                if let Some(h) = self.memo.get(&addr) {
                    return *h;
                }
                5u8.hash(&mut a);
                m.len().hash(&mut a);
                for (k, c) in m {
                    let h = self.subtree_hash(c);
                    k.hash(&mut a);
                    h.hash(&mut a);
                    k.hash(&mut b);
                    h.hash(&mut b);
                }
                let h = finish128(&a, &b);
                self.memo.insert(addr, h);
                return h;
            }
            Value::Array(items) => {
                4u8.hash(&mut a);
                items.len().hash(&mut a);
                for i in items {
                    let h = self.subtree_hash(i);
                    h.hash(&mut a);
                    h.hash(&mut b);
                }
            }
            Value::Null => 0u8.hash(&mut a),
            Value::Bool(x) => (1u8, x).hash(&mut a),
            Value::Number(n) => (2u8, n.to_string()).hash(&mut a),
            Value::String(s) => {
                3u8.hash(&mut a);
                s.hash(&mut a);
                s.hash(&mut b);
            }
        }
        finish128(&a, &b)
    }

    /// A unique type name: by default the type's path, the parent type's
    /// name followed by the property's (`CertificateSpecIssuerRef`; the
    /// items of an array and the values of a map take the singular,
    /// `FooSpecContainer`); with `short_names`, the property's own name
    /// when free, else prefixed with the parent type's name. Numbered
    /// when taken.
    fn name_for(&mut self, opts: &Options, hint: &str, parent: &str, depth: usize) -> String {
        let name = if opts.short_names {
            self.generated_name(hint, parent, depth)
        } else {
            let own = names::type_name(hint, "Type");
            self.scope.claim(&format!("{parent}{own}"))
        };
        match opts.type_names.get(&name) {
            Some(to) => self.scope.claim(to),
            None => name,
        }
    }

    fn generated_name(&mut self, hint: &str, parent: &str, depth: usize) -> String {
        let own = names::type_name(hint, "Type");
        // The root's own parts carry the kind (`FooSpec`, `FooStatus`).
        if depth <= 1 && !parent.is_empty() {
            return self.scope.claim(&format!("{parent}{own}"));
        }
        if self.scope.try_claim(&own) {
            return own;
        }
        let prefixed = format!("{parent}{own}");
        self.scope.claim(&prefixed)
    }
}

/// Two differently seeded SipHash states.
fn hashers() -> (DefaultHasher, DefaultHasher) {
    let a = DefaultHasher::new();
    let mut b = DefaultHasher::new();
    0x9e37_79b9_7f4a_7c15_u64.hash(&mut b);
    (a, b)
}

fn finish128(a: &DefaultHasher, b: &DefaultHasher) -> u128 {
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// Two differently seeded 64-bit hashes of `v`.
fn hash128<T: Hash + ?Sized>(v: &T) -> u128 {
    let (mut a, mut b) = hashers();
    v.hash(&mut a);
    v.hash(&mut b);
    finish128(&a, &b)
}

/// A hasher for addresses (the memo's keys): already unique, so one
/// multiplication spreads them.
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8 | u64::from(*b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// The base of an object node mapped to a struct: its shape keys, given by
/// the type (null: not compared).
fn shape_base(n: &Map<String, Value>) -> Map<String, Value> {
    let mut base = Map::new();
    for k in SHAPE_KEYS {
        if n.contains_key(*k) {
            base.insert((*k).to_string(), Value::Null);
        }
    }
    base
}

/// Where a key goes in a schema written in the API's order: the rank of
/// `JSONSchemaProps`' fields, as the wire model declares them; unknown keys
/// last.
fn key_rank(k: &str) -> usize {
    JsonSchemaProps::KEYS
        .iter()
        .position(|o| *o == k)
        .unwrap_or(JsonSchemaProps::KEYS.len())
}

/// A schema written as JSON (in a junctor) with its keys in the API's
/// order, recursively through its subschemas.
fn canonical(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(m) => {
            let mut entries: Vec<(&String, &Value)> = m.iter().collect();
            entries.sort_by_key(|(k, _)| key_rank(k));
            let out = entries.into_iter().map(|(k, v)| {
                let v = match k.as_str() {
                    "properties" | "patternProperties" | "definitions" => match v {
                        Value::Object(props) => Value::Object(
                            props
                                .iter()
                                .map(|(p, s)| (p.clone(), canonical(s)))
                                .collect(),
                        ),
                        other => other.clone(),
                    },
                    "items"
                    | "additionalProperties"
                    | "additionalItems"
                    | "not"
                    | "allOf"
                    | "oneOf"
                    | "anyOf" => canonical(v),
                    _ => v.clone(),
                };
                (k.clone(), v)
            });
            Value::Object(out.collect())
        }
        other => other.clone(),
    }
}

/// The items of an array or the values of a map, to map.
struct Inner<'a> {
    /// The items' or values' schema.
    node: &'a Value,
    /// `items` or `additionalProperties`.
    key: &'static str,
    /// `array` or `object`.
    type_: &'static str,
    /// The container's Rust type of the inner type.
    ty: fn(Box<Ty>) -> Ty,
}

/// The attributes of the keys of `n` its type's own schema `base` does not
/// give. A `base` without `type` means the schema is built from the
/// attributes alone (`type = ...`). `inner` is the mapped items (arrays) or
/// values (maps). `None`: a key no attribute writes.
fn own_attrs(
    n: &Map<String, Value>,
    base: &Map<String, Value>,
    inner: Option<&Mapped>,
) -> Option<Vec<Attr>> {
    let mut attrs = Vec::new();
    let replaced = !base.contains_key("type")
        && !is_true(base, "x-kubernetes-preserve-unknown-fields")
        && !base.contains_key("x-kubernetes-int-or-string");
    let is_struct = base.contains_key("properties");
    // The attributes in the API's key order, whatever order the file has.
    let mut entries: Vec<(&String, &Value)> = n.iter().collect();
    entries.sort_by_key(|(k, _)| key_rank(k));
    for (k, v) in entries {
        if k == "description" {
            continue;
        }
        // `items` / `additionalProperties` are the inner type's (null
        // in `base`); their own residual attributes come below.
        let inner_key = k == "items" || k == "additionalProperties";
        if let Some(b) = base.get(k) {
            if b == v || (b.is_null() && !inner_key) {
                continue;
            }
        }
        let attr = match k.as_str() {
            "type" if replaced => Attr::new("type", AttrValue::Json(v.clone())),
            "type" => return None,
            "x-kubernetes-validations" => {
                let rules = v.as_array()?;
                for r in rules {
                    attrs.push(Attr::new("validation", rule(r)?));
                }
                continue;
            }
            "items" | "additionalProperties" => match inner {
                Some(inner) => {
                    let mut nested = inner.attrs.clone();
                    if let Some(d) = &inner.description {
                        nested.insert(0, Attr::new("description", AttrValue::Str(d.clone())));
                    }
                    if nested.is_empty() {
                        continue;
                    }
                    Attr::new("items", AttrValue::Nested(nested))
                }
                None => return None,
            },
            _ => written_back(n, k, v, is_struct)?,
        };
        attrs.push(attr);
    }
    Some(attrs)
}

/// The attribute the table writes back for the schema key `k` of `n`
/// (`struct_type` or `map_type` for `x-kubernetes-map-type`, by
/// `is_struct`), its value written by the attribute's kind. `None`: a key
/// no attribute writes, or a value the attribute cannot take. A `false`
/// flag is the same as none, except that the server keeps what is
/// written: it is kept exact, so it is `None` too.
fn written_back(n: &Map<String, Value>, k: &str, v: &Value, is_struct: bool) -> Option<Attr> {
    let a = schema_attrs::written_back_from(k, is_struct)?;
    let value = match a.value {
        ValueKind::Flag if is_true(n, k) => AttrValue::Flag,
        ValueKind::String | ValueKind::Regex => AttrValue::Str(v.as_str()?.to_string()),
        ValueKind::Number | ValueKind::Count if v.is_number() => AttrValue::Json(v.clone()),
        ValueKind::Json | ValueKind::JsonArray | ValueKind::JsonObject => {
            AttrValue::Json(v.clone())
        }
        ValueKind::Schemas | ValueKind::Schema => AttrValue::Json(canonical(v)),
        ValueKind::Strings => AttrValue::StrList(string_list(v)?),
        _ => return None,
    };
    Some(Attr::new(a.key, value))
}

/// Whether the derive would refuse an attribute of `n` (at compile time or
/// when the schema is built) that the API server accepts, because the key
/// has no effect on the node's type: `maxLength` on an array, string
/// `enum` values on an array, `format: int64` on a string (the server
/// ignores a format it does not know), `type` with
/// `x-kubernetes-int-or-string`, a maximum below the minimum, ... Such a
/// node is written as JSON (see [`RawSchema`]).
fn refused(n: &Map<String, Value>) -> bool {
    let t = type_of(n);
    let int_or_string = is_true(n, "x-kubernetes-int-or-string");
    if int_or_string && n.contains_key("type") {
        return true;
    }
    let numeric = matches!(t, "integer" | "number");
    let integral = |v: &Value| {
        v.is_i64()
            || v.is_u64()
            || v.as_f64()
                .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
    };
    let fits = |k: &str, v: &Value| match k {
        "minimum" | "maximum" | "multipleOf" => numeric && (t != "integer" || integral(v)),
        "exclusiveMinimum" | "exclusiveMaximum" => numeric,
        "minLength" | "maxLength" | "pattern" => t == "string" || int_or_string,
        "minItems"
        | "maxItems"
        | "uniqueItems"
        | "x-kubernetes-list-type"
        | "x-kubernetes-list-map-keys"
        | "items" => t == "array",
        "minProperties" | "maxProperties" | "x-kubernetes-map-type" => t == "object",
        "additionalProperties" => t == "object" && !n.contains_key("properties"),
        "x-kubernetes-embedded-resource" => t == "object" || (t.is_empty() && !int_or_string),
        "format" => v.as_str().is_some_and(|f| {
            schema_core::is_supported_format(if int_or_string { "" } else { t }, f)
        }),
        "enum" => v
            .as_array()
            .is_some_and(|e| e.iter().all(|v| literal_fits(t, int_or_string, v))),
        "default" | "example" => literal_fits(t, int_or_string, v),
        _ => true,
    };
    if n.iter().any(|(k, v)| !fits(k, v)) {
        return true;
    }
    [
        ("minimum", "maximum"),
        ("minLength", "maxLength"),
        ("minItems", "maxItems"),
        ("minProperties", "maxProperties"),
    ]
    .iter()
    .any(|(lo, hi)| {
        let num = |k: &str| n.get(k).and_then(Value::as_f64);
        matches!((num(lo), num(hi)), (Some(lo), Some(hi)) if hi < lo)
    })
}

/// Whether a literal (`default`, `example`, an `enum` value) is of a JSON
/// kind the derive takes for a node of type `t`.
fn literal_fits(t: &str, int_or_string: bool, v: &Value) -> bool {
    if v.is_null() || (t.is_empty() && !int_or_string) {
        return true;
    }
    match v {
        Value::Number(n) if n.is_i64() || n.is_u64() => {
            matches!(t, "integer" | "number") || int_or_string
        }
        Value::Number(_) => t == "number",
        Value::String(_) => t == "string" || int_or_string,
        Value::Bool(_) => t == "boolean",
        Value::Array(_) => t == "array",
        Value::Object(_) => t == "object",
        Value::Null => true,
    }
}

fn unsupported(path: &str, key: &str) -> GenError {
    GenError::at(path, format!("`{key}` with this value has no Rust mapping"))
}

fn string_list(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

fn rule(r: &Value) -> Option<AttrValue> {
    let r = r.as_object()?;
    let mut keys = Vec::new();
    for (k, v) in r {
        let key = match k.as_str() {
            "rule" => "rule",
            "message" => "message",
            "messageExpression" => "message_expression",
            "reason" => "reason",
            "fieldPath" => "field_path",
            "optionalOldSelf" => "optional_old_self",
            _ => return None,
        };
        keys.push((key, v.clone()));
    }
    // The API's field order, whatever order the file has.
    const ORDER: [&str; 6] = [
        "rule",
        "message",
        "message_expression",
        "reason",
        "field_path",
        "optional_old_self",
    ];
    keys.sort_by_key(|(k, _)| ORDER.iter().position(|o| o == k));
    Some(AttrValue::Rule(keys))
}

/// Whether a shape is interned already.
enum Interned {
    /// Yes: this type, its use recorded.
    Known(TypeId),
    /// No: the description of the new type's first use.
    New(Option<String>),
}

#[cfg(test)]
mod tests {
    use schema_attrs::{ATTRIBUTES, Applies, Attribute, ValueKind};
    use serde_json::{Map, Value, json};

    use super::own_attrs;

    /// A node of the kind of schema `a` applies to, with `a`'s schema key
    /// set to a value of `a`'s kind, and the type's own schema.
    fn node_for(a: &Attribute) -> (Map<String, Value>, Map<String, Value>) {
        let (t, is_struct) = match a.applies {
            Applies::Number => ("number", false),
            Applies::Text | Applies::Any => ("string", false),
            Applies::Array | Applies::ArrayOrMap => ("array", false),
            Applies::Object | Applies::Map => ("object", false),
            Applies::Struct => ("object", true),
        };
        let value = match a.value {
            ValueKind::Flag => json!(true),
            ValueKind::Number | ValueKind::Count => json!(1),
            ValueKind::JsonArray | ValueKind::Strings => json!(["a"]),
            ValueKind::JsonObject => json!({"url": "https://example.com"}),
            ValueKind::Schemas => json!([{"required": ["a"]}]),
            ValueKind::Schema => json!({"required": ["a"]}),
            _ => json!("a"),
        };
        let mut base = Map::new();
        base.insert("type".into(), t.into());
        if is_struct {
            base.insert("properties".into(), json!({"a": {"type": "string"}}));
        }
        let mut n = base.clone();
        n.insert(a.schema_key.unwrap_or_default().into(), value);
        (n, base)
    }

    /// Every attribute the table says the generator writes back, it writes
    /// back from its schema key: through the table, or (the few keys of
    /// their own shape) by code of their own, tested here one by one.
    #[test]
    fn the_generator_writes_back_every_attribute_of_the_table() {
        let own_code = ["type", "description", "items", "validation"];
        for a in ATTRIBUTES.iter().filter(|a| a.written_back) {
            if own_code.contains(&a.key) {
                continue;
            }
            let (n, base) = node_for(a);
            let attrs = own_attrs(&n, &base, None)
                .unwrap_or_else(|| panic!("`{}` is not written back", a.key));
            assert!(
                attrs.iter().any(|w| w.key == a.key),
                "`{}` is not written back from `{:?}`",
                a.key,
                a.schema_key
            );
        }
        let replaced = json!({"type": "string"});
        let attrs = own_attrs(replaced.as_object().unwrap(), &Map::new(), None).unwrap();
        assert_eq!(attrs[0].key, "type");
        let rules = json!({"type": "string", "x-kubernetes-validations": [{"rule": "self"}]});
        let base = json!({"type": "string"});
        let attrs = own_attrs(rules.as_object().unwrap(), base.as_object().unwrap(), None).unwrap();
        assert_eq!(attrs[0].key, "validation");
        for key in own_code {
            let a = schema_attrs::attribute(key).unwrap();
            assert!(a.written_back, "`{key}` is written back");
        }
    }
}
