//! The two-variable comprehension macros of cel-go's `ext.TwoVarComprehensions`
//! (in the API server's environment since 1.32), which the `cel` crate's
//! parser leaves as calls: `all(i, v, p)`, `exists(i, v, p)`,
//! `existsOne(i, v, p)` (and `exists_one`), `transformList(i, v, [f,] t)`,
//! `transformMap(k, v, [f,] t)` and `transformMapEntry(k, v, [f,] t)`,
//! expanded as cel-go expands them (`ext/comprehensions.go`): over a list
//! the variables are the index and the element, over a map the key and the
//! value.

use cel::IdedExpr;
use cel::common::ast::{CallExpr, ComprehensionExpr, Expr, ListExpr, LiteralValue, MapExpr};

const RESULT: &str = "@result";

/// The internal map insertion of `transformMap` and `transformMapEntry`.
pub const MAP_INSERT: &str = "cel.@mapInsert";

fn node(expr: Expr) -> IdedExpr {
    IdedExpr { id: 0, expr }
}

fn ident(name: &str) -> IdedExpr {
    node(Expr::Ident(name.to_string()))
}

fn call(name: &str, args: Vec<IdedExpr>) -> IdedExpr {
    node(Expr::Call(CallExpr {
        func_name: name.to_string(),
        target: None,
        args,
    }))
}

fn lit_bool(b: bool) -> IdedExpr {
    node(Expr::Literal(LiteralValue::Boolean(b.into())))
}

fn lit_int(i: i64) -> IdedExpr {
    node(Expr::Literal(LiteralValue::Int(i.into())))
}

/// Expands the two-variable macros in `e`, bottom up. Trees from
/// [`super::parse`] are at most [`super::MAX_EXPR_DEPTH`] deep.
pub fn expand(mut e: IdedExpr) -> IdedExpr {
    match &mut e.expr {
        Expr::Call(c) => {
            if let Some(t) = c.target.take() {
                c.target = Some(Box::new(expand(*t)));
            }
            c.args = std::mem::take(&mut c.args)
                .into_iter()
                .map(expand)
                .collect();
        }
        Expr::Select(s) => {
            let op = std::mem::take(&mut *s.operand);
            *s.operand = expand(op);
        }
        Expr::List(l) => {
            l.elements = std::mem::take(&mut l.elements)
                .into_iter()
                .map(expand)
                .collect();
        }
        Expr::Map(m) => {
            for en in &mut m.entries {
                if let cel::common::ast::EntryExpr::MapEntry(me) = &mut en.expr {
                    me.key = expand(std::mem::take(&mut me.key));
                    me.value = expand(std::mem::take(&mut me.value));
                }
            }
        }
        Expr::Comprehension(c) => {
            c.iter_range = expand(std::mem::take(&mut c.iter_range));
            c.accu_init = expand(std::mem::take(&mut c.accu_init));
            c.loop_cond = expand(std::mem::take(&mut c.loop_cond));
            c.loop_step = expand(std::mem::take(&mut c.loop_step));
            c.result = expand(std::mem::take(&mut c.result));
        }
        _ => {}
    }
    let Expr::Call(c) = &mut e.expr else { return e };
    let Some(target) = c.target.as_deref() else {
        return e;
    };
    let name = c.func_name.as_str();
    let n = c.args.len();
    let fits = match name {
        "all" | "exists" | "existsOne" | "exists_one" => n == 3,
        "transformList" | "transformMap" | "transformMapEntry" => n == 3 || n == 4,
        _ => false,
    };
    if !fits {
        return e;
    }
    let (Some(Expr::Ident(v1)), Some(Expr::Ident(v2))) = (
        c.args.first().map(|a| &a.expr),
        c.args.get(1).map(|a| &a.expr),
    ) else {
        return e;
    };
    let (v1, v2) = (v1.clone(), v2.clone());
    let range = target.clone();
    let mut rest: Vec<IdedExpr> = c.args.drain(2..).collect();
    let body = rest.pop().unwrap_or_default();
    let filter = rest.pop();
    let (init, cond, step, result) = match name {
        "all" => (
            lit_bool(true),
            call("@not_strictly_false", vec![ident(RESULT)]),
            call("_&&_", vec![ident(RESULT), body]),
            ident(RESULT),
        ),
        "exists" => (
            lit_bool(false),
            call("@not_strictly_false", vec![call("!_", vec![ident(RESULT)])]),
            call("_||_", vec![ident(RESULT), body]),
            ident(RESULT),
        ),
        "existsOne" | "exists_one" => (
            lit_int(0),
            lit_bool(true),
            call(
                "_?_:_",
                vec![
                    body,
                    call("_+_", vec![ident(RESULT), lit_int(1)]),
                    ident(RESULT),
                ],
            ),
            call("_==_", vec![ident(RESULT), lit_int(1)]),
        ),
        _ => {
            let (init, add) = match name {
                "transformList" => (
                    node(Expr::List(ListExpr::new(Vec::new()))),
                    call(
                        "_+_",
                        vec![ident(RESULT), node(Expr::List(ListExpr::new(vec![body])))],
                    ),
                ),
                "transformMap" => (
                    node(Expr::Map(MapExpr::default())),
                    call(MAP_INSERT, vec![ident(RESULT), ident(&v1), body]),
                ),
                _ => (
                    node(Expr::Map(MapExpr::default())),
                    call(MAP_INSERT, vec![ident(RESULT), body]),
                ),
            };
            let step = match filter {
                Some(f) => call("_?_:_", vec![f, add, ident(RESULT)]),
                None => add,
            };
            (init, lit_bool(true), step, ident(RESULT))
        }
    };
    node(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: range,
        iter_var: v1,
        iter_var2: Some(v2),
        accu_var: RESULT.to_string(),
        accu_init: init,
        loop_cond: cond,
        loop_step: step,
        result,
    })))
}
