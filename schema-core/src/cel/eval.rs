//! The CEL evaluator: cel-go's interpreter semantics over the `cel`
//! crate's AST, with its runtime cost tracking (`interpreter/runtimecost.go`
//! and the Kubernetes `library.CostEstimator`).
//!
//! - Errors are values in cel-go; here they are `Err`, absorbed by `&&`,
//!   `||` (a `false`, respectively `true`, operand wins whatever the other
//!   is) and the macros built on them, and never by anything else.
//! - Cost: identifiers, field selections and index operations cost 1, a
//!   select or index on a computed value 1 more (the relative attribute),
//!   literals and `has()` 0, list literals 10, map literals 30, function
//!   calls their runtime cost (1 unless the function says otherwise), and
//!   `&&`, `||`, `?:` nothing of their own. Past the per-call limit the
//!   evaluation stops with cel-go's `operation cancelled: actual cost limit
//!   exceeded`.
//! - Depth: expressions nest at most [`MAX_EVAL_DEPTH`] deep.

use std::rc::Rc;

use cel::IdedExpr;
use cel::common::ast::{EntryExpr, Expr, LiteralValue};

use super::cost::{LIST_CREATE_BASE_COST, MAP_CREATE_BASE_COST};
use super::error::EvalError;
use super::library;
use super::type_check::{Checked, Reference, qualified_name};
use super::types::Type;
use super::value::{EvalResult, List, MapV, OwnedMap, Val, display, key_ok};

/// cel-go's per-call cost limit for Kubernetes (`PerCallLimit`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// How deep expressions may nest during evaluation: twice the deepest tree
/// cel-go's parser limits let through (nesting of 250 for the grammar's
/// rules and 250 for its compound nodes, macros expanded), so that every
/// rule that compiles evaluates.
pub const MAX_EVAL_DEPTH: usize = 1000;

/// The variables a rule sees: `self` and, when declared, `oldSelf`.
#[derive(Clone, Debug)]
pub struct Activation<'a> {
    /// `self`: its value, or the error of a value that does not convert
    /// (an error value, raised where the rule reads `self`).
    pub self_: EvalResult<'a>,
    /// `oldSelf`, when declared; an error value likewise.
    pub old_self: Option<EvalResult<'a>>,
}

/// The outcome of one program evaluation: its value (or error) and its
/// runtime cost.
#[derive(Clone, Debug)]
pub struct Outcome<'a> {
    /// The value or error.
    pub result: EvalResult<'a>,
    /// The actual cost.
    pub cost: u64,
}

/// Evaluates `expr` in `act` with a per-call cost `limit`.
pub fn evaluate<'a>(
    expr: &IdedExpr,
    checked: Option<&Checked>,
    act: &Activation<'a>,
    limit: u64,
) -> Outcome<'a> {
    evaluate_planned(expr, checked, act, limit, true)
}

/// Evaluates `expr` as a program planned with `OptOptimize` (`optimize`,
/// what the API server plans) or without it (what apiserver's CEL library
/// cost tests run: literals of constants and conversions of constants are
/// evaluated and charged like any other).
pub(crate) fn evaluate_planned<'a>(
    expr: &IdedExpr,
    checked: Option<&Checked>,
    act: &Activation<'a>,
    limit: u64,
    optimize: bool,
) -> Outcome<'a> {
    let mut ev = Evaluator {
        act,
        checked,
        locals: Vec::new(),
        lazy: Vec::new(),
        cost: 0,
        limit,
        depth: 0,
        work: 0,
        optimize,
    };
    let result = ev.eval(expr);
    Outcome {
        result,
        cost: ev.cost,
    }
}

struct Evaluator<'x, 'a> {
    act: &'x Activation<'a>,
    /// What the checker resolved (overloads, types), which a few calls
    /// depend on as in cel-go's planned program.
    checked: Option<&'x Checked>,
    locals: Vec<(&'x str, EvalResult<'a>)>,
    /// Accumulators not yet initialized: the slot in `locals` and the
    /// initializer. cel-go evaluates a comprehension's initializer when
    /// the accumulator is first read, so one never read costs nothing
    /// (and cannot fail).
    lazy: Vec<(usize, &'x IdedExpr)>,
    cost: u64,
    limit: u64,
    depth: usize,
    work: u64,
    /// Whether the program is planned with `OptOptimize`, which folds
    /// constant expressions (`is_const`) into constants that cost nothing.
    optimize: bool,
}

/// A bound on the real work of one evaluation (bytes and elements handed
/// to and returned by functions), where cel-go's cost model charges less
/// than the work (e.g. `charAt` or `format` on long strings in a loop).
/// Past it the evaluation is cancelled as by the cost limit.
pub const MAX_EVAL_WORK: u64 = 200_000_000;

/// The work of handing `v` to a function.
fn work_of(v: &Val<'_>) -> u64 {
    match v {
        Val::Str(s) => s.as_str().len() as u64 + 1,
        Val::Bytes(b) => b.len() as u64 + 1,
        Val::List(l) => l.len() as u64 + 1,
        Val::Map(m) => m.len() as u64 + 1,
        _ => 1,
    }
}

/// Type identifiers usable as values.
const TYPE_NAMES: &[&str] = &[
    "int",
    "uint",
    "double",
    "bool",
    "string",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
    "google.protobuf.Duration",
    "google.protobuf.Timestamp",
    "optional_type",
    "net.IP",
    "net.CIDR",
];

/// Namespaces of global functions written as `ns.fn(...)`.
const NAMESPACES: &[&str] = &["optional", "sets", "format", "strings", "ip", "lists"];

impl<'x, 'a> Evaluator<'x, 'a> {
    /// Whether the planned program has `e` folded into a constant.
    fn folded(&self, e: &IdedExpr) -> bool {
        self.optimize && is_const(e)
    }

    fn charge(&mut self, n: u64) -> Result<(), EvalError> {
        self.cost = self.cost.saturating_add(n);
        if self.cost > self.limit {
            return Err(EvalError::cost_limit());
        }
        Ok(())
    }

    fn eval(&mut self, e: &'x IdedExpr) -> EvalResult<'a> {
        self.depth += 1;
        let r = if self.depth > MAX_EVAL_DEPTH {
            Err(EvalError::new("max recursion depth exceeded"))
        } else {
            self.eval_inner(e)
        };
        self.depth -= 1;
        r
    }

    fn eval_inner(&mut self, e: &'x IdedExpr) -> EvalResult<'a> {
        match &e.expr {
            Expr::Unspecified => Err(EvalError::new("unspecified expression")),
            Expr::Literal(l) => Ok(literal(l)),
            Expr::Ident(name) => {
                // A type identifier is a constant of the planned program:
                // free.
                if self.is_type_name(name) {
                    return Ok(Val::type_val(name));
                }
                self.charge(1)?;
                self.resolve(name)
            }
            Expr::Select(sel) => {
                if sel.test {
                    // `has()`: the operand's cost; the presence test is
                    // free. cel-go charges the attribute and each qualifier
                    // it applies, less one for the test: an operand that
                    // fails leaves the test's own qualifier unapplied, one
                    // less.
                    let before = self.cost;
                    let operand = match self.eval(&sel.operand) {
                        Ok(v) => v,
                        Err(e) if e.cancelled => return Err(e),
                        Err(e) => {
                            self.cost = self.cost.saturating_sub(1).max(before);
                            return Err(e);
                        }
                    };
                    return has_field(&operand, &sel.field);
                }
                if let Some(name) = qualified_name(e)
                    && self.is_type_name(&name)
                {
                    return Ok(Val::type_val(&name));
                }
                let operand = self.eval(&sel.operand)?;
                self.charge(1 + relative(&sel.operand))?;
                select(operand, &sel.field)
            }
            Expr::List(l) => {
                let mut items = Vec::with_capacity(l.elements.len());
                for (i, el) in l.elements.iter().enumerate() {
                    let v = self.eval(el)?;
                    if l.optional_indices.contains(&i) {
                        match v {
                            Val::Optional(Some(inner)) => items.push((*inner).clone()),
                            Val::Optional(None) => {}
                            _ => return Err(EvalError::no_overload()),
                        }
                    } else {
                        items.push(v);
                    }
                }
                // OptOptimize folds literals of constants: no cost.
                if !self.folded(e) {
                    self.charge(LIST_CREATE_BASE_COST)?;
                }
                Ok(Val::list(items))
            }
            Expr::Map(m) => {
                let mut map = OwnedMap::default();
                for entry in &m.entries {
                    let EntryExpr::MapEntry(me) = &entry.expr else {
                        return Err(EvalError::new("unexpected struct field in map literal"));
                    };
                    let k = self.eval(&me.key)?;
                    let v = self.eval(&me.value)?;
                    if !key_ok(&k) {
                        return Err(EvalError::new(format!(
                            "unsupported key type: {}",
                            k.type_name()
                        )));
                    }
                    let v = if me.optional {
                        match v {
                            Val::Optional(Some(inner)) => (*inner).clone(),
                            Val::Optional(None) => continue,
                            _ => return Err(EvalError::no_overload()),
                        }
                    } else {
                        v
                    };
                    let shown = display(&k);
                    if !map.insert(k, v) {
                        return Err(EvalError::new(format!("Failed with repeated key: {shown}")));
                    }
                }
                if !self.folded(e) {
                    self.charge(MAP_CREATE_BASE_COST)?;
                }
                Ok(Val::Map(MapV::Owned(Rc::new(map))))
            }
            Expr::Struct(s) => Err(EvalError::new(format!("unknown type: {}", s.type_name))),
            Expr::Comprehension(c) => self.comprehension(c),
            Expr::Call(call) => self.call(e, call),
        }
    }

    /// The index of `x[i]` or a branch of `c ? x : y`. One that is itself
    /// an attribute (a variable, a selection or an index) becomes part of
    /// the enclosing attribute in cel-go's plan, resolved with it: it
    /// costs one step less than on its own.
    fn qualifier_operand(&mut self, e: &'x IdedExpr) -> EvalResult<'a> {
        let attribute = match &e.expr {
            Expr::Ident(n) => !self.is_type_name(n),
            Expr::Select(sel) => !sel.test,
            Expr::Call(c) => {
                c.target.is_none() && matches!(c.func_name.as_str(), "_[_]" | "_[?_]" | "_?._")
            }
            _ => false,
        };
        let before = self.cost;
        let v = self.eval(e);
        if attribute && self.cost > before {
            self.cost -= 1;
        }
        v
    }

    /// The zero of a call's static result type (`int` when unknown).
    fn zero_of(&self, id: u64) -> Val<'a> {
        match self.checked.map(|c| c.type_of(id)) {
            Some(Type::Uint) => Val::Uint(0),
            Some(Type::Double) => Val::Double(0.0),
            Some(Type::Duration) => Val::Duration(0),
            _ => Val::Int(0),
        }
    }

    /// Whether the checker matched the call to several overloads.
    fn dispatched_at_runtime(&self, id: u64) -> bool {
        matches!(
            self.checked.and_then(|c| c.references.get(&id)),
            Some(Reference::Function { overloads, .. }) if overloads.len() > 1
        )
    }

    fn is_type_name(&self, name: &str) -> bool {
        TYPE_NAMES.contains(&name) && !self.is_var(name.split('.').next().unwrap_or(name))
    }

    fn is_var(&self, name: &str) -> bool {
        self.locals.iter().any(|(n, _)| *n == name)
            || name == "self"
            || (name == "oldSelf" && self.act.old_self.is_some())
    }

    fn resolve(&mut self, name: &str) -> EvalResult<'a> {
        if let Some(slot) = self.locals.iter().rposition(|(n, _)| *n == name) {
            self.initialize(slot);
            return self
                .locals
                .get(slot)
                .map_or(Ok(Val::Null), |(_, v)| v.clone());
        }
        match name {
            "self" => return self.act.self_.clone(),
            "oldSelf" => {
                if let Some(o) = &self.act.old_self {
                    return o.clone();
                }
            }
            _ => {}
        }
        if TYPE_NAMES.contains(&name) {
            return Ok(Val::type_val(name));
        }
        Err(EvalError::new(format!("no such attribute(s): {name}")))
    }

    fn comprehension(&mut self, c: &'x cel::common::ast::ComprehensionExpr) -> EvalResult<'a> {
        let range = self.eval(&c.iter_range)?;
        // Elements that do not convert are error values of the iteration
        // variable, as in cel-go.
        type Item<'a> = (EvalResult<'a>, Option<EvalResult<'a>>);
        let items: Vec<Item<'a>> = match &range {
            Val::List(l) => {
                let mut out = Vec::with_capacity(l.len());
                for i in 0..l.len() {
                    let Some(v) = l.get(i) else { break };
                    if c.iter_var2.is_some() {
                        out.push((Ok(Val::Int(i as i64)), Some(v)));
                    } else {
                        out.push((v, None));
                    }
                }
                out
            }
            Val::Map(m) => {
                let mut out = Vec::new();
                for k in m.keys() {
                    if c.iter_var2.is_some() {
                        let v = m.find(&k).map(|v| v.unwrap_or(Val::Null));
                        out.push((Ok(k), Some(v)));
                    } else {
                        out.push((Ok(k), None));
                    }
                }
                out
            }
            _ => return Err(EvalError::no_overload()),
        };
        let base = self.locals.len();
        if is_plain_init(&c.accu_init) {
            let init = self.eval(&c.accu_init)?;
            self.locals.push((c.accu_var.as_str(), Ok(init)));
        } else {
            self.locals.push((c.accu_var.as_str(), Ok(Val::Null)));
            self.lazy.push((base, &c.accu_init));
        }
        let r = self.fold(c, items, base);
        self.lazy.retain(|(slot, _)| *slot < base);
        self.locals.truncate(base);
        r
    }

    /// Evaluates the initializer of the accumulator in `slot` if it is
    /// still pending, in the scope of its comprehension (the locals below
    /// the slot).
    fn initialize(&mut self, slot: usize) {
        let Some(p) = self.lazy.iter().position(|(s, _)| *s == slot) else {
            return;
        };
        let (_, init) = self.lazy.remove(p);
        let above = self.locals.split_off(slot);
        let inner: Vec<(usize, &'x IdedExpr)> = self
            .lazy
            .iter()
            .copied()
            .filter(|(s, _)| *s > slot)
            .collect();
        self.lazy.retain(|(s, _)| *s < slot);
        let v = self.eval(init);
        self.lazy.retain(|(s, _)| *s < slot);
        self.lazy.extend(inner);
        self.locals.extend(above);
        if let Some(local) = self.locals.get_mut(slot) {
            local.1 = v;
        }
    }

    #[allow(clippy::type_complexity)]
    fn fold(
        &mut self,
        c: &'x cel::common::ast::ComprehensionExpr,
        items: Vec<(EvalResult<'a>, Option<EvalResult<'a>>)>,
        base: usize,
    ) -> EvalResult<'a> {
        for (v1, v2) in items {
            // The loop condition sees only the accumulator.
            self.locals.truncate(base + 1);
            match self.eval(&c.loop_cond) {
                // cel-go stops on a `false` condition only; an error or
                // another value goes on.
                Ok(Val::Bool(false)) => break,
                Err(e) if e.cancelled => return Err(e),
                _ => {}
            }
            self.locals.push((c.iter_var.as_str(), v1));
            if let (Some(name), Some(v2)) = (&c.iter_var2, v2) {
                self.locals.push((name.as_str(), v2));
            }
            let step = self.step(c, base);
            if let Err(e) = &step
                && e.cancelled
            {
                return step;
            }
            if let Some(slot) = self.locals.get_mut(base) {
                slot.1 = step;
            }
        }
        self.locals.truncate(base + 1);
        self.eval(&c.result)
    }

    /// The loop step, with the accumulating steps of `map`, `filter`,
    /// `transformList` (`@result + [e]`) and `transformMap`
    /// (`cel.@mapInsert(@result, k, v)`) done in place: cel-go accumulates
    /// into mutable lists and maps there too.
    fn step(&mut self, c: &'x cel::common::ast::ComprehensionExpr, base: usize) -> EvalResult<'a> {
        let accu = c.accu_var.as_str();
        if let Some(p) = accumulating(&c.loop_step, accu) {
            return self.accumulate(p, base);
        }
        if let Expr::Call(call) = &c.loop_step.expr
            && call.func_name == "_?_:_"
            && call.target.is_none()
            && let [cond, yes, no] = call.args.as_slice()
            && let Some(p) = accumulating(yes, accu)
            && matches!(&no.expr, Expr::Ident(n) if n == accu)
        {
            let cv = self.eval(cond)?;
            return match cv {
                Val::Bool(true) => self.accumulate(p, base),
                Val::Bool(false) => self.qualifier_operand(no),
                _ => Err(EvalError::no_overload()),
            };
        }
        self.eval(&c.loop_step)
    }

    /// Takes the accumulator out of its slot, which the loop refills with
    /// the step's result.
    fn take_accumulator(&mut self, base: usize) -> Result<EvalResult<'a>, EvalError> {
        self.initialize(base);
        let slot = self
            .locals
            .get_mut(base)
            .ok_or_else(EvalError::no_overload)?;
        Ok(std::mem::replace(&mut slot.1, Ok(Val::Null)))
    }

    fn accumulate(&mut self, p: Accumulating<'x>, base: usize) -> EvalResult<'a> {
        match p {
            Accumulating::Append(el) => {
                // `@result` (1), the element, the list literal (10, unless
                // folded as a constant), `_+_` (1).
                self.charge(1)?;
                let v = self.eval(el);
                self.charge(if self.folded(el) {
                    1
                } else {
                    1 + LIST_CREATE_BASE_COST
                })?;
                let v = v?;
                match self.take_accumulator(base)? {
                    Ok(Val::List(List::Owned { mut items, kind })) => {
                        Rc::make_mut(&mut items).push(v);
                        Ok(Val::List(List::Owned { items, kind }))
                    }
                    Err(e) => Err(e),
                    Ok(_) => Err(EvalError::no_overload()),
                }
            }
            Accumulating::Insert(args) => {
                // `@result` (1), the arguments, the call (1).
                self.charge(1)?;
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                self.charge(1)?;
                match self.take_accumulator(base)? {
                    Ok(Val::Map(MapV::Owned(mut m))) => {
                        let pairs: Vec<(Val<'a>, Val<'a>)> = match vals.as_slice() {
                            [k, v] => vec![(k.clone(), v.clone())],
                            [Val::Map(e)] => {
                                let mut out = Vec::new();
                                for k in e.keys() {
                                    let v = e.find(&k)?.unwrap_or(Val::Null);
                                    out.push((k, v));
                                }
                                out
                            }
                            _ => return Err(EvalError::no_overload()),
                        };
                        let map = Rc::make_mut(&mut m);
                        for (k, v) in pairs {
                            if !key_ok(&k) {
                                return Err(EvalError::new(format!(
                                    "unsupported key type: {}",
                                    k.type_name()
                                )));
                            }
                            let shown = display(&k);
                            if !map.insert(k, v) {
                                return Err(EvalError::new(format!(
                                    "insert failed: key {shown} already exists"
                                )));
                            }
                        }
                        Ok(Val::Map(MapV::Owned(m)))
                    }
                    Err(e) => Err(e),
                    Ok(other) => {
                        let mut all = vec![other];
                        all.extend(vals);
                        library::call(super::functions::MAP_INSERT, None, all, &[]).0
                    }
                }
            }
        }
    }

    fn call(&mut self, e: &'x IdedExpr, call: &'x cel::common::ast::CallExpr) -> EvalResult<'a> {
        let name = call.func_name.as_str();
        let args = call.args.as_slice();
        if call.target.is_none() {
            match (name, args) {
                ("_&&_", [l, r]) => return self.logic(l, r, false),
                ("_||_", [l, r]) => return self.logic(l, r, true),
                ("_?_:_", [c, t, f]) => {
                    let cv = self.eval(c)?;
                    let branch = match cv {
                        Val::Bool(true) => t,
                        Val::Bool(false) => f,
                        _ => return Err(EvalError::no_overload()),
                    };
                    // cel-go plans a conditional as an attribute whose
                    // branches are attributes: a branch that is one itself
                    // is resolved as part of it, one step fewer.
                    return self.qualifier_operand(branch);
                }
                ("@not_strictly_false", [a]) => {
                    let v = self.eval(a);
                    self.charge(1)?;
                    return match v {
                        Ok(Val::Bool(b)) => Ok(Val::Bool(b)),
                        Err(e) if e.cancelled => Err(e),
                        _ => Ok(Val::Bool(true)),
                    };
                }
                ("_?._", [operand, field]) => {
                    let Expr::Literal(LiteralValue::String(f)) = &field.expr else {
                        return Err(EvalError::no_overload());
                    };
                    let v = self.eval(operand)?;
                    let r = opt_select(v, f.inner());
                    self.charge(relative(operand) + optional_step(&r))?;
                    return r;
                }
                ("_[?_]", [operand, index]) => {
                    let v = self.eval(operand)?;
                    let i = self.qualifier_operand(index)?;
                    let r = opt_index(v, &i);
                    self.charge(relative(operand) + optional_step(&r))?;
                    return r;
                }
                ("@in", [lhs, rhs]) if self.folded(rhs) => {
                    // OptOptimize: membership in a constant list of
                    // primitives of one type is a set lookup without call
                    // cost; in an empty constant list it is `false`.
                    if let Expr::List(l) = &rhs.expr
                        && let Some(homogeneous) = const_primitive_list(l)
                    {
                        if l.elements.is_empty() {
                            return Ok(Val::Bool(false));
                        }
                        if homogeneous {
                            let v = self.eval(lhs)?;
                            let list = self.eval(rhs)?;
                            let (r, _) = library::call("@in", None, vec![v, list], args);
                            return r;
                        }
                    }
                }
                ("_[_]", [operand, index]) => {
                    let v = self.eval(operand)?;
                    let i = self.qualifier_operand(index)?;
                    self.charge(1 + relative(operand))?;
                    return index_val(v, &i);
                }
                _ => {}
            }
        }
        // `opt.or(o)` and `opt.orValue(v)`: cel-go plans them as
        // short-circuits (`evalOptionalOr`), not calls: the alternative is
        // evaluated only when the optional is empty, and they cost nothing.
        if let (Some(t), [alt], "or" | "orValue") = (&call.target, args, name) {
            let lhs = self.eval(t)?;
            return match lhs {
                Val::Optional(Some(v)) => Ok(if name == "or" {
                    Val::Optional(Some(v))
                } else {
                    (*v).clone()
                }),
                Val::Optional(None) => self.eval(alt),
                _ => Err(EvalError::no_overload()),
            };
        }
        // Namespaced global functions (`optional.none()`, `sets.contains()`).
        let mut fname = name.to_string();
        let mut target = None;
        let e_expr = e;
        // A strict call evaluates (and pays for) every argument before an
        // error among them is its result, as cel-go's interpreter does;
        // the call itself is still charged (below).
        let mut results: Vec<EvalResult<'a>> = Vec::with_capacity(args.len() + 1);
        let has_target = match &call.target {
            Some(t) => match &t.expr {
                Expr::Ident(ns) if NAMESPACES.contains(&ns.as_str()) && !self.is_var(ns) => {
                    fname = format!("{ns}.{name}");
                    false
                }
                _ => {
                    results.push(self.eval(t));
                    true
                }
            },
            None => false,
        };
        for a in args {
            results.push(self.eval(a));
        }
        if let Some(e) = results
            .iter()
            .find_map(|r| r.as_ref().err().filter(|e| e.cancelled))
        {
            return Err(e.clone());
        }
        if let Some(e) = results.iter().find_map(|r| r.as_ref().err()) {
            let e = e.clone();
            if !self.folded(e_expr) {
                let constant_pattern = args.last().is_some_and(is_const);
                self.charge(library::error_call_cost(
                    &fname,
                    has_target,
                    &results,
                    constant_pattern,
                ))?;
            }
            return Err(e);
        }
        let mut vals: Vec<Val<'a>> = results.into_iter().flatten().collect();
        if has_target {
            target = Some(vals.remove(0));
        }
        let work = target.iter().chain(&vals).map(work_of).sum::<u64>();
        let (v, cost) = library::call(&fname, target, vals, args);
        let v = match v {
            // cel-go picks `sum`'s overload by the list's static type: an
            // empty list sums to the zero of its element type.
            Ok(Val::Int(0)) if fname == "sum" => Ok(self.zero_of(e.id)),
            other => other,
        };
        // A call the checker could not narrow to one overload is
        // dispatched at runtime without an overload id, so cel-go's
        // costs by overload id do not apply to it.
        let cost = if self.dispatched_at_runtime(e.id) {
            library::runtime_dispatch_cost(&fname, cost)
        } else {
            cost
        };
        self.work = self
            .work
            .saturating_add(work)
            .saturating_add(v.as_ref().map_or(1, work_of));
        if self.work > MAX_EVAL_WORK {
            return Err(EvalError::cost_limit());
        }
        // OptOptimize folds type conversions of constants.
        if !self.folded(e) {
            self.charge(cost)?;
        }
        v
    }

    fn logic(&mut self, l: &'x IdedExpr, r: &'x IdedExpr, or: bool) -> EvalResult<'a> {
        let short = Val::Bool(or);
        let lv = self.eval(l);
        match &lv {
            Ok(Val::Bool(b)) if *b == or => return Ok(short),
            Err(e) if e.cancelled => return lv,
            _ => {}
        }
        let rv = self.eval(r);
        match (&lv, &rv) {
            (_, Ok(Val::Bool(b))) if *b == or => Ok(short),
            (_, Err(e)) if e.cancelled => rv,
            (Ok(Val::Bool(_)), Ok(Val::Bool(_))) => Ok(Val::Bool(!or)),
            (Err(_), _) => lv,
            (Ok(_), _) if !matches!(lv, Ok(Val::Bool(_))) => Err(EvalError::no_overload()),
            (_, Err(_)) => rv,
            _ => Err(EvalError::no_overload()),
        }
    }
}

/// An accumulating loop step done in place.
#[derive(Clone, Copy)]
enum Accumulating<'x> {
    /// `@result + [e]`.
    Append(&'x IdedExpr),
    /// `cel.@mapInsert(@result, …)`.
    Insert(&'x [IdedExpr]),
}

fn accumulating<'x>(e: &'x IdedExpr, accu: &str) -> Option<Accumulating<'x>> {
    let Expr::Call(call) = &e.expr else {
        return None;
    };
    if call.target.is_some() {
        return None;
    }
    let (first, rest) = call.args.split_first()?;
    if !matches!(&first.expr, Expr::Ident(n) if n == accu) {
        return None;
    }
    match call.func_name.as_str() {
        "_+_" => match rest {
            [
                IdedExpr {
                    expr: Expr::List(l),
                    ..
                },
            ] if l.optional_indices.is_empty() => match l.elements.as_slice() {
                [one] => Some(Accumulating::Append(one)),
                _ => None,
            },
            _ => None,
        },
        super::functions::MAP_INSERT if (1..=2).contains(&rest.len()) => {
            Some(Accumulating::Insert(rest))
        }
        _ => None,
    }
}

/// The type conversion functions (`overloads.IsTypeConversionFunction`).
pub(crate) const CONVERSIONS: &[&str] = &[
    "bool",
    "bytes",
    "double",
    "duration",
    "dyn",
    "int",
    "string",
    "timestamp",
    "type",
    "uint",
];

/// Whether cel-go's planner with `OptOptimize` turns `e` into a constant:
/// literals, list and map literals of constants, and type conversions of
/// a constant.
/// An initializer evaluated when its comprehension starts: a literal or
/// an empty list or map (what the standard macros start from), which cost
/// nothing and cannot fail, so when it runs makes no difference.
fn is_plain_init(e: &IdedExpr) -> bool {
    match &e.expr {
        Expr::Literal(_) => true,
        Expr::List(l) => l.elements.is_empty(),
        Expr::Map(m) => m.entries.is_empty(),
        _ => false,
    }
}

pub(crate) fn is_const(e: &IdedExpr) -> bool {
    match &e.expr {
        Expr::Literal(_) => true,
        // Type identifiers (`int`, `google.protobuf.Duration`).
        Expr::Ident(_) | Expr::Select(_) => {
            qualified_name(e).is_some_and(|n| TYPE_NAMES.contains(&n.as_str()))
        }
        Expr::List(l) => l.elements.iter().all(is_const),
        Expr::Map(m) => m.entries.iter().all(|en| match &en.expr {
            EntryExpr::MapEntry(me) => is_const(&me.key) && is_const(&me.value),
            EntryExpr::StructField(_) => false,
        }),
        Expr::Call(c) => {
            c.target.is_none()
                && c.args.len() == 1
                && CONVERSIONS.contains(&c.func_name.as_str())
                && c.args.iter().all(is_const)
        }
        _ => false,
    }
}

/// For a constant list literal: `Some(true)` when its elements are literals
/// of one primitive type (bool, bytes, double, int, string, uint), the
/// condition of cel-go's set membership optimization.
fn const_primitive_list(l: &cel::common::ast::ListExpr) -> Option<bool> {
    let mut kind: Option<std::mem::Discriminant<LiteralValue>> = None;
    for el in &l.elements {
        let Expr::Literal(lit) = &el.expr else {
            return Some(false);
        };
        if matches!(lit, LiteralValue::Null) {
            return Some(false);
        }
        let d = std::mem::discriminant(lit);
        if kind.is_some_and(|k| k != d) {
            return Some(false);
        }
        kind = Some(d);
    }
    Some(true)
}

/// 1 when a select or index on `operand` starts a relative attribute (the
/// operand is not itself an identifier, select or index).
/// The step of an optional qualifier (`a.?b`, `a[?k]`): cel-go observes
/// it only when the field or key is present.
fn optional_step(r: &EvalResult<'_>) -> u64 {
    u64::from(matches!(r, Ok(Val::Optional(Some(_)))))
}

fn relative(operand: &IdedExpr) -> u64 {
    match &operand.expr {
        Expr::Ident(_) | Expr::Select(_) => 0,
        // A conditional is an attribute too.
        Expr::Call(c) if matches!(c.func_name.as_str(), "_[_]" | "_?._" | "_[?_]" | "_?_:_") => 0,
        _ => 1,
    }
}

fn literal<'a>(l: &LiteralValue) -> Val<'a> {
    match l {
        LiteralValue::Boolean(b) => Val::Bool(*b.inner()),
        LiteralValue::Bytes(b) => Val::Bytes(b.inner().into()),
        LiteralValue::Double(d) => Val::Double(*d.inner()),
        LiteralValue::Int(i) => Val::Int(*i.inner()),
        LiteralValue::Null => Val::Null,
        LiteralValue::String(s) => Val::string(s.inner()),
        LiteralValue::UInt(u) => Val::Uint(*u.inner()),
    }
}

/// `has(operand.field)`.
fn has_field<'a>(operand: &Val<'a>, field: &str) -> EvalResult<'a> {
    match operand {
        Val::Map(m) => Ok(Val::Bool(m.find(&Val::string(field))?.is_some())),
        Val::Optional(Some(v)) => has_field(v, field),
        Val::Optional(None) => Ok(Val::Bool(false)),
        _ => Err(EvalError::no_overload()),
    }
}

/// `operand.field`.
pub(crate) fn select<'a>(operand: Val<'a>, field: &str) -> EvalResult<'a> {
    match operand {
        Val::Map(m) => match m.find(&Val::string(field))? {
            Some(v) => Ok(v),
            None => Err(EvalError::new(format!("no such key: {field}"))),
        },
        Val::Optional(None) => Ok(Val::Optional(None)),
        Val::Optional(Some(v)) => {
            let inner = select((*v).clone(), field)?;
            Ok(Val::Optional(Some(Rc::new(inner))))
        }
        _ => Err(EvalError::no_overload()),
    }
}

fn opt_select<'a>(operand: Val<'a>, field: &str) -> EvalResult<'a> {
    match operand {
        Val::Map(m) => Ok(Val::Optional(m.find(&Val::string(field))?.map(Rc::new))),
        Val::Optional(None) => Ok(Val::Optional(None)),
        Val::Optional(Some(v)) => opt_select((*v).clone(), field),
        _ => Err(EvalError::no_overload()),
    }
}

/// A list index from an int, uint or integral double.
fn list_index(i: &Val<'_>) -> Result<i64, EvalError> {
    match i {
        Val::Int(i) => Ok(*i),
        Val::Uint(u) => {
            i64::try_from(*u).map_err(|_| EvalError::new(format!("index out of bounds: {u}")))
        }
        Val::Double(d) if d.fract() == 0.0 && d.is_finite() => Ok(*d as i64),
        Val::Double(d) => Err(EvalError::new(format!(
            "unsupported index value {} in list",
            crate::go::fmt::format_float(*d)
        ))),
        other => Err(EvalError::new(format!(
            "unsupported index type '{}' in list",
            other.type_name()
        ))),
    }
}

fn index_val<'a>(operand: Val<'a>, i: &Val<'a>) -> EvalResult<'a> {
    match operand {
        Val::List(l) => {
            let idx = list_index(i)?;
            if idx < 0 || idx as u64 >= l.len() as u64 {
                return Err(EvalError::new(format!("index out of bounds: {idx}")));
            }
            l.get(idx as usize)
                .unwrap_or_else(|| Err(EvalError::new(format!("index out of bounds: {idx}"))))
        }
        Val::Map(m) => match m.find(i)? {
            Some(v) => Ok(v),
            None => Err(EvalError::new(format!("no such key: {}", display(i)))),
        },
        Val::Optional(None) => Ok(Val::Optional(None)),
        Val::Optional(Some(v)) => {
            let inner = index_val((*v).clone(), i)?;
            Ok(Val::Optional(Some(Rc::new(inner))))
        }
        _ => Err(EvalError::no_overload()),
    }
}

fn opt_index<'a>(operand: Val<'a>, i: &Val<'a>) -> EvalResult<'a> {
    match operand {
        Val::List(l) => {
            let idx = list_index(i)?;
            if idx < 0 || idx as u64 >= l.len() as u64 {
                return Ok(Val::Optional(None));
            }
            match l.get(idx as usize) {
                Some(v) => Ok(Val::Optional(Some(Rc::new(v?)))),
                None => Ok(Val::Optional(None)),
            }
        }
        Val::Map(m) => Ok(Val::Optional(m.find(i)?.map(Rc::new))),
        Val::Optional(None) => Ok(Val::Optional(None)),
        Val::Optional(Some(v)) => opt_index((*v).clone(), i),
        _ => Err(EvalError::no_overload()),
    }
}

#[cfg(test)]
mod tests;
