//! Walking a parsed expression tree (the `cel` crate's AST).

use cel::common::ast::{EntryExpr, Expr, IdedExpr};

/// Calls `f` on `e` and on every expression below it, parents first.
pub(crate) fn visit(e: &IdedExpr, f: &mut dyn FnMut(&IdedExpr)) {
    f(e);
    match &e.expr {
        Expr::Call(c) => {
            if let Some(t) = &c.target {
                visit(t, f);
            }
            for a in &c.args {
                visit(a, f);
            }
        }
        Expr::Select(s) => visit(&s.operand, f),
        Expr::List(l) => {
            for el in &l.elements {
                visit(el, f);
            }
        }
        Expr::Map(m) => {
            for entry in &m.entries {
                if let EntryExpr::MapEntry(me) = &entry.expr {
                    visit(&me.key, f);
                    visit(&me.value, f);
                }
            }
        }
        Expr::Struct(s) => {
            for entry in &s.entries {
                if let EntryExpr::StructField(sf) = &entry.expr {
                    visit(&sf.value, f);
                }
            }
        }
        Expr::Comprehension(c) => {
            for x in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                visit(x, f);
            }
        }
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}
