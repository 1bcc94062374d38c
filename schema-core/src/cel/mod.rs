//! CEL (`x-kubernetes-validations`): parsing with the `cel` crate's parser,
//! and the API server's handling of rules on top of it.

pub mod escape;
pub mod eval;
pub mod lib;
pub mod validator;
pub mod value;

/// The error of a rule that does not parse, in cel-go's words
/// (`ERROR: <input>:1:4: Syntax error: …` with the excerpt).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

/// Parses a CEL expression with the syntax the API server enables
/// (optional syntax `?.`/`[?]` included) and the standard macros expanded
/// (`has`, `all`, `exists`, `exists_one`, `map`, `filter`).
pub fn parse(source: &str) -> Result<cel::IdedExpr, ParseError> {
    let env = cel::Env::stdlib().with_optional_support(true);
    env.parser()
        .parse(source)
        .map_err(|e| ParseError(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_carry_cel_go_positions() {
        let e = parse("1 +").unwrap_err();
        assert!(e.0.starts_with("ERROR: <input>:1:4: Syntax error:"), "{e}");
        assert!(parse("self.all(x, x > 1)").is_ok());
        assert!(parse("self.?a.orValue(1)").is_ok());
    }
}
