//! Hand-written stand-ins for the Kubernetes types the published schemas
//! embed, with controller-gen's schemas for them (its "known types" carry
//! no description of their own, hence plain comments here).

use schema_core::StructuralSchema;
use schema_core::model::wire::JsonSchemaProps;
use schema_core::rust::SchemaCx;
use serde::{Deserialize, Serialize};

// `metav1.Time`: an RFC 3339 timestamp.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[schema(format = "date-time")]
pub struct Time(pub String);

// `metav1.Duration`: a Go duration string (`1h30m`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub struct Duration(pub String);

// `intstr.IntOrString`: serde writes either form as it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrString {
    Int(i32),
    String(String),
}

// controller-gen's schema of `intstr.IntOrString`: the extension, plus the
// two alternatives spelt out for OpenAPI readers.
impl StructuralSchema for IntOrString {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        let typed = |t: &str| JsonSchemaProps {
            type_: Some(t.to_string()),
            ..JsonSchemaProps::default()
        };
        JsonSchemaProps {
            any_of: Some(vec![typed("integer"), typed("string")]),
            x_int_or_string: Some(true),
            ..JsonSchemaProps::default()
        }
    }
}
