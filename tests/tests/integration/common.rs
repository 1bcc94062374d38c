//! Helpers shared by the hostile-input tests.

#![allow(clippy::unwrap_used)]

use schema_core::model::field::Path;
use schema_core::model::wire::JsonSchemaProps;
use schema_core::model::wire::codec::DecodeCx;
use schema_core::object::admission::Admission;
use serde_json::{Value, json};

/// Admission against a bare schema.
pub fn admission(schema: &Value) -> Admission {
    let mut cx = DecodeCx::default();
    let props = JsonSchemaProps::from_value(schema, &Path::root(), &mut cx).unwrap();
    Admission::for_schema(&props, &schema_core::Options::default()).unwrap()
}

/// A value nested `depth` objects deep around `1`.
pub fn deep_object(depth: usize) -> Value {
    let mut v = json!(1);
    for _ in 0..depth {
        let mut m = serde_json::Map::new();
        m.insert("a".into(), v);
        v = Value::Object(m);
    }
    v
}
