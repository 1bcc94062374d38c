//! Reading one input document as the toolchain sees it: a CRD of
//! `apiextensions.k8s.io/v1` or `v1beta1`, or a bare structural schema,
//! told apart by `kind`.

use serde_json::Value;

use crate::model::field::Path;
use crate::model::wire::codec::{DecodeCx, DecodeIssue, Wire};
use crate::model::wire::v1beta1::CustomResourceDefinitionV1Beta1;
use crate::model::wire::{CustomResourceDefinition, JsonSchemaProps};

/// The API group of CRDs.
pub const APIEXTENSIONS_GROUP: &str = "apiextensions.k8s.io";

/// A decoded input document.
#[derive(Clone, Debug)]
pub enum Input {
    /// A v1 CRD, as written.
    CrdV1(Box<CustomResourceDefinition>),
    /// A v1beta1 CRD, as written, with its v1 conversion.
    CrdV1Beta1 {
        /// As written.
        original: Box<CustomResourceDefinitionV1Beta1>,
        /// Converted to v1 as the server converts it.
        v1: Box<CustomResourceDefinition>,
    },
    /// A bare structural schema (the content of `openAPIV3Schema`).
    Schema(Box<JsonSchemaProps>),
}

/// A non-fatal finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Where (relative to the document root, or the schema root for a
    /// bare schema).
    pub field: Path,
    /// The warning text.
    pub message: String,
}

/// Why a document could not be read as a CRD or schema.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Not an object.
    #[error("expected a CustomResourceDefinition or a schema object, found {0}")]
    NotAnObject(&'static str),
    /// A `kind` this toolchain does not read.
    #[error(
        "unsupported kind {kind:?} (apiVersion {api_version:?}): expected a CustomResourceDefinition of apiextensions.k8s.io/v1 or v1beta1, or a bare schema"
    )]
    UnsupportedKind {
        /// The kind.
        kind: String,
        /// The apiVersion.
        api_version: String,
    },
    /// Fields of the wrong type.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Decode(Vec<DecodeIssue>),
}

impl ReadError {
    /// The decode issues, if this is a decode error.
    pub fn issues(&self) -> &[DecodeIssue] {
        match self {
            ReadError::Decode(i) => i,
            _ => &[],
        }
    }
}

/// Reads a document: a CRD (by `kind`) or a bare schema. Unknown fields
/// become warnings.
pub fn read_input(doc: &Value) -> Result<(Input, Vec<Warning>), ReadError> {
    read_input_owned(doc.clone())
}

/// [`read_input`], taking the document over (no copies of its strings).
pub fn read_input_owned(doc: Value) -> Result<(Input, Vec<Warning>), ReadError> {
    let Value::Object(map) = &doc else {
        return Err(ReadError::NotAnObject(crate::model::wire::codec::kind_of(
            &doc,
        )));
    };
    let mut cx = DecodeCx::default();
    let mut warnings = Vec::new();
    let kind = map.get("kind").and_then(Value::as_str).map(str::to_string);
    let api_version = map
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let input = match kind.as_deref() {
        Some(kind) => match (kind, api_version.as_str()) {
            ("CustomResourceDefinition", "apiextensions.k8s.io/v1") => {
                CustomResourceDefinition::decode_owned(doc, &Path::root(), &mut cx)
                    .map(|c| Input::CrdV1(Box::new(c)))
            }
            ("CustomResourceDefinition", "apiextensions.k8s.io/v1beta1") => {
                warnings.push(Warning {
                        field: Path::new(["apiVersion"]),
                        message: "apiextensions.k8s.io/v1beta1 CustomResourceDefinition is deprecated in v1.16+, unavailable in v1.22+; use apiextensions.k8s.io/v1 CustomResourceDefinition".into(),
                    });
                CustomResourceDefinitionV1Beta1::decode_owned(doc, &Path::root(), &mut cx).map(
                    |c| {
                        let v1 = c.to_v1();
                        Input::CrdV1Beta1 {
                            original: Box::new(c),
                            v1: Box::new(v1),
                        }
                    },
                )
            }
            _ => {
                return Err(ReadError::UnsupportedKind {
                    kind: kind.to_string(),
                    api_version: api_version.clone(),
                });
            }
        },
        None => JsonSchemaProps::decode_owned(doc, &Path::root(), &mut cx)
            .map(|s| Input::Schema(Box::new(s))),
    };
    match input {
        Some(i) if cx.errors.is_empty() => {
            warnings.extend(cx.warnings.into_iter().map(|w| Warning {
                field: w.field,
                message: w.message,
            }));
            Ok((i, warnings))
        }
        _ => Err(ReadError::Decode(cx.errors)),
    }
}

impl Input {
    /// Writes the document back as it was read (v1beta1 stays v1beta1).
    pub fn to_value(&self) -> Value {
        match self {
            Input::CrdV1(c) => c.encode(),
            Input::CrdV1Beta1 { original, .. } => original.encode(),
            Input::Schema(s) => s.encode(),
        }
    }

    /// The v1 form of a CRD input.
    pub fn crd(&self) -> Option<&CustomResourceDefinition> {
        match self {
            Input::CrdV1(c) => Some(c),
            Input::CrdV1Beta1 { v1, .. } => Some(v1),
            Input::Schema(_) => None,
        }
    }
}
