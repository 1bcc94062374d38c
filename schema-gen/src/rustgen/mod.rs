//! CRDs and structural schemas to Rust types (`schema-gen rust` and the
//! build.rs API).
//!
//! [`Config`] is built in prost-build's shape: `&mut self` setters, a pure
//! [`Config::generate`] from decoded inputs to module sources, and
//! [`Config::compile`] for build scripts, which reads the files, writes
//! the sources under `OUT_DIR` (only when they changed) and prints a
//! `cargo:rerun-if-changed` line for every file it read.
//!
//! The mapping is the inverse of `#[derive(StructuralSchema)]`: the
//! generated types carry the `#[schema(...)]` attributes that make the
//! derive give back the input schema (see [`space`]).

pub mod emit;
pub mod names;
pub mod space;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schema_core::KubeVersion;
use schema_core::crd::diff::{DiffOptions, Severity, diff};
use schema_core::model::locate::locate_field;
use schema_core::model::source::{self, Limits};
use schema_core::model::wire::input::{Input, read_input_owned};
use schema_core::model::wire::{CrdVersion, CustomResourceDefinition};
use serde_json::Value;

use space::{Attr, AttrValue, Ty, TypeSpace};

/// An error of generation, with the place in the schema it concerns.
///
/// `Debug` prints the same text as `Display` (`file:line:column: field:
/// message`), so that a build script's `main` returning the error prints
/// it readably.
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct GenError {
    /// Where: the input name (with the line and column once located, see
    /// [`GenError::locate`]), then the field path in the document.
    pub path: String,
    /// What.
    pub message: String,
    /// The node to locate: the input name, the document's index in it and
    /// the field path from the document's root.
    node: Option<(String, usize, String)>,
}

impl std::fmt::Debug for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl GenError {
    /// An error at `path`.
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        GenError {
            path: path.into(),
            message: message.into(),
            node: None,
        }
    }

    /// Marks the error as concerning a node of document `doc` of the input
    /// `name`, when its path is a field path in that input
    /// (`name: spec.versions[0]...`, or `name.properties[...]` for a bare
    /// schema).
    fn in_document(mut self, name: &str, doc: usize) -> Self {
        let rest = self.path.strip_prefix(name);
        let field = rest
            .and_then(|r| r.strip_prefix(": "))
            .or_else(|| rest.and_then(|r| r.strip_prefix('.')));
        if let (None, Some(field)) = (&self.node, field) {
            self.node = Some((name.to_string(), doc, field.to_string()));
        }
        self
    }

    /// The input file the error concerns a node of, if any: the one whose
    /// bytes [`GenError::locate`] wants.
    pub fn input(&self) -> Option<&str> {
        self.node.as_ref().map(|(name, _, _)| name.as_str())
    }

    /// The error with the line and column of its node in the path
    /// (`file:line:column: spec.versions[0]...`), given the bytes of the
    /// input it names ([`GenError::input`]). The input is parsed again,
    /// with positions: generation reads it without them.
    #[must_use]
    pub fn locate(mut self, bytes: &[u8]) -> Self {
        let Some((name, doc, field)) = self.node.take() else {
            return self;
        };
        let Ok(docs) = source::parse_documents(&name, bytes, &Limits::default()) else {
            return self;
        };
        if let Some(d) = docs.get(doc) {
            let at = locate_field(d, &[], &schema_core::Path::parse(&field));
            self.path = format!("{name}:{}:{}: {field}", at.line, at.column);
        }
        self
    }
}

/// The options of the generator (what [`Config`] sets).
#[derive(Clone, Debug)]
pub struct Options {
    /// The versions to emit; empty: every version, served or not.
    pub versions: Vec<String>,
    /// Extra derives on every type (`PartialEq`, `Default`, ...), besides
    /// `Clone`, `Debug`, serde's and `StructuralSchema`.
    pub derives: Vec<String>,
    /// Type-name overrides: generated name → name.
    pub type_names: BTreeMap<String, String>,
    /// Descriptions as doc comments (else as `description` attributes).
    pub docs: bool,
    /// Use k8s-openapi's `IntOrString` and `Time` (else JSON values and
    /// strings with attributes).
    pub k8s_openapi: bool,
    /// The Kubernetes release the generated `crds()` validates for; `None`:
    /// the newest supported.
    pub kube_version: Option<KubeVersion>,
    /// Names nested types by their property alone where that name is free
    /// (`IssuerRef`), instead of by their path (`CertificateSpecIssuerRef`).
    pub short_names: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            versions: Vec::new(),
            derives: Vec::new(),
            type_names: BTreeMap::new(),
            docs: true,
            k8s_openapi: true,
            kube_version: None,
            short_names: false,
        }
    }
}

/// One decoded input file.
#[derive(Clone, Debug)]
pub struct InputFile {
    /// The name used in messages and for the generated module.
    pub name: String,
    /// Its documents.
    pub documents: Vec<Input>,
    /// What reading them found (unknown fields, v1beta1 conversion, ...).
    pub warnings: Vec<String>,
    /// The schemas of v1 CRD versions as written, by (document, version).
    schemas: HashMap<(usize, usize), Value>,
}

impl InputFile {
    /// Parses YAML or JSON (several documents allowed) into inputs.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<Self, GenError> {
        let docs = source::parse_documents_unmapped(name, bytes, &Limits::default())
            .map_err(|e| GenError::at(name, e.to_string()))?;
        if docs.is_empty() {
            return Err(GenError::at(name, "no YAML or JSON document found"));
        }
        let mut documents = Vec::new();
        let mut warnings = Vec::new();
        let mut schemas = HashMap::new();
        for (di, d) in docs.into_iter().enumerate() {
            let at = format!("{name}:{}:{}", d.start.line, d.start.column);
            let mut value = d.value;
            take_schemas(&mut value, di, &mut schemas);
            let (input, found) =
                read_input_owned(value).map_err(|e| GenError::at(&at, e.to_string()))?;
            warnings.extend(
                found
                    .into_iter()
                    .map(|w| format!("{at}: {}: {}", w.field, w.message)),
            );
            documents.push(input);
        }
        Ok(InputFile {
            name: name.to_string(),
            documents,
            warnings,
            schemas,
        })
    }

    /// The `openAPIV3Schema` of version `version` of document `doc`.
    fn schema(
        &self,
        doc: usize,
        version: &CrdVersion,
        index: usize,
    ) -> Option<std::borrow::Cow<'_, Value>> {
        if let Some(raw) = self.schemas.get(&(doc, index)) {
            return Some(std::borrow::Cow::Borrowed(raw));
        }
        version
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .map(|s| std::borrow::Cow::Owned(s.to_value()))
    }
}

/// Takes the version schemas out of a v1 CRD document, as written: the
/// generator maps them as JSON (and rejects what it does not know), so
/// decoding them into the wire model first would only copy them.
fn take_schemas(doc: &mut Value, di: usize, out: &mut HashMap<(usize, usize), Value>) {
    let is_v1_crd = doc.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition")
        && doc.get("apiVersion").and_then(Value::as_str) == Some("apiextensions.k8s.io/v1");
    if !is_v1_crd {
        return;
    }
    let Some(versions) = doc
        .pointer_mut("/spec/versions")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for (vi, v) in versions.iter_mut().enumerate() {
        let schema = v.get_mut("schema").and_then(Value::as_object_mut);
        if let Some(raw) = schema.and_then(|s| s.remove("openAPIV3Schema")) {
            if raw.is_object() {
                out.insert((di, vi), raw);
            }
        }
    }
}

/// What [`Config::generate`] gives: one Rust source per input file, keyed
/// by module name (the file stem in snake_case).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generated {
    /// Module name → source.
    pub files: BTreeMap<String, String>,
    /// What the types cannot reproduce (conversion settings, ...).
    pub warnings: Vec<String>,
    /// Module name → the root types generated in it, in input order.
    pub roots: BTreeMap<String, Vec<RootType>>,
}

/// A generated root type (one version of one CRD).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootType {
    /// Its path inside the generated module (`v1::Issuer`).
    pub path: String,
    /// The CRD's name (`issuers.cert-manager.io`).
    pub crd: String,
    /// The version.
    pub version: String,
}

/// The generator's configuration, prost-build style.
#[derive(Clone, Debug, Default)]
pub struct Config {
    opts: Options,
    out_dir: Option<PathBuf>,
    /// CRD files the inputs must be a safe upgrade of.
    upgrade_from: Vec<PathBuf>,
    /// From which severity a change against them fails the build.
    upgrade_fail_on: Option<Severity>,
}

impl Config {
    /// The defaults: every version, doc comments, k8s-openapi types.
    pub fn new() -> Self {
        Self::default()
    }

    /// Emits only this version (repeatable).
    pub fn version(&mut self, v: impl Into<String>) -> &mut Self {
        self.opts.versions.push(v.into());
        self
    }

    /// Adds a derive to every type (`"PartialEq"`, ...); `Clone`, `Debug`,
    /// serde's and `StructuralSchema` are always there.
    pub fn derive(&mut self, d: impl Into<String>) -> &mut Self {
        self.opts.derives.push(d.into());
        self
    }

    /// Renames a generated type.
    pub fn rename_type(&mut self, from: impl Into<String>, to: impl Into<String>) -> &mut Self {
        self.opts.type_names.insert(from.into(), to.into());
        self
    }

    /// Writes descriptions as doc comments (default) or as attributes.
    pub fn docs(&mut self, on: bool) -> &mut Self {
        self.opts.docs = on;
        self
    }

    /// Names nested types by their property alone where that name is free
    /// (`IssuerRef`) instead of by their path from the root
    /// (`CertificateSpecIssuerRef`, the default).
    pub fn short_names(&mut self, on: bool) -> &mut Self {
        self.opts.short_names = on;
        self
    }

    /// Uses k8s-openapi's types (default) or only serde_json's.
    pub fn k8s_openapi(&mut self, on: bool) -> &mut Self {
        self.opts.k8s_openapi = on;
        self
    }

    /// The Kubernetes release whose API server the generated `crds()`
    /// validates the rebuilt CRDs as (default: the newest supported; see
    /// [`KubeVersion`]).
    pub fn kube_version(&mut self, v: KubeVersion) -> &mut Self {
        self.opts.kube_version = Some(v);
        self
    }

    /// Checks in [`Config::compile`] that the CRDs compiled are a safe
    /// upgrade of the CRDs in `baseline` (files checked in as released, for
    /// instance): `schema-gen diff`'s findings from the baseline to the
    /// inputs fail the build from `error` (see
    /// [`Config::upgrade_fail_on`]) and are `cargo:warning` lines below it.
    pub fn upgrade_from<P: Into<PathBuf>>(
        &mut self,
        baseline: impl IntoIterator<Item = P>,
    ) -> &mut Self {
        self.upgrade_from
            .extend(baseline.into_iter().map(Into::into));
        self
    }

    /// The severity from which [`Config::upgrade_from`]'s findings fail the
    /// build (default: [`Severity::Error`]).
    pub fn upgrade_fail_on(&mut self, severity: Severity) -> &mut Self {
        self.upgrade_fail_on = Some(severity);
        self
    }

    /// Where [`Config::compile`] writes (default: `OUT_DIR`).
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Generates the sources of `inputs`, without any IO.
    ///
    /// # Errors
    ///
    /// A derive that is not a Rust path, or an input with no Rust mapping
    /// (the error names the file and the schema path).
    pub fn generate(&self, inputs: &[InputFile]) -> Result<Generated, GenError> {
        for d in &self.opts.derives {
            if syn::parse_str::<syn::Path>(d).is_err() {
                return Err(GenError::at(
                    "derive",
                    format!(
                        "{d:?} is not a Rust path (like `PartialEq` or `schemars::JsonSchema`)"
                    ),
                ));
            }
        }
        let mut out = Generated::default();
        let mut scope = names::Scope::default();
        for f in inputs {
            let module = scope.claim(&names::field_name(&module_stem(&f.name)));
            out.warnings.extend(f.warnings.iter().cloned());
            let mut roots = Vec::new();
            let source = generate_file(&self.opts, f, &mut out.warnings, &mut roots)?;
            out.roots.insert(module.clone(), roots);
            out.files.insert(module, source);
        }
        Ok(out)
    }

    /// For build scripts: reads `files`, generates, and writes one
    /// `<module>.rs` per file under the output directory (only when its
    /// content changed), printing `cargo:rerun-if-changed` for every file
    /// read. Include the result with `schema_core::include_generated!`.
    pub fn compile(&self, files: &[impl AsRef<Path>]) -> Result<Generated, GenError> {
        self.compile_logging(files, &mut std::io::stdout())
    }

    /// [`Config::compile`], writing the `cargo:` lines to `log`.
    pub(crate) fn compile_logging(
        &self,
        files: &[impl AsRef<Path>],
        log: &mut dyn std::io::Write,
    ) -> Result<Generated, GenError> {
        let mut inputs = Vec::new();
        for p in files {
            let p = p.as_ref();
            let _ = writeln!(log, "cargo:rerun-if-changed={}", p.display());
            let bytes = std::fs::read(p)
                .map_err(|e| GenError::at(p.display().to_string(), format!("cannot read: {e}")))?;
            inputs.push(InputFile::parse(&p.display().to_string(), &bytes)?);
        }
        let generated = self.generate(&inputs).map_err(|e| {
            // Located only now: the file is read again, with positions.
            let bytes = e.input().and_then(|name| {
                let p = files
                    .iter()
                    .map(AsRef::as_ref)
                    .find(|p| p.display().to_string() == name)?;
                std::fs::read(p).ok()
            });
            match bytes {
                Some(b) => e.locate(&b),
                None => e,
            }
        })?;
        if !self.upgrade_from.is_empty() {
            self.check_upgrade(files, log)?;
        }
        let dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    GenError::at(
                        "OUT_DIR",
                        "not set: call from a build script or set `out_dir`",
                    )
                })?,
        };
        for (module, source) in &generated.files {
            write_if_changed(&dir.join(format!("{module}.rs")), source)?;
        }
        Ok(generated)
    }
}

/// Generates with the default configuration (one-call shortcut for build
/// scripts).
pub fn compile_crds(files: &[impl AsRef<Path>]) -> Result<Generated, GenError> {
    Config::new().compile(files)
}

impl Config {
    /// [`Config::upgrade_from`]'s check of `files` against the baseline.
    fn check_upgrade(
        &self,
        files: &[impl AsRef<Path>],
        log: &mut dyn std::io::Write,
    ) -> Result<(), GenError> {
        for p in &self.upgrade_from {
            let _ = writeln!(log, "cargo:rerun-if-changed={}", p.display());
        }
        let old = crds_of_files(&self.upgrade_from)?;
        let current: Vec<&Path> = files.iter().map(AsRef::as_ref).collect();
        let new = crds_of_files(&current)?;
        let report = diff(&old, &new, &DiffOptions::default());
        let threshold = self.upgrade_fail_on.unwrap_or(Severity::Error);
        let mut breaking = Vec::new();
        for f in report.all() {
            if f.severity >= threshold {
                breaking.push(f.to_string());
            } else {
                let _ = writeln!(log, "cargo:warning={f}");
            }
        }
        if breaking.is_empty() {
            return Ok(());
        }
        let baseline: Vec<String> = self
            .upgrade_from
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        Err(GenError::at(
            current
                .first()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            format!(
                "not a safe upgrade of {}:\n{}",
                baseline.join(", "),
                breaking.join("\n")
            ),
        ))
    }
}

/// The CRDs of `files`, as written.
fn crds_of_files(files: &[impl AsRef<Path>]) -> Result<Vec<CustomResourceDefinition>, GenError> {
    let mut out = Vec::new();
    for p in files {
        let p = p.as_ref();
        let name = p.display().to_string();
        let bytes =
            std::fs::read(p).map_err(|e| GenError::at(&name, format!("cannot read: {e}")))?;
        let docs = source::parse_documents_unmapped(&name, &bytes, &Limits::default())
            .map_err(|e| GenError::at(&name, e.to_string()))?;
        for d in docs {
            match read_input_owned(d.value) {
                Ok((Input::CrdV1(c), _)) | Ok((Input::CrdV1Beta1 { v1: c, .. }, _)) => out.push(*c),
                Ok((Input::Schema(_), _)) => {}
                Err(e) => return Err(GenError::at(&name, e.to_string())),
            }
        }
    }
    Ok(out)
}

/// Writes `content` to `path` unless it is already there.
pub fn write_if_changed(path: &Path, content: &str) -> Result<(), GenError> {
    if std::fs::read(path).is_ok_and(|old| old == content.as_bytes()) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| GenError::at(dir.display().to_string(), format!("cannot create: {e}")))?;
    }
    std::fs::write(path, content)
        .map_err(|e| GenError::at(path.display().to_string(), format!("cannot write: {e}")))
}

fn module_stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base
        .strip_suffix(".yaml")
        .or_else(|| base.strip_suffix(".yml"))
        .or_else(|| base.strip_suffix(".json"))
        .unwrap_or(base);
    if stem.is_empty() || stem == "-" {
        "schema".to_string()
    } else {
        stem.to_string()
    }
}

/// The header of every generated file.
pub fn header(name: &str) -> String {
    format!(
        "// @generated by schema-gen from {}. Do not edit: regenerate instead.\n",
        module_stem(name)
    )
}

/// One version of one CRD, as the generator sees it.
struct VersionInput<'a> {
    crd: &'a CustomResourceDefinition,
    version: &'a CrdVersion,
    /// The document's index in the file.
    doc: usize,
    /// The version's index in the CRD.
    index: usize,
}

/// Generates the source of one input file: one module per version.
/// What the generated types cannot reproduce is added to `warnings`, the
/// root types to `roots`.
pub fn generate_file(
    opts: &Options,
    f: &InputFile,
    warnings: &mut Vec<String>,
    roots: &mut Vec<RootType>,
) -> Result<String, GenError> {
    let mut modules: BTreeMap<String, Vec<VersionInput<'_>>> = BTreeMap::new();
    let mut module_order: Vec<String> = Vec::new();
    let mut bare: Option<&schema_core::model::wire::JsonSchemaProps> = None;
    for (di, doc) in f.documents.iter().enumerate() {
        match doc {
            Input::Schema(s) => {
                if f.documents.len() > 1 {
                    return Err(GenError::at(
                        &f.name,
                        format!("document {di}: a bare schema must be the only document"),
                    ));
                }
                bare = Some(s);
            }
            Input::CrdV1(crd) => collect_versions(opts, crd, di, &mut modules, &mut module_order)?,
            Input::CrdV1Beta1 { v1, .. } => {
                collect_versions(opts, v1, di, &mut modules, &mut module_order)?
            }
        }
    }
    // The names and docs come from the schema: lints about their style
    // are the schema author's, not the reader's.
    let lints = quote!(
        clippy::enum_variant_names,
        clippy::doc_lazy_continuation,
        clippy::doc_overindented_list_items
    );
    let mut items = Vec::new();
    if let Some(s) = bare {
        let mut space = TypeSpace::default();
        let root = s.to_value();
        let root = space
            .map(opts, &root, &f.name, "Schema", "", 0)
            .map_err(|e| e.in_document(&f.name, 0))?;
        if !matches!(root.ty, space::Ty::Named(_)) {
            return Err(GenError::at(
                &f.name,
                "a bare schema must be an object with properties to become a Rust type",
            ));
        }
        items.push(
            format_module(opts, &space, TokenStream::new(), None)
                .map_err(|e| internal(&f.name, &e))?,
        );
    }
    let mut crd_exprs = Vec::new();
    let mut found_roots = Vec::new();
    for m in &module_order {
        let versions = &modules[m];
        let mut space = TypeSpace::default();
        let mut named = Vec::new();
        for v in versions {
            let kind = v
                .crd
                .spec
                .as_ref()
                .and_then(|s| s.names.as_ref())
                .and_then(|n| n.kind.clone())
                .unwrap_or_default();
            let root_name = space.reserve(opts, &names::type_name(&kind, "Resource"));
            named.push((root_name, v));
        }
        let mut root_defs = Vec::new();
        for (root_name, v) in &named {
            let path = format!(
                "{}: spec.versions[{}].schema.openAPIV3Schema",
                f.name, v.index
            );
            // A version without a schema (v1beta1 allowed it; the API
            // server kept every field) keeps every field: in v1 that is
            // the schema `{type: object, x-kubernetes-preserve-unknown-fields: true}`.
            let schema = f.schema(v.doc, v.version, v.index).unwrap_or_else(|| {
                warnings.push(format!(
                    "{path}: the version has no schema: the generated type keeps every field, and crds() gives it the schema {{type: object, x-kubernetes-preserve-unknown-fields: true}}"
                ));
                std::borrow::Cow::Owned(serde_json::json!({
                    "type": "object",
                    "x-kubernetes-preserve-unknown-fields": true,
                }))
            });
            root_defs.push(
                root_def(opts, &mut space, v, root_name, &schema, &path, warnings)
                    .map_err(|e| e.in_document(&f.name, v.doc))?,
            );
            let module = format_ident!("{}", m.trim_start_matches("r#"));
            let root = format_ident!("{}", root_name);
            crd_exprs.push(((v.doc, v.index), crd_key(v.crd), quote!(#module::#root)));
            found_roots.push((
                (v.doc, v.index),
                RootType {
                    path: format!("{}::{root_name}", m),
                    crd: crd_key(v.crd),
                    version: v.version.name.clone().unwrap_or_default(),
                },
            ));
        }
        // Emitted once every root is mapped: whether a field's type carries
        // the field's description depends on every use of the type.
        let root_items: TokenStream = root_defs
            .iter()
            .map(|r| root_tokens(opts, &space, r))
            .collect();
        let module: TokenStream = m.parse().unwrap_or_default();
        let header = quote! {
            #[allow(#lints)]
            pub mod #module
        };
        items.push(
            format_module(opts, &space, root_items, Some(header))
                .map_err(|e| internal(&f.name, &e))?,
        );
    }
    found_roots.sort_by_key(|r| r.0);
    roots.extend(found_roots.into_iter().map(|r| r.1));
    let crds = if crd_exprs.is_empty() {
        TokenStream::new()
    } else {
        crds_fn(&mut crd_exprs, opts.kube_version)
    };
    let mut src = header(&f.name);
    src.push('\n');
    for item in items {
        src.push_str(&item);
    }
    if !crds.is_empty() {
        src.push_str(&emit::format_file(crds).map_err(|e| internal(&f.name, &e))?);
    }
    Ok(src)
}

fn internal(name: &str, e: &str) -> GenError {
    GenError::at(
        name,
        format!("internal: generated code does not parse: {e}"),
    )
}

/// The text of one module: `header` (`#[allow(...)] pub mod v1`; none:
/// the items at the top level) around `roots` and the named types of
/// `space`. Big modules are formatted in chunks on scoped threads (tokens
/// are not `Send`, so each thread builds its own from the shared space);
/// each chunk is formatted inside a placeholder module, for the
/// indentation and line width of the real one, then unwrapped.
fn format_module(
    opts: &Options,
    space: &TypeSpace,
    roots: TokenStream,
    header: Option<TokenStream>,
) -> Result<String, String> {
    let nested = header.is_some();
    let chunk_text = |body: TokenStream| -> Result<String, String> {
        if !nested {
            return emit::format_file(body);
        }
        let text = emit::format_file(emit::braced(quote!(mod __chunk), body))?;
        Ok(text
            .strip_prefix("mod __chunk {\n")
            .and_then(|t| t.strip_suffix("}\n"))
            .unwrap_or_default()
            .to_string())
    };
    let types = &space.types;
    let threads = if types.len() < 8 {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 4))
    };
    let chunks = balanced_chunks(types, threads);
    let texts: Vec<Result<String, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .skip(1)
            .map(|chunk| {
                scope.spawn(move || {
                    chunk_text(
                        chunk
                            .iter()
                            .map(|t| emit::type_tokens(opts, space, t))
                            .collect(),
                    )
                })
            })
            .collect();
        let first = chunks.first().copied().unwrap_or_default();
        let mut body = roots;
        body.extend(first.iter().map(|t| emit::type_tokens(opts, space, t)));
        body.extend(emit::raw_fns(space));
        let mut texts = vec![chunk_text(body)];
        for h in handles {
            texts.push(
                h.join()
                    .unwrap_or_else(|_| Err("a formatting thread panicked".into())),
            );
        }
        texts
    });
    let mut body = String::new();
    for t in texts {
        body.push_str(&t?);
    }
    let Some(header) = header else {
        return Ok(body);
    };
    let shell = emit::format_file(quote!(#header {}))?;
    let open = shell.strip_suffix("{}\n").unwrap_or(&shell);
    Ok(format!("{open}{{\n{body}}}\n"))
}

/// `types` cut into `n` runs of about the same amount of code (a field or
/// variant counts one, and the type itself one more).
fn balanced_chunks(types: &[space::TypeDef], n: usize) -> Vec<&[space::TypeDef]> {
    let weight = |t: &space::TypeDef| {
        1 + match &t.body {
            space::Body::Struct(s) => s.fields.len(),
            space::Body::Enum(e) => e.variants.len(),
        }
    };
    let total: usize = types.iter().map(weight).sum();
    let per = total.div_ceil(n.max(1)).max(1);
    let mut chunks = Vec::with_capacity(n);
    let (mut start, mut acc) = (0, 0);
    for (i, t) in types.iter().enumerate() {
        acc += weight(t);
        if acc >= per && chunks.len() + 1 < n {
            chunks.push(&types[start..=i]);
            start = i + 1;
            acc = 0;
        }
    }
    if start < types.len() || chunks.is_empty() {
        chunks.push(&types[start..]);
    }
    chunks
}

fn crd_key(crd: &CustomResourceDefinition) -> String {
    crd.name().unwrap_or_default().to_string()
}

/// `pub fn crds()`: every CRD of the file, its versions merged, in input
/// order.
fn crds_fn(
    exprs: &mut [((usize, usize), String, TokenStream)],
    kube: Option<KubeVersion>,
) -> TokenStream {
    exprs.sort_by_key(|e| e.0);
    let mut order: Vec<&String> = Vec::new();
    for (_, k, _) in exprs.iter() {
        if !order.contains(&k) {
            order.push(k);
        }
    }
    let per_crd = order.iter().map(|k| {
        let versions = exprs.iter().filter(|(_, kk, _)| kk == *k).map(|(_, _, root)| {
            match kube {
                None => quote!(<#root as ::schema_core::rust::CustomResource>::crd().map_err(::schema_core::rust::MergeError::Invalid)?),
                Some(_) => quote!(<#root as ::schema_core::rust::CustomResource>::crd_with(&options).map_err(::schema_core::rust::MergeError::Invalid)?),
            }
        });
        match kube {
            None => quote! {
                ::schema_core::rust::merge_crds(&[#(#versions),*])?
            },
            Some(_) => quote! {
                ::schema_core::rust::merge_crds_with(&[#(#versions),*], &options)?
            },
        }
    });
    let release = kube.map(|k| {
        let minor = proc_macro2::Literal::u32_unsuffixed(k.minor());
        quote! {
            // The release the CRDs are validated for.
            let kube = match ::schema_core::KubeVersion::new(#minor) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => ::schema_core::KubeVersion::NEWEST,
            };
            let options = ::schema_core::Options::new().with_kube_version(kube);
        }
    });
    quote! {
        /// The CRDs of this file rebuilt from the types: every version of
        /// every CRD, in input order.
        ///
        /// # Errors
        ///
        /// The first CRD that cannot be built or merged.
        pub fn crds() -> ::core::result::Result<
            ::std::vec::Vec<::schema_core::wire::CustomResourceDefinition>,
            ::schema_core::rust::MergeError,
        > {
            #release
            ::core::result::Result::Ok(::std::vec![#(#per_crd),*])
        }
    }
}

fn collect_versions<'a>(
    opts: &Options,
    crd: &'a CustomResourceDefinition,
    doc: usize,
    modules: &mut BTreeMap<String, Vec<VersionInput<'a>>>,
    order: &mut Vec<String>,
) -> Result<(), GenError> {
    let Some(spec) = &crd.spec else {
        return Ok(());
    };
    for (i, v) in spec.versions.iter().flatten().enumerate() {
        let name = v.name.clone().unwrap_or_default();
        // Every version by default, served or not: `crds()` gives back
        // the CRD.
        let wanted = opts.versions.is_empty() || opts.versions.contains(&name);
        if !wanted {
            continue;
        }
        let module = names::field_name(&name);
        if !modules.contains_key(&module) {
            order.push(module.clone());
        }
        modules.entry(module).or_default().push(VersionInput {
            crd,
            version: v,
            doc,
            index: i,
        });
    }
    Ok(())
}

/// The root type of one version, mapped (see [`root_def`]).
struct RootDef {
    name: String,
    def: space::StructDef,
    /// The container attributes, `crd(...)` first.
    cattrs: Vec<Attr>,
    description: Option<String>,
}

/// The root type of one version: a struct of the root schema's own
/// properties with `crd(object_root, ...)`, so that the derive gives back
/// the root schema exactly, whatever its shape. `apiVersion`, `kind` and
/// `metadata` are fields even when the schema does not name them (left
/// out of the schema with `skip`): every API object has them, and kube
/// reads them. `apiVersion` and `kind` are `String`s (empty when absent,
/// and then not written) unless the schema requires them, makes them
/// nullable or gives them another type. `metadata` is schema-core's
/// `ObjectMeta`.
fn root_def(
    opts: &Options,
    space: &mut TypeSpace,
    v: &VersionInput<'_>,
    root_name: &str,
    schema: &Value,
    path: &str,
    warnings: &mut Vec<String>,
) -> Result<RootDef, GenError> {
    let n = schema
        .as_object()
        .ok_or_else(|| GenError::at(path, "the schema must be an object"))?;
    let keeps_unknown = n.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
    if n.get("type").and_then(Value::as_str) != Some("object")
        || !(n.contains_key("properties") || keeps_unknown)
    {
        return Err(GenError::at(
            path,
            "the root schema must be an object with properties (or one that keeps unknown fields) to become a Rust type",
        ));
    }
    let mut def = space.struct_def(opts, n, path, root_name, 0)?;
    let props = n
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    // `metadata`: schema-core's `ObjectMeta`, whose own schema is
    // `{type: object}`; kept out of the schema when the schema has none.
    match props.get("metadata") {
        Some(m) => {
            let plain = m.as_object().is_some_and(|m| {
                m.get("type").and_then(Value::as_str) == Some("object")
                    && m.keys().all(|k| k == "type" || k == "description")
            });
            if !plain {
                return Err(GenError::at(
                    format!("{path}.properties[metadata]"),
                    "a root `metadata` other than `{type: object}` (with a description) has no Rust mapping: kube needs `ObjectMeta` there",
                ));
            }
            if let Some(f) = def.fields.iter_mut().find(|f| f.json_name == "metadata") {
                f.mapped.ty = Ty::ObjectMeta;
                f.serde_default = !f.required;
            }
        }
        None => def.fields.insert(
            0,
            space::Field::skipped("metadata", "metadata", Ty::ObjectMeta, true),
        ),
    }
    // `apiVersion` and `kind`: `String`s that `new` sets and an empty
    // value leaves out, as kube users expect, when the schema does not
    // require them (or names them not at all); serde's `default` keeps
    // them optional in the schema.
    for f in &mut def.fields {
        if matches!(f.json_name.as_str(), "apiVersion" | "kind")
            && f.mapped.ty == Ty::String
            && !f.required
            && !f.nullable
        {
            f.serde_default = true;
        }
    }
    for (json, rust) in [("kind", "kind"), ("apiVersion", "api_version")] {
        if !props.contains_key(json) {
            def.fields
                .insert(0, space::Field::skipped(json, rust, Ty::String, true));
        }
    }
    let mut cattrs = vec![crd_attr(v, &props, warnings)];
    cattrs.extend(space.root_attrs(n, path)?);
    if let Some(order) = &def.required_order {
        cattrs.push(Attr {
            key: "required_order",
            value: AttrValue::StrList(order.clone()),
        });
    }
    Ok(RootDef {
        name: root_name.to_string(),
        def,
        cattrs,
        description: n
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// The tokens of a mapped root type.
fn root_tokens(opts: &Options, space: &TypeSpace, r: &RootDef) -> TokenStream {
    let RootDef {
        name,
        def,
        cattrs,
        description,
    } = r;
    let description = description.as_deref();
    let doc = emit::doc_lines(opts, description);
    let mut cattrs = cattrs.clone();
    cattrs.extend(emit::description_attr(opts, description));
    let name = format_ident!("{}", name);
    let fields = def
        .fields
        .iter()
        .map(|f| emit::field_tokens(opts, space, f));
    let schema = emit::schema_attr(&cattrs);
    let derives = emit::derives(opts);
    let new = root_new(space, def, &name);
    let extra = if def.preserve_unknown {
        quote! {
            /// The fields the schema does not name (it keeps unknown fields).
            #[serde(flatten)]
            pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
        }
    } else {
        TokenStream::new()
    };
    quote! {
        #doc
        #derives
        #schema
        pub struct #name {
            #(#fields)*
            #extra
        }
        #new
    }
}

/// `Root::new(name, spec)`: `apiVersion` and `kind` set, the name in the
/// metadata, everything else empty; only when every other field can be
/// empty.
fn root_new(space: &TypeSpace, def: &space::StructDef, name: &syn::Ident) -> TokenStream {
    let mut params = Vec::new();
    let mut inits = Vec::new();
    for f in &def.fields {
        let field: TokenStream = f.rust_name.parse().unwrap_or_default();
        let optional = f.is_option();
        let init = match f.json_name.as_str() {
            "apiVersion" | "kind" => {
                let c = if f.json_name == "kind" {
                    quote!(KIND)
                } else {
                    quote!(API_VERSION)
                };
                let v = quote!(::std::string::ToString::to_string(<Self as ::schema_core::rust::CustomResource>::#c));
                if optional {
                    quote!(::core::option::Option::Some(#v))
                } else {
                    v
                }
            }
            "metadata" => quote!(::schema_core::rust::ObjectMeta {
                name: ::core::option::Option::Some(::std::string::ToString::to_string(name)),
                ..::core::default::Default::default()
            }),
            "spec" => {
                let ty = emit::ty_tokens(space, &f.mapped.ty);
                params.push(quote!(spec: #ty));
                if optional {
                    quote!(::core::option::Option::Some(spec))
                } else {
                    quote!(spec)
                }
            }
            _ if optional => quote!(::core::option::Option::None),
            _ if f.serde_default => quote!(::core::default::Default::default()),
            // A required field besides the spec: no constructor.
            _ => return TokenStream::new(),
        };
        if init.to_string() == f.rust_name {
            inits.push(quote!(#field,));
        } else {
            inits.push(quote!(#field: #init,));
        }
    }
    if def.preserve_unknown {
        inits.push(quote!(extra: ::serde_json::Map::new(),));
    }
    let spec_doc = if params.is_empty() {
        ""
    } else {
        " with `spec`"
    };
    let doc = format!(
        " A `{name}` named `name`{spec_doc}: `apiVersion` and `kind` set, everything else empty."
    );
    quote! {
        impl #name {
            #[doc = #doc]
            pub fn new(name: &str #(, #params)*) -> Self {
                Self {
                    #(#inits)*
                }
            }
        }
    }
}

/// Whether a `spec.conversion` (as JSON) is a webhook whose client
/// config names neither a URL nor a service's name and namespace.
fn webhook_without_target(conversion: &Value) -> bool {
    let Some(config) = conversion.pointer("/webhook/clientConfig") else {
        return false;
    };
    let has = |p: &str| {
        config
            .pointer(p)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
    };
    config.get("url").is_none() && !(has("/service/name") && has("/service/namespace"))
}

fn str_attr(key: &'static str, v: &str) -> Attr {
    Attr {
        key,
        value: AttrValue::Str(v.to_string()),
    }
}

fn json_attr(key: &'static str, v: impl Into<Value>) -> Attr {
    Attr {
        key,
        value: AttrValue::Json(v.into()),
    }
}

fn flag(key: &'static str) -> Attr {
    Attr {
        key,
        value: AttrValue::Flag,
    }
}

/// `crd(...)` of a version: everything of the CRD `crds()` gives back,
/// the CRD-wide settings (labels, annotations, conversion,
/// `preserveUnknownFields: false`) on every version alike. What the
/// attributes cannot say (`preserveUnknownFields: true`) is a warning.
fn crd_attr(
    v: &VersionInput<'_>,
    props: &serde_json::Map<String, Value>,
    warnings: &mut Vec<String>,
) -> Attr {
    let spec = v.crd.spec.clone().unwrap_or_default();
    let names = spec.names.clone().unwrap_or_default();
    let mut inner = vec![
        str_attr("group", spec.group.as_deref().unwrap_or_default()),
        str_attr("version", v.version.name.as_deref().unwrap_or_default()),
        str_attr("kind", names.kind.as_deref().unwrap_or_default()),
    ];
    if let Some(p) = &names.plural {
        inner.push(str_attr("plural", p));
    }
    if let Some(p) = &names.singular {
        inner.push(str_attr("singular", p));
    }
    if let Some(p) = &names.list_kind {
        inner.push(str_attr("list_kind", p));
    }
    if names.singular.is_none() || names.list_kind.is_none() {
        inner.push(flag("explicit_names"));
    }
    if let Some(l) = &names.short_names {
        inner.push(Attr {
            key: "short_names",
            value: AttrValue::StrList(l.clone()),
        });
    }
    if let Some(l) = &names.categories {
        inner.push(Attr {
            key: "categories",
            value: AttrValue::StrList(l.clone()),
        });
    }
    if spec.scope.as_deref() == Some("Namespaced") {
        inner.push(flag("namespaced"));
    }
    inner.push(flag("object_root"));
    let meta = v.crd.metadata.as_ref();
    for (json, key) in [("annotations", "annotations"), ("labels", "labels")] {
        if let Some(a) = meta.and_then(|m| m.get(json))
            && a.as_object()
                .is_some_and(|a| a.values().all(Value::is_string))
        {
            inner.push(json_attr(key, a.clone()));
        }
    }
    let crd = crd_key(v.crd);
    if let Some(c) = &spec.conversion {
        let c = schema_core::model::wire::codec::Wire::encode(c);
        if webhook_without_target(&c) {
            // Charts and installers fill the service in at install time;
            // as written the API server rejects the CRD, and so would
            // `crds()`.
            if v.index == 0 {
                warnings.push(format!(
                    "{crd}: spec.conversion is not reproduced by the generated types: its webhook clientConfig has no url and no service name and namespace, which the API server requires (they are filled in at install time)"
                ));
            }
        } else {
            inner.push(json_attr("conversion", c));
        }
    }
    if spec.preserve_unknown_fields == Some(false) {
        inner.push(json_attr("preserve_unknown_fields", false));
    }
    let version = v.version;
    let sub = version.subresources.clone().unwrap_or_default();
    let has_status = sub.status.is_some();
    if has_status != props.contains_key("status") {
        inner.push(json_attr("status_subresource", has_status));
    }
    if version.subresources.is_some() && !has_status && sub.scale.is_none() {
        inner.push(flag("empty_subresources"));
    }
    if let Some(scale) = &sub.scale {
        let mut s = vec![
            str_attr(
                "spec_replicas_path",
                scale.spec_replicas_path.as_deref().unwrap_or_default(),
            ),
            str_attr(
                "status_replicas_path",
                scale.status_replicas_path.as_deref().unwrap_or_default(),
            ),
        ];
        if let Some(l) = &scale.label_selector_path {
            s.push(str_attr("label_selector_path", l));
        }
        inner.push(Attr {
            key: "scale",
            value: AttrValue::Nested(s),
        });
    }
    for c in version.additional_printer_columns.iter().flatten() {
        let mut col = vec![
            str_attr("name", c.name.as_deref().unwrap_or_default()),
            str_attr("type", c.type_.as_deref().unwrap_or_default()),
            str_attr("json_path", c.json_path.as_deref().unwrap_or_default()),
        ];
        if let Some(d) = &c.description {
            col.push(str_attr("description", d));
        }
        if let Some(f) = &c.format {
            col.push(str_attr("format", f));
        }
        if let Some(p) = c.priority {
            col.push(json_attr("priority", p));
        }
        inner.push(Attr {
            key: "printer_column",
            value: AttrValue::Nested(col),
        });
    }
    for f in version.selectable_fields.iter().flatten() {
        inner.push(str_attr(
            "selectable_field",
            f.json_path.as_deref().unwrap_or_default(),
        ));
    }
    if version.served != Some(true) {
        inner.push(json_attr("served", false));
    }
    if version.storage != Some(true) {
        inner.push(json_attr("storage", false));
    }
    if let Some(w) = &version.deprecation_warning {
        inner.push(str_attr("deprecation_warning", w));
    } else if version.deprecated == Some(true) {
        inner.push(flag("deprecated"));
    }
    // A v1 CRD cannot keep unknown fields at its root (the API server
    // requires `false`); a v1beta1 one can, and its types cannot say so.
    if v.index == 0 && spec.preserve_unknown_fields == Some(true) {
        warnings.push(format!(
            "{crd}: spec.preserveUnknownFields: true is not reproduced by the generated types (a v1 CRD cannot set it)"
        ));
    }
    Attr {
        key: "crd",
        value: AttrValue::Nested(inner),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("schema-gen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn compile_fails_on_a_breaking_change_against_the_baseline() {
        let dir = temp_dir("upgrade");
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let baseline = examples.join("widget-crd.yaml");
        let text = std::fs::read_to_string(&baseline).unwrap();
        // The same CRD: compiles, nothing logged but the inputs.
        let mut config = Config::new();
        config.out_dir(&dir).upgrade_from([&baseline]);
        let mut log = Vec::new();
        config.compile_logging(&[&baseline], &mut log).unwrap();
        assert!(!String::from_utf8(log).unwrap().contains("cargo:warning"));
        // A narrowed enum is a warning: logged, the build goes on.
        let tightened = dir.join("tightened.yaml");
        let narrowed = text.replace("enum: [small, medium, large]", "enum: [small, medium]");
        assert_ne!(narrowed, text);
        std::fs::write(&tightened, narrowed).unwrap();
        let mut log = Vec::new();
        config.compile_logging(&[&tightened], &mut log).unwrap();
        let log = String::from_utf8(log).unwrap();
        assert!(
            log.contains(
                "cargo:warning=warning[enum-values-removed] widgets.example.com/v1 spec.size:"
            ),
            "{log}"
        );
        // ... and an error with `upgrade_fail_on(Warning)`.
        let mut strict = config.clone();
        strict.upgrade_fail_on(Severity::Warning);
        assert!(
            strict
                .compile_logging(&[&tightened], &mut Vec::new())
                .is_err()
        );
        // A removed field fails the build, naming the change.
        let removed = dir.join("removed.yaml");
        let without_tags = text.replace(
            "              tags:\n                type: array\n                x-kubernetes-list-type: set\n                items:\n                  type: string\n",
            "",
        );
        assert_ne!(without_tags, text);
        std::fs::write(&removed, without_tags).unwrap();
        let err = config
            .compile_logging(&[&removed], &mut Vec::new())
            .unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("not a safe upgrade of"), "{msg}");
        assert!(
            msg.contains("error[field-removed] widgets.example.com/v1 spec.tags:"),
            "{msg}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn compile_writes_once_and_names_every_input() {
        let dir = temp_dir("compile");
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let input = examples.join("widget-crd.yaml");
        let mut config = Config::new();
        config.out_dir(&dir);
        let mut log = Vec::new();
        let generated = config.compile_logging(&[&input], &mut log).unwrap();
        let log = String::from_utf8(log).unwrap();
        assert_eq!(log, format!("cargo:rerun-if-changed={}\n", input.display()));
        let out = dir.join("widget_crd.rs");
        let source = std::fs::read_to_string(&out).unwrap();
        assert_eq!(Some(&source), generated.files.get("widget_crd"));
        assert!(source.starts_with("// @generated by schema-gen from widget-crd."));
        // Unchanged output is not rewritten (its modification time stays).
        let before = std::fs::metadata(&out).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        config.compile_logging(&[&input], &mut Vec::new()).unwrap();
        let after = std::fs::metadata(&out).unwrap().modified().unwrap();
        assert_eq!(before, after);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn errors_name_the_line_and_print_the_same_as_debug() {
        let dir = temp_dir("located");
        let input = dir.join("two.yaml");
        let crd = |kind: &str, plural: &str, spec: &str| {
            format!(
                "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {plural}.example.com
spec:
  group: example.com
  names: {{kind: {kind}, plural: {plural}}}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
{spec}"
            )
        };
        let good = crd("A", "as", "              type: object\n");
        let bad = crd(
            "B",
            "bs",
            "              type: object
              required: [missing]
              properties:
                x: {type: string}
",
        );
        std::fs::write(&input, format!("{good}---\n{bad}")).unwrap();
        let mut config = Config::new();
        config.out_dir(&dir);
        let err = config
            .compile_logging(&[&input], &mut Vec::new())
            .unwrap_err();
        // The second document starts on line 20: its `spec` (line 17 of
        // it) is line 36.
        let want = format!(
            "{}:36:13: spec.versions[0].schema.openAPIV3Schema.properties[spec]: `required` names `missing`, which is not a property; a Rust type cannot express that",
            input.display()
        );
        assert_eq!(err.to_string(), want);
        assert_eq!(format!("{err:?}"), want);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn nodes_the_derive_refuses_are_written_as_json_once() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/rustgen/array-enum.yaml");
        let input = InputFile::parse("array-enum.yaml", &std::fs::read(path).unwrap()).unwrap();
        let generated = Config::new().generate(&[input]).unwrap();
        let source = &generated.files["array_enum"];
        // The arrays' nodes are written as JSON; the items of `sizes`
        // (`format: int64` on a string) are inside its JSON, and have no
        // function of their own, which nothing would call.
        let fns: Vec<&str> = source
            .lines()
            .filter_map(|l| l.trim().strip_prefix("fn "))
            .map(|l| l.split('(').next().unwrap_or_default())
            .collect();
        assert_eq!(fns, ["decode_schema", "modes_schema", "sizes_schema"]);
        assert!(source.contains("#[schema(with = modes_schema)]"));
        assert!(source.contains(r#""format": "int64""#));
    }

    /// The names of the structs and enums of `yaml`'s generated source.
    fn type_names(config: &Config, yaml: &str) -> Vec<String> {
        let input = InputFile::parse("names.yaml", yaml.as_bytes()).unwrap();
        let generated = config.generate(&[input]).unwrap();
        generated.files["names"]
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                l.strip_prefix("pub struct ")
                    .or_else(|| l.strip_prefix("pub enum "))
            })
            .map(|l| l.trim_end_matches(" {").to_string())
            .collect()
    }

    const NAMES_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: certificates.example.com}
spec:
  group: example.com
  names: {kind: Certificate, plural: certificates}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                issuerRef:
                  type: object
                  properties: {name: {type: string}}
                keystores:
                  type: object
                  properties:
                    jks:
                      type: object
                      properties:
                        passwordSecretRef:
                          type: object
                          properties: {key: {type: string}}
                usages:
                  type: array
                  items: {type: string, enum: [signing, server auth]}
                secretRef:
                  type: object
                  properties: {key: {type: string}}
            status:
              type: object
              properties:
                conditions:
                  type: array
                  items:
                    type: object
                    properties: {type: {type: string}}
";

    #[test]
    fn nested_types_are_named_by_their_path() {
        let names = type_names(&Config::new(), NAMES_CRD);
        assert_eq!(
            names,
            [
                "Certificate",
                "CertificateSpec",
                "CertificateSpecIssuerRef",
                "CertificateSpecKeystores",
                "CertificateSpecKeystoresJks",
                // The shape of `secretRef` too: one type, named after its
                // first path.
                "CertificateSpecKeystoresJksPasswordSecretRef",
                "CertificateSpecUsage",
                "CertificateStatus",
                "CertificateStatusCondition",
            ]
        );
    }

    #[test]
    fn short_names_name_nested_types_by_their_property() {
        let mut config = Config::new();
        config.short_names(true);
        let names = type_names(&config, NAMES_CRD);
        assert_eq!(
            names,
            [
                "Certificate",
                "CertificateSpec",
                "IssuerRef",
                "Keystores",
                "Jks",
                "PasswordSecretRef",
                "Usage",
                "CertificateStatus",
                "Condition",
            ]
        );
    }

    #[test]
    fn compile_without_out_dir_or_input_is_an_error() {
        let mut config = Config::new();
        config.out_dir(temp_dir("missing"));
        let err = config
            .compile_logging(&["/nonexistent/crd.yaml"], &mut Vec::new())
            .unwrap_err();
        assert!(err.path.contains("/nonexistent/crd.yaml"), "{err}");
        assert!(err.message.starts_with("cannot read"), "{err}");
    }
}
