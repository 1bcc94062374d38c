//! Fixtures of the rules on defaults, list and map semantics, printer
//! columns, selectable fields and subresources.

use super::*;

#[test]
fn default_added() {
    prop_case(
        json!({"type": "integer"}),
        json!({"type": "integer", "default": 3}),
        &rules::DEFAULT_ADDED,
        Warning,
        false,
    );
}

#[test]
fn default_changed() {
    let f = prop_case(
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"a": "x"}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"a": "y"}}),
        &rules::DEFAULT_CHANGED,
        Warning,
        false,
    );
    assert!(f.message.contains(r#"{"a":"x"} to {"a":"y"}"#), "{f}");
}

#[test]
fn default_removed() {
    prop_case(
        json!({"type": "integer", "default": 3}),
        json!({"type": "integer"}),
        &rules::DEFAULT_REMOVED,
        Info,
        false,
    );
}

// ----- List and map semantics -----

fn map_list(keys: &[&str]) -> Value {
    json!({
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": keys,
        "items": {"type": "object", "required": ["name", "port"], "properties": {
            "name": {"type": "string"}, "port": {"type": "integer"}
        }}
    })
}

#[test]
fn list_type_changed() {
    let f = prop_case(
        list(json!({})),
        list(json!({"x-kubernetes-list-type": "set"})),
        &rules::LIST_TYPE_CHANGED,
        Error,
        false,
    );
    assert!(f.message.contains("duplicate"), "{f}");
}

#[test]
fn list_type_changed_to_atomic() {
    let report = run(
        &base_with_spec(json!({"type": "object", "properties": {"f": map_list(&["name"])}})),
        &base_with_spec(json!({"type": "object", "properties": {"f": list(json!({
            "x-kubernetes-list-type": "atomic",
            "items": {"type": "object", "required": ["name", "port"], "properties": {
                "name": {"type": "string"}, "port": {"type": "integer"}
            }}
        }))}})),
    );
    let f = only(&report, &rules::LIST_TYPE_CHANGED, &[]);
    assert!(f.message.contains("conflict"), "{f}");
}

#[test]
fn list_type_equivalent() {
    prop_case(
        list(json!({})),
        list(json!({"x-kubernetes-list-type": "atomic"})),
        &rules::LIST_TYPE_EQUIVALENT,
        Info,
        false,
    );
}

#[test]
fn list_map_keys_changed() {
    prop_case(
        map_list(&["name", "port"]),
        map_list(&["name"]),
        &rules::LIST_MAP_KEYS_CHANGED,
        Error,
        false,
    );
}

#[test]
fn list_map_keys_reordered_is_no_change() {
    let report = run(
        &base_with_spec(
            json!({"type": "object", "properties": {"f": map_list(&["name", "port"])}}),
        ),
        &base_with_spec(
            json!({"type": "object", "properties": {"f": map_list(&["port", "name"])}}),
        ),
    );
    assert!(report.is_empty(), "{report:#?}");
}

#[test]
fn map_type_changed() {
    prop_case(
        obj(json!({"x-kubernetes-map-type": "granular"})),
        obj(json!({"x-kubernetes-map-type": "atomic"})),
        &rules::MAP_TYPE_CHANGED,
        Warning,
        false,
    );
}

#[test]
fn map_type_made_granular() {
    prop_case(
        obj(json!({"x-kubernetes-map-type": "atomic"})),
        obj(json!({})),
        &rules::MAP_TYPE_MADE_GRANULAR,
        Warning,
        false,
    );
}

#[test]
fn map_type_equivalent() {
    prop_case(
        obj(json!({})),
        obj(json!({"x-kubernetes-map-type": "granular"})),
        &rules::MAP_TYPE_EQUIVALENT,
        Info,
        false,
    );
}

// ----- Printer columns, selectable fields, subresources -----

fn with_version(f: impl FnOnce(&mut Value)) -> Value {
    with(|c| f(&mut c["spec"]["versions"][0]))
}

fn column(name: &str, path: &str) -> Value {
    json!({"name": name, "type": "string", "jsonPath": path})
}

#[test]
fn printer_column_removed() {
    let old =
        with_version(|v| v["additionalPrinterColumns"] = json!([column("Size", ".spec.size")]));
    version_case(old, base(), &rules::PRINTER_COLUMN_REMOVED, Warning, "v1");
}

#[test]
fn printer_column_changed() {
    let old =
        with_version(|v| v["additionalPrinterColumns"] = json!([column("Size", ".spec.size")]));
    let new =
        with_version(|v| v["additionalPrinterColumns"] = json!([column("Size", ".status.size")]));
    let f = version_case(old, new, &rules::PRINTER_COLUMN_CHANGED, Info, "v1");
    assert!(
        f.message.contains("\".spec.size\" to \".status.size\""),
        "{f}"
    );
}

#[test]
fn printer_column_added() {
    let new =
        with_version(|v| v["additionalPrinterColumns"] = json!([column("Size", ".spec.size")]));
    version_case(base(), new, &rules::PRINTER_COLUMN_ADDED, Info, "v1");
}

#[test]
fn selectable_field_removed() {
    let old = with_version(|v| v["selectableFields"] = json!([{"jsonPath": ".spec.size"}]));
    check(
        old,
        base(),
        &rules::SELECTABLE_FIELD_REMOVED,
        Warning,
        Some("v1"),
        Some("spec.size"),
        None,
        false,
    );
}

#[test]
fn selectable_field_added() {
    let new = with_version(|v| v["selectableFields"] = json!([{"jsonPath": ".spec.size"}]));
    check(
        base(),
        new,
        &rules::SELECTABLE_FIELD_ADDED,
        Info,
        Some("v1"),
        None,
        Some("spec.size"),
        false,
    );
}

#[test]
fn status_subresource_removed() {
    let old = with_version(|v| v["subresources"] = json!({"status": {}}));
    version_case(old, base(), &rules::STATUS_SUBRESOURCE_REMOVED, Error, "v1");
}

#[test]
fn status_subresource_added() {
    let new = with_version(|v| v["subresources"] = json!({"status": {}}));
    version_case(base(), new, &rules::STATUS_SUBRESOURCE_ADDED, Warning, "v1");
}

fn scale(spec: &str) -> Value {
    json!({"scale": {"specReplicasPath": spec, "statusReplicasPath": ".status.replicas"}})
}

#[test]
fn scale_subresource_removed() {
    let old = with_version(|v| v["subresources"] = scale(".spec.replicas"));
    version_case(old, base(), &rules::SCALE_SUBRESOURCE_REMOVED, Error, "v1");
}

#[test]
fn scale_path_changed() {
    let old = with_version(|v| v["subresources"] = scale(".spec.replicas"));
    let new = with_version(|v| v["subresources"] = scale(".spec.size"));
    check(
        old,
        new,
        &rules::SCALE_PATH_CHANGED,
        Error,
        Some("v1"),
        Some("spec.replicas"),
        Some("spec.size"),
        false,
    );
}

#[test]
fn scale_subresource_added() {
    let new = with_version(|v| v["subresources"] = scale(".spec.replicas"));
    version_case(base(), new, &rules::SCALE_SUBRESOURCE_ADDED, Info, "v1");
}
