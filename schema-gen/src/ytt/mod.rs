//! Carvel ytt data-values schemas as a front end: a YAML document annotated
//! `#@data/values-schema`, whose types, defaults, documentation and
//! validations come from the values and from `#@schema/...` annotations in
//! comments.
//!
//! [`parse`] reads a schema (bytes and a file name, no IO) the way ytt
//! builds it and reports every authoring error ytt reports, with ytt's
//! headline and its framed source excerpt ([`YttError::Schema`]). A parsed
//! [`YttSchema`] gives:
//!
//! - [`YttSchema::openapi_document`] / [`YttSchema::openapi_yaml`]: what
//!   `ytt --data-values-schema-inspect -o openapi-v3` prints, key order and
//!   YAML text included;
//! - [`YttSchema::default_values`]: the default data values;
//! - [`YttSchema::json_schema_props`] / [`YttSchema::crd`]: the schema in
//!   the project's IR, as a Kubernetes structural schema (maps closed by
//!   pruning rather than `additionalProperties: false`, "any" values as
//!   `x-kubernetes-preserve-unknown-fields`), so checking, publishing,
//!   pruning and defaulting work on it.
//!
//! # Supported
//!
//! One schema document per file (ytt merges several with overlays; that is
//! not done here), the annotations `@schema/type any=`, `nullable`,
//! `default`, `title`, `desc`, `examples`, `deprecated` and `validation`
//! (named rules `min`, `max`, `min_len`, `max_len`, `not_null`,
//! `one_not_null`, `one_of`, `when`, and custom rules, whose lambdas are
//! kept as text). Annotation arguments are evaluated for the Starlark
//! literal subset (see `starlark.rs`). Starlark code (`#@ ...`), other
//! annotations and anchors merged with `<<` are errors naming the line.
//!
//! Nesting is limited to [`MAX_NESTING`] levels of maps and arrays, and the
//! input goes through [`schema_core::model::source`]'s limits first, so no input makes
//! this module panic or recurse without bound.

mod emit;
mod error;
mod openapi;
mod schema;
mod starlark;
mod yaml;

use serde_json::{Value, json};

pub use emit::to_yaml;
pub use error::{Failure, Frame, SchemaError, YttError};
pub use schema::{ArrayItemType, Docs, DocumentType, MapItemType, ScalarKind, Type, Validation};
pub use yaml::MAX_NESTING;

use schema_core::model::field::Path;
use schema_core::model::wire::JsonSchemaProps;
use schema_core::model::wire::codec::{DecodeCx, Wire};

/// A ytt data-values schema.
#[derive(Clone, Debug, PartialEq)]
pub struct YttSchema {
    /// The schema document's type.
    pub document: DocumentType,
}

/// Names and version of the CustomResourceDefinition made by
/// [`YttSchema::crd`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdNames {
    /// API group, e.g. `values.example.com`.
    pub group: String,
    /// Kind, e.g. `DataValues`.
    pub kind: String,
    /// Version, e.g. `v1alpha1`.
    pub version: String,
}

impl Default for CrdNames {
    fn default() -> Self {
        CrdNames {
            group: "values.example.com".to_string(),
            kind: "DataValues".to_string(),
            version: "v1alpha1".to_string(),
        }
    }
}

/// Reads the ytt schema in `bytes`; `name` is the file name errors quote.
///
/// # Errors
///
/// [`YttError::Schema`] for the authoring errors ytt reports (same
/// headline and excerpt), other variants for input that is not YAML, not a
/// schema, or uses what a schema-only reader cannot evaluate.
pub fn parse(name: &str, bytes: &[u8]) -> Result<YttSchema, YttError> {
    let file = yaml::read(name, bytes)?;
    let is_schema = |d: &yaml::SrcDoc| d.anns.iter().any(|a| a.name == "data/values-schema");
    let mut schema_doc = None;
    for doc in &file.docs {
        let line = doc.line.max(1);
        check_annotations(&file, doc)?;
        if is_schema(doc) {
            if schema_doc.is_some() {
                return Err(YttError::Unsupported {
                    file: name.to_string(),
                    line,
                    message: "a second @data/values-schema document: ytt merges several schema documents as overlays, which is not supported; put the schema in one document".to_string(),
                });
            }
            schema_doc = Some(doc);
        } else if !doc.empty {
            return Err(YttError::Unsupported {
                file: name.to_string(),
                line,
                message: "this document is not annotated @data/values-schema; a schema file holds only the schema document".to_string(),
            });
        }
    }
    let Some(doc) = schema_doc else {
        return Err(YttError::Unsupported {
            file: name.to_string(),
            line: 0,
            message: "no document annotated @data/values-schema (annotate the schema's `---` with `#@data/values-schema`)".to_string(),
        });
    };
    let document = schema::Builder::new(&file).document(doc.line.max(1), &doc.value, &doc.anns)?;
    Ok(YttSchema { document })
}

/// Rejects annotations a schema cannot have, with their line.
fn check_annotations(file: &yaml::SrcFile, doc: &yaml::SrcDoc) -> Result<(), YttError> {
    let err = |line: usize, message: String| YttError::Unsupported {
        file: file.name.clone(),
        line,
        message,
    };
    let check = |a: &yaml::Ann, on_doc: bool| -> Result<(), YttError> {
        let n = a.name.as_str();
        if schema::SCHEMA_ANNOTATIONS.contains(&n) {
            return Ok(());
        }
        if n == "data/values-schema" {
            return if on_doc {
                Ok(())
            } else {
                Err(err(
                    a.line,
                    "@data/values-schema annotates a document: put it on the line before `---`"
                        .to_string(),
                ))
            };
        }
        if n.starts_with("schema/") {
            return Err(err(
                a.line,
                format!(
                    "unknown annotation @{n}; the schema annotations are @{}",
                    schema::SCHEMA_ANNOTATIONS.join(", @")
                ),
            ));
        }
        if n == "data/values" {
            return Err(err(
                a.line,
                "@data/values marks a data values document, not a schema; use @data/values-schema"
                    .to_string(),
            ));
        }
        Err(err(
            a.line,
            format!("annotation @{n} is not supported in a schema file"),
        ))
    };
    for a in &doc.anns {
        check(a, true)?;
    }
    let mut stack = vec![&doc.value];
    while let Some(v) = stack.pop() {
        if let yaml::SrcValue::Map(items) | yaml::SrcValue::Array(items) = v {
            for item in items {
                for a in &item.anns {
                    check(a, false)?;
                }
                stack.push(&item.value);
            }
        }
    }
    Ok(())
}

impl YttSchema {
    /// The document `ytt --data-values-schema-inspect -o openapi-v3`
    /// prints, as JSON (keys in ytt's order).
    #[must_use]
    pub fn openapi_document(&self) -> Value {
        openapi::openapi_document(&self.document)
    }

    /// The exact YAML text ytt prints for the OpenAPI export.
    #[must_use]
    pub fn openapi_yaml(&self) -> String {
        to_yaml(&self.openapi_document())
    }

    /// The default data values (what templates see when no data values are
    /// given).
    #[must_use]
    pub fn default_values(&self) -> Value {
        self.document.default.clone()
    }

    /// The schema of the data values as a Kubernetes structural schema
    /// (JSON), with defaults.
    #[must_use]
    pub fn structural_json(&self) -> Value {
        openapi::structural_schema(
            &self.document.value,
            self.document.validation.as_ref(),
            &self.document.default,
        )
    }

    /// The schema of the data values in the project's wire model.
    ///
    /// # Errors
    ///
    /// The decoder's messages, should the schema not decode (not expected).
    pub fn json_schema_props(&self) -> Result<JsonSchemaProps, String> {
        decode_props(&self.structural_json())
    }

    /// A CustomResourceDefinition whose resources carry the data values in
    /// `spec` (namespaced, one served and stored version).
    #[must_use]
    pub fn crd(&self, names: &CrdNames) -> Value {
        let kind = &names.kind;
        let plural = {
            let lower = kind.to_ascii_lowercase();
            if lower.ends_with('s') {
                lower
            } else {
                format!("{lower}s")
            }
        };
        let root = json!({
            "type": "object",
            "description": format!("{kind} holds data values of a ytt schema in spec."),
            "properties": {
                "apiVersion": {"type": "string"},
                "kind": {"type": "string"},
                "metadata": {"type": "object"},
                "spec": self.structural_json(),
            },
        });
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{plural}.{}", names.group)},
            "spec": {
                "group": names.group,
                "names": {
                    "kind": kind,
                    "listKind": format!("{kind}List"),
                    "plural": plural,
                    "singular": kind.to_ascii_lowercase(),
                },
                "scope": "Namespaced",
                "versions": [{
                    "name": names.version,
                    "served": true,
                    "storage": true,
                    "schema": {"openAPIV3Schema": root},
                }],
            },
        })
    }
}

fn decode_props(v: &Value) -> Result<JsonSchemaProps, String> {
    let mut cx = DecodeCx::default();
    JsonSchemaProps::decode(v, &Path::root(), &mut cx).ok_or_else(|| format!("{:?}", cx.errors))
}

#[cfg(test)]
mod tests;
