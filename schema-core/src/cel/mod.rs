//! CEL (`x-kubernetes-validations`): parsing with the `cel` crate's parser,
//! and the API server's handling of rules on top of it.

pub mod check;
pub mod compile;
pub mod cost;
pub mod decl;
pub mod escape;
pub mod functions;
pub mod limits;
pub mod types;

/// The error of a rule that does not parse, in cel-go's words
/// (`ERROR: <input>:1:4: Syntax error: …` with the excerpt).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

/// Parses a CEL expression with the syntax and macros of the API server's
/// current environment (optional syntax `?.`/`[?]`, the standard macros
/// `has`, `all`, `exists`, `exists_one`, `map`, `filter`, the two-variable
/// comprehensions, `optMap`/`optFlatMap` and `sortBy`), within cel-go's
/// parser limits (100,000 code points, rule nesting of 250). Errors are
/// cel-go's `issues.String()`.
pub fn parse(source: &str) -> Result<cel::IdedExpr, ParseError> {
    compile::parse_versioned(source, functions::CompatibilityVersion::CURRENT)
        .map(|p| p.expr)
        .map_err(|issues| ParseError(compile::display_issues(source, &issues)))
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
        assert_eq!(
            parse("a +\n)").unwrap_err().0.lines().nth(1),
            Some(" | )"),
            "cel-go indents the snippet"
        );
        assert!(parse(&format!("a{}", ".b".repeat(300))).is_err());
    }
}

#[cfg(test)]
mod tests_check;
