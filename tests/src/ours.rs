//! schema-gen's answers to the oracle's requests (`oracle/README.md`): the
//! same operations, computed with schema-core, in the oracle's response
//! shapes, so the two can be compared value for value.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{Map, Value, json};

use schema_core::KubeVersion;
use schema_core::cel::compile::compile_node_rules;
use schema_core::cel::functions::CompatibilityVersion;
use schema_core::cel::validator::{CelOptions, CelValidator, RUNTIME_CEL_COST_BUDGET};
use schema_core::crd::publish::{
    BuildOptions, build_openapi_v2, build_openapi_v3, publish_v2, publish_v3, to_kube_openapi,
    to_structural_openapi_v2,
};
use schema_core::crd::validation::definition::{
    RequestVersion, validate_custom_resource_definition,
};
use schema_core::crd::validation::schema::{
    SchemaOptions, validate_custom_resource_definition_validation,
};
use schema_core::crd::validation::structural::{
    StructuralOptions, validate_structural, validate_structural_completeness,
};
use schema_core::crd::validation::update::validate_custom_resource_definition_update;
use schema_core::docs::explain;
use schema_core::model::field::{FieldError, Path as FieldPath};
use schema_core::model::structural::Structural;
use schema_core::model::wire::codec::{DecodeCx, Wire};
use schema_core::model::wire::{
    CustomResourceDefinition, CustomResourceValidation, JsonSchemaProps,
};
use schema_core::object::default::{default, prune_non_nullable_nulls_without_defaults};
use schema_core::object::list_types::validate_list_sets_and_maps;
use schema_core::object::prune::prune;
use schema_core::object::value_validation::{FormatCompat, SchemaValidator};
use schema_core::{Admission, AdmissionError, Input, read_input};

/// Our answer to one request, or `{"error": ...}` when the request cannot
/// be read (as the oracle answers).
pub fn answer(req: &Value) -> Value {
    let result = match req["op"].as_str().unwrap_or_default() {
        "structural" => structural(req),
        "validate_crd_validation" => validate_crd_validation(req),
        "validate_crd" => validate_crd(req),
        "prune" => prune_op(req),
        "default" => default_op(req),
        "validate_value" => validate_value(req),
        "list_sets_maps" => list_sets_maps(req),
        "to_structural_v2" => published_schema(req, true),
        "unfold" => published_schema(req, false),
        "build_openapi" => build_openapi(req),
        "publish" => publish(req),
        "cel_compile" => cel_compile(req),
        "admit" => admit(req),
        "explain" => explain_op(req),
        "explain_document" => explain_document(req),
        other => Err(format!("unknown op {other:?}")),
    };
    result.unwrap_or_else(|e| json!({ "error": e }))
}

/// Field errors as the oracle writes them.
pub fn field_errors(errs: &[FieldError]) -> Value {
    Value::Array(
        errs.iter()
            .map(|e| {
                json!({
                    "type": e.error_type.name(),
                    "field": e.field.to_string(),
                    "detail": e.detail,
                    "message": e.to_string(),
                })
            })
            .collect(),
    )
}

/// A v1 `JSONSchemaProps`; `None` for null or absent.
fn schema(v: &Value) -> Result<Option<JsonSchemaProps>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let mut cx = DecodeCx::default();
    JsonSchemaProps::decode(v, &FieldPath::root(), &mut cx)
        .map(Some)
        .ok_or_else(|| format!("schema: {:?}", cx.errors))
}

/// A CRD (v1, or v1beta1 converted to v1 as the server converts it) and
/// the version it was written in.
fn crd_as_written(v: &Value) -> Result<(CustomResourceDefinition, RequestVersion), String> {
    match read_input(v).map_err(|e| format!("crd: {e}"))?.0 {
        Input::CrdV1(c) => Ok((*c, RequestVersion::V1)),
        Input::CrdV1Beta1 { v1, .. } => Ok((*v1, RequestVersion::V1Beta1)),
        Input::Schema(_) => Err("crd: not a CustomResourceDefinition".into()),
    }
}

fn crd(v: &Value) -> Result<CustomResourceDefinition, String> {
    crd_as_written(v).map(|(c, _)| c)
}

/// `NewStructural` of a schema without `ValidateStructural`; `Ok(None)` for
/// null, `Err(answer)` with `newStructuralError` when it fails.
fn structural_of(v: &Value) -> Result<Result<Option<Structural>, Value>, String> {
    let Some(props) = schema(v)? else {
        return Ok(Ok(None));
    };
    Ok(Structural::from_props(&props)
        .map(Some)
        .map_err(|e| json!({ "newStructuralError": e.0 })))
}

fn path(v: &Value) -> FieldPath {
    FieldPath::parse(v.as_str().unwrap_or_default())
}

fn structural(req: &Value) -> Result<Value, String> {
    let props = schema(&req["schema"])?.unwrap_or_default();
    let s = match Structural::from_props(&props) {
        Ok(s) => s,
        Err(e) => return Ok(json!({ "newStructuralError": e.0 })),
    };
    let errs = if req["operation"] == "validateStructuralCompleteness" {
        let o = &req["options"];
        let opts = StructuralOptions {
            allow_nested_additional_properties: o["AllowNestedAdditionalProperties"] == true,
            allow_validation_properties_with_additional_properties: o["AllowValidationPropertiesWithAdditionalProperties"]
                == true,
            allow_nested_x_validations: o["AllowNestedXValidations"] == true,
        };
        validate_structural_completeness(&s, &FieldPath::root(), opts)
    } else {
        validate_structural(&FieldPath::root(), &s, StructuralOptions::default())
    };
    Ok(json!({ "errors": field_errors(&errs) }))
}

fn validate_crd_validation(req: &Value) -> Result<Value, String> {
    let o = &req["options"];
    let cel_compatibility_version = match o["celCompatibilityVersion"].as_str() {
        Some(v) => CompatibilityVersion::parse(v).ok_or(format!("bad version {v}"))?,
        None => CompatibilityVersion::new_expressions(KubeVersion::default()),
    };
    let opts = SchemaOptions {
        allow_defaults: o["allowDefaults"] == true,
        require_structural_schema: o["requireStructuralSchema"] == true,
        require_valid_property_type: o["requireValidPropertyType"] == true,
        require_pruned_defaults: o["requirePrunedDefaults"] == true,
        require_atomic_set_type: o["requireAtomicSetType"] == true,
        require_map_list_keys_map_set_validation: o["requireMapListKeysMapSetValidation"] == true,
        preserve_unknown_fields: false,
        cel_compatibility_version,
        cel_stored_version: CompatibilityVersion::stored_expressions(KubeVersion::default()),
    };
    let validation = CustomResourceValidation {
        open_api_v3_schema: schema(&req["schema"])?,
        ..Default::default()
    };
    let errs = validate_custom_resource_definition_validation(
        Some(&validation),
        req["statusEnabled"] == true,
        &opts,
        &path(&req["fieldPath"]),
    );
    Ok(json!({ "errors": field_errors(&errs) }))
}

fn validate_crd(req: &Value) -> Result<Value, String> {
    let (crd, request) = crd_as_written(&req["crd"])?;
    let errs = if req["oldCrd"].is_null() {
        validate_custom_resource_definition(&crd, request, &schema_core::Options::default())
    } else {
        let (old, _) = crd_as_written(&req["oldCrd"])?;
        validate_custom_resource_definition_update(&crd, &old, &schema_core::Options::default())
    };
    Ok(json!({ "errors": field_errors(&errs) }))
}

fn prune_op(req: &Value) -> Result<Value, String> {
    let s = match structural_of(&req["schema"])? {
        Ok(s) => s,
        Err(answer) => return Ok(answer),
    };
    let mut obj = req["object"].clone();
    let pruned = prune(
        &mut obj,
        s.as_ref(),
        req["isResourceRoot"] == true,
        req["trackUnknownFieldPaths"] == true,
    );
    Ok(json!({ "object": obj, "pruned": pruned }))
}

fn default_op(req: &Value) -> Result<Value, String> {
    let s = match structural_of(&req["schema"])? {
        Ok(s) => s,
        Err(answer) => return Ok(answer),
    };
    let mut obj = req["object"].clone();
    if req["operation"] == "PruneNonNullableNullsWithoutDefaults" {
        prune_non_nullable_nulls_without_defaults(&mut obj, s.as_ref());
    } else {
        default(&mut obj, s.as_ref());
    }
    Ok(json!({ "object": obj }))
}

fn validate_value(req: &Value) -> Result<Value, String> {
    let props = schema(&req["schema"])?.unwrap_or_default();
    let compat = req["compatibilityVersion"]
        .as_str()
        .and_then(FormatCompat::parse)
        .unwrap_or_default();
    let s = match Structural::from_props(&props) {
        Ok(s) => s,
        Err(e) => return Ok(json!({ "newStructuralError": e.0 })),
    };
    let root = path(&req["rootPath"]);
    let old = req.get("oldObject").filter(|v| !v.is_null());
    if req["ratcheting"] == true {
        return Err("ratcheting is answered by admit (an update)".into());
    }
    let errs = SchemaValidator::with_compat(&props, compat).validate(&req["object"], &root);
    let cel = CelValidator::new(&s, req["isResourceRoot"] == true);
    let out = cel.validate(
        &root,
        &req["object"],
        old,
        CelOptions {
            ratcheting: false,
            ..CelOptions::default()
        },
        RUNTIME_CEL_COST_BUDGET,
    );
    Ok(json!({
        "errors": field_errors(&errs),
        "celErrors": field_errors(&out.errors),
        "remainingBudget": out.remaining_budget,
    }))
}

fn list_sets_maps(req: &Value) -> Result<Value, String> {
    let s = match structural_of(&req["schema"])? {
        Ok(s) => s,
        Err(answer) => return Ok(answer),
    };
    let errs = validate_list_sets_and_maps(&path(&req["rootPath"]), s.as_ref(), &req["object"]);
    Ok(json!({ "errors": field_errors(&errs) }))
}

fn published_schema(req: &Value, v2: bool) -> Result<Value, String> {
    let s = match structural_of(&req["schema"])? {
        Ok(Some(s)) => s,
        Ok(None) => return Err("no schema".into()),
        Err(answer) => return Ok(answer),
    };
    let out = if v2 {
        to_kube_openapi(&to_structural_openapi_v2(&s))
    } else {
        to_kube_openapi(&s.unfold())
    };
    Ok(json!({ "schema": out }))
}

fn build_openapi(req: &Value) -> Result<Value, String> {
    let crd = crd(&req["crd"])?;
    let o = &req["options"];
    if o["StripValueValidation"] == true || o["StripNullable"] == true {
        return Err("StripValueValidation and StripNullable are not offered".into());
    }
    let opts = BuildOptions {
        allow_non_structural: o["AllowNonStructural"] == true,
        include_selectable_fields: o["IncludeSelectableFields"] == true,
        keep_external_docs_and_example: true,
        empty_selectable_fields: false,
    };
    let version = req["version"].as_str().unwrap_or_default();
    let built = if o["V2"] == true {
        build_openapi_v2(&crd, version, &opts)
    } else {
        build_openapi_v3(&crd, version, &opts)
    };
    Ok(match built {
        Ok(doc) => json!({ "document": doc }),
        Err(e) => json!({ "buildError": e.to_string() }),
    })
}

fn publish(req: &Value) -> Result<Value, String> {
    let crd = crd(&req["crd"])?;
    Ok(if req["v2"] == true {
        match publish_v2(&crd, &schema_core::Options::default()) {
            Ok(doc) => json!({ "document": doc }),
            Err(e) => json!({ "buildError": e.to_string() }),
        }
    } else {
        match publish_v3(&crd, &schema_core::Options::default()) {
            Ok(docs) => json!({ "documents": docs }),
            Err(e) => json!({ "buildError": e.to_string() }),
        }
    })
}

/// The request's explain options and field path.
fn explain_request(req: &Value) -> (Vec<String>, explain::Options) {
    let fields = req["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str().map(str::to_string))
        .collect();
    let options = explain::Options {
        recursive: req["recursive"] == true,
        max_depth: req["maxDepth"].as_u64().unwrap_or(0) as usize,
        extras: false,
    };
    (fields, options)
}

/// An explanation as the oracle answers it: what was printed, and the
/// error kubectl reports.
fn explained(result: Result<String, explain::ExplainFailure>) -> Value {
    match result {
        Ok(output) => json!({ "output": output }),
        Err(f) => json!({ "output": f.printed, "error": format!("error: {}", f.error) }),
    }
}

fn explain_op(req: &Value) -> Result<Value, String> {
    let published = published_v3(&req["crd"]);
    let Published { group, kind, docs } = published.as_ref().as_ref()?;
    let docs = match docs {
        Ok(d) => d,
        Err(e) => return Ok(json!({ "buildError": e })),
    };
    let version = req["version"].as_str().unwrap_or_default();
    let doc = docs
        .get(&format!("apis/{group}/{version}"))
        .ok_or("version not served")?;
    let (fields, options) = explain_request(req);
    let gvk = explain::Gvk {
        group: group.clone(),
        version: version.to_string(),
        kind: kind.clone(),
    };
    Ok(explained(explain::explain(doc, &gvk, &fields, options)))
}

/// What `explain` reads of a CRD: its group and kind, and the OpenAPI v3
/// documents it publishes (keyed `apis/<group>/<version>`) or why it
/// publishes none.
struct Published {
    group: String,
    kind: String,
    docs: Result<BTreeMap<String, Value>, String>,
}

/// A CRD as a request gives it, and what `explain` reads of it.
struct PublishedCrd {
    crd: Value,
    published: Rc<Result<Published, String>>,
}

thread_local! {
    /// The CRD last published for `explain`: the tests ask many questions
    /// about one CRD in a row, and publishing is a pure function of the
    /// CRD.
    static LAST_PUBLISHED: RefCell<Option<PublishedCrd>> = const { RefCell::new(None) };
}

/// [`Published`] of a CRD, or why it cannot be read.
fn published_v3(crd_json: &Value) -> Rc<Result<Published, String>> {
    LAST_PUBLISHED.with_borrow_mut(|last| {
        if let Some(l) = last
            && l.crd == *crd_json
        {
            return Rc::clone(&l.published);
        }
        let published = Rc::new(publish_for_explain(crd_json));
        *last = Some(PublishedCrd {
            crd: crd_json.clone(),
            published: Rc::clone(&published),
        });
        published
    })
}

fn publish_for_explain(crd_json: &Value) -> Result<Published, String> {
    let crd = crd(crd_json)?;
    let spec = crd.spec.as_ref().ok_or("no spec")?;
    let group = spec.group.clone().unwrap_or_default();
    let kind = spec
        .names
        .as_ref()
        .and_then(|n| n.kind.clone())
        .unwrap_or_default();
    let docs = publish_v3(&crd, &schema_core::Options::default()).map_err(|e| e.to_string());
    Ok(Published { group, kind, docs })
}

fn explain_document(req: &Value) -> Result<Value, String> {
    let gvr = explain::Gvr {
        group: req["group"].as_str().unwrap_or_default().to_string(),
        version: req["version"].as_str().unwrap_or_default().to_string(),
        resource: req["resource"].as_str().unwrap_or_default().to_string(),
    };
    let (fields, options) = explain_request(req);
    Ok(explained(explain::explain_resource(
        &req["document"],
        &gvr,
        &fields,
        options,
    )))
}

fn cel_compile(req: &Value) -> Result<Value, String> {
    let props = schema(&req["schema"])?.unwrap_or_default();
    let s = match Structural::from_props(&props) {
        Ok(s) => s,
        Err(e) => return Ok(json!({ "newStructuralError": e.0 })),
    };
    let version = match req["compatibilityVersion"].as_str() {
        Some(v) => CompatibilityVersion::parse(v).ok_or(format!("bad version {v}"))?,
        None => CompatibilityVersion::CURRENT,
    };
    let Some(results) = compile_node_rules(&s, req["isResourceRoot"] == true, version) else {
        return Ok(json!({ "compileError": "no declared type" }));
    };
    let rules: Vec<Value> = results
        .iter()
        .zip(&s.x_validations)
        .map(|(r, rule)| {
            let mut m = Map::new();
            m.insert(
                "rule".into(),
                json!(rule.rule.as_deref().unwrap_or_default()),
            );
            if let Some(e) = &r.error {
                m.insert("error".into(), json!(e));
            }
            m.insert("maxCost".into(), json!(r.max_cost));
            m.insert("maxCardinality".into(), json!(r.max_cardinality));
            m.insert("usesOldSelf".into(), json!(r.uses_old_self));
            if let Some(e) = &r.message_expression_error {
                m.insert("messageExpressionError".into(), json!(e));
            }
            m.insert(
                "messageExpressionMaxCost".into(),
                json!(r.message_expression_max_cost.unwrap_or(0)),
            );
            Value::Object(m)
        })
        .collect();
    Ok(json!({ "rules": rules }))
}

fn admit(req: &Value) -> Result<Value, String> {
    let crd = crd(&req["crd"])?;
    let version = req["version"].as_str().unwrap_or_default();
    let admission = match Admission::for_crd(&crd, version, &schema_core::Options::default()) {
        Ok(a) => a,
        Err(e @ (AdmissionError::NoSuchVersion { .. } | AdmissionError::NotStructural(_))) => {
            return Ok(json!({ "resourceError": e.to_string() }));
        }
    };
    let admitted = match req.get("oldObject").filter(|v| !v.is_null()) {
        Some(old) => admission.update(req["object"].clone(), old.clone()),
        None => admission.create(req["object"].clone()),
    };
    if let Some(rejected) = admitted.rejected {
        return Ok(json!({ "decodeError": rejected }));
    }
    Ok(json!({
        "object": admitted.object,
        "pruned": admitted.pruned,
        "errors": field_errors(&admitted.errors),
        "warnings": admitted.warnings,
    }))
}
