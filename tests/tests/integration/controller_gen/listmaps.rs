//! The twin of `fixtures/listmaps`: list-map keys and struct types.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Route sends a path to a backend.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Route {
    /// Name of the route, its key.
    pub name: String,
    /// Path to match.
    pub path: Option<String>,
}

/// Listener is keyed by port and protocol.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Listener {
    /// Port of the listener.
    pub port: i32,
    /// Protocol of the listener.
    pub protocol: String,
    /// Hostname to serve.
    pub hostname: Option<String>,
}

/// Endpoint is replaced as a whole.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(struct_type = "atomic")]
pub struct Endpoint {
    /// Host of the endpoint.
    pub host: String,
    /// Port of the endpoint.
    pub port: i32,
}

/// Settings are merged field by field.
#[derive(Clone, Debug, Default, Serialize, Deserialize, StructuralSchema)]
#[schema(struct_type = "granular")]
pub struct Settings {
    /// Verbose logging.
    pub verbose: Option<bool>,
}

/// RouterSpec is the desired state of a Router.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "listmaps.example.com",
    version = "v1",
    kind = "Router",
    namespaced,
    doc = "Router is the Schema for the routers API.",
))]
pub struct RouterSpec {
    /// Routes keyed by name.
    #[schema(list_type = "map", list_map_keys = ["name"])]
    pub routes: Option<Vec<Route>>,
    /// Listeners keyed by port and protocol.
    #[schema(list_type = "map", list_map_keys = ["port", "protocol"], max_items = 64)]
    pub listeners: Option<Vec<Listener>>,
    /// Upstream is an atomic struct.
    pub upstream: Option<Endpoint>,
    /// Mirrors are atomic structs in an atomic list.
    #[schema(list_type = "atomic")]
    pub mirrors: Option<Vec<Endpoint>>,
    /// Settings are granular.
    #[serde(default)]
    pub settings: Settings,
}
