//! The twin of `fixtures/numbers`: numeric validation markers on fields
//! and on a named type.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Port is a TCP port.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(minimum = 1, maximum = 65535)]
pub struct Port(pub i32);

/// GaugeSpec is the desired state of a Gauge.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "numbers.example.com",
    version = "v1",
    kind = "Gauge",
    namespaced,
    status = GaugeStatus,
    doc = "Gauge is the Schema for the gauges API.",
))]
pub struct GaugeSpec {
    /// Replicas is bounded on both sides.
    #[schema(minimum = 1, maximum = 10)]
    pub replicas: i32,
    /// Percent excludes its maximum.
    #[schema(minimum = 0, maximum = 100, exclusive_maximum)]
    pub percent: Option<i32>,
    /// Offset is above minus one hundred.
    #[schema(minimum = -100, exclusive_minimum)]
    pub offset: i64,
    /// Step is a multiple of five.
    #[schema(multiple_of = 5)]
    pub step: Option<i64>,
    /// Port is where the gauge listens.
    pub port: Option<Port>,
    /// Ports are more ports, each bounded by its type.
    pub ports: Option<Vec<Port>>,
    /// Limit has a maximum on a 64-bit integer.
    #[schema(maximum = 1000000)]
    pub limit: i64,
}

/// GaugeStatus is the observed state of a Gauge.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct GaugeStatus {
    /// Reading is the last value read.
    pub reading: Option<i64>,
}
