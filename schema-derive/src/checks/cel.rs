//! Compile-time syntax check of CEL rules (`validation(rule = ...)` and
//! `message_expression`), with cel-go's error texts as the `cel` crate
//! renders them. Type checking needs the whole schema, so it happens when
//! the CRD is built (schema-core's CRD validation); here only what the
//! expression alone decides is checked.

/// cel-go's default expression size limit, in code points
/// (`parser.ExpressionSizeCodePointLimit`).
const MAX_CODE_POINTS: usize = 100_000;

/// cel-go's parser recursion limit (`parser.MaxRecursionDepth`, 250 by
/// default; the API server raises it for its environments).
const MAX_RECURSION_DEPTH: u16 = 1000;

/// The stack the parser runs on: the generated ANTLR parser recurses per
/// nesting level, and a proc macro runs on rustc's thread.
const PARSER_STACK: usize = 256 << 20;

/// Parses `source`; on a syntax error returns cel-go's rendering of the
/// errors (`ERROR: <input>:1:5: ...` with the line and a caret).
pub fn check_syntax(source: &str) -> Result<(), String> {
    let size = source.chars().count();
    if size > MAX_CODE_POINTS {
        return Err(format!(
            "expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"
        ));
    }
    let owned = source.to_owned();
    let parse = move || {
        cel::parser::Parser::new()
            .max_recursion_depth(MAX_RECURSION_DEPTH)
            .enable_optional_syntax(true)
            .parse_with_source_info(&owned)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    match std::thread::Builder::new()
        .stack_size(PARSER_STACK)
        .spawn(parse)
    {
        Ok(handle) => match handle.join() {
            Ok(result) => result,
            Err(_) => Err("the CEL parser failed on this expression".to_owned()),
        },
        // No thread: parse on this one (the limits above still hold).
        Err(_) => cel::parser::Parser::new()
            .max_recursion_depth(MAX_RECURSION_DEPTH)
            .enable_optional_syntax(true)
            .parse_with_source_info(source)
            .map(|_| ())
            .map_err(|e| e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::check_syntax;

    #[test]
    fn accepts_rules_of_the_corpus_shape() {
        for rule in [
            "self.minReplicas <= self.maxReplicas",
            "!has(self.x) || self.x.matches('^[a-z]+$')",
            "self.all(k, k.startsWith('a'))",
            "self.?foo.orValue(1) > 0",
            "[has(self.a), has(self.b)].filter(x, x).size() == 1",
        ] {
            assert_eq!(check_syntax(rule), Ok(()), "{rule}");
        }
    }

    #[test]
    fn reports_syntax_errors_with_position() {
        let e = check_syntax("self.a >").unwrap_err();
        assert!(e.starts_with("ERROR: <input>:1:"), "{e}");
        let e = check_syntax("self.a == 'unterminated").unwrap_err();
        assert!(e.contains("ERROR: <input>:1:"), "{e}");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(check_syntax(&deep).is_err());
        let long = "1 + ".repeat(30_000) + "1";
        assert!(check_syntax(&long).unwrap_err().contains("exceeds limit"));
    }
}
