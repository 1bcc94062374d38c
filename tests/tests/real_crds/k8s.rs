//! Hand-written stand-ins for the Kubernetes types the published schemas
//! embed, with controller-gen's schemas for them (its "known types" carry
//! no description of their own, hence plain comments here).

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

// `metav1.Time`: an RFC 3339 timestamp.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[schema(format = "date-time")]
pub struct Time(pub String);

// `metav1.Duration`: a Go duration string (`1h30m`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub struct Duration(pub String);
