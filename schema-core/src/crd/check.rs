//! Reading one input document as the toolchain sees it (a CRD of
//! `apiextensions.k8s.io/v1` or `v1beta1`, or a bare structural schema,
//! told apart by `kind`) and checking it as the API server would on create.

use serde_json::Value;

use crate::crd::validation::crd::{RequestVersion, validate_custom_resource_definition};
use crate::crd::validation::schema::{SchemaOptions, validate_openapi_v3_schema};
use crate::model::field::{ErrorList, Path};
use crate::model::wire::codec::{DecodeCx, DecodeIssue, Loc, Wire};
use crate::model::wire::v1beta1::CustomResourceDefinitionV1Beta1;
use crate::model::wire::{CustomResourceDefinition, JsonSchemaProps, SchemaOrArray, SchemaOrBool};

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

/// The outcome of checking one document.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Errors the API server would reject the document with.
    pub errors: ErrorList,
    /// Findings that do not fail the check.
    pub warnings: Vec<Warning>,
}

/// Checks an input as the API server checks a create: for a CRD,
/// `ValidateCustomResourceDefinition`; for a bare schema, the schema rules
/// of a CRD version with paths relative to the schema root.
pub fn check(input: &Input) -> CheckReport {
    let mut report = CheckReport::default();
    let crd = match input {
        Input::CrdV1(c) => {
            report.errors = validate_custom_resource_definition(c, RequestVersion::V1);
            c
        }
        Input::CrdV1Beta1 { v1, .. } => {
            report.errors = validate_custom_resource_definition(v1, RequestVersion::V1Beta1);
            v1
        }
        Input::Schema(s) => {
            report.errors =
                validate_openapi_v3_schema(s, false, &SchemaOptions::create(), &Path::root());
            format_warnings(s, &Path::root(), &mut report.warnings);
            return report;
        }
    };
    let versions = crd.spec.iter().flat_map(|s| s.versions.iter().flatten());
    for (i, v) in versions.enumerate() {
        if let Some(s) = v
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
        {
            let base = Path::new(["spec", "versions"])
                .index(i)
                .child("schema")
                .child("openAPIV3Schema");
            format_warnings(s, &base, &mut report.warnings);
        }
    }
    report
}

/// Formats the validator knows for strings (after removing dashes), as of
/// the current compatibility version.
const STRING_FORMATS: [&str; 26] = [
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "datetime",
    "k8s-short-name",
    "k8s-long-name",
];

/// Whether the API server's validator knows `format` for `type_` (others
/// are ignored by the server: no validation happens).
pub fn is_supported_format(type_: &str, format: &str) -> bool {
    match type_ {
        "" | "string" => {
            STRING_FORMATS.contains(&format)
                || STRING_FORMATS.contains(&format.replace('-', "").as_str())
        }
        "integer" => matches!(format, "int32" | "int64"),
        "number" => matches!(format, "float" | "double"),
        _ => false,
    }
}

/// Warns about every `format` the server ignores.
fn format_warnings(s: &JsonSchemaProps, p: &Path, out: &mut Vec<Warning>) {
    format_warnings_at(s, &Loc::base(p), out);
}

fn format_warnings_at(s: &JsonSchemaProps, p: &Loc<'_>, out: &mut Vec<Warning>) {
    if let Some(f) = s.format.as_deref().filter(|f| !f.is_empty()) {
        let t = s.type_str();
        if !is_supported_format(t, f) {
            out.push(Warning {
                field: p.child("format").path(),
                message: format!(
                    "unrecognized format {f:?} for type {:?}: the API server does not validate it",
                    if t.is_empty() { "<unset>" } else { t }
                ),
            });
        }
    }
    if let Some(props) = &s.properties {
        let pp = p.child("properties");
        for (k, sub) in props {
            format_warnings_at(sub, &pp.key(k), out);
        }
    }
    if let Some(SchemaOrArray::Schema(items)) = &s.items {
        format_warnings_at(items, &p.child("items"), out);
    }
    if let Some(SchemaOrBool::Schema(ap)) = &s.additional_properties {
        format_warnings_at(ap, &p.child("additionalProperties"), out);
    }
    for (key, list) in [
        ("allOf", &s.all_of),
        ("anyOf", &s.any_of),
        ("oneOf", &s.one_of),
    ] {
        if let Some(list) = list {
            let lp = p.child(key);
            for (i, sub) in list.iter().enumerate() {
                format_warnings_at(sub, &lp.index(i), out);
            }
        }
    }
    if let Some(n) = &s.not {
        format_warnings_at(n, &p.child("not"), out);
    }
}
