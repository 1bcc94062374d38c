//! The twin of `fixtures/maps`: property counts, map types and maps of
//! structs and lists.

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Shelf holds items.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Shelf {
    /// Capacity of the shelf.
    pub capacity: i32,
    /// Label on the shelf.
    pub label: Option<String>,
}

/// InventorySpec is the desired state of an Inventory.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "maps.example.com",
    version = "v1",
    kind = "Inventory",
    namespaced,
    doc = "Inventory is the Schema for the inventories API.",
))]
pub struct InventorySpec {
    /// Labels has at least one and at most eight entries.
    #[schema(min_properties = 1, max_properties = 8)]
    pub labels: BTreeMap<String, String>,
    /// Counts are replaced as a whole.
    #[schema(map_type = "atomic")]
    pub counts: Option<BTreeMap<String, i32>>,
    /// Shelves are merged key by key.
    #[schema(map_type = "granular")]
    pub shelves: Option<BTreeMap<String, Shelf>>,
    /// Aliases map a name to several names.
    pub aliases: Option<BTreeMap<String, Vec<String>>>,
    /// Nested maps.
    pub nested: Option<BTreeMap<String, BTreeMap<String, bool>>>,
}
