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

mod config;
mod crds;
pub mod emit;
mod file;
pub mod names;
mod root;
pub mod space;

use std::collections::{BTreeMap, HashMap};

use schema_core::KubeVersion;
use schema_core::model::locate::locate_field;
use schema_core::model::source::{self, Limits};
use schema_core::model::wire::CrdVersion;
use schema_core::model::wire::input::{Input, read_input_owned};
use serde_json::Value;

pub use config::{Config, compile_crds, write_if_changed};
pub use file::{generate_file, header};

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

#[cfg(test)]
mod tests;
