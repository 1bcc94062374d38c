//! A schema node while controller-gen applies markers to it, and the
//! `x-kubernetes-validations` rules it writes.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// A schema node as controller-gen has it while it applies markers.
#[derive(Clone, Debug, Default)]
pub(super) struct Node {
    /// The schema type (empty for a reference to a struct or to another
    /// package's type).
    pub(super) ty: String,
    /// The keys set so far.
    pub(super) keys: BTreeMap<String, Value>,
}

impl Node {
    /// A node of the schema type `ty`, without keys.
    pub(super) fn of_type(ty: &str) -> Node {
        Node {
            ty: ty.to_string(),
            keys: BTreeMap::new(),
        }
    }

    /// Whether bounds apply (an integer or a number).
    pub(super) fn numeric(&self) -> bool {
        self.ty == "integer" || self.ty == "number"
    }

    /// Whether lengths and patterns apply (a string or an int-or-string).
    pub(super) fn textual(&self) -> bool {
        self.ty == "string" || self.keys.contains_key("x-kubernetes-int-or-string")
    }

    /// Sets the key `key`.
    pub(super) fn set(&mut self, key: &str, value: Value) {
        self.keys.insert(key.to_string(), value);
    }
}

/// An `x-kubernetes-validations` rule as controller-gen writes it.
pub(super) fn rule(rule: &str, message: &str) -> Value {
    let mut m = Map::new();
    m.insert("rule".to_string(), Value::String(rule.to_string()));
    m.insert("message".to_string(), Value::String(message.to_string()));
    Value::Object(m)
}
