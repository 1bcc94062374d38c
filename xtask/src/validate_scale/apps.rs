//! The built-in objects of `bench-validate-scale`'s repository: application
//! bundles (a workload and the objects around it) with the names and
//! settings of a GitOps repository, and the mistakes made in some of them.

use serde_json::{Value, json};

use crate::bench_repo::generate::Rng;

pub(super) const TEAMS: [&str; 8] = [
    "payments", "search", "identity", "platform", "data", "web", "mobile", "ml",
];

pub(super) const ENVS: [&str; 3] = ["prod", "staging", "dev"];

pub(super) const CLUSTERS: [&str; 3] = ["eu-west-1", "us-east-1", "ap-south-1"];

pub(super) const WORDS: [&str; 24] = [
    "api",
    "worker",
    "gateway",
    "frontend",
    "backend",
    "cache",
    "indexer",
    "scheduler",
    "notifier",
    "billing",
    "ledger",
    "auth",
    "session",
    "profile",
    "catalog",
    "cart",
    "checkout",
    "report",
    "export",
    "import",
    "sync",
    "audit",
    "metrics",
    "router",
];

/// An application: the names and settings its objects share.
pub(super) struct App {
    pub(super) name: String,
    team: &'static str,
    namespace: String,
    image: String,
    port: u64,
}

impl App {
    pub(super) fn new(r: &mut Rng, team: &'static str, i: usize) -> Self {
        let name = format!("{}-{}-{i}", r.pick(&WORDS), r.pick(&WORDS));
        let registry = *r.pick(&[
            "ghcr.io/example",
            "registry.example.com/apps",
            "docker.io/example",
        ]);
        App {
            image: format!(
                "{registry}/{name}:v{}.{}.{}",
                1 + r.below(3),
                r.below(20),
                r.below(10)
            ),
            namespace: format!("{team}-{}", r.pick(&ENVS)),
            port: *r.pick(&[8080, 8000, 3000, 9000, 5000]),
            name,
            team,
        }
    }

    fn labels(&self) -> Value {
        json!({
            "app.kubernetes.io/name": self.name,
            "app.kubernetes.io/instance": format!("{}-{}", self.name, self.namespace),
            "app.kubernetes.io/part-of": self.team,
            "app.kubernetes.io/managed-by": "argocd",
        })
    }

    fn selector(&self) -> Value {
        json!({"app.kubernetes.io/name": self.name, "app.kubernetes.io/instance": format!("{}-{}", self.name, self.namespace)})
    }

    fn meta(&self, r: &mut Rng, suffix: &str) -> Value {
        let mut m = json!({
            "name": format!("{}{suffix}", self.name),
            "namespace": self.namespace,
            "labels": self.labels(),
        });
        if r.percent(40) {
            m["annotations"] = json!({
                "argocd.argoproj.io/sync-wave": r.below(5).to_string(),
                "example.com/owner": format!("team-{}@example.com", self.team),
            });
        }
        m
    }

    fn container(&self, r: &mut Rng, probes: bool) -> Value {
        let mut env = vec![
            json!({"name": "LOG_LEVEL", "value": *r.pick(&["info", "debug", "warn"])}),
            json!({"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}}),
        ];
        for k in 0..r.below(10) {
            env.push(match r.below(3) {
                0 => json!({"name": format!("FEATURE_{k}"), "value": (r.below(2) == 1).to_string()}),
                1 => json!({"name": format!("CONFIG_{k}"), "valueFrom": {"configMapKeyRef": {"name": self.name, "key": format!("key-{k}")}}}),
                _ => json!({"name": format!("SECRET_{k}"), "valueFrom": {"secretKeyRef": {"name": self.name, "key": format!("secret-{k}"), "optional": true}}}),
            });
        }
        let cpu = *r.pick(&["50m", "100m", "250m", "500m", "1"]);
        let mem = *r.pick(&["64Mi", "128Mi", "256Mi", "512Mi", "1Gi", "2Gi"]);
        let mut c = json!({
            "name": self.name,
            "image": self.image,
            "imagePullPolicy": "IfNotPresent",
            "env": env,
            "ports": [{"name": "http", "containerPort": self.port, "protocol": "TCP"}],
            "resources": {
                "requests": {"cpu": cpu, "memory": mem},
                "limits": {"memory": mem},
            },
            "volumeMounts": [
                {"name": "config", "mountPath": "/etc/app", "readOnly": true},
                {"name": "tmp", "mountPath": "/tmp"},
            ],
            "securityContext": {
                "allowPrivilegeEscalation": false,
                "readOnlyRootFilesystem": true,
                "capabilities": {"drop": ["ALL"]},
            },
        });
        if r.percent(50) {
            c["args"] = json!([
                format!("--port={}", self.port),
                "--config=/etc/app/config.yaml"
            ]);
        }
        if r.percent(30) {
            c["ports"].as_array_mut().into_iter().for_each(|p| {
                p.push(json!({"name": "metrics", "containerPort": 9090, "protocol": "TCP"}))
            });
        }
        if probes {
            c["readinessProbe"] = json!({
                "httpGet": {"path": "/readyz", "port": "http"},
                "initialDelaySeconds": 5,
                "periodSeconds": 10,
            });
            c["livenessProbe"] = json!({
                "httpGet": {"path": "/healthz", "port": "http"},
                "initialDelaySeconds": 15,
                "periodSeconds": 20,
                "failureThreshold": 3,
            });
        }
        c
    }

    fn pod_spec(&self, r: &mut Rng, probes: bool) -> Value {
        let mut containers = vec![self.container(r, probes)];
        if r.percent(20) {
            containers.push(json!({
                "name": "log-shipper",
                "image": "docker.io/fluent/fluent-bit:3.1.4",
                "args": ["--config=/fluent-bit/etc/fluent-bit.conf"],
                "resources": {"requests": {"cpu": "10m", "memory": "32Mi"}, "limits": {"memory": "64Mi"}},
                "volumeMounts": [{"name": "tmp", "mountPath": "/var/log/app"}],
            }));
        }
        let mut spec = json!({
            "serviceAccountName": self.name,
            "securityContext": {"runAsNonRoot": true, "runAsUser": 10001, "fsGroup": 10001, "seccompProfile": {"type": "RuntimeDefault"}},
            "terminationGracePeriodSeconds": 30,
            "containers": containers,
            "volumes": [
                {"name": "config", "configMap": {"name": self.name}},
                {"name": "tmp", "emptyDir": {}},
            ],
        });
        if r.percent(30) {
            spec["nodeSelector"] = json!({"kubernetes.io/os": "linux", "node.example.com/pool": *r.pick(&["general", "highmem", "spot"])});
        }
        if r.percent(20) {
            spec["tolerations"] = json!([{"key": "dedicated", "operator": "Equal", "value": self.team, "effect": "NoSchedule"}]);
        }
        if r.percent(25) {
            spec["affinity"] = json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
                "weight": 100,
                "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": self.selector()}},
            }]}});
        }
        spec
    }

    fn template(&self, r: &mut Rng, probes: bool) -> Value {
        json!({
            "metadata": {"labels": self.labels(), "annotations": {"prometheus.io/scrape": "true"}},
            "spec": self.pod_spec(r, probes),
        })
    }
}

/// An application's objects: a workload (a Deployment mostly, else a
/// StatefulSet or a CronJob) and some of its ServiceAccount, ConfigMap,
/// Secret, Service, Ingress, HorizontalPodAutoscaler,
/// PodDisruptionBudget, NetworkPolicy, Role and RoleBinding.
pub(super) fn app_bundle(r: &mut Rng, a: &App) -> Vec<Value> {
    let mut out = Vec::new();
    let workload = match r.below(100) {
        0..75 => "Deployment",
        75..90 => "StatefulSet",
        _ => "CronJob",
    };
    if r.percent(70) {
        out.push(json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": a.meta(r, ""), "automountServiceAccountToken": false}));
    }
    if r.percent(80) {
        let mut data = serde_json::Map::new();
        data.insert(
            "config.yaml".into(),
            json!(format!(
                "server:\n  port: {}\n  shutdownTimeout: 30s\nlogging:\n  level: info\n  format: json\n",
                a.port
            )),
        );
        for k in 0..r.below(8) {
            data.insert(
                format!("key-{k}"),
                json!(format!("value-{}", r.below(1000))),
            );
        }
        out.push(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": a.meta(r, ""), "data": data}));
    }
    if r.percent(30) {
        out.push(json!({"apiVersion": "v1", "kind": "Secret", "metadata": a.meta(r, ""), "type": "Opaque",
            "data": {"secret-0": "c2VjcmV0LXZhbHVl", "secret-1": "cGFzc3dvcmQ="}}));
    }
    let replicas = 1 + r.below(5);
    match workload {
        "Deployment" => out.push(json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": a.meta(r, ""), "spec": {
            "replicas": replicas,
            "revisionHistoryLimit": 5,
            "selector": {"matchLabels": a.selector()},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
            "template": a.template(r, true),
        }})),
        "StatefulSet" => out.push(json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": a.meta(r, ""), "spec": {
            "replicas": replicas,
            "serviceName": a.name,
            "podManagementPolicy": "OrderedReady",
            "updateStrategy": {"type": "RollingUpdate"},
            "selector": {"matchLabels": a.selector()},
            "template": a.template(r, true),
            "volumeClaimTemplates": [{
                "metadata": {"name": "data"},
                "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "standard",
                         "resources": {"requests": {"storage": *r.pick(&["1Gi", "10Gi", "50Gi"])}}},
            }],
        }})),
        _ => {
            let mut template = a.template(r, false);
            template["spec"]["restartPolicy"] = json!("OnFailure");
            out.push(json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": a.meta(r, ""), "spec": {
                "schedule": *r.pick(&["*/15 * * * *", "0 * * * *", "30 2 * * *"]),
                "concurrencyPolicy": "Forbid",
                "successfulJobsHistoryLimit": 3,
                "failedJobsHistoryLimit": 1,
                "jobTemplate": {"spec": {"backoffLimit": 2, "template": template}},
            }}));
        }
    }
    if workload != "CronJob" && r.percent(95) {
        let mut ports =
            vec![json!({"name": "http", "port": 80, "targetPort": "http", "protocol": "TCP"})];
        if r.percent(30) {
            ports.push(
                json!({"name": "metrics", "port": 9090, "targetPort": 9090, "protocol": "TCP"}),
            );
        }
        out.push(
            json!({"apiVersion": "v1", "kind": "Service", "metadata": a.meta(r, ""), "spec": {
                "type": "ClusterIP", "selector": a.selector(), "ports": ports,
            }}),
        );
        if r.percent(30) {
            let host = format!("{}.{}.example.com", a.name, a.team);
            out.push(json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": a.meta(r, ""), "spec": {
                "ingressClassName": "nginx",
                "tls": [{"hosts": [host], "secretName": format!("{}-tls", a.name)}],
                "rules": [{"host": host, "http": {"paths": [{
                    "path": "/", "pathType": "Prefix",
                    "backend": {"service": {"name": a.name, "port": {"name": "http"}}},
                }]}}],
            }}));
        }
    }
    if workload == "Deployment" && r.percent(40) {
        out.push(json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": a.meta(r, ""), "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": a.name},
            "minReplicas": 2,
            "maxReplicas": 10 + r.below(20),
            "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}],
        }}));
    }
    if workload != "CronJob" && r.percent(35) {
        out.push(json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": a.meta(r, ""), "spec": {
            "maxUnavailable": 1, "selector": {"matchLabels": a.selector()},
        }}));
    }
    if r.percent(25) {
        out.push(json!({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": a.meta(r, ""), "spec": {
            "podSelector": {"matchLabels": a.selector()},
            "policyTypes": ["Ingress"],
            "ingress": [{
                "from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}}],
                "ports": [{"protocol": "TCP", "port": a.port}],
            }],
        }}));
    }
    if r.percent(15) {
        out.push(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": a.meta(r, ""), "rules": [
            {"apiGroups": [""], "resources": ["configmaps", "secrets"], "verbs": ["get", "list", "watch"]},
        ]}));
        out.push(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": a.meta(r, ""),
            "subjects": [{"kind": "ServiceAccount", "name": a.name, "namespace": a.namespace}],
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": a.name},
        }));
    }
    out
}

/// Makes a built-in object invalid: a mistake its kind has a place for
/// (`bench-gate`'s case names); the case.
pub(super) fn break_builtin(obj: &mut Value, r: &mut Rng) -> &'static str {
    let kind = obj["kind"].as_str().unwrap_or_default().to_string();
    let pod = match kind.as_str() {
        "Deployment" | "StatefulSet" => Some("/spec/template/spec"),
        "CronJob" => Some("/spec/jobTemplate/spec/template/spec"),
        _ => None,
    };
    let mut cases = vec!["metadata-name"];
    match kind.as_str() {
        "Deployment" | "StatefulSet" | "CronJob" | "Service" => {
            cases.extend(["wrong-type", "missing-required", "unknown-field"]);
        }
        "ConfigMap" | "HorizontalPodAutoscaler" => cases.extend(["wrong-type", "unknown-field"]),
        "Ingress" | "RoleBinding" => cases.extend(["missing-required", "unknown-field"]),
        _ => {}
    }
    let case = *r.pick(&cases);
    let container = pod.map(|p| format!("{p}/containers/0"));
    let container = container.as_deref();
    let remove = |obj: &mut Value, at: &str, key: &str| {
        if let Some(m) = obj.pointer_mut(at).and_then(Value::as_object_mut) {
            m.remove(key);
        }
    };
    let set = |obj: &mut Value, at: &str, key: &str, v: Value| {
        if let Some(m) = obj.pointer_mut(at).and_then(Value::as_object_mut) {
            m.insert(key.to_string(), v);
        }
    };
    match (case, kind.as_str()) {
        ("metadata-name", _) => {
            let name = obj["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            obj["metadata"]["name"] = json!(format!("Invalid_{}", name.replace('-', "_")));
        }
        ("wrong-type", "Deployment" | "StatefulSet") => {
            set(obj, "/spec", "replicas", json!("three"));
        }
        ("wrong-type", "CronJob") => set(obj, "/spec", "successfulJobsHistoryLimit", json!("3")),
        ("wrong-type", "Service") => set(obj, "/spec/ports/0", "port", json!("http")),
        ("wrong-type", "ConfigMap") => set(obj, "/data", "replicas", json!(3)),
        ("wrong-type", _) => set(obj, "/spec", "minReplicas", json!("two")),
        ("missing-required", "Service") => remove(obj, "/spec/ports/0", "port"),
        ("missing-required", "Ingress") => {
            remove(obj, "/spec/rules/0/http/paths/0", "pathType");
        }
        ("missing-required", "RoleBinding") => remove(obj, "", "roleRef"),
        ("missing-required", _) => {
            if let Some(c) = container {
                remove(obj, c, "name");
            }
        }
        ("unknown-field", "Service") => set(obj, "/spec", "selecter", json!({"app": "x"})),
        ("unknown-field", "ConfigMap") => set(obj, "/metadata", "label", json!({"app": "x"})),
        ("unknown-field", "Ingress") => {
            set(obj, "/spec/rules/0", "hosts", json!(["x.example.com"]))
        }
        ("unknown-field", "RoleBinding") => set(obj, "/roleRef", "namespace", json!("default")),
        ("unknown-field", "HorizontalPodAutoscaler") => set(obj, "/spec", "targetCPU", json!(70)),
        ("unknown-field", _) => {
            if let Some(c) = container {
                set(obj, c, "imagePullPolicyy", json!("Always"));
            }
        }
        _ => {}
    }
    case
}
