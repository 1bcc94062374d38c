//! The compiled form of the schemas a lint run reads: every subschema
//! reachable from the root file through applicator keywords and `$ref`,
//! with the keywords the rules look at, read the way a draft-aware JSON
//! Schema compiler reads them (keywords of a later draft are ignored in an
//! earlier one; in drafts before 2019-09 the siblings of `$ref` are
//! ignored).
//!
//! Files are read through a [`Loader`]; nothing here does IO.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use schema_core::model::source::{self, Document, Limits, PathSegment};

use super::{LintError, Loader};

/// Index of a compiled subschema in [`Model::nodes`].
pub(crate) type NodeId = usize;

/// The JSON Schema drafts, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Draft {
    /// Draft 4.
    D4,
    /// Draft 6.
    D6,
    /// Draft 7.
    D7,
    /// Draft 2019-09.
    D2019,
    /// Draft 2020-12 (also the default).
    D2020,
}

impl Draft {
    /// The draft a `$schema` URI names; `None` for an unknown URI.
    fn from_uri(uri: &str) -> Option<Draft> {
        let u = uri.trim_end_matches('#');
        let u = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"))?;
        match u {
            "json-schema.org/draft-04/schema" => Some(Draft::D4),
            "json-schema.org/draft-06/schema" => Some(Draft::D6),
            "json-schema.org/draft-07/schema" => Some(Draft::D7),
            "json-schema.org/draft/2019-09/schema" => Some(Draft::D2019),
            "json-schema.org/draft/2020-12/schema" => Some(Draft::D2020),
            _ => None,
        }
    }
}

/// `additionalProperties` (and friends): a boolean or a subschema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Additional {
    /// `true` or `false`.
    Bool(bool),
    /// A subschema.
    Schema(NodeId),
}

/// One compiled subschema. `None`/`false`/empty fields mean the keyword is
/// absent (or ignored in the node's draft).
#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    /// The file the node is in.
    pub file: usize,
    /// Its JSON pointer in the file (escaped; `""` for the file's root).
    pub ptr: String,
    /// A boolean schema's value.
    pub always: Option<bool>,
    /// The `$ref` target.
    pub reference: Option<NodeId>,
    /// `type`, when present.
    pub types: Option<Vec<String>>,
    /// `title` (empty when absent).
    pub title: String,
    /// `description` (empty when absent).
    pub description: String,
    /// `$comment` (empty when absent).
    pub comment: String,
    /// `examples`, when an array.
    pub examples: Option<Vec<Value>>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// `properties`, in document order.
    pub properties: Option<Vec<(String, NodeId)>>,
    /// The number of `patternProperties`, when present.
    pub pattern_properties: Option<usize>,
    /// `additionalProperties`.
    pub additional_properties: Option<Additional>,
    /// `items` of draft 2020-12.
    pub items: Option<NodeId>,
    /// `items` of earlier drafts (one schema or an array of schemas).
    pub items_legacy: Option<Vec<NodeId>>,
    /// `additionalItems` (earlier drafts, next to an `items` array).
    pub additional_items: bool,
    /// `prefixItems`.
    pub prefix_items: bool,
    /// `contains`.
    pub contains: bool,
    /// `anyOf`.
    pub any_of: Option<Vec<NodeId>>,
    /// `oneOf`.
    pub one_of: Option<Vec<NodeId>>,
    /// `if` (with `then`/`else`).
    pub has_if: bool,
    /// `unevaluatedItems`.
    pub unevaluated_items: bool,
    /// `unevaluatedProperties`.
    pub unevaluated_properties: Option<NodeId>,
    /// `$dynamicAnchor` (empty when absent).
    pub dynamic_anchor: String,
    /// `$dynamicRef`.
    pub dynamic_ref: bool,
    /// `$recursiveRef`.
    pub recursive_ref: bool,
    /// `pattern`.
    pub pattern: Option<String>,
    /// `minLength` (an integer).
    pub min_length: bool,
    /// `maxLength` (an integer).
    pub max_length: bool,
    /// `enum`, when an array.
    pub enum_values: Option<Vec<Value>>,
    /// `const`.
    pub const_value: Option<Value>,
    /// `format` naming a format the reference validator knows.
    pub known_format: bool,
    /// Any of `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`.
    pub numeric_bounds: bool,
    /// `required`, when an array.
    pub required: Option<Vec<String>>,
    /// `default`.
    pub default: Option<Value>,
}

impl Node {
    /// Whether `type` includes `name`.
    pub fn is_type(&self, name: &str) -> bool {
        self.types
            .as_ref()
            .is_some_and(|t| t.iter().any(|x| x == name))
    }

    /// The number of types declared.
    pub fn type_count(&self) -> usize {
        self.types.as_ref().map_or(0, Vec::len)
    }
}

/// One schema file.
pub(crate) struct File {
    /// Its name, as given to (or derived for) the loader.
    pub name: String,
    /// The parsed document.
    pub doc: Document,
    /// Its draft (from the root's `$schema`; 2020-12 by default).
    pub draft: Draft,
    /// The root's `$id`, if any.
    pub id: Option<String>,
}

/// Formats the reference validator knows (and so treats as a constraint).
const KNOWN_FORMATS: &[&str] = &[
    "regex",
    "json-pointer",
    "relative-json-pointer",
    "uuid",
    "duration",
    "period",
    "ipv4",
    "ipv6",
    "hostname",
    "email",
    "date",
    "time",
    "date-time",
    "uri",
    "iri",
    "uri-reference",
    "iri-reference",
    "uri-template",
    "semver",
];

const TYPE_NAMES: &[&str] = &[
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Most subschemas compiled in one run.
const MAX_NODES: usize = 1_000_000;

/// All files and compiled subschemas of a run. Node 0 is the root file's
/// root.
pub(crate) struct Model {
    /// The files, the root file first.
    pub files: Vec<File>,
    /// The compiled subschemas.
    pub nodes: Vec<Node>,
    index: BTreeMap<(usize, String), NodeId>,
    queue: Vec<NodeId>,
}

/// Escapes one JSON pointer token.
pub(crate) fn escape_token(t: &str) -> String {
    t.replace('~', "~0").replace('/', "~1")
}

fn unescape_token(t: &str) -> String {
    t.replace("~1", "/").replace("~0", "~")
}

/// The tokens of an escaped JSON pointer (`""` has none).
fn pointer_tokens(ptr: &str) -> Vec<String> {
    ptr.split('/').skip(1).map(unescape_token).collect()
}

/// The value at an escaped JSON pointer.
fn value_at<'v>(root: &'v Value, ptr: &str) -> Option<&'v Value> {
    let mut cur = root;
    for tok in pointer_tokens(ptr) {
        cur = match cur {
            Value::Object(m) => m.get(&tok)?,
            Value::Array(a) => {
                if tok.len() > 1 && tok.starts_with('0') {
                    return None;
                }
                a.get(tok.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

/// Decodes `%XX` escapes (URI fragments); invalid escapes stay as they are.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(v) = hex {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `rel` resolved against the directory of `base`, with `.` and `..`
/// segments folded (purely on the names; no file system access).
fn join_relative(base: &str, rel: &str) -> String {
    if rel.starts_with('/') {
        return normalize(rel);
    }
    let dir = match base.rfind('/') {
        Some(i) => base.get(..=i).unwrap_or(""),
        None => "",
    };
    normalize(&format!("{dir}{rel}"))
}

fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if matches!(parts.last(), Some(p) if *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

fn has_scheme(s: &str) -> bool {
    match s.find(':') {
        Some(i) => {
            let scheme = s.get(..i).unwrap_or("");
            i > 1
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

impl Model {
    /// Reads `root_name` through `loader` and compiles everything reachable
    /// from its root.
    pub fn load(root_name: &str, loader: &mut dyn Loader) -> Result<Model, LintError> {
        let mut model = Model {
            files: Vec::new(),
            nodes: Vec::new(),
            index: BTreeMap::new(),
            queue: Vec::new(),
        };
        let file = model.read_file(root_name, loader, None)?;
        let root = model.intern(file, String::new())?;
        debug_assert_eq!(root, 0);
        while let Some(id) = model.queue.pop() {
            model.compile(id, loader)?;
        }
        model.check_ref_cycles()?;
        Ok(model)
    }

    /// The root file's parsed value.
    pub fn root_value(&self) -> &Value {
        self.files.first().map_or(&Value::Null, |f| &f.doc.value)
    }

    /// The node with id `id` (the root for an out-of-range id, which the
    /// compiler never hands out).
    pub fn node(&self, id: NodeId) -> &Node {
        static EMPTY: std::sync::OnceLock<Node> = std::sync::OnceLock::new();
        self.nodes
            .get(id)
            .unwrap_or_else(|| EMPTY.get_or_init(Node::default))
    }

    fn read_file(
        &mut self,
        name: &str,
        loader: &mut dyn Loader,
        referrer: Option<(usize, &str, &str)>,
    ) -> Result<usize, LintError> {
        if let Some(i) = self.files.iter().position(|f| f.name == name) {
            return Ok(i);
        }
        let bytes = loader.read(name).map_err(|message| match referrer {
            Some((file, ptr, keyword)) => self.ref_error(
                file,
                ptr,
                keyword,
                format!("cannot read the referenced file {name:?}: {message}"),
            ),
            None => LintError::Read {
                file: name.to_string(),
                message,
            },
        })?;
        let mut docs = source::parse_documents(name, &bytes, &Limits::default())?;
        if docs.len() > 1 {
            return Err(LintError::Invalid {
                file: name.to_string(),
                position: None,
                pointer: String::new(),
                message: format!("expected one schema document, found {}", docs.len()),
            });
        }
        let Some(doc) = docs.pop() else {
            return Err(LintError::Invalid {
                file: name.to_string(),
                position: None,
                pointer: String::new(),
                message: "no YAML or JSON document found".to_string(),
            });
        };
        let schema_uri = doc.value.get("$schema").and_then(Value::as_str);
        let draft = schema_uri.and_then(Draft::from_uri).unwrap_or(Draft::D2020);
        let id_key = if draft < Draft::D6 { "id" } else { "$id" };
        let id = doc
            .value
            .get(id_key)
            .and_then(Value::as_str)
            .map(|s| s.trim_end_matches('#').to_string());
        self.files.push(File {
            name: name.to_string(),
            doc,
            draft,
            id,
        });
        Ok(self.files.len() - 1)
    }

    /// The node for `(file, ptr)`, queued for compilation when new.
    fn intern(&mut self, file: usize, ptr: String) -> Result<NodeId, LintError> {
        if let Some(&id) = self.index.get(&(file, ptr.clone())) {
            return Ok(id);
        }
        if self.nodes.len() >= MAX_NODES {
            return Err(LintError::Limit(format!(
                "more than {MAX_NODES} subschemas are reachable from the root"
            )));
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            file,
            ptr: ptr.clone(),
            ..Node::default()
        });
        self.index.insert((file, ptr), id);
        self.queue.push(id);
        Ok(id)
    }

    fn file_name(&self, file: usize) -> String {
        self.files
            .get(file)
            .map(|f| f.name.clone())
            .unwrap_or_default()
    }

    /// The source position of the value at `ptr` in `file`.
    fn position(&self, file: usize, ptr: &str) -> Option<source::Location> {
        let f = self.files.get(file)?;
        let mut segs = Vec::new();
        let mut cur = &f.doc.value;
        for tok in pointer_tokens(ptr) {
            match cur {
                Value::Array(a) => {
                    let i = tok.parse::<usize>().ok()?;
                    cur = a.get(i)?;
                    segs.push(PathSegment::Index(i));
                }
                Value::Object(m) => {
                    cur = m.get(&tok)?;
                    segs.push(PathSegment::Key(tok));
                }
                _ => return None,
            }
        }
        f.doc.locate(&segs)
    }

    fn invalid(&self, file: usize, ptr: &str, message: String) -> LintError {
        LintError::Invalid {
            file: self.file_name(file),
            position: self.position(file, ptr),
            pointer: ptr.to_string(),
            message,
        }
    }

    fn not_a_schema(&self, file: usize, ptr: &str, v: &Value) -> LintError {
        self.invalid(
            file,
            ptr,
            format!(
                "a schema must be an object or a boolean, found {}",
                kind_name(v)
            ),
        )
    }

    /// An unresolvable reference in the schema at `ptr`; the position is
    /// that of its `keyword` when present.
    fn ref_error(&self, file: usize, ptr: &str, keyword: &str, message: String) -> LintError {
        let position = self
            .position(file, &format!("{ptr}/{}", escape_token(keyword)))
            .or_else(|| self.position(file, ptr));
        LintError::Reference {
            file: self.file_name(file),
            position,
            pointer: ptr.to_string(),
            message,
        }
    }

    /// Resolves the reference `reference`, written at `(file, ptr)`, to the
    /// file and escaped pointer it names. `anchor_key` is the keyword a
    /// plain-name fragment is looked up by (`$anchor`, `$dynamicAnchor`).
    fn resolve(
        &mut self,
        file: usize,
        ptr: &str,
        keyword: &str,
        reference: &str,
        anchor_keys: &[&str],
        loader: &mut dyn Loader,
    ) -> Result<(usize, String), LintError> {
        let (path, fragment) = match reference.split_once('#') {
            Some((p, f)) => (p, f),
            None => (reference, ""),
        };
        let target_file = if path.is_empty() {
            file
        } else if let Some(i) = self
            .files
            .iter()
            .position(|f| f.id.as_deref() == Some(path))
        {
            i
        } else if has_scheme(path) {
            return Err(self.ref_error(
                file,
                ptr,
                keyword,
                format!(
                    "cannot resolve {keyword} {reference:?}: only references to local files and within a file are supported"
                ),
            ));
        } else {
            let base = self.file_name(file);
            let name = join_relative(&base, &percent_decode(path));
            self.read_file(&name, loader, Some((file, ptr, keyword)))?
        };
        let fragment = percent_decode(fragment);
        let root = match self.files.get(target_file) {
            Some(f) => &f.doc.value,
            None => {
                return Err(self.ref_error(
                    file,
                    ptr,
                    keyword,
                    format!("cannot resolve {keyword} {reference:?}"),
                ));
            }
        };
        if fragment.is_empty() || fragment.starts_with('/') {
            let tokens = pointer_tokens(&fragment);
            let canonical: String = tokens
                .iter()
                .map(|t| format!("/{}", escape_token(t)))
                .collect();
            if value_at(root, &canonical).is_none() {
                return Err(self.ref_error(
                    file,
                    ptr,
                    keyword,
                    format!(
                        "cannot resolve {keyword} {reference:?}: {} has nothing at {fragment:?}",
                        self.file_name(target_file)
                    ),
                ));
            }
            return Ok((target_file, canonical));
        }
        match find_anchor(root, &fragment, anchor_keys) {
            Some(p) => Ok((target_file, p)),
            None => Err(self.ref_error(
                file,
                ptr,
                keyword,
                format!(
                    "cannot resolve {keyword} {reference:?}: {} has no anchor {fragment:?}",
                    self.file_name(target_file)
                ),
            )),
        }
    }

    /// Queues the subschema at `ptr`.
    fn sub(&mut self, file: usize, ptr: String) -> Result<NodeId, LintError> {
        self.intern(file, ptr)
    }

    fn compile(&mut self, id: NodeId, loader: &mut dyn Loader) -> Result<(), LintError> {
        let (file, ptr) = {
            let n = self.node(id);
            (n.file, n.ptr.clone())
        };
        let (draft, value) = match self.files.get(file) {
            Some(f) => (f.draft, value_at(&f.doc.value, &ptr).cloned()),
            None => return Ok(()),
        };
        let Some(value) = value else {
            return Err(self.invalid(file, &ptr, "no schema at this location".to_string()));
        };
        let obj = match value {
            Value::Bool(b) => {
                if let Some(n) = self.nodes.get_mut(id) {
                    n.always = Some(b);
                }
                return Ok(());
            }
            Value::Object(m) => m,
            other => {
                return Err(self.invalid(
                    file,
                    &ptr,
                    format!(
                        "a schema must be an object or a boolean, found {}",
                        kind_name(&other)
                    ),
                ));
            }
        };
        self.check_keyword_types(file, &ptr, &obj, draft)?;
        let mut node = Node {
            file,
            ptr: ptr.clone(),
            ..Node::default()
        };
        let at = |k: &str| format!("{ptr}/{}", escape_token(k));

        // Draft 4 keywords. Before 2019-09, `$ref` hides its siblings.
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            let (tf, tp) = self.resolve(file, &ptr, "$ref", r, &["$anchor"], loader)?;
            node.reference = Some(self.sub(tf, tp)?);
        }
        let ref_hides = draft < Draft::D2019 && node.reference.is_some();
        if !ref_hides {
            self.compile_draft4(&mut node, &obj, draft, &at)?;
        }
        if draft >= Draft::D6 {
            if obj.contains_key("contains") {
                self.sub(file, at("contains"))?;
                node.contains = true;
            }
            if obj.contains_key("propertyNames") {
                self.sub(file, at("propertyNames"))?;
            }
            node.const_value = obj.get("const").cloned();
        }
        if draft >= Draft::D7 {
            if let Some(cond) = obj.get("if") {
                self.sub(file, at("if"))?;
                node.has_if = true;
                if cond != &Value::Bool(false) && obj.contains_key("then") {
                    self.sub(file, at("then"))?;
                }
                if cond != &Value::Bool(true) && obj.contains_key("else") {
                    self.sub(file, at("else"))?;
                }
            }
            node.comment = str_of(&obj, "$comment");
            node.examples = obj.get("examples").and_then(Value::as_array).cloned();
        }
        if draft >= Draft::D2019 {
            if let Some(r) = obj.get("$recursiveRef").and_then(Value::as_str) {
                let (tf, tp) =
                    self.resolve(file, &ptr, "$recursiveRef", r, &["$anchor"], loader)?;
                self.sub(tf, tp)?;
                node.recursive_ref = true;
            }
            if let Some(m) = obj.get("dependentSchemas").and_then(Value::as_object) {
                for k in m.keys() {
                    self.sub(
                        file,
                        format!("{}/{}", at("dependentSchemas"), escape_token(k)),
                    )?;
                }
            }
            if obj.contains_key("unevaluatedItems") {
                self.sub(file, at("unevaluatedItems"))?;
                node.unevaluated_items = true;
            }
            if obj.contains_key("unevaluatedProperties") {
                node.unevaluated_properties = Some(self.sub(file, at("unevaluatedProperties"))?);
            }
            node.deprecated = obj.get("deprecated") == Some(&Value::Bool(true));
        }
        if draft >= Draft::D2020 {
            if let Some(r) = obj.get("$dynamicRef").and_then(Value::as_str) {
                let (tf, tp) = self.resolve(
                    file,
                    &ptr,
                    "$dynamicRef",
                    r,
                    &["$dynamicAnchor", "$anchor"],
                    loader,
                )?;
                self.sub(tf, tp)?;
                node.dynamic_ref = true;
            }
            node.dynamic_anchor = str_of(&obj, "$dynamicAnchor");
            if let Some(a) = obj.get("prefixItems").and_then(Value::as_array) {
                for i in 0..a.len() {
                    self.sub(file, format!("{}/{i}", at("prefixItems")))?;
                }
                node.prefix_items = true;
            }
            if obj.contains_key("items") {
                node.items = Some(self.sub(file, at("items"))?);
            }
        }
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = node;
        }
        Ok(())
    }

    fn compile_draft4(
        &mut self,
        node: &mut Node,
        obj: &Map<String, Value>,
        draft: Draft,
        at: &dyn Fn(&str) -> String,
    ) -> Result<(), LintError> {
        let file = node.file;
        for key in ["allOf", "anyOf", "oneOf"] {
            if let Some(a) = obj.get(key).and_then(Value::as_array) {
                let mut ids = Vec::with_capacity(a.len());
                for i in 0..a.len() {
                    ids.push(self.sub(file, format!("{}/{i}", at(key)))?);
                }
                match key {
                    "anyOf" => node.any_of = Some(ids),
                    "oneOf" => node.one_of = Some(ids),
                    _ => {}
                }
            }
        }
        if obj.contains_key("not") {
            self.sub(file, at("not"))?;
        }
        if draft < Draft::D2020 {
            match obj.get("items") {
                Some(Value::Array(a)) => {
                    let mut ids = Vec::with_capacity(a.len());
                    for i in 0..a.len() {
                        ids.push(self.sub(file, format!("{}/{i}", at("items")))?);
                    }
                    node.items_legacy = Some(ids);
                    if obj.contains_key("additionalItems") {
                        if !obj.get("additionalItems").is_some_and(Value::is_boolean) {
                            self.sub(file, at("additionalItems"))?;
                        }
                        node.additional_items = true;
                    }
                }
                Some(_) => node.items_legacy = Some(vec![self.sub(file, at("items"))?]),
                None => {}
            }
        }
        if let Some(m) = obj.get("properties").and_then(Value::as_object) {
            let mut props = Vec::with_capacity(m.len());
            for k in m.keys() {
                let id = self.sub(file, format!("{}/{}", at("properties"), escape_token(k)))?;
                props.push((k.clone(), id));
            }
            node.properties = Some(props);
        }
        if let Some(m) = obj.get("patternProperties").and_then(Value::as_object) {
            for k in m.keys() {
                self.sub(
                    file,
                    format!("{}/{}", at("patternProperties"), escape_token(k)),
                )?;
            }
            node.pattern_properties = Some(m.len());
        }
        node.additional_properties = match obj.get("additionalProperties") {
            Some(Value::Bool(b)) => Some(Additional::Bool(*b)),
            Some(_) => Some(Additional::Schema(
                self.sub(file, at("additionalProperties"))?,
            )),
            None => None,
        };
        if let Some(m) = obj.get("dependencies").and_then(Value::as_object) {
            for (k, v) in m {
                if !v.is_array() {
                    self.sub(file, format!("{}/{}", at("dependencies"), escape_token(k)))?;
                }
            }
        }
        node.types = match obj.get("type") {
            Some(Value::String(s)) => Some(vec![s.clone()]),
            Some(Value::Array(a)) => Some(
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
            ),
            _ => None,
        };
        node.enum_values = obj.get("enum").and_then(Value::as_array).cloned();
        let is_num = |k: &str| obj.get(k).is_some_and(Value::is_number);
        let is_true = |k: &str| obj.get(k) == Some(&Value::Bool(true));
        node.numeric_bounds = is_num("minimum")
            || is_num("maximum")
            || is_num("exclusiveMinimum")
            || is_num("exclusiveMaximum")
            || (draft == Draft::D4
                && ((is_true("exclusiveMinimum") && is_num("minimum"))
                    || (is_true("exclusiveMaximum") && is_num("maximum"))));
        let is_int = |k: &str| {
            obj.get(k).is_some_and(|v| {
                v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0)
            })
        };
        node.min_length = is_int("minLength");
        node.max_length = is_int("maxLength");
        node.pattern = obj
            .get("pattern")
            .and_then(Value::as_str)
            .map(str::to_string);
        node.required = obj.get("required").and_then(Value::as_array).map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        });
        node.known_format = obj
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| KNOWN_FORMATS.contains(&f));
        node.title = str_of(obj, "title");
        node.description = str_of(obj, "description");
        node.default = obj.get("default").cloned();
        Ok(())
    }

    /// Rejects keyword values that no JSON Schema meta-schema allows, for
    /// the keywords the linter reads.
    fn check_keyword_types(
        &self,
        file: usize,
        ptr: &str,
        obj: &Map<String, Value>,
        draft: Draft,
    ) -> Result<(), LintError> {
        let bad = |k: &str, want: &str, v: &Value| {
            self.invalid(
                file,
                &format!("{ptr}/{}", escape_token(k)),
                format!("{k} must be {want}, found {}", kind_name(v)),
            )
        };
        let schema_like = |v: &Value| v.is_object() || v.is_boolean();
        for (k, v) in obj {
            let want = match k.as_str() {
                "$ref" | "$recursiveRef" | "$dynamicRef" | "$comment" | "title" | "description"
                | "pattern" | "$dynamicAnchor" | "$anchor" | "format" => {
                    (!v.is_string()).then_some("a string")
                }
                "properties" | "patternProperties" | "$defs" | "definitions"
                | "dependentSchemas" => match v.as_object() {
                    None => Some("an object"),
                    Some(m) => {
                        if let Some((name, sub)) = m.iter().find(|(_, sub)| !schema_like(sub)) {
                            let at = format!("{ptr}/{}/{}", escape_token(k), escape_token(name));
                            return Err(self.not_a_schema(file, &at, sub));
                        }
                        None
                    }
                },
                "allOf" | "anyOf" | "oneOf" | "prefixItems" => match v.as_array() {
                    Some(a) if !a.is_empty() => {
                        if let Some((i, sub)) = a.iter().enumerate().find(|(_, s)| !schema_like(s))
                        {
                            return Err(self.not_a_schema(file, &format!("{ptr}/{k}/{i}"), sub));
                        }
                        None
                    }
                    _ => Some("a non-empty array of schemas"),
                },
                "items" => {
                    let ok = schema_like(v)
                        || (draft < Draft::D2020
                            && v.as_array().is_some_and(|a| a.iter().all(schema_like)));
                    (!ok).then_some("a schema")
                }
                "not"
                | "if"
                | "then"
                | "else"
                | "contains"
                | "propertyNames"
                | "additionalProperties"
                | "additionalItems"
                | "unevaluatedItems"
                | "unevaluatedProperties" => (!schema_like(v)).then_some("a schema"),
                "type" => {
                    let names: Vec<&Value> = match v {
                        Value::Array(a) => a.iter().collect(),
                        other => vec![other],
                    };
                    if let Some(n) = names
                        .into_iter()
                        .find(|n| !n.as_str().is_some_and(|s| TYPE_NAMES.contains(&s)))
                    {
                        return Err(self.invalid(
                            file,
                            &format!("{ptr}/type"),
                            format!("type must name one of {}, found {n}", TYPE_NAMES.join(", ")),
                        ));
                    }
                    None
                }
                "examples" | "enum" => (!v.is_array()).then_some("an array"),
                "required" => (!v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
                    .then_some("an array of strings"),
                "deprecated" => (!v.is_boolean()).then_some("a boolean"),
                _ => None,
            };
            if let Some(want) = want {
                return Err(bad(k, want, v));
            }
        }
        Ok(())
    }

    /// Rejects `$ref` chains that come back to where they started (a schema
    /// that is only a reference to itself, in one or more steps).
    fn check_ref_cycles(&self) -> Result<(), LintError> {
        // 0 = unvisited, 1 = on the current chain, 2 = done.
        let mut state = vec![0u8; self.nodes.len()];
        for start in 0..self.nodes.len() {
            let mut chain = Vec::new();
            let mut cur = Some(start);
            while let Some(id) = cur {
                match state.get(id).copied() {
                    Some(0) => {
                        if let Some(s) = state.get_mut(id) {
                            *s = 1;
                        }
                        chain.push(id);
                        cur = self.node(id).reference;
                    }
                    Some(1) => {
                        let from = chain.iter().position(|&c| c == id).unwrap_or(0);
                        let cycle: Vec<String> = chain
                            .get(from..)
                            .unwrap_or(&[])
                            .iter()
                            .chain(std::iter::once(&id))
                            .map(|&n| self.display_node(n))
                            .collect();
                        let n = self.node(id);
                        return Err(LintError::RefCycle {
                            file: self.file_name(n.file),
                            position: self.position(n.file, &n.ptr),
                            pointer: n.ptr.clone(),
                            cycle: cycle.join(" -> "),
                        });
                    }
                    _ => break,
                }
            }
            for id in chain {
                if let Some(s) = state.get_mut(id) {
                    *s = 2;
                }
            }
        }
        Ok(())
    }

    /// `file#pointer` of a node, for messages.
    fn display_node(&self, id: NodeId) -> String {
        let n = self.node(id);
        format!("{}#{}", self.file_name(n.file), n.ptr)
    }
}

fn str_of(obj: &Map<String, Value>, key: &str) -> String {
    obj.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The escaped pointer of the subschema whose anchor keyword (one of
/// `keys`) is `name`, searching the whole document in order.
fn find_anchor(root: &Value, name: &str, keys: &[&str]) -> Option<String> {
    let mut stack: Vec<(&Value, String)> = vec![(root, String::new())];
    while let Some((v, p)) = stack.pop() {
        match v {
            Value::Object(m) => {
                if keys
                    .iter()
                    .any(|k| m.get(*k).and_then(Value::as_str) == Some(name))
                {
                    return Some(p);
                }
                for (k, child) in m.iter().rev() {
                    stack.push((child, format!("{p}/{}", escape_token(k))));
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate().rev() {
                    stack.push((child, format!("{p}/{i}")));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_relative_names() {
        assert_eq!(join_relative("a/b.json", "c.json"), "a/c.json");
        assert_eq!(join_relative("a/b.json", "../c.json"), "c.json");
        assert_eq!(join_relative("b.json", "./x/c.json"), "x/c.json");
        assert_eq!(join_relative("b.json", "../c.json"), "../c.json");
        assert_eq!(join_relative("/r/a/b.json", "../c.json"), "/r/c.json");
    }

    #[test]
    fn pointers_round_trip() {
        let v = serde_json::json!({"a/b": {"~": [1, {"x": 2}]}});
        assert_eq!(value_at(&v, "/a~1b/~0/1/x"), Some(&serde_json::json!(2)));
        assert_eq!(value_at(&v, "/a~1b/~0/01"), None);
        assert_eq!(percent_decode("/%24defs/a%20b"), "/$defs/a b");
    }
}
