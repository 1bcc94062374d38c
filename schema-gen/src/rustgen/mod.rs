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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schema_core::check::{Input, read_input};
use schema_core::source::{self, Limits};
use schema_core::wire::{CrdVersion, CustomResourceDefinition};
use serde_json::Value;

use space::{Attr, AttrValue, TypeSpace};

/// An error of generation, with the place in the schema it concerns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct GenError {
    /// Where: the input name, then the field path in the document.
    pub path: String,
    /// What.
    pub message: String,
}

impl GenError {
    /// An error at `path`.
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        GenError {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// The options of the generator (what [`Config`] sets).
#[derive(Clone, Debug)]
pub struct Options {
    /// The versions to emit; empty: every served version.
    pub versions: Vec<String>,
    /// Extra derives on every type (`Clone`, `PartialEq`, ...).
    pub derives: Vec<String>,
    /// Type-name overrides: generated name → name.
    pub type_names: BTreeMap<String, String>,
    /// Descriptions as doc comments (else as `description` attributes).
    pub docs: bool,
    /// Use k8s-openapi's `ObjectMeta`, `IntOrString`, `Quantity` and `Time`.
    pub k8s_openapi: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            versions: Vec::new(),
            derives: Vec::new(),
            type_names: BTreeMap::new(),
            docs: true,
            k8s_openapi: true,
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
}

impl InputFile {
    /// Parses YAML or JSON (several documents allowed) into inputs.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<Self, GenError> {
        let docs = source::parse_documents(name, bytes, &Limits::default())
            .map_err(|e| GenError::at(name, e.to_string()))?;
        if docs.is_empty() {
            return Err(GenError::at(name, "no YAML or JSON document found"));
        }
        let mut documents = Vec::new();
        for d in &docs {
            let (input, _) = read_input(&d.value).map_err(|e| {
                GenError::at(
                    format!("{name}:{}:{}", d.start.line, d.start.column),
                    e.to_string(),
                )
            })?;
            documents.push(input);
        }
        Ok(InputFile {
            name: name.to_string(),
            documents,
        })
    }
}

/// What [`Config::generate`] gives: one Rust source per input file, keyed
/// by module name (the file stem in snake_case).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generated {
    /// Module name → source.
    pub files: BTreeMap<String, String>,
}

/// The generator's configuration, prost-build style.
#[derive(Clone, Debug, Default)]
pub struct Config {
    opts: Options,
    out_dir: Option<PathBuf>,
}

impl Config {
    /// The defaults: every served version, doc comments, k8s-openapi types.
    pub fn new() -> Self {
        Self::default()
    }

    /// Emits only this version (repeatable).
    pub fn version(&mut self, v: impl Into<String>) -> &mut Self {
        self.opts.versions.push(v.into());
        self
    }

    /// Adds a derive to every type (`"Clone"`, `"PartialEq"`, ...).
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

    /// Uses k8s-openapi's types (default) or only serde_json's.
    pub fn k8s_openapi(&mut self, on: bool) -> &mut Self {
        self.opts.k8s_openapi = on;
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
    pub fn generate(&self, inputs: &[InputFile]) -> Result<Generated, GenError> {
        let mut out = Generated::default();
        let mut scope = names::Scope::default();
        for f in inputs {
            let module = scope.claim(&names::field_name(&module_stem(&f.name)));
            out.files.insert(module, generate_file(&self.opts, f)?);
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
        let generated = self.generate(&inputs)?;
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
    index: usize,
}

/// Generates the source of one input file: one module per version.
pub fn generate_file(opts: &Options, f: &InputFile) -> Result<String, GenError> {
    let mut modules: BTreeMap<String, Vec<VersionInput<'_>>> = BTreeMap::new();
    let mut module_order: Vec<String> = Vec::new();
    let mut bare: Option<&schema_core::wire::JsonSchemaProps> = None;
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
            Input::CrdV1(crd) => collect_versions(opts, crd, &mut modules, &mut module_order)?,
            Input::CrdV1Beta1 { v1, .. } => {
                collect_versions(opts, v1, &mut modules, &mut module_order)?
            }
        }
    }
    let mut items = Vec::new();
    if let Some(s) = bare {
        let mut space = TypeSpace::default();
        let root = s.to_value();
        let root = space.map(opts, &root, &f.name, "Schema", "", 0)?;
        if !matches!(root.ty, space::Ty::Named(_)) {
            return Err(GenError::at(
                &f.name,
                "a bare schema must be an object with properties to become a Rust type",
            ));
        }
        items.push(module_tokens(opts, &space, TokenStream::new()));
    }
    let mut crd_exprs = Vec::new();
    for m in &module_order {
        let versions = &modules[m];
        let mut space = TypeSpace::default();
        let mut roots = Vec::new();
        for v in versions {
            let kind = v
                .crd
                .spec
                .as_ref()
                .and_then(|s| s.names.as_ref())
                .and_then(|n| n.kind.clone())
                .unwrap_or_default();
            let root_name = space.reserve(opts, &names::type_name(&kind, "Resource"));
            roots.push((root_name, v));
        }
        let mut root_items = Vec::new();
        for (root_name, v) in &roots {
            let path = format!(
                "{}: spec.versions[{}].schema.openAPIV3Schema",
                f.name, v.index
            );
            let schema = v
                .version
                .schema
                .as_ref()
                .and_then(|s| s.open_api_v3_schema.as_ref())
                .ok_or_else(|| GenError::at(&path, "the version has no schema"))?
                .to_value();
            root_items.push(root_tokens(opts, &mut space, v, root_name, &schema, &path)?);
            let module = format_ident!("{}", m.trim_start_matches("r#"));
            let root = format_ident!("{}", root_name);
            crd_exprs.push((crd_key(v.crd), quote!(#module::#root::crd())));
        }
        let body = module_tokens(opts, &space, quote!(#(#root_items)*));
        let module: TokenStream = m.parse().unwrap_or_default();
        items.push(quote! {
            pub mod #module {
                #body
            }
        });
    }
    let crds = crds_fn(&crd_exprs);
    let file = quote! {
        #(#items)*
        #crds
    };
    let mut src = header(&f.name);
    src.push('\n');
    src.push_str(&emit::format_file(file).map_err(|e| {
        GenError::at(
            &f.name,
            format!("internal: generated code does not parse: {e}"),
        )
    })?);
    Ok(src)
}

fn crd_key(crd: &CustomResourceDefinition) -> String {
    crd.name().unwrap_or_default().to_string()
}

/// `pub fn crds()`: every CRD of the file, its versions merged, in input
/// order.
fn crds_fn(exprs: &[(String, TokenStream)]) -> TokenStream {
    let mut order: Vec<&String> = Vec::new();
    for (k, _) in exprs {
        if !order.contains(&k) {
            order.push(k);
        }
    }
    let per_crd = order.iter().map(|k| {
        let versions = exprs.iter().filter(|(kk, _)| kk == *k).map(|(_, e)| e);
        quote! {
            ::schema_core::rust::merge_crds(&[#(#versions),*])
        }
    });
    quote! {
        /// The CRDs of this file rebuilt from the types: every version of
        /// every CRD, in input order.
        pub fn crds() -> ::std::vec::Vec<::schema_core::rust::CrdResult> {
            ::std::vec![#(#per_crd),*]
        }
    }
}

fn collect_versions<'a>(
    opts: &Options,
    crd: &'a CustomResourceDefinition,
    modules: &mut BTreeMap<String, Vec<VersionInput<'a>>>,
    order: &mut Vec<String>,
) -> Result<(), GenError> {
    let Some(spec) = &crd.spec else {
        return Ok(());
    };
    for (i, v) in spec.versions.iter().flatten().enumerate() {
        let name = v.name.clone().unwrap_or_default();
        let wanted = if opts.versions.is_empty() {
            v.served.unwrap_or(false)
        } else {
            opts.versions.contains(&name)
        };
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
            index: i,
        });
    }
    Ok(())
}

/// The items of one module: the named types of the space in order.
fn module_tokens(opts: &Options, space: &TypeSpace, roots: TokenStream) -> TokenStream {
    let types = space
        .types
        .iter()
        .map(|t| emit::type_tokens(opts, space, t));
    quote! {
        #roots
        #(#types)*
    }
}

/// The root type of one version: a struct of the root's properties with
/// the CRD attributes.
fn root_tokens(
    opts: &Options,
    space: &mut TypeSpace,
    v: &VersionInput<'_>,
    root_name: &str,
    schema: &Value,
    path: &str,
) -> Result<TokenStream, GenError> {
    let n = schema
        .as_object()
        .ok_or_else(|| GenError::at(path, "the schema must be an object"))?;
    let def = space.struct_def(opts, n, path, root_name, 0)?;
    let crd_attr = crd_attr(v);
    let description = n.get("description").and_then(Value::as_str);
    let doc = emit::doc_safe(description.unwrap_or_default()) && opts.docs;
    let mut cattrs = vec![crd_attr];
    if let (Some(d), false) = (description, doc) {
        cattrs.push(Attr {
            key: "description",
            value: AttrValue::Str(d.to_string()),
        });
    }
    let docs = if doc {
        let lines = description.unwrap_or_default().split('\n').map(|l| {
            let l = if l.is_empty() {
                String::new()
            } else {
                format!(" {l}")
            };
            quote!(#[doc = #l])
        });
        quote!(#(#lines)*)
    } else {
        TokenStream::new()
    };
    let name = format_ident!("{}", root_name);
    let fields = def
        .fields
        .iter()
        .map(|f| emit::field_tokens(opts, space, f));
    let inner = cattrs.iter().map(emit_attr);
    let extra_derives = opts
        .derives
        .iter()
        .filter_map(|d| d.parse::<TokenStream>().ok());
    Ok(quote! {
        #docs
        #[derive(::serde::Serialize, ::serde::Deserialize, ::schema_core::StructuralSchema #(, #extra_derives)*)]
        #[schema(#(#inner),*)]
        pub struct #name {
            #(#fields)*
        }
    })
}

fn emit_attr(a: &Attr) -> TokenStream {
    // Reuse the nested form: `key(...)` or `key = ...`.
    let key = format_ident!("{}", a.key);
    match &a.value {
        AttrValue::Str(s) => quote!(#key = #s),
        AttrValue::Nested(inner) => {
            let inner = inner.iter().map(emit_attr);
            quote!(#key(#(#inner),*))
        }
        AttrValue::Flag => quote!(#key),
        AttrValue::Json(j) => {
            let j = emit::json_tokens(j);
            quote!(#key = #j)
        }
        AttrValue::StrList(l) => quote!(#key = [#(#l),*]),
        AttrValue::Rule(_) => TokenStream::new(),
    }
}

/// `crd(...)` of a version.
fn crd_attr(v: &VersionInput<'_>) -> Attr {
    let spec = v.crd.spec.clone().unwrap_or_default();
    let names = spec.names.clone().unwrap_or_default();
    let mut inner = Vec::new();
    let s = |k: &'static str, v: &str| Attr {
        key: k,
        value: AttrValue::Str(v.to_string()),
    };
    inner.push(s("group", spec.group.as_deref().unwrap_or_default()));
    inner.push(s("version", v.version.name.as_deref().unwrap_or_default()));
    inner.push(s("kind", names.kind.as_deref().unwrap_or_default()));
    if let Some(p) = &names.plural {
        inner.push(s("plural", p));
    }
    if let Some(p) = &names.singular {
        inner.push(s("singular", p));
    }
    if let Some(p) = &names.list_kind {
        inner.push(s("list_kind", p));
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
        inner.push(Attr {
            key: "namespaced",
            value: AttrValue::Flag,
        });
    }
    Attr {
        key: "crd",
        value: AttrValue::Nested(inner),
    }
}
