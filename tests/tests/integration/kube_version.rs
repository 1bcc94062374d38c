//! `KubeVersion`: what differs between the Kubernetes releases 1.30 to
//! 1.37 in checking, admitting and publishing, through the library's
//! entry points, each given `Options` with a release, and the derive's
//! `crd_with`.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::CustomResourceDefinition;
use schema_core::model::wire::input::{Input, read_input};
use schema_core::rust::CustomResource;
use schema_core::{Admission, KubeVersion, Options, StructuralSchema, check, publish_v3};
use serde::{Deserialize, Serialize};
use serde_json::json;

const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    selectableFields:
    - jsonPath: .spec.name
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            example: {name: a}
            properties:
              name: {type: string, maxLength: 63}
              addr:
                type: string
                maxLength: 64
                x-kubernetes-validations:
                - rule: "isIP(self)"
              host:
                type: string
                maxLength: 64
                x-kubernetes-validations:
                - rule: "!format.dns1123Label().validate(self).hasValue()"
              l:
                type: array
                maxItems: 10
                items: {type: integer}
                x-kubernetes-validations:
                - rule: "self.all(i, v, v >= i)"
                - rule: "lists.range(3).size() == 3"
              version:
                type: string
                maxLength: 64
                x-kubernetes-validations:
                - rule: "isSemver(self)"
"#;

fn input() -> Input {
    let docs = parse_documents("crd.yaml", CRD.as_bytes(), &Limits::default()).unwrap();
    read_input(&docs[0].value).unwrap().0
}

fn crd() -> CustomResourceDefinition {
    input().crd().cloned().unwrap()
}

/// The rule paths `check` rejects at `kube`, as
/// `<property>[<rule index>]`.
fn rejected_rules(kube: KubeVersion) -> Vec<String> {
    let report = check(&input(), &Options::new().with_kube_version(kube));
    report
        .errors
        .iter()
        .map(|e| {
            let f = e.field.to_string();
            let prop = f
                .split("properties[spec].properties[")
                .nth(1)
                .and_then(|r| r.split(']').next())
                .unwrap_or_default()
                .to_string();
            let index = f
                .split("x-kubernetes-validations[")
                .nth(1)
                .and_then(|r| r.split(']').next())
                .unwrap_or_default()
                .to_string();
            assert!(
                e.to_string().contains("undeclared reference"),
                "{kube}: {e}"
            );
            format!("{prop}[{index}]")
        })
        .collect()
}

fn v(minor: u32) -> KubeVersion {
    KubeVersion::new(minor).unwrap()
}

/// The options of release `1.minor`.
fn at(minor: u32) -> Options {
    Options::new().with_kube_version(v(minor))
}

#[test]
fn new_rules_compile_in_the_previous_releases_environment() {
    // 1.30 compiles new rules as 1.29 did: none of the later libraries.
    assert_eq!(
        rejected_rules(v(30)),
        ["addr[0]", "host[0]", "l[0]", "l[1]", "version[0]"]
    );
    // 1.31: ip and cidr (from 1.30).
    assert_eq!(
        rejected_rules(v(31)),
        ["host[0]", "l[0]", "l[1]", "version[0]"]
    );
    // 1.32: format (from 1.31).
    assert_eq!(rejected_rules(v(32)), ["l[0]", "l[1]", "version[0]"]);
    // 1.33: two-variable comprehensions (from 1.32).
    assert_eq!(rejected_rules(v(33)), ["l[1]", "version[0]"]);
    // 1.34: semver (from 1.33).
    assert_eq!(rejected_rules(v(34)), ["l[1]"]);
    // 1.35 on: cel-go's lists extension (from 1.34).
    for k in [35, 36, 37] {
        assert!(rejected_rules(v(k)).is_empty(), "1.{k}");
    }
    assert!(
        schema_core::check(&input(), &Options::default())
            .errors
            .is_empty()
    );
}

#[test]
fn selectable_fields_are_dropped_where_the_gate_is_off() {
    let report = check(&input(), &at(30));
    let warnings: Vec<String> = report
        .warnings
        .iter()
        .map(|w| format!("{}: {}", w.field, w.message))
        .collect();
    assert!(
        warnings.contains(
            &"spec.versions[0].selectableFields: dropped: Kubernetes 1.30 has the CustomResourceFieldSelectors feature gate off by default".to_string()
        ),
        "{warnings:?}"
    );
    assert!(check(&input(), &at(31)).warnings.is_empty());
}

#[test]
fn publishing_follows_the_release() {
    let published = |k: u32| {
        let docs = publish_v3(&crd(), &at(k)).unwrap();
        let doc = &docs["apis/example.com/v1"];
        let model = &doc["components"]["schemas"]["com.example.v1.Widget"];
        (
            model["properties"]["spec"].get("example").is_some(),
            model.get("x-kubernetes-selectable-fields").is_some(),
        )
    };
    assert_eq!(published(30), (false, false));
    assert_eq!(published(35), (false, true));
    assert_eq!(published(36), (true, true));
    assert_eq!(published(37), (true, true));
    // 1.32 lists no selectable fields as an empty list.
    let mut without = crd();
    for v in without.spec.as_mut().unwrap().versions.as_mut().unwrap() {
        v.selectable_fields = None;
    }
    let selectable = |k: u32| {
        let docs = publish_v3(&without, &at(k)).unwrap();
        docs["apis/example.com/v1"]["components"]["schemas"]["com.example.v1.Widget"]
            .get("x-kubernetes-selectable-fields")
            .cloned()
    };
    assert_eq!(selectable(32), Some(json!([])));
    assert_eq!(selectable(31), None);
    assert_eq!(selectable(33), None);
}

#[test]
fn stored_rules_are_compiled_with_the_releases_own_libraries() {
    // Objects are validated with every library of the server's release
    // (the environment of stored rules), one release more than new rules
    // get: a 1.34 server evaluates a stored `lists.range` rule.
    let crd = crd();
    let object = json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "w", "namespace": "default"},
        "spec": {"l": [0, 1], "version": "1.2.3", "addr": "10.0.0.1", "host": "a"}
    });
    let at_34 = Admission::for_crd(&crd, "v1", &at(34)).unwrap();
    let admitted = at_34.create(object.clone());
    assert!(admitted.errors.is_empty(), "{:?}", admitted.errors);
    // 1.33 does not have it: the rule cannot be compiled.
    let at_33 = Admission::for_crd(&crd, "v1", &at(33)).unwrap();
    let errors: Vec<String> = at_33
        .create(object)
        .errors
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("spec.l: Invalid value: \"array\": rule compile error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'lists'"),
        "{errors:?}"
    );
}

/// A spec whose rule needs the `ip` library (new in 1.30's environment).
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Endpoint"))]
pub struct EndpointSpec {
    #[schema(max_length = 64, validation(rule = "isIP(self)"))]
    pub address: String,
}

#[test]
fn the_derive_validates_for_a_release() {
    assert!(Endpoint::crd().is_ok());
    assert!(Endpoint::crd_with(&at(31)).is_ok());
    let e = Endpoint::crd_with(&at(30)).unwrap_err().to_string();
    assert!(e.contains("undeclared reference to 'isIP'"), "{e}");
}
