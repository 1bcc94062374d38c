//! prometheus-operator's `PrometheusRule` (`monitoring.coreos.com/v1`),
//! written in Rust from the Go API types' fields and markers:
//! `#[schema(...)]` for the kubebuilder markers, doc comments of our own.
//!
//! The types follow prometheus-operator/prometheus-operator at
//! `6adcebc5076c34f4f55f8f5f7b1e528929373ac7` (the corpus commit):
//! `pkg/apis/monitoring/v1/prometheusrule_types.go` (the rule groups and
//! rules) and `pkg/apis/monitoring/v1/types.go` (`Duration`,
//! `NonEmptyDuration`, `ConfigResourceStatus`, `WorkloadBinding`,
//! `ConfigResourceCondition`, `ConditionType`).

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

use super::k8s::{IntOrString, Time};

/// Groups of alerting and recording rules for Prometheus or Thanos Ruler.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "monitoring.coreos.com",
    version = "v1",
    kind = "PrometheusRule",
    namespaced,
    status = ConfigResourceStatus,
    short_names = ["promrule"],
    categories = ["prometheus-operator"],
    doc = "Prometheus alerting and recording rules, picked up by the `Prometheus` and\n`ThanosRuler` objects whose rule selectors (labels and namespaces) match.",
))]
pub struct PrometheusRuleSpec {
    /// The rule groups, by unique name: the content of one rule file.
    #[schema(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<RuleGroup>,
}

/// Rules evaluated one after the other, on one schedule.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct RuleGroup {
    /// The group's name.
    #[schema(min_length = 1)]
    pub name: String,

    /// Labels set on the results of every rule of the group (a rule's own
    /// labels win). Prometheus 3.0 or later; Thanos Ruler ignores them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,

    /// How often the group is evaluated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<Duration>,

    /// How far into the past to move the evaluation timestamp of the
    /// group. Prometheus 2.53 or later; not for Thanos Ruler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_offset: Option<Duration>,

    /// The group's rules, in evaluation order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Rule>,

    /// What Thanos Ruler does when a query gets a partial response (`abort`
    /// or `warn`, any case); Prometheus ignores it.
    #[schema(pattern = "^(?i)(abort|warn)?$")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_response_strategy: Option<String>,

    /// Most alerts (alerting rules) or series (recording rules) one rule
    /// may produce. Prometheus 2.31 or Thanos Ruler 0.24 and later.
    // Go's `int`: an integer of no declared width.
    #[schema(type = "integer")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

/// One rule: a recording rule (`record`) or an alerting rule (`alert`),
/// never both.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct Rule {
    /// The metric name the results are stored under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,

    /// The alert's name (a valid label value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alert: Option<String>,

    /// The PromQL query.
    pub expr: IntOrString,

    /// How long the query must keep returning a result before the alert
    /// fires.
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    pub for_: Option<Duration>,

    /// How long the alert goes on firing once the query stops returning it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_firing_for: Option<NonEmptyDuration>,

    /// Labels set on the results.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,

    /// Annotations of the alerts (alerting rules only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// A Prometheus duration: whole numbers with the units `y`, `w`, `d`, `h`,
/// `m`, `s`, `ms`, largest first (`1h30m`, `2w`), or `0`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[schema(
    pattern = "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"
)]
pub struct Duration(pub String);

/// A [`Duration`] that may not be the empty string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[schema(
    min_length = 1,
    pattern = "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"
)]
pub struct NonEmptyDuration(pub String);

/// Which workloads use the rules, and how that went. Written by the
/// operator, and only with its `StatusForConfigurationResources` feature
/// gate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct ConfigResourceStatus {
    /// The workloads (Prometheus, PrometheusAgent, ThanosRuler,
    /// Alertmanager) that select this object.
    #[schema(list_type = "map", list_map_keys = ["group", "resource", "name", "namespace"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<WorkloadBinding>,
}

/// A workload that selects this object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct WorkloadBinding {
    /// The workload's API group.
    pub group: WorkloadGroup,

    /// The workload's resource (plural, lower case).
    pub resource: WorkloadResource,

    /// The workload's name.
    #[schema(min_length = 1)]
    pub name: String,

    /// The workload's namespace.
    #[schema(min_length = 1)]
    pub namespace: String,

    /// How this object fares in that workload, by condition type.
    #[schema(list_type = "map", list_map_keys = ["type"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConfigResourceCondition>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum WorkloadGroup {
    #[serde(rename = "monitoring.coreos.com")]
    MonitoringCoreosCom,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "lowercase")]
pub enum WorkloadResource {
    Prometheuses,
    PrometheusAgents,
    ThanosRulers,
    Alertmanagers,
}

/// One condition of this object in one workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigResourceCondition {
    /// The condition; `Accepted` is the only one.
    #[serde(rename = "type")]
    pub type_: ConditionType,

    /// `True`, `False` or `Unknown`.
    #[schema(min_length = 1)]
    pub status: String,

    /// When `status` last changed.
    pub last_transition_time: Time,

    /// Why `status` last changed, in one word.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,

    /// The change explained for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// The `metadata.generation` the condition was computed for; older than
    /// the current generation means out of date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[schema(min_length = 1)]
pub enum ConditionType {
    Accepted,
}
