//! Walking a parsed expression tree (the `cel` crate's AST).

use cel::common::ast::{EntryExpr, Expr, IdedExpr};

/// Calls `f` on every expression below `e` and then on `e`, children
/// first and in order: the order cel-go plans a program in.
pub(crate) fn visit_post<T>(e: &IdedExpr, f: &mut dyn FnMut(&IdedExpr) -> Option<T>) -> Option<T> {
    let mut found = None;
    for_each_child(e, &mut |c| {
        if found.is_none() {
            found = visit_post(c, f);
        }
    });
    found.or_else(|| f(e))
}

/// Calls `f` on each direct child of `e`, in order.
pub(crate) fn for_each_child(e: &IdedExpr, f: &mut dyn FnMut(&IdedExpr)) {
    match &e.expr {
        Expr::Call(c) => {
            if let Some(t) = &c.target {
                f(t);
            }
            for a in &c.args {
                f(a);
            }
        }
        Expr::Select(s) => f(&s.operand),
        Expr::List(l) => l.elements.iter().for_each(&mut *f),
        Expr::Map(m) => {
            for entry in &m.entries {
                if let EntryExpr::MapEntry(me) = &entry.expr {
                    f(&me.key);
                    f(&me.value);
                }
            }
        }
        Expr::Struct(s) => {
            for entry in &s.entries {
                if let EntryExpr::StructField(sf) = &entry.expr {
                    f(&sf.value);
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
                f(x);
            }
        }
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

/// Calls `f` on `e` and on every expression below it, parents first.
pub(crate) fn visit(e: &IdedExpr, f: &mut dyn FnMut(&IdedExpr)) {
    f(e);
    for_each_child(e, &mut |c| visit(c, &mut *f));
}
