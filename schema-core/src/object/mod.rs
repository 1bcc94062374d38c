//! What the API server does with an object of a custom resource:
//! the walk that prunes, drops nulls and defaults, metadata coercion and
//! validation, list sets and maps, value validation, and admission, which
//! runs them in the server's order.

pub mod admission;
pub mod default;
pub mod list_types;
pub mod metadata;
pub(crate) mod name_table;
pub mod prune;
pub mod prune_default_walk;
pub mod resource_version;
pub mod schema_view;
pub mod value_validation;
