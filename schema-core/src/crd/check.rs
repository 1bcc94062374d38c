//! Checking one input document (see [`crate::model::wire::input`]) as the
//! API server would on create.

use crate::crd::internal::submitted_location;
use crate::crd::validation::definition::{RequestVersion, validate_custom_resource_definition};
use crate::crd::validation::schema::{SchemaOptions, validate_openapi_v3_schema};
use crate::go::formats;
use crate::model::field::{ErrorList, Path};
use crate::model::options::Options;
use crate::model::wire::codec::Loc;
use crate::model::wire::input::{Input, Warning};
use crate::model::wire::{JsonSchemaProps, SchemaOrArray, SchemaOrBool};

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
/// of a CRD version with paths relative to the schema root. The server is
/// that of `options.kube_version` (its CEL environment for new rules, its
/// feature gates; see
/// [`KubeVersion`](crate::model::kube_version::KubeVersion)).
pub fn check(input: &Input, options: &Options) -> CheckReport {
    let kube = options.kube_version;
    let mut report = CheckReport::default();
    let crd = match input {
        Input::CrdV1(c) => {
            report.errors = validate_custom_resource_definition(c, RequestVersion::V1, options);
            c
        }
        Input::CrdV1Beta1 { v1, .. } => {
            report.errors =
                validate_custom_resource_definition(v1, RequestVersion::V1Beta1, options);
            v1
        }
        Input::Schema(s) => {
            report.errors = validate_openapi_v3_schema(
                s,
                false,
                &SchemaOptions::create(options),
                &Path::root(),
            );
            format_warnings(s, &Path::root(), &mut report.warnings);
            return report;
        }
    };
    if !kube.field_selectors() {
        let versions = crd.spec.iter().flat_map(|s| s.versions.iter().flatten());
        for (i, v) in versions.enumerate() {
            if v.selectable_fields.is_some() {
                report.warnings.push(Warning {
                    field: Path::new(["spec", "versions"])
                        .index(i)
                        .child("selectableFields"),
                    message: format!(
                        "dropped: Kubernetes {kube} has the CustomResourceFieldSelectors feature gate off by default"
                    ),
                });
            }
        }
    }
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

/// Where a field error of [`check`] is written in the input document:
/// errors of a v1 CRD use the server's internal layout (`spec.validation`
/// for a schema shared by all versions) and are mapped back with
/// `crd::internal::submitted_location`; the paths of other inputs are where they are
/// written.
pub fn written_location(input: &Input, field: &Path) -> Path {
    match input {
        Input::CrdV1(_) => submitted_location(field),
        _ => field.clone(),
    }
}

/// Warns about every `format` the server ignores.
fn format_warnings(s: &JsonSchemaProps, p: &Path, out: &mut Vec<Warning>) {
    format_warnings_at(s, &Loc::base(p), out);
}

fn format_warnings_at(s: &JsonSchemaProps, p: &Loc<'_>, out: &mut Vec<Warning>) {
    if let Some(f) = s.format.as_deref().filter(|f| !f.is_empty()) {
        let t = s.type_str();
        if !formats::is_supported_format(t, f) {
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
