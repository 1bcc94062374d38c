//! CEL (`x-kubernetes-validations`): parsing with the `cel` crate's parser,
//! and the API server's handling of rules on top of it.

pub mod check;
pub mod compile;
pub mod cost;
pub mod decl;
pub mod escape;
pub mod eval;
pub mod functions;
pub mod lib;
pub mod limits;
pub mod macros;
mod strformat;
pub mod types;
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
///
/// The parser recurses once per nesting level, with large frames: it runs
/// on a helper thread with a [`PARSE_STACK_SIZE`] stack, so that a deeply
/// nested rule ends in the parser's recursion limit error instead of a
/// stack overflow.
pub fn parse(source: &str) -> Result<cel::IdedExpr, ParseError> {
    let run = || {
        let env = cel::Env::stdlib().with_optional_support(true);
        let expr = env
            .parser()
            .parse(source)
            .map_err(|e| ParseError(e.to_string()))?;
        // Deeper trees would recurse too deep in their users (and in their
        // drop); they are refused here, and dropped on this big stack.
        if depth(&expr) > MAX_EXPR_DEPTH {
            return Err(ParseError(format!(
                "ERROR: <input>:1:1: expression recursion limit exceeded: {MAX_EXPR_DEPTH}"
            )));
        }
        Ok(expr)
    };
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("cel-parse".to_owned())
            .stack_size(PARSE_STACK_SIZE)
            .spawn_scoped(scope, run)
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|_| Err(ParseError("the parser thread failed".into()))),
            Err(e) => Err(ParseError(format!(
                "could not start the parser thread: {e}"
            ))),
        }
    })
}

/// The deepest expression tree [`parse`] accepts (cel-go's default
/// parser recursion limit).
pub const MAX_EXPR_DEPTH: usize = 250;

/// The depth of an expression tree, found without recursion.
fn depth(e: &cel::IdedExpr) -> usize {
    use cel::common::ast::{EntryExpr, Expr};
    let mut max = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, d)) = stack.pop() {
        max = max.max(d);
        let children: Vec<&cel::IdedExpr> = match &e.expr {
            Expr::Select(s) => vec![&s.operand],
            Expr::Call(c) => c
                .target
                .as_deref()
                .into_iter()
                .chain(c.args.iter())
                .collect(),
            Expr::List(l) => l.elements.iter().collect(),
            Expr::Map(m) => m
                .entries
                .iter()
                .flat_map(|en| match &en.expr {
                    EntryExpr::MapEntry(me) => vec![&me.key, &me.value],
                    EntryExpr::StructField(f) => vec![&f.value],
                })
                .collect(),
            Expr::Struct(s) => s
                .entries
                .iter()
                .flat_map(|en| match &en.expr {
                    EntryExpr::MapEntry(me) => vec![&me.key, &me.value],
                    EntryExpr::StructField(f) => vec![&f.value],
                })
                .collect(),
            Expr::Comprehension(c) => vec![
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ],
            Expr::Unspecified | Expr::Ident(_) | Expr::Literal(_) => Vec::new(),
        };
        stack.extend(children.into_iter().map(|c| (c, d + 1)));
    }
    max
}

/// The stack of the parser's helper thread.
pub const PARSE_STACK_SIZE: usize = 256 << 20;

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

#[cfg(test)]
mod eval_tests;

#[cfg(test)]
mod tests_check;
