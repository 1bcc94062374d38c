//! The twin of `fixtures/overrides`: field attributes on fields whose
//! types carry attributes of their own.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Name is a short lower-case name.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(
    min_length = 1,
    max_length = 253,
    validation(rule = "self == self.lowerAscii()", message = "must be lower case")
)]
pub struct Name(pub String);

/// Level is one of three levels.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Low,
    Mid,
    High,
}

/// Range is a pair of bounds.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(validation(rule = "self.min <= self.max", message = "min must not exceed max"))]
pub struct Range {
    /// Min bound.
    pub min: i32,
    /// Max bound.
    pub max: i32,
}

/// Count is a small number.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(minimum = 0, maximum = 100)]
pub struct Count(pub i32);

/// DialSpec is the desired state of a Dial.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "overrides.example.com",
    version = "v1",
    kind = "Dial",
    namespaced,
    doc = "Dial is the Schema for the dials API.",
))]
pub struct DialSpec {
    /// Plain uses the type's markers alone.
    pub plain: Name,
    /// Pattern adds a marker the type does not have.
    #[schema(pattern = "^[a-z]+$")]
    pub pattern: Option<Name>,
    /// Rule adds a rule to the type's.
    #[schema(validation(rule = "!self.startsWith('x')", message = "must not start with x"))]
    pub rule: Option<Name>,
    /// Short narrows the type's maximum length.
    #[schema(max_length = 63)]
    pub short: Option<Name>,
    /// Narrow narrows the type's values.
    // controller-gen keeps the type's `Enum` and drops the field's: the
    // Go marker has no effect, so the twin writes none (the derive's
    // `enum` would replace the type's values).
    pub narrow: Option<Level>,
    /// Level has a default on the field.
    #[schema(default = "mid")]
    pub level: Option<Level>,
    /// Range adds a rule to the struct's.
    #[schema(validation(rule = "self.max - self.min <= 10", message = "at most ten apart"))]
    pub range: Option<Range>,
    /// Nullable marks a named type nullable.
    #[schema(nullable)]
    pub nullable: Option<Range>,
    /// Count adds a multiple.
    #[schema(multiple_of = 2)]
    pub count: Option<Count>,
    /// Names are items of a named type with their own item marker.
    #[schema(max_items = 4)]
    pub names: Option<Vec<Name>>,
}
