//! prometheus-operator's `PrometheusRule` (`monitoring.coreos.com/v1`),
//! written as an operator author would write it in Rust: the doc comments
//! are the Go sources' (controller-gen turns them into the published
//! descriptions), the validation markers are `#[schema(...)]` attributes.

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

use super::k8s::{IntOrString, Time};

/// spec defines the specification of desired alerting rule definitions for Prometheus.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "monitoring.coreos.com",
    version = "v1",
    kind = "PrometheusRule",
    namespaced,
    status = ConfigResourceStatus,
    short_names = ["promrule"],
    categories = ["prometheus-operator"],
    doc = "The `PrometheusRule` custom resource definition (CRD) defines [alerting](https://prometheus.io/docs/prometheus/latest/configuration/alerting_rules/) and [recording](https://prometheus.io/docs/prometheus/latest/configuration/recording_rules/) rules to be evaluated by `Prometheus` or `ThanosRuler` objects.\n\n`Prometheus` and `ThanosRuler` objects select `PrometheusRule` objects using label and namespace selectors.",
))]
pub struct PrometheusRuleSpec {
    /// groups defines the content of Prometheus rule file
    #[schema(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<RuleGroup>,
}

/// RuleGroup is a list of sequentially evaluated recording and alerting rules.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct RuleGroup {
    /// name defines the name of the rule group.
    #[schema(min_length = 1)]
    pub name: String,

    /// labels define the labels to add or overwrite before storing the result for its rules.
    /// The labels defined at the rule level take precedence.
    ///
    /// It requires Prometheus >= 3.0.0.
    /// The field is ignored for Thanos Ruler.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,

    /// interval defines how often rules in the group are evaluated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<Duration>,

    /// query_offset defines the offset the rule evaluation timestamp of this particular group by the specified duration into the past.
    ///
    /// It requires Prometheus >= v2.53.0.
    /// It is not supported for ThanosRuler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_offset: Option<Duration>,

    /// rules defines the list of alerting and recording rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Rule>,

    /// partial_response_strategy is only used by ThanosRuler and will
    /// be ignored by Prometheus instances.
    /// More info: https://github.com/thanos-io/thanos/blob/main/docs/components/rule.md#partial-response
    #[schema(pattern = "^(?i)(abort|warn)?$")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_response_strategy: Option<String>,

    /// limit defines the number of alerts an alerting rule and series a recording
    /// rule can produce.
    /// Limit is supported starting with Prometheus >= 2.31 and Thanos Ruler >= 0.24.
    // Go's `int`: an integer of no declared width.
    #[schema(type = "integer")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

/// Rule describes an alerting or recording rule
/// See Prometheus documentation: [alerting](https://www.prometheus.io/docs/prometheus/latest/configuration/alerting_rules/) or [recording](https://www.prometheus.io/docs/prometheus/latest/configuration/recording_rules/#recording-rules) rule
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct Rule {
    /// record defines the name of the time series to output to. Must be a valid metric name.
    /// Only one of `record` and `alert` must be set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,

    /// alert defines the name of the alert. Must be a valid label value.
    /// Only one of `record` and `alert` must be set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alert: Option<String>,

    /// expr defines the PromQL expression to evaluate.
    pub expr: IntOrString,

    /// for defines how alerts are considered firing once they have been returned for this long.
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    pub for_: Option<Duration>,

    /// keep_firing_for defines how long an alert will continue firing after the condition that triggered it has cleared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_firing_for: Option<NonEmptyDuration>,

    /// labels defines labels to add or overwrite.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,

    /// annotations defines annotations to add to each alert.
    /// Only valid for alerting rules.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// Duration is a valid time duration that can be parsed by Prometheus model.ParseDuration() function.
/// Supported units: y, w, d, h, m, s, ms
/// Examples: `30s`, `1m`, `1h20m15s`, `15d`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[schema(
    pattern = "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"
)]
pub struct Duration(pub String);

/// NonEmptyDuration is a valid time duration that can be parsed by Prometheus model.ParseDuration() function.
/// Compared to Duration,  NonEmptyDuration enforces a minimum length of 1.
/// Supported units: y, w, d, h, m, s, ms
/// Examples: `30s`, `1m`, `1h20m15s`, `15d`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[schema(
    min_length = 1,
    pattern = "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"
)]
pub struct NonEmptyDuration(pub String);

/// status defines the status subresource. It is under active development and is updated only when the
/// "StatusForConfigurationResources" feature gate is enabled.
///
/// Most recent observed status of the PrometheusRule. Read-only.
/// More info:
/// https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#spec-and-status
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct ConfigResourceStatus {
    /// bindings defines the list of workload resources (Prometheus, PrometheusAgent, ThanosRuler or Alertmanager) which select the configuration resource.
    #[schema(list_type = "map", list_map_keys = ["group", "resource", "name", "namespace"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<WorkloadBinding>,
}

/// WorkloadBinding is a link between a configuration resource and a workload resource.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct WorkloadBinding {
    /// group defines the group of the referenced resource.
    pub group: WorkloadGroup,

    /// resource defines the type of resource being referenced (e.g. Prometheus, PrometheusAgent, ThanosRuler or Alertmanager).
    pub resource: WorkloadResource,

    /// name defines the name of the referenced object.
    #[schema(min_length = 1)]
    pub name: String,

    /// namespace defines the namespace of the referenced object.
    #[schema(min_length = 1)]
    pub namespace: String,

    /// conditions defines the current state of the configuration resource when bound to the referenced Workload object.
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

/// ConfigResourceCondition describes the status of configuration resources linked to Prometheus, PrometheusAgent, Alertmanager or ThanosRuler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigResourceCondition {
    /// type of the condition being reported.
    /// Currently, only "Accepted" is supported.
    #[serde(rename = "type")]
    pub type_: ConditionType,

    /// status of the condition.
    #[schema(min_length = 1)]
    pub status: String,

    /// lastTransitionTime defines the time of the last update to the current status property.
    pub last_transition_time: Time,

    /// reason for the condition's last transition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,

    /// message defines the human-readable message indicating details for the condition's last transition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// observedGeneration defines the .metadata.generation that the
    /// condition was set based upon. For instance, if `.metadata.generation` is
    /// currently 12, but the `.status.conditions[].observedGeneration` is 9, the
    /// condition is out of date with respect to the current state of the object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[schema(min_length = 1)]
pub enum ConditionType {
    Accepted,
}
