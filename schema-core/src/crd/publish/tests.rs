use std::path::PathBuf;

use serde_json::json;

use std::collections::BTreeSet;

use serde_json::Map;

use super::models::{
    EMBEDDED_KIND_DESCRIPTION, LIST_META_DESCRIPTION, OBJECT_META_DESCRIPTION,
    TYPE_META_API_VERSION_DESCRIPTION, TYPE_META_KIND_DESCRIPTION,
};
use super::schema_json::{SCHEMA_KEY_ORDER, collect_refs, for_each_child_schema, wrap_refs};
use super::*;
use crate::model::field::Path;
use crate::model::options::Options;
use crate::model::structural::Structural;
use crate::model::wire::codec::{DecodeCx, Wire};

fn props(v: &Value) -> JsonSchemaProps {
    let mut cx = DecodeCx::default();
    let p = JsonSchemaProps::decode(v, &Path::root(), &mut cx).expect("schema decodes");
    assert!(cx.errors.is_empty(), "{:?}", cx.errors);
    p
}

fn structural(v: Value) -> Structural {
    Structural::from_props(&props(&v)).expect("NewStructural")
}

fn crd(v: &Value) -> CustomResourceDefinition {
    let mut cx = DecodeCx::default();
    let c = CustomResourceDefinition::decode(v, &Path::root(), &mut cx).expect("CRD decodes");
    assert!(cx.errors.is_empty(), "{:?}", cx.errors);
    c
}

/// A CRD `foos.bar.k8s.io` (kind `Foo`) with one version.
fn foo_crd(
    version: &str,
    schema: Option<Value>,
    selectable: Option<Value>,
) -> CustomResourceDefinition {
    let mut v = json!({"name": version, "served": true, "storage": true});
    if let Some(s) = schema {
        v["schema"] = json!({"openAPIV3Schema": s});
    }
    if let Some(sf) = selectable {
        v["selectableFields"] = sf;
    }
    crd(&json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.bar.k8s.io"},
        "spec": {
            "group": "bar.k8s.io",
            "names": {"kind": "Foo", "listKind": "FooList", "plural": "foos", "singular": "foo"},
            "scope": "Namespaced",
            "versions": [v],
        },
    }))
}

// ---------------------------------------------------------------------------
// Conformance
// ---------------------------------------------------------------------------

#[test]
fn unfold_visits_structural_nodes_only() {
    let ios = json!({"x-kubernetes-int-or-string": true});
    let s = structural(json!({
        "type": "object",
        "properties": {
            "a": ios,
            "l": {"type": "array", "items": ios},
            "m": {"type": "object", "additionalProperties": ios},
            "n": {"type": "object", "allOf": [{"properties": {"x": ios}}]},
        },
    }));
    let got = to_kube_openapi(&s.unfold());
    let unfolded = json!({
        "x-kubernetes-int-or-string": true,
        "anyOf": [{"type": "integer"}, {"type": "string"}],
    });
    assert_eq!(got["properties"]["a"], unfolded);
    assert_eq!(got["properties"]["l"]["items"], unfolded);
    assert_eq!(got["properties"]["m"]["additionalProperties"], unfolded);
    // Nested value validations are not visited.
    assert_eq!(got["properties"]["n"]["allOf"][0]["properties"]["x"], ios);
}

#[test]
fn unfold_creates_a_missing_value_validation() {
    let mut s = Structural::default();
    s.extensions.int_or_string = true;
    let got = to_kube_openapi(&s.unfold());
    assert_eq!(
        got,
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true})
    );
}

#[test]
fn unfold_ignores_documentation_when_matching_the_pattern() {
    // Upstream's structural model has no example/externalDocs, so this is
    // the anyOf pattern and nothing is added.
    let s = structural(json!({
        "x-kubernetes-int-or-string": true,
        "anyOf": [{"type": "integer", "example": 1}, {"type": "string"}],
    }));
    assert!(to_kube_openapi(&s.unfold()).get("allOf").is_none());
}

#[test]
fn v2_conversion_rules() {
    let s = structural(json!({
        "type": "object",
        "required": ["a", "b"],
        "anyOf": [{"required": ["a"]}],
        "properties": {
            "a": {"type": "object", "nullable": true, "required": ["x"],
                  "properties": {"x": {"type": "string", "nullable": true}}},
            "b": {"type": "object", "required": ["k"],
                  "additionalProperties": {"type": "string", "nullable": true}},
            "c": {"type": "array", "items": {"type": "string"}, "x-kubernetes-preserve-unknown-fields": true},
        },
    }));
    let got = to_kube_openapi(&to_structural_openapi_v2(&s));
    assert_eq!(
        got,
        json!({
            "type": "object",
            "required": ["b"],
            "properties": {
                "a": {"required": ["x"]},
                "b": {"type": "object", "additionalProperties": {}},
                "c": {"x-kubernetes-preserve-unknown-fields": true},
            },
        })
    );
}

#[test]
fn kube_openapi_quirks() {
    let s = structural(json!({
        "type": "object",
        "description": "d",
        "externalDocs": {"url": "u"},
        "example": {"a": 1},
        "properties": {
            "closed": {"type": "object", "additionalProperties": false},
            "open": {"type": "object", "additionalProperties": true},
            "n": {"type": "number", "minimum": 1.0, "maximum": 2.5, "multipleOf": 2, "default": {"b": 1.0, "a": [2.0]}},
            "l": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set",
                  "x-kubernetes-list-map-keys": []},
            "j": {"type": "object", "not": {"additionalProperties": {"type": "string"}, "description": "nd",
                  "properties": {"p": {"minLength": 1}}}},
        },
        "x-kubernetes-validations": [{"rule": "true", "reason": "FieldValueInvalid"}],
    }));
    let got = to_kube_openapi(&s);
    assert_eq!(
        got,
        json!({
            "description": "d",
            "externalDocs": {"url": "u"},
            "example": {"a": 1},
            "type": "object",
            "properties": {
                "closed": {"type": "object", "additionalProperties": false},
                "j": {"type": "object", "not": {"description": "nd", "properties": {"p": {"minLength": 1}}}},
                "l": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                "n": {"type": "number", "default": {"a": [2], "b": 1}, "maximum": 2.5, "minimum": 1, "multipleOf": 2},
                "open": {"type": "object", "additionalProperties": true},
            },
            "x-kubernetes-validations": [{"rule": "true", "reason": "FieldValueInvalid"}],
        })
    );
    // Key order: kube-openapi's, properties sorted.
    let keys: Vec<&String> = got
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        [
            "description",
            "type",
            "properties",
            "externalDocs",
            "example",
            "x-kubernetes-validations"
        ]
    );
    let n = &got["properties"]["n"];
    assert!(n["minimum"].is_i64() && n["default"]["b"].is_i64());
    let props: Vec<&String> = got["properties"]
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(props, ["closed", "j", "l", "n", "open"]);
}

#[test]
fn model_names() {
    assert_eq!(model_name("bar.k8s.io", "v1", "Foo"), "io.k8s.bar.v1.Foo");
    assert_eq!(model_name("stable", "v1", "Foo"), "stable.v1.Foo");
}

#[test]
fn builder_adds_kube_native_properties_v3() {
    let c = foo_crd(
        "v1",
        Some(json!({
            "type": "object",
            "properties": {
                "spec": {"type": "object", "properties": {
                    "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                                 "x-kubernetes-preserve-unknown-fields": true, "required": ["kind"]},
                    "port": {"x-kubernetes-int-or-string": true},
                }},
            },
        })),
        Some(json!([{"jsonPath": ".spec.port"}])),
    );
    let m = build_models(&c, "v1", OpenApiVersion::V3, &BuildOptions::default()).expect("built");
    assert_eq!(m.name, "io.k8s.bar.v1.Foo");
    assert_eq!(m.list_name, "io.k8s.bar.v1.FooList");
    let s = &m.schema;
    assert_eq!(
        s["properties"]["metadata"],
        json!({"description": OBJECT_META_DESCRIPTION,
               "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]})
    );
    assert_eq!(
        s["properties"]["apiVersion"]["description"],
        TYPE_META_API_VERSION_DESCRIPTION
    );
    let t = &s["properties"]["spec"]["properties"]["template"];
    assert_eq!(t["required"], json!(["kind", "apiVersion"]));
    assert_eq!(t["type"], "object");
    assert_eq!(
        t["properties"]["kind"]["description"],
        EMBEDDED_KIND_DESCRIPTION
    );
    assert!(t["properties"]["metadata"]["allOf"].is_array());
    assert_eq!(
        s["properties"]["spec"]["properties"]["port"]["anyOf"],
        json!([{"type": "integer"}, {"type": "string"}])
    );
    assert_eq!(
        s[SELECTABLE_FIELDS_EXTENSION],
        json!([{"fieldPath": "spec.port"}])
    );
    assert_eq!(
        m.list_schema[SELECTABLE_FIELDS_EXTENSION],
        json!([{"fieldPath": "spec.port"}])
    );
    assert_eq!(
        m.list_schema,
        json!({
            "description": "FooList is a list of Foo",
            "type": "object",
            "required": ["items"],
            "properties": {
                "apiVersion": {"description": TYPE_META_API_VERSION_DESCRIPTION, "type": "string"},
                "items": {
                    "description": "List of foos. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
                    "type": "array",
                    "items": {"$ref": "#/components/schemas/io.k8s.bar.v1.Foo"},
                },
                "kind": {"description": TYPE_META_KIND_DESCRIPTION, "type": "string"},
                "metadata": {"description": LIST_META_DESCRIPTION,
                             "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"}]},
            },
            "x-kubernetes-group-version-kind": [{"group": "bar.k8s.io", "kind": "FooList", "version": "v1"}],
            "x-kubernetes-selectable-fields": [{"fieldPath": "spec.port"}],
        })
    );
}

#[test]
fn builder_v2_skips_preserving_embedded_resources() {
    let c = foo_crd(
        "v1",
        Some(json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "x-kubernetes-embedded-resource": true,
                      "x-kubernetes-preserve-unknown-fields": true},
                "b": {"type": "object", "x-kubernetes-embedded-resource": true,
                      "properties": {"spec": {"type": "string", "default": "x"}}},
            },
        })),
        None,
    );
    let m = build_models(&c, "v1", OpenApiVersion::V2, &BuildOptions::default()).expect("built");
    let p = &m.schema["properties"];
    assert_eq!(
        p["a"],
        json!({"x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(p["b"]["required"], json!(["kind", "apiVersion"]));
    assert_eq!(
        p["b"]["properties"]["metadata"],
        json!({"description": OBJECT_META_DESCRIPTION, "$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"})
    );
    // BuildOpenAPIV2 keeps defaults; the controller prunes them.
    assert_eq!(p["b"]["properties"]["spec"]["default"], "x");
    let doc = publish_v2(&c, &Options::default()).expect("published");
    assert!(
        doc["definitions"]["io.k8s.bar.v1.Foo"]["properties"]["b"]["properties"]["spec"]
            .get("default")
            .is_none()
    );
}

#[test]
fn builder_falls_back_to_object() {
    for schema in [
        None,
        Some(json!({"type": "object", "properties": {"a": {"type": "array"}}})),
        Some(json!({"type": "object", "properties": {"a": {"type": "bug"}}})),
        Some(json!({"type": "object", "properties": {"a": {"$ref": "#/x"}}})),
    ] {
        let c = foo_crd("v1", schema, None);
        for target in [OpenApiVersion::V2, OpenApiVersion::V3] {
            let m = build_models(&c, "v1", target, &BuildOptions::default()).expect("built");
            assert_eq!(
                m.schema,
                json!({"type": "object", "x-kubernetes-group-version-kind": [{"group": "bar.k8s.io", "kind": "Foo", "version": "v1"}]})
            );
        }
    }
    let c = foo_crd("v1", None, None);
    assert_eq!(
        build_models(&c, "v2", OpenApiVersion::V3, &BuildOptions::default()),
        Err(PublishError::VersionNotFound {
            crd: "foos.bar.k8s.io".into(),
            version: "v2".into()
        })
    );
}

#[test]
fn spec_preserve_unknown_fields_publishes_object_in_v2_only() {
    let mut c = foo_crd(
        "v1",
        Some(json!({"type": "object", "properties": {"a": {"type": "string"}}})),
        None,
    );
    if let Some(spec) = c.spec.as_mut() {
        spec.preserve_unknown_fields = Some(true);
    }
    let v2 = build_models(&c, "v1", OpenApiVersion::V2, &BuildOptions::default()).expect("built");
    assert!(v2.schema.get("properties").is_none());
    let v3 = build_models(&c, "v1", OpenApiVersion::V3, &BuildOptions::default()).expect("built");
    assert_eq!(v3.schema["properties"]["a"], json!({"type": "string"}));
}

/// Every `$ref` of a document names one of its definitions.
fn assert_self_contained(defs: &Map<String, Value>, prefix: &str) {
    for def in defs.values() {
        let mut def = def.clone();
        let mut refs = BTreeSet::new();
        if let Value::Object(m) = &mut def {
            collect_refs(m, &mut refs);
        }
        for r in refs {
            let name = r.strip_prefix(prefix).unwrap_or("");
            assert!(defs.contains_key(name), "dangling {r}");
        }
    }
}

#[test]
fn documents_are_self_contained() {
    let c = foo_crd(
        "v1",
        Some(json!({"type": "object", "properties": {"a": {"type": "string"}}})),
        None,
    );
    let v2 = publish_v2(&c, &Options::default()).expect("v2");
    assert_eq!(v2["swagger"], "2.0");
    let defs = v2["definitions"].as_object().expect("definitions");
    let names: Vec<&String> = defs.keys().collect();
    assert_eq!(
        names,
        [
            "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
            "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo",
            "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
            "io.k8s.bar.v1.Foo",
            "io.k8s.bar.v1.FooList",
        ]
    );
    assert_self_contained(defs, DEFINITION_PREFIX_V2);
    let om = &defs[OBJECT_META_MODEL]["properties"];
    assert_eq!(
        om["creationTimestamp"]["$ref"],
        "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
    );
    assert!(
        om["labels"]["additionalProperties"]
            .get("default")
            .is_none()
    );

    let v3 = publish_v3(&c, &Options::default()).expect("v3");
    let doc = &v3["apis/bar.k8s.io/v1"];
    assert_eq!(doc["openapi"], "3.0.0");
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    assert_eq!(schemas.len(), 9);
    assert_self_contained(schemas, DEFINITION_PREFIX_V3);
    // 1.37's builder publishes no defaults inside ObjectMeta.
    assert!(
        schemas[OBJECT_META_MODEL]["properties"]["labels"]["additionalProperties"]
            .get("default")
            .is_none()
    );
}

#[test]
fn bare_schemas() {
    let p = props(&json!({
        "type": "object",
        "properties": {"a": {"x-kubernetes-int-or-string": true, "default": 1, "nullable": true}},
    }));
    assert_eq!(
        publish_schema_v3(&p, &Options::default()),
        Ok(json!({"type": "object", "properties": {"a": {
            "nullable": true, "default": 1,
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "x-kubernetes-int-or-string": true}}}))
    );
    assert_eq!(
        publish_schema_v2(&p, &Options::default()),
        Ok(json!({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true}}}))
    );
    assert_eq!(
        publish_schema_v3(&props(&json!({"type": "bug"})), &Options::default()),
        Err(PublishError::InvalidTypes)
    );
    assert!(matches!(
        publish_schema_v3(
            &props(&json!({"type": "object", "properties": {"a": {}}})),
            &Options::default()
        ),
        Err(PublishError::NonStructural(_))
    ));
    assert!(matches!(
        publish_schema_v2(&props(&json!({"$ref": "#/x"})), &Options::default()),
        Err(PublishError::NewStructural(_))
    ));
}

#[test]
fn wrap_refs_only_with_siblings() {
    let mut m = json!({"properties": {
        "a": {"$ref": "#/components/schemas/x"},
        "b": {"$ref": "#/components/schemas/x", "description": "d"},
        "c": {"$ref": "", "description": "d"},
    }});
    if let Value::Object(m) = &mut m {
        wrap_refs(m);
    }
    assert_eq!(
        m,
        json!({"properties": {
            "a": {"$ref": "#/components/schemas/x"},
            "b": {"description": "d", "allOf": [{"$ref": "#/components/schemas/x"}]},
            "c": {"$ref": "", "description": "d"},
        }})
    );
}

// ---------------------------------------------------------------------------
// Corpus
// ---------------------------------------------------------------------------

fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SCHEMA_GEN_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../shared/corpus/crds"
            ))
        });
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("SCHEMA_GEN_REQUIRE_SHARED").as_deref() != Ok("1"),
        "corpus folder {} is missing and SCHEMA_GEN_REQUIRE_SHARED=1",
        dir.display()
    );
    println!(
        "notice: {} not found (set SCHEMA_GEN_CORPUS_DIR); skipped",
        dir.display()
    );
    None
}

fn yaml_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Schema-level keys forbidden in a v2 model, found anywhere in it.
fn v2_forbidden_keys(m: &mut Map<String, Value>, at: &str, out: &mut Vec<String>) {
    for key in ["nullable", "anyOf", "oneOf", "allOf", "not", "default"] {
        if m.contains_key(key) {
            out.push(format!("{at}: {key}"));
        }
    }
    for_each_child_schema(m, &mut |c| v2_forbidden_keys(c, at, out));
}

/// Int-or-string nodes (structural ones: properties, items,
/// additionalProperties) without their unfolded `anyOf`.
fn folded_int_or_string(m: &Map<String, Value>, at: &str, out: &mut Vec<String>) {
    let pattern = json!([{"type": "integer"}, {"type": "string"}]);
    if m.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
        let any_of = m.get("anyOf") == Some(&pattern);
        let all_of = m
            .get("allOf")
            .and_then(|a| a.get(0))
            .and_then(|a| a.get("anyOf"))
            == Some(&pattern);
        if !any_of && !all_of {
            out.push(at.to_string());
        }
    }
    if let Some(Value::Object(props)) = m.get("properties") {
        for (k, p) in props {
            if let Value::Object(p) = p {
                folded_int_or_string(p, &format!("{at}.{k}"), out);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(Value::Object(c)) = m.get(key) {
            folded_int_or_string(c, &format!("{at}[{key}]"), out);
        }
    }
}

fn count_int_or_string(v: &Value) -> usize {
    match v {
        Value::Object(m) => {
            usize::from(m.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)))
                + m.values().map(count_int_or_string).sum::<usize>()
        }
        Value::Array(a) => a.iter().map(count_int_or_string).sum(),
        _ => 0,
    }
}

#[test]
fn corpus_publishes() {
    let Some(dir) = corpus_dir() else { return };
    let (mut crds, mut versions, mut fallbacks, mut int_or_string) = (0, 0, 0, 0);
    let mut problems = Vec::new();
    for file in yaml_files(&dir) {
        let name = file.display().to_string();
        let bytes = std::fs::read(&file).expect("read corpus file");
        let docs = crate::model::source::parse_documents(
            &name,
            &bytes,
            &crate::model::source::Limits::default(),
        )
        .expect("corpus file parses");
        for doc in docs {
            let Ok((input, _)) = crate::model::wire::input::read_input(&doc.value) else {
                continue;
            };
            let Some(c) = input.crd() else { continue };
            crds += 1;
            let names = crd_names(c);
            let served = served_versions(c);
            let v2 = match publish_v2(c, &Options::default()) {
                Ok(v) => v,
                Err(e) => {
                    problems.push(format!("{name}: v2: {e}"));
                    continue;
                }
            };
            let v3 = match publish_v3(c, &Options::default()) {
                Ok(v) => v,
                Err(e) => {
                    problems.push(format!("{name}: v3: {e}"));
                    continue;
                }
            };
            let defs = v2["definitions"].as_object().cloned().unwrap_or_default();
            assert_self_contained(&defs, DEFINITION_PREFIX_V2);
            for version in &served {
                versions += 1;
                for model in [
                    model_name(names.group, version, names.kind),
                    model_name(names.group, version, &names.list_kind),
                ] {
                    let at = format!("{name} {model}");
                    match defs.get(&model).cloned() {
                        Some(Value::Object(mut m)) => {
                            v2_forbidden_keys(&mut m, &at, &mut problems);
                        }
                        _ => problems.push(format!("{at}: missing from v2")),
                    }
                }
                let key = format!("apis/{}/{version}", names.group);
                let schemas = v3
                    .get(&key)
                    .and_then(|d| d["components"]["schemas"].as_object())
                    .cloned()
                    .unwrap_or_default();
                assert_self_contained(&schemas, DEFINITION_PREFIX_V3);
                let model = model_name(names.group, version, names.kind);
                match schemas.get(&model) {
                    Some(Value::Object(m)) => {
                        if !m.contains_key("properties") {
                            fallbacks += 1;
                        }
                        int_or_string += count_int_or_string(&Value::Object(m.clone()));
                        folded_int_or_string(m, &format!("{name} {model}"), &mut problems);
                    }
                    _ => problems.push(format!("{name} {model}: missing from v3 {key}")),
                }
            }
        }
    }
    for p in &problems {
        println!("PROBLEM {p}");
    }
    println!(
        "corpus: {crds} CRDs, {versions} served versions ({fallbacks} published as {{type: object}}), {int_or_string} int-or-string nodes in v3"
    );
    assert!(crds > 0, "no CRDs found in {}", dir.display());
    assert!(problems.is_empty(), "{} problems", problems.len());
}

/// Every non-extension field of `JSONSchemaProps` has its place in
/// kube-openapi's order, and the fields both structs have come in the same
/// relative order except for `nullable`, `$schema` and `$ref`.
#[test]
fn schema_key_order_covers_json_schema_props() {
    let moved = ["nullable", "$schema", "$ref"];
    let shared: Vec<&str> = JsonSchemaProps::KEYS
        .iter()
        .copied()
        .filter(|k| !k.starts_with("x-") && !moved.contains(k))
        .collect();
    for k in JsonSchemaProps::KEYS
        .iter()
        .filter(|k| !k.starts_with("x-"))
    {
        assert!(SCHEMA_KEY_ORDER.contains(k), "{k} has no place");
    }
    let in_kube_order: Vec<&str> = SCHEMA_KEY_ORDER
        .iter()
        .copied()
        .filter(|k| shared.contains(k))
        .collect();
    assert_eq!(in_kube_order, shared);
}
