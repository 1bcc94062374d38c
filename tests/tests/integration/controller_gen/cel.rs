//! The twin of `fixtures/cel`: CEL rules on types and fields.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Window is a range of hours.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(validation(rule = "self.start < self.end", message = "start must be before end"))]
pub struct Window {
    /// Start hour.
    pub start: i32,
    /// End hour.
    pub end: i32,
}

/// BudgetSpec is the desired state of a Budget.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(
    crd(
        group = "cel.example.com",
        version = "v1",
        kind = "Budget",
        namespaced,
        doc = "Budget is the Schema for the budgets API.",
    ),
    validation(
        rule = "!has(self.hard) || self.soft <= self.hard",
        message = "soft must not exceed hard",
        field_path = ".soft",
        reason = "FieldValueInvalid",
    )
)]
pub struct BudgetSpec {
    /// Soft limit.
    pub soft: i64,
    /// Hard limit.
    pub hard: Option<i64>,
    /// Currency cannot change.
    #[schema(validation(rule = "self == oldSelf", message = "currency is immutable"))]
    pub currency: String,
    /// Owner is checked with a message expression.
    #[schema(
        validation(
            rule = "self.size() <= 20",
            message_expression = "'owner ' + self + ' is too long'"
        ),
        max_length = 64
    )]
    pub owner: Option<String>,
    /// Window of the budget.
    pub window: Option<Window>,
    /// Rounds may only grow.
    #[schema(validation(
        rule = "!oldSelf.hasValue() || self >= oldSelf.value()",
        message = "rounds cannot decrease",
        optional_old_self,
    ))]
    pub rounds: Option<i32>,
    /// Tags need a rule over the list.
    #[schema(
        validation(rule = "self.all(t, t.size() > 0)", message = "tags must not be empty"),
        max_items = 5,
        items(max_length = 20)
    )]
    pub tags: Option<Vec<String>>,
}
