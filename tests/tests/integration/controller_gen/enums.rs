//! The twin of `fixtures/enums`: enumerations on named types, on fields
//! and on list items.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Carrier delivers shipments.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub enum Carrier {
    Post,
    Courier,
    Freight,
}

/// Priority of a shipment.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(enum = [1, 2, 3])]
pub struct Priority(pub i32);

/// Speed of delivery, its values the constants of the type.
///
/// (Go's `+k8s:enum` collects the constants of the type and sorts them;
/// a Rust enum's values are in the order of its variants, so they are
/// written sorted here.)
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "kebab-case")]
#[schema(description = "Speed of delivery, its values the constants of the type.")]
pub enum Speed {
    Express,
    SameDay,
    Standard,
}

/// ShipmentSpec is the desired state of a Shipment.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "enums.example.com",
    version = "v1",
    kind = "Shipment",
    namespaced,
    doc = "Shipment is the Schema for the shipments API.",
))]
pub struct ShipmentSpec {
    /// Carrier takes the shipment.
    pub carrier: Carrier,
    /// Fallback carrier, with a default.
    #[schema(default = "Post")]
    pub fallback: Option<Carrier>,
    /// Allowed carriers.
    pub allowed: Option<Vec<Carrier>>,
    /// Size is enumerated on the field.
    #[schema(enum = ["S", "M", "L", "XL"])]
    pub size: String,
    /// Speed of the shipment.
    pub speed: Option<Speed>,
    /// Priority is an enumerated integer.
    pub priority: Option<Priority>,
}
