//! The documents the builder and the controllers produce: Swagger 2.0
//! (`definitions`) and OpenAPI 3.0 (`components.schemas`), holding a CRD
//! version's models and the apimachinery definitions they refer to
//! (transitively), with empty `paths`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::apimachinery;
use super::models::build_models;
use super::schema_json::{
    canonicalize, canonicalize_map, collect_refs, rewrite_ref_prefix, unwrap_refs,
};
use super::{
    BuildOptions, DEFINITION_PREFIX_V2, DEFINITION_PREFIX_V3, OpenApiVersion, PublishError,
};
use crate::model::wire::CustomResourceDefinition;

/// The `info` of the documents the CRD builder produces.
const INFO_TITLE: &str = "Kubernetes CRD Swagger";
const INFO_VERSION: &str = "v0.1.0";

/// The apimachinery definitions in their v3 form, parsed once.
fn meta_definitions_v3() -> Result<&'static Map<String, Value>, PublishError> {
    static DEFS: OnceLock<Result<Map<String, Value>, String>> = OnceLock::new();
    let parsed =
        DEFS.get_or_init(
            || match serde_json::from_str::<Value>(apimachinery::META_V3_JSON) {
                Ok(Value::Object(mut defs)) => {
                    for d in defs.values_mut() {
                        canonicalize(d);
                    }
                    Ok(defs)
                }
                Ok(_) => Err("the apimachinery definitions are not an object".into()),
                Err(e) => Err(format!("the apimachinery definitions do not parse: {e}")),
            },
        );
    parsed
        .as_ref()
        .map_err(|e| PublishError::Internal(e.clone()))
}

/// One apimachinery definition for `target`.
fn meta_definition(name: &str, target: OpenApiVersion) -> Result<Option<Value>, PublishError> {
    let Some(def) = meta_definitions_v3()?.get(name) else {
        return Ok(None);
    };
    let mut def = def.clone();
    if target == OpenApiVersion::V2
        && let Value::Object(m) = &mut def
    {
        unwrap_refs(m);
        rewrite_ref_prefix(m, DEFINITION_PREFIX_V3, DEFINITION_PREFIX_V2);
        canonicalize_map(m);
    }
    Ok(Some(def))
}

/// Adds the apimachinery definitions `defs` refers to, transitively.
pub(super) fn add_referenced_definitions(
    defs: &mut BTreeMap<String, Value>,
    target: OpenApiVersion,
) -> Result<(), PublishError> {
    let prefix = target.prefix();
    let mut pending: Vec<String> = defs.keys().cloned().collect();
    while let Some(name) = pending.pop() {
        let mut refs = BTreeSet::new();
        if let Some(Value::Object(m)) = defs.get_mut(&name) {
            collect_refs(m, &mut refs);
        }
        for r in refs {
            let Some(target_name) = r.strip_prefix(prefix) else {
                continue;
            };
            let target_name = target_name.replace("~1", "/").replace("~0", "~");
            if defs.contains_key(&target_name) {
                continue;
            }
            if let Some(def) = meta_definition(&target_name, target)? {
                defs.insert(target_name.clone(), def);
                pending.push(target_name);
            }
        }
    }
    Ok(())
}

/// The documents' `info`.
fn info() -> Value {
    let mut o = Map::new();
    o.insert("title".into(), Value::String(INFO_TITLE.into()));
    o.insert("version".into(), Value::String(INFO_VERSION.into()));
    Value::Object(o)
}

/// A Swagger 2.0 document with these `definitions`.
pub(super) fn swagger_document(defs: BTreeMap<String, Value>) -> Value {
    let mut doc = Map::new();
    doc.insert("swagger".into(), Value::String("2.0".into()));
    doc.insert("info".into(), info());
    doc.insert("paths".into(), Value::Object(Map::new()));
    doc.insert(
        "definitions".into(),
        Value::Object(defs.into_iter().collect()),
    );
    Value::Object(doc)
}

/// An OpenAPI 3.0 document with these `components.schemas`.
fn openapi3_document(defs: BTreeMap<String, Value>) -> Value {
    let mut components = Map::new();
    components.insert("schemas".into(), Value::Object(defs.into_iter().collect()));
    let mut doc = Map::new();
    doc.insert("openapi".into(), Value::String("3.0.0".into()));
    doc.insert("info".into(), info());
    doc.insert("paths".into(), Value::Object(Map::new()));
    doc.insert("components".into(), Value::Object(components));
    Value::Object(doc)
}

/// Adds the two models of a CRD version ([`build_models`]) to `defs`.
pub(super) fn version_definitions(
    crd: &CustomResourceDefinition,
    version: &str,
    target: OpenApiVersion,
    opts: &BuildOptions,
    defs: &mut BTreeMap<String, Value>,
) -> Result<(), PublishError> {
    let models = build_models(crd, version, target, opts)?;
    defs.insert(models.name, models.schema);
    defs.insert(models.list_name, models.list_schema);
    Ok(())
}

/// `BuildOpenAPIV2` for one CRD version: a Swagger 2.0 document whose
/// `definitions` hold the version's models ([`build_models`]) and the
/// apimachinery definitions they refer to. Defaults are kept, as
/// `BuildOpenAPIV2` keeps them; [`publish_v2`] prunes them.
///
/// # Errors
///
/// [`PublishError::VersionNotFound`], or [`PublishError::Internal`].
///
/// [`publish_v2`]: super::publish_v2
pub fn build_openapi_v2(
    crd: &CustomResourceDefinition,
    version: &str,
    opts: &BuildOptions,
) -> Result<Value, PublishError> {
    let mut defs = BTreeMap::new();
    version_definitions(crd, version, OpenApiVersion::V2, opts, &mut defs)?;
    add_referenced_definitions(&mut defs, OpenApiVersion::V2)?;
    Ok(swagger_document(defs))
}

/// `BuildOpenAPIV3` for one CRD version: an OpenAPI 3.0 document whose
/// `components.schemas` hold the version's models ([`build_models`]) and
/// the apimachinery definitions they refer to.
///
/// # Errors
///
/// [`PublishError::VersionNotFound`], or [`PublishError::Internal`].
pub fn build_openapi_v3(
    crd: &CustomResourceDefinition,
    version: &str,
    opts: &BuildOptions,
) -> Result<Value, PublishError> {
    let mut defs = BTreeMap::new();
    version_definitions(crd, version, OpenApiVersion::V3, opts, &mut defs)?;
    add_referenced_definitions(&mut defs, OpenApiVersion::V3)?;
    Ok(openapi3_document(defs))
}
