//! The error of a CEL evaluation, with cel-go's messages.

/// The message of an evaluation cancelled by the cost limit.
pub const COST_LIMIT_MESSAGE: &str = "operation cancelled: actual cost limit exceeded";

/// An evaluation error, with cel-go's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// The message.
    pub msg: String,
    /// Whether the evaluation was cancelled (cost limit): not absorbable.
    pub cancelled: bool,
}

impl EvalError {
    /// An ordinary error.
    pub fn new(msg: impl Into<String>) -> Self {
        EvalError {
            msg: msg.into(),
            cancelled: false,
        }
    }

    /// `no such overload`.
    pub fn no_overload() -> Self {
        Self::new("no such overload")
    }

    /// The cost limit cancellation.
    pub fn cost_limit() -> Self {
        EvalError {
            msg: COST_LIMIT_MESSAGE.into(),
            cancelled: true,
        }
    }
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for EvalError {}
