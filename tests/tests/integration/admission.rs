//! Create admission of sample objects against real corpus CRDs: valid
//! objects (with pruning, defaulting and the status drop visible) and
//! invalid ones with the exact errors the API server reports, in its order.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::input::read_input_owned;
use schema_core::object::admission::{Admission, Admitted};

/// Admits the object `yaml` as the CRD at `crd` (below the corpus folder),
/// in the version of the object's `apiVersion`; `None` without the corpus.
fn admit(crd: &str, yaml: &str) -> Option<Admitted> {
    let dir = tests::corpus_dir()?;
    let bytes = std::fs::read(dir.join(crd)).unwrap();
    let docs = parse_documents(crd, &bytes, &Limits::default()).unwrap();
    let doc = docs.into_iter().next().unwrap();
    let (input, _) = read_input_owned(doc.value).unwrap();
    let crd = input.crd().unwrap();
    let obj = parse_documents("object.yaml", yaml.as_bytes(), &Limits::default())
        .unwrap()
        .remove(0)
        .value;
    let version = obj["apiVersion"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap();
    let admission = Admission::for_crd(crd, version, &schema_core::Options::default()).unwrap();
    Some(admission.create(obj))
}

#[test]
fn cert_manager_certificate_valid() {
    let Some(a) = admit(
        "cert-manager/cert-manager.io_certificates.yaml",
        r#"apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: web
  namespace: default
spec:
  secretName: web-tls
  dnsNames: [example.com, www.example.com]
  issuerRef:
    name: letsencrypt
    kind: ClusterIssuer
  colour: red
status:
  conditions: []
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [] as [&str; 0],
    );
    assert_eq!(a.pruned, ["spec.colour"] as [&str; 1]);
    assert_eq!(
        a.object.pointer("/spec/secretName"),
        Some(&serde_json::json!("web-tls"))
    );
    assert!(a.object.get("status").is_none());
}

#[test]
fn cert_manager_certificate_invalid() {
    let Some(a) = admit(
        "cert-manager/cert-manager.io_certificates.yaml",
        r#"apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: web
spec:
  dnsNames: [example.com]
  duration: 5
  privateKey:
    algorithm: DSA
  usages: [signing, teleport]
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "spec.duration: Invalid value: \"integer\": spec.duration in body must be of type string: \"integer\"",
            "spec.privateKey.algorithm: Unsupported value: \"DSA\": supported values: \"RSA\", \"ECDSA\", \"Ed25519\"",
            "spec.usages[1]: Unsupported value: \"teleport\": supported values: \"signing\", \"digital signature\", \"content commitment\", \"key encipherment\", \"key agreement\", \"data encipherment\", \"cert sign\", \"crl sign\", \"encipher only\", \"decipher only\", \"any\", \"server auth\", \"client auth\", \"code signing\", \"email protection\", \"s/mime\", \"ipsec end system\", \"ipsec tunnel\", \"ipsec user\", \"timestamping\", \"ocsp signing\", \"microsoft sgc\", \"netscape sgc\"",
            "spec.issuerRef: Required value",
            "spec.secretName: Required value"
        ] as [&str; 5],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
}

#[test]
fn flux_kustomization_valid() {
    let Some(a) = admit(
        "flux/kustomize.toolkit.fluxcd.io_kustomizations.yaml",
        r#"apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: flux-system
spec:
  interval: 10m
  path: ./apps
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  postBuild:
    substituteFrom:
    - kind: ConfigMap
      name: vars
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [] as [&str; 0],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
    assert_eq!(
        a.object.pointer("/spec/force"),
        Some(&serde_json::json!(false))
    );
    assert_eq!(
        a.object
            .pointer("/spec/postBuild/substituteFrom/0/optional"),
        Some(&serde_json::json!(false))
    );
}

#[test]
fn flux_kustomization_invalid() {
    let Some(a) = admit(
        "flux/kustomize.toolkit.fluxcd.io_kustomizations.yaml",
        r#"apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
spec:
  interval: 5 minutes
  sourceRef:
    kind: HelmRepository
    name: charts
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "spec.interval: Invalid value: \"5 minutes\": spec.interval in body should match '^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$'",
            "spec.sourceRef.kind: Unsupported value: \"HelmRepository\": supported values: \"OCIRepository\", \"GitRepository\", \"Bucket\", \"ExternalArtifact\"",
            "spec.prune: Required value",
            // The CRD has x-kubernetes-validations rules; a required value
            // error blocks them.
            "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
        ] as [&str; 4],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
}

#[test]
fn gateway_httproute_valid() {
    let Some(a) = admit(
        "gateway-api/gateway.networking.k8s.io_httproutes.yaml",
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: public
  hostnames: [example.com]
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [] as [&str; 0],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
    assert_eq!(
        a.object.pointer("/spec/parentRefs/0/group"),
        Some(&serde_json::json!("gateway.networking.k8s.io"))
    );
    assert_eq!(
        a.object.pointer("/spec/parentRefs/0/kind"),
        Some(&serde_json::json!("Gateway"))
    );
    assert_eq!(
        a.object.pointer("/spec/rules"),
        Some(&serde_json::json!([{"matches": [{"path": {"type": "PathPrefix", "value": "/"}}]}]))
    );
}

#[test]
fn gateway_httproute_invalid() {
    let Some(a) = admit(
        "gateway-api/gateway.networking.k8s.io_httproutes.yaml",
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  hostnames: [Example.COM]
  parentRefs:
  - name: public
    port: 70000
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "spec.hostnames[0]: Invalid value: \"Example.COM\": spec.hostnames[0] in body should match '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'",
            "spec.parentRefs[0].port: Invalid value: 70000: spec.parentRefs[0].port in body should be less than or equal to 65535"
        ] as [&str; 2],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
}

#[test]
fn keda_scaledobject_valid() {
    let Some(a) = admit(
        "keda/keda.sh_scaledobjects.yaml",
        r#"apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: worker
spec:
  scaleTargetRef:
    name: worker
  fallback:
    failureThreshold: 3
    replicas: 2
  triggers:
  - type: cpu
    metadata:
      value: "60"
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [] as [&str; 0],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
    assert_eq!(
        a.object.pointer("/spec/fallback/behavior"),
        Some(&serde_json::json!("static"))
    );
}

#[test]
fn keda_scaledobject_invalid() {
    let Some(a) = admit(
        "keda/keda.sh_scaledobjects.yaml",
        r#"apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: worker
spec:
  scaleTargetRef: {}
  minReplicaCount: "1"
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "spec.minReplicaCount: Invalid value: \"string\": spec.minReplicaCount in body must be of type integer: \"string\"",
            "spec.scaleTargetRef.name: Required value",
            "spec.triggers: Required value",
            "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
        ] as [&str; 4],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
}

#[test]
fn prometheus_servicemonitor_valid() {
    let Some(a) = admit(
        "prometheus-operator/monitoring.coreos.com_servicemonitors.yaml",
        r#"apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: api
  labels: {team: core}
spec:
  selector:
    matchLabels: {app: api}
  endpoints:
  - port: http
    interval: 30s
    bearerTokenSecret:
      key: token
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [] as [&str; 0],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
    assert_eq!(
        a.object.pointer("/spec/endpoints/0/bearerTokenSecret/name"),
        Some(&serde_json::json!(""))
    );
}

#[test]
fn prometheus_servicemonitor_invalid() {
    let Some(a) = admit(
        "prometheus-operator/monitoring.coreos.com_servicemonitors.yaml",
        r#"apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: api
  labels: {"bad key!": x}
spec:
  endpoints:
  - port: http
    interval: 30 seconds
    scheme: ftp
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "spec.endpoints[0].interval: Invalid value: \"30 seconds\": spec.endpoints[0].interval in body should match '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$'",
            "spec.endpoints[0].scheme: Unsupported value: \"ftp\": supported values: \"http\", \"https\", \"HTTP\", \"HTTPS\"",
            "spec.selector: Required value"
        ] as [&str; 4],
    );
    assert_eq!(a.pruned, [] as [&str; 0]);
}

#[test]
fn wrong_kind_and_api_version_stop_validation() {
    let Some(a) = admit(
        "prometheus-operator/monitoring.coreos.com_servicemonitors.yaml",
        r#"apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata:
  name: Not_A_Name
spec: {}
"#,
    ) else {
        return;
    };
    // Only the type errors: the server checks nothing else then.
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [r#"kind: Invalid value: "PodMonitor": must be ServiceMonitor"#],
    );
}

#[test]
fn missing_name_is_required_and_generate_name_stands_in() {
    let obj = |meta: &str| {
        format!(
            "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {meta}\nspec:\n  scaleTargetRef: {{name: w}}\n  triggers: [{{type: cpu, metadata: {{}}}}]\n"
        )
    };
    let crd = "keda/keda.sh_scaledobjects.yaml";
    let Some(a) = admit(crd, &obj("{}")) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "metadata.name: Required value: name or generateName is required",
            "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ],
    );
    let a = admit(crd, &obj("{generateName: worker-}")).unwrap();
    assert!(a.errors.is_empty(), "{:?}", a.errors);
}

/// Admission of `yaml` as the CRD at `crd`; the update of `old_yaml` to
/// `yaml` when `old_yaml` is given.
fn admit_update(crd: &str, yaml: &str, old_yaml: &str) -> Option<Admitted> {
    let dir = tests::corpus_dir()?;
    let bytes = std::fs::read(dir.join(crd)).unwrap();
    let docs = parse_documents(crd, &bytes, &Limits::default()).unwrap();
    let doc = docs.into_iter().next().unwrap();
    let (input, _) = read_input_owned(doc.value).unwrap();
    let crd = input.crd().unwrap();
    let parse = |y: &str| {
        parse_documents("object.yaml", y.as_bytes(), &Limits::default())
            .unwrap()
            .remove(0)
            .value
    };
    let (obj, old) = (parse(yaml), parse(old_yaml));
    let version = obj["apiVersion"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    let admission = Admission::for_crd(crd, &version, &schema_core::Options::default()).unwrap();
    Some(admission.update(obj, old))
}

const GATEWAY_CRD: &str = "gateway-api/gateway.networking.k8s.io_gateways.yaml";

#[test]
fn gateway_listener_rules_fail_with_the_server_messages() {
    let Some(a) = admit(
        GATEWAY_CRD,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: web
  namespace: default
spec:
  gatewayClassName: example
  listeners:
  - name: web
    port: 80
    protocol: HTTP
    tls:
      mode: Terminate
  - name: secure
    port: 443
    protocol: HTTPS
    hostname: example.com
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "spec.listeners: Invalid value: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']",
            // `size(self.certificateRefs) > 0 || size(self.options) > 0`
            // on a tls without either: both sides are errors, and `||`
            // reports the first, as cel-go does.
            "spec.listeners[0].tls: Invalid value: \"object\": no such key: certificateRefs evaluating rule: certificateRefs or options must be specified when mode is Terminate",
        ],
    );
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
}

#[test]
fn gateway_valid_object_passes_every_rule() {
    let Some(a) = admit(
        GATEWAY_CRD,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: web
spec:
  gatewayClassName: example
  addresses:
  - type: Hostname
    value: lb.example.com
  listeners:
  - name: web
    port: 80
    protocol: HTTP
  - name: secure
    port: 443
    protocol: HTTPS
    hostname: "*.example.com"
    tls:
      mode: Terminate
      certificateRefs:
      - name: cert
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [] as [&str; 0],
    );
}

#[test]
fn gateway_rule_on_map_keys_and_messages_from_each_rule() {
    let Some(a) = admit(
        GATEWAY_CRD,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: web
spec:
  gatewayClassName: example
  addresses:
  - type: Hostname
    value: "Not_A_Host"
  listeners:
  - name: web
    port: 80
    protocol: HTTP
  - name: web2
    port: 80
    protocol: HTTP
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "spec.addresses[0]: Invalid value: Hostname value must be empty or contain only valid characters (matching ^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)",
            "spec.listeners: Invalid value: Combination of port, protocol and hostname must be unique for each listener",
        ],
    );
}

#[test]
fn blocking_errors_skip_the_rules() {
    let Some(a) = admit(
        GATEWAY_CRD,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: web
spec:
  listeners:
  - name: web
    port: 80
    protocol: HTTP
    tls: {mode: Terminate}
"#,
    ) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "spec.gatewayClassName: Required value",
            "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ],
    );
}

#[test]
fn update_ratchets_unchanged_rule_failures_and_runs_transition_rules() {
    let old = r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: web
  resourceVersion: "1"
spec:
  gatewayClassName: example
  listeners:
  - name: web
    port: 80
    protocol: HTTP
    tls: {mode: Terminate, certificateRefs: [{name: cert}]}
"#;
    // The old object already breaks a rule; an update that leaves the
    // listeners alone is admitted with the failure as a warning.
    let new = old.replace("gatewayClassName: example", "gatewayClassName: other");
    let Some(a) = admit_update(GATEWAY_CRD, &new, old) else {
        return;
    };
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [] as [&str; 0],
    );
    assert_eq!(
        a.ratcheted
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "spec.listeners: Invalid value: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"
        ]
    );
    // Changing the listeners makes it an error again.
    let new = old.replace("port: 80", "port: 8080");
    let a = admit_update(GATEWAY_CRD, &new, old).unwrap();
    assert_eq!(
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "spec.listeners: Invalid value: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"
        ],
    );
}
