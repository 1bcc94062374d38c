//! Compiling `x-kubernetes-validations` rules as the API server does at CRD
//! validation time (apiextensions' `schema/cel/compilation.go`): parse with
//! the macros of the environment, type-check against the declared type of
//! `self`, run the AST validators, and estimate the cost.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use cel::common::ast::{
    CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, ListExpr, LiteralValue, SourceInfo,
};
use cel::parser::{Macro, MacroExprHelper, ParseError as CelParseError};

use crate::cel::ast::{for_each_child, visit};
use crate::cel::cost::{CostEstimate, estimate};
use crate::cel::decl::DeclType;
use crate::cel::functions::{
    CompatibilityVersion, Features, MAP_INSERT, library, type_identifiers,
};
use crate::cel::limits::{Shape, check_limits};
use crate::cel::strformat::validate_format_calls;
use crate::cel::type_check::{CheckEnv, CheckIssue, Checked, Reference, check};
use crate::cel::types::Type;
use crate::model::structural::Structural;
use crate::model::wire::ValidationRule;

/// The variable a rule's value is bound to.
pub const SCOPED_VAR_NAME: &str = "self";
/// The variable the old value of a transition rule is bound to.
pub const OLD_SCOPED_VAR_NAME: &str = "oldSelf";

/// The placeholder type name of `self` (upstream generates a new
/// `selfType<n>` per compilation so that rules cannot depend on it).
pub const SELF_TYPE_NAME: &str = "selfType0";

/// An error with a location in the source (0-based column in code points;
/// line -1 for an error without location).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// 1-based line, or -1.
    pub line: i64,
    /// 0-based column in code points, or -1.
    pub column: i64,
    /// The message.
    pub message: String,
}

/// How many errors cel-go's `Errors` keeps (`maxErrorsToReport`).
const MAX_ERRORS_TO_REPORT: usize = 100;

/// Renders issues as cel-go's `Issues.String()`: the first 100 reported
/// (in report order; the rest only counted), sorted by location, each
/// `ERROR: <input>:line:col: message` with the source line and a caret,
/// then how many more were truncated.
pub fn display_issues(source: &str, issues: &[Issue]) -> String {
    let mut sorted: Vec<&Issue> = issues.iter().take(MAX_ERRORS_TO_REPORT).collect();
    sorted.sort_by_key(|i| (i.line, i.column));
    let lines: Vec<&str> = source.split('\n').collect();
    let mut out = Vec::with_capacity(sorted.len() + 1);
    for i in &sorted {
        let mut s = format!("ERROR: <input>:{}:{}: {}", i.line, i.column + 1, i.message);
        if i.line >= 1 {
            if let Some(snippet) = lines.get((i.line - 1) as usize) {
                if snippet.len() <= 16384 {
                    let snippet = snippet.replace('\t', " ");
                    s.push_str("\n | ");
                    s.push_str(&snippet);
                    s.push_str("\n | ");
                    let mut chars = snippet.chars();
                    for _ in 0..i.column.max(0) {
                        match chars.next() {
                            Some(c) if c.len_utf8() > 1 => s.push('\u{ff0e}'),
                            Some(_) => s.push('.'),
                            None => break,
                        }
                    }
                    match chars.next() {
                        Some(c) if c.len_utf8() > 1 => s.push('\u{ff3e}'),
                        _ => s.push('^'),
                    }
                }
            }
        }
        out.push(s);
    }
    if issues.len() > MAX_ERRORS_TO_REPORT {
        out.push(format!(
            "{} more errors were truncated",
            issues.len() - MAX_ERRORS_TO_REPORT
        ));
    }
    out.join("\n")
}

/// The (line, 0-based code point column) of a byte offset.
fn location_of(source: &str, byte_offset: u32) -> (i64, i64) {
    let off = (byte_offset as usize).min(source.len());
    let mut line = 1i64;
    let mut line_start = 0usize;
    for (i, b) in source.bytes().enumerate() {
        if i >= off {
            break;
        }
        if b == b'\n' {
            line += 1;
            line_start = i + 1;
        }
    }
    let col = source
        .get(line_start..off)
        .map_or(0, |s| s.chars().count() as i64);
    (line, col)
}

fn issue_at(source: &str, info: &SourceInfo, id: u64, message: String) -> Issue {
    match info.offset_for(id) {
        Some((start, _)) => {
            let (line, column) = location_of(source, start);
            Issue {
                line,
                column,
                message,
            }
        }
        None => Issue {
            line: -1,
            column: -1,
            message,
        },
    }
}

/// A parsed expression with its source positions.
pub struct Parsed {
    /// The expression, macros expanded.
    pub expr: IdedExpr,
    /// The byte offsets of the expressions.
    pub info: SourceInfo,
    /// The shape the limit check measured.
    pub shape: Shape,
}

/// Parses `source` with the syntax and macros of the environment at `v`,
/// within cel-go's parser limits.
pub fn parse_versioned(source: &str, v: CompatibilityVersion) -> Result<Parsed, Vec<Issue>> {
    let shape = check_limits(source).map_err(|e| {
        vec![Issue {
            line: -1,
            column: -1,
            message: e.0,
        }]
    })?;
    let env = parser_env(v);
    match env
        .parser()
        .max_recursion_depth(1000)
        .parse_with_source_info(source)
    {
        Ok((expr, mut info)) => {
            place_negative_literals(&expr, &mut info, source);
            Ok(Parsed { expr, info, shape })
        }
        Err(errs) => Err(errs
            .errors
            .iter()
            .map(|e| Issue {
                line: e.pos.0 as i64,
                column: (e.pos.1 as i64 - 1).max(-1),
                message: cel_go_syntax_message(&e.msg),
            })
            .collect()),
    }
}

/// cel-go's grammar reads a minus sign before a number as part of the
/// literal (`-5` is the literal -5, not a negation), so the literal starts
/// at the sign; the parser here places it at its digits. A numeric literal
/// preceded by `-` (over whitespace) starts there, unless it is a
/// non-negative right operand of a subtraction.
fn place_negative_literals(expr: &IdedExpr, info: &mut SourceInfo, source: &str) {
    let mut operands = std::collections::HashSet::new();
    let mut literals = Vec::new();
    crate::cel::ast::visit(expr, &mut |e| match &e.expr {
        Expr::Call(c) if c.func_name == "_-_" && c.target.is_none() => {
            if let [_, r] = c.args.as_slice() {
                operands.insert(r.id);
            }
        }
        Expr::Literal(LiteralValue::Int(i)) => literals.push((e.id, i64::from(*i) < 0)),
        Expr::Literal(LiteralValue::Double(d)) => literals.push((e.id, f64::from(*d) < 0.0)),
        _ => {}
    });
    let bytes = source.as_bytes();
    for (id, negative) in literals {
        if !negative && operands.contains(&id) {
            continue;
        }
        let Some((start, stop)) = info.offset_for(id) else {
            continue;
        };
        let before = bytes
            .get(..start as usize)
            .and_then(|b| b.iter().rposition(|c| !c.is_ascii_whitespace()));
        if let Some(sign) = before.filter(|&i| bytes.get(i) == Some(&b'-')) {
            info.add_offset(id, sign as u32, stop);
        }
    }
}

/// A syntax error in cel-go's words where the parser's differ: a literal
/// keyword selected as a field (`self.true`) is cel-go's `mismatched input
/// 'true' expecting IDENTIFIER`, not `no viable alternative at input
/// '.true'`.
///
/// A token that cannot follow a complete operand is reported by cel-go's
/// ANTLR runtime where the enclosing rule next matches a token (the end of
/// input, `)`, `]`): the operator loops around the operand have exited by
/// then, so neither their operators nor the `,` of an argument list's loop
/// are expected (`mismatched input '!' expecting <EOF>`).
fn cel_go_syntax_message(msg: &str) -> String {
    for kw in ["true", "false", "null"] {
        if msg == format!("Syntax error: no viable alternative at input '.{kw}'") {
            return format!("Syntax error: mismatched input '{kw}' expecting IDENTIFIER");
        }
    }
    if let Some((head, set)) = msg.split_once(" expecting {")
        && head.starts_with("Syntax error: mismatched input ")
        && let Some(set) = set.strip_suffix('}')
    {
        const CONTINUATIONS: &[&str] = &[
            "'=='", "'!='", "'in'", "'<'", "'<='", "'>='", "'>'", "'&&'", "'||'", "'['", "'.'",
            "'-'", "'?'", "'+'", "'*'", "'/'", "'%'",
        ];
        let tokens: Vec<&str> = set.split(", ").collect();
        if CONTINUATIONS.iter().all(|c| tokens.contains(c)) {
            let closing_paren = tokens.contains(&"')'");
            let left: Vec<&str> = tokens
                .into_iter()
                .filter(|t| !(CONTINUATIONS.contains(t) || (closing_paren && *t == "','")))
                .collect();
            return match left.as_slice() {
                [one] => format!("{head} expecting {one}"),
                _ => format!("{head} expecting {{{}}}", left.join(", ")),
            };
        }
    }
    msg.to_string()
}

fn parser_env(v: CompatibilityVersion) -> Arc<cel::Env> {
    static CACHE: OnceLock<Mutex<HashMap<CompatibilityVersion, Arc<cel::Env>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Ok(g) = cache.lock() {
        if let Some(e) = g.get(&v) {
            return Arc::clone(e);
        }
    }
    let env = Arc::new(build_parser_env(v));
    if let Ok(mut g) = cache.lock() {
        g.insert(v, Arc::clone(&env));
    }
    env
}

fn build_parser_env(v: CompatibilityVersion) -> cel::Env {
    let f = Features::at(v);
    // No library and no macros of the crate's own: the macros are
    // cel-go's, expanded as cel-go expands them (planned programs, costs
    // and errors follow from the expansion).
    let mut env = cel::Env::default().with_optional_support(f.optional_types);
    let mut macros: Vec<Macro> = vec![
        Macro::global("has", 1, has),
        Macro::receiver("all", 2, |h, t, a| quantifier(h, t, a, "all")),
        Macro::receiver("exists", 2, |h, t, a| quantifier(h, t, a, "exists")),
        Macro::receiver("exists_one", 2, |h, t, a| quantifier(h, t, a, "exists_one")),
        Macro::receiver("map", 2, |h, t, a| map_or_filter(h, t, a, false)),
        Macro::receiver("map", 3, |h, t, a| map_or_filter(h, t, a, false)),
        Macro::receiver("filter", 2, |h, t, a| map_or_filter(h, t, a, true)),
    ];
    if f.optional_types {
        macros.push(Macro::receiver("optMap", 2, |h, t, a| {
            opt_map(h, t, a, true)
        }));
        macros.push(Macro::receiver("optFlatMap", 2, |h, t, a| {
            opt_map(h, t, a, false)
        }));
    }
    if f.two_var_comprehensions {
        for name in ["all", "exists", "existsOne", "exists_one"] {
            macros.push(Macro::receiver(name, 3, move |h, t, a| {
                quantifier(h, t, a, name)
            }));
        }
        for name in ["transformList", "transformMap", "transformMapEntry"] {
            for n in [3, 4] {
                macros.push(Macro::receiver(name, n, move |h, t, a| {
                    transform(h, t, a, name)
                }));
            }
        }
    }
    if f.ext_lists {
        macros.push(Macro::receiver("sortBy", 2, sort_by));
    }
    for m in macros {
        // Each function and arity is added once.
        let _ = env.add_macro(m);
    }
    env
}

type MacroResult = Result<Option<IdedExpr>, CelParseError>;

fn call(
    h: &mut MacroExprHelper<'_>,
    name: &str,
    target: Option<IdedExpr>,
    args: Vec<IdedExpr>,
) -> IdedExpr {
    h.next_expr(Expr::Call(CallExpr {
        func_name: name.to_string(),
        target: target.map(Box::new),
        args,
    }))
}

fn ident(h: &mut MacroExprHelper<'_>, name: &str) -> IdedExpr {
    h.next_expr(Expr::Ident(name.to_string()))
}

fn lit_bool(h: &mut MacroExprHelper<'_>, b: bool) -> IdedExpr {
    h.next_expr(Expr::Literal(LiteralValue::Boolean(b.into())))
}

fn lit_int(h: &mut MacroExprHelper<'_>, i: i64) -> IdedExpr {
    h.next_expr(Expr::Literal(LiteralValue::Int(i.into())))
}

fn empty_list(h: &mut MacroExprHelper<'_>) -> IdedExpr {
    h.next_expr(Expr::List(ListExpr::new(Vec::new())))
}

#[allow(clippy::too_many_arguments)]
fn comprehension(
    h: &mut MacroExprHelper<'_>,
    iter_range: IdedExpr,
    iter_var: &str,
    iter_var2: Option<&str>,
    accu_var: &str,
    accu_init: IdedExpr,
    loop_cond: IdedExpr,
    loop_step: IdedExpr,
    result: IdedExpr,
) -> IdedExpr {
    h.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range,
        iter_var: iter_var.to_string(),
        iter_var2: iter_var2.map(str::to_string),
        accu_var: accu_var.to_string(),
        accu_init,
        loop_cond,
        loop_step,
        result,
    })))
}

const ACCU: &str = "@result";

/// `pred ? step : @result`: the step taken for the elements that pass
/// `pred` only.
fn step_if(h: &mut MacroExprHelper<'_>, pred: IdedExpr, step: IdedExpr) -> IdedExpr {
    let a = ident(h, ACCU);
    call(h, "_?_:_", None, vec![pred, step, a])
}

/// The comprehension over `t` that accumulates into `@result` and
/// results in it.
fn accumulate(
    h: &mut MacroExprHelper<'_>,
    t: IdedExpr,
    v1: &str,
    v2: Option<&str>,
    init: IdedExpr,
    cond: IdedExpr,
    step: IdedExpr,
) -> IdedExpr {
    let res = ident(h, ACCU);
    comprehension(h, t, v1, v2, ACCU, init, cond, step, res)
}

fn simple_name(h: &MacroExprHelper<'_>, e: &IdedExpr, msg: &str) -> Result<String, CelParseError> {
    match &e.expr {
        Expr::Ident(n) => Ok(n.clone()),
        _ => Err(h.new_error(e.id, msg)),
    }
}

fn opt_map(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
    wrap: bool,
) -> MacroResult {
    let name = if wrap { "optMap" } else { "optFlatMap" };
    let var = simple_name(
        h,
        &args[0],
        &format!("{name}() variable name must be a simple identifier"),
    )?;
    let Some(t) = target.take() else {
        return Ok(None);
    };
    let map_expr = args.remove(1);
    args.clear();
    let has_value = call(h, "hasValue", Some(t.clone()), Vec::new());
    let value = call(h, "value", Some(t), Vec::new());
    let range = empty_list(h);
    let cond = lit_bool(h, false);
    let step = ident(h, &var);
    let bind = comprehension(h, range, "#unused", None, &var, value, cond, step, map_expr);
    let then = if wrap {
        call(h, "optional.of", None, vec![bind])
    } else {
        bind
    };
    let none = call(h, "optional.none", None, Vec::new());
    Ok(Some(call(h, "_?_:_", None, vec![has_value, then, none])))
}

/// The two variable names of a two-variable comprehension macro and its
/// target (taken).
fn two_variables(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &[IdedExpr],
) -> Result<Option<(String, String, IdedExpr)>, CelParseError> {
    let v1 = simple_name(h, &args[0], "argument must be a simple name")?;
    let v2 = simple_name(h, &args[1], "argument must be a simple name")?;
    Ok(target.take().map(|t| (v1, v2, t)))
}

/// `has(a.b)`: the presence test of `a.b`.
fn has(
    h: &mut MacroExprHelper<'_>,
    _: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> MacroResult {
    let arg = args.remove(0);
    args.clear();
    match arg.expr {
        Expr::Select(mut sel) => {
            sel.test = true;
            Ok(Some(h.next_expr(Expr::Select(sel))))
        }
        _ => Err(h.new_error(arg.id, "invalid argument to has() macro")),
    }
}

/// The iteration variable of a one-variable macro and its target (taken).
fn one_variable(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &[IdedExpr],
    msg: &str,
) -> Result<Option<(String, IdedExpr)>, CelParseError> {
    let v = simple_name(h, &args[0], msg)?;
    if v == ACCU || v == "__result__" {
        return Err(h.new_error(
            args[0].id,
            "iteration variable overwrites accumulator variable",
        ));
    }
    Ok(target.take().map(|t| (v, t)))
}

/// `all`, `exists` and `exists_one` (`existsOne`), over one variable
/// (two arguments) or two (three arguments).
fn quantifier(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
    name: &str,
) -> MacroResult {
    let variables = if args.len() == 3 {
        two_variables(h, target, args)?.map(|(v1, v2, t)| (v1, Some(v2), t))
    } else {
        one_variable(h, target, args, "argument must be a simple name")?.map(|(v, t)| (v, None, t))
    };
    let Some((v1, v2, t)) = variables else {
        return Ok(None);
    };
    let pred = args.remove(args.len() - 1);
    args.clear();
    Ok(Some(quantify(h, name, t, &v1, v2.as_deref(), pred)))
}

/// `map(v, f)` and `map(v, p, f)`: `f` of each element (that passes
/// `p`); `filter(v, p)` (`filter`): each element that passes `p`.
fn map_or_filter(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
    filter: bool,
) -> MacroResult {
    let Some((v, t)) = one_variable(h, target, args, "argument is not an identifier")? else {
        return Ok(None);
    };
    let (pred, elem) = match (filter, args.len()) {
        (true, _) => {
            let p = args.remove(1);
            (Some(p), args.remove(0))
        }
        (false, 3) => {
            let f = args.remove(2);
            (Some(args.remove(1)), f)
        }
        (false, _) => (None, args.remove(1)),
    };
    args.clear();
    Ok(Some(append_each(h, t, &v, elem, pred)))
}

/// The comprehension of `map` and `filter` over `t`: `elem` appended to
/// the result for each element (that passes `pred`).
fn append_each(
    h: &mut MacroExprHelper<'_>,
    t: IdedExpr,
    v: &str,
    elem: IdedExpr,
    pred: Option<IdedExpr>,
) -> IdedExpr {
    let init = empty_list(h);
    let cond = lit_bool(h, true);
    let a = ident(h, ACCU);
    let l = h.next_expr(Expr::List(ListExpr::new(vec![elem])));
    let mut step = call(h, "_+_", None, vec![a, l]);
    if let Some(p) = pred {
        step = step_if(h, p, step);
    }
    accumulate(h, t, v, None, init, cond, step)
}

/// The comprehension of `all`, `exists` or `exists_one` over `t`.
fn quantify(
    h: &mut MacroExprHelper<'_>,
    name: &str,
    t: IdedExpr,
    v1: &str,
    v2: Option<&str>,
    pred: IdedExpr,
) -> IdedExpr {
    match name {
        "all" => {
            let init = lit_bool(h, true);
            let a = ident(h, ACCU);
            let cond = call(h, "@not_strictly_false", None, vec![a]);
            let a2 = ident(h, ACCU);
            let step = call(h, "_&&_", None, vec![a2, pred]);
            accumulate(h, t, v1, v2, init, cond, step)
        }
        "exists" => {
            let init = lit_bool(h, false);
            let a = ident(h, ACCU);
            let not = call(h, "!_", None, vec![a]);
            let cond = call(h, "@not_strictly_false", None, vec![not]);
            let a2 = ident(h, ACCU);
            let step = call(h, "_||_", None, vec![a2, pred]);
            accumulate(h, t, v1, v2, init, cond, step)
        }
        _ => {
            let init = lit_int(h, 0);
            let cond = lit_bool(h, true);
            let a = ident(h, ACCU);
            let one = lit_int(h, 1);
            let add = call(h, "_+_", None, vec![a, one]);
            let step = step_if(h, pred, add);
            let a3 = ident(h, ACCU);
            let one2 = lit_int(h, 1);
            let res = call(h, "_==_", None, vec![a3, one2]);
            comprehension(h, t, v1, v2, ACCU, init, cond, step, res)
        }
    }
}

fn transform(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
    name: &str,
) -> MacroResult {
    let Some((v1, v2, t)) = two_variables(h, target, args)? else {
        return Ok(None);
    };
    let transform = args.pop();
    let filter = if args.len() == 3 { args.pop() } else { None };
    args.clear();
    let Some(transform) = transform else {
        return Ok(None);
    };
    let a = ident(h, ACCU);
    let (init, step) = match name {
        "transformList" => {
            let l = h.next_expr(Expr::List(ListExpr::new(vec![transform])));
            (empty_list(h), call(h, "_+_", None, vec![a, l]))
        }
        "transformMap" => {
            let k = ident(h, &v1);
            let init = h.next_expr(Expr::Map(cel::common::ast::MapExpr::default()));
            (init, call(h, MAP_INSERT, None, vec![a, k, transform]))
        }
        _ => {
            let init = h.next_expr(Expr::Map(cel::common::ast::MapExpr::default()));
            (init, call(h, MAP_INSERT, None, vec![a, transform]))
        }
    };
    let step = match filter {
        Some(f) => step_if(h, f, step),
        None => step,
    };
    let cond = lit_bool(h, true);
    Ok(Some(accumulate(h, t, &v1, Some(&v2), init, cond, step)))
}

fn sort_by(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> MacroResult {
    const VAR: &str = "@__sortBy_input__";
    let Some(t) = target.as_ref() else {
        return Ok(None);
    };
    if !matches!(
        t.expr,
        Expr::List(_) | Expr::Select(_) | Expr::Ident(_) | Expr::Comprehension(_) | Expr::Call(_)
    ) {
        return Err(h.new_error(
            t.id,
            "sortBy can only be applied to a list, identifier, comprehension, call or select expression",
        ));
    }
    let v = simple_name(h, &args[0], "argument must be a simple name")?;
    let Some(t) = target.take() else {
        return Ok(None);
    };
    let key = args.remove(1);
    args.clear();
    // map(v, key) over the bound input
    let range = ident(h, VAR);
    let mapped = append_each(h, range, &v, key, None);
    let recv = ident(h, VAR);
    let sorted = call(h, "@sortByAssociatedKeys", Some(recv), vec![mapped]);
    let brange = empty_list(h);
    let bcond = lit_bool(h, false);
    let bstep = ident(h, VAR);
    Ok(Some(comprehension(
        h, brange, "#unused", None, VAR, t, bcond, bstep, sorted,
    )))
}

/// The environment one schema node's rules compile in.
#[derive(Clone, Debug)]
pub struct RuleEnv {
    /// The compatibility version.
    pub version: CompatibilityVersion,
    /// The declared type of `self`, its object types named.
    pub root: Arc<DeclType>,
    /// The environment with `oldSelf` of the type of `self`.
    pub env: CheckEnv,
    /// The environment with `oldSelf` optional (`optionalOldSelf: true`).
    pub env_optional_old_self: CheckEnv,
}

impl RuleEnv {
    /// The environments of the rules of a node whose declared type is
    /// `decl`.
    pub fn new(decl: &Arc<DeclType>, version: CompatibilityVersion) -> Self {
        let root = decl.maybe_assign_type_name(SELF_TYPE_NAME);
        let self_type = root.cel_type();
        let object_types = root.object_types();
        let features = Features::at(version);
        let lib = library(version);
        let mk = |old: Type| {
            let mut variables: Vec<(String, Type)> = vec![
                (SCOPED_VAR_NAME.to_string(), self_type.clone()),
                (OLD_SCOPED_VAR_NAME.to_string(), old),
            ];
            for (n, t) in type_identifiers(version) {
                variables.push((n.to_string(), t));
            }
            CheckEnv {
                library: Arc::clone(&lib),
                features,
                variables,
                object_types: object_types.clone(),
            }
        };
        RuleEnv {
            version,
            env: mk(self_type.clone()),
            env_optional_old_self: mk(Type::optional(self_type.clone())),
            root,
        }
    }
}

/// A successfully compiled expression.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The expression, macros expanded: the program the evaluator runs.
    pub expr: IdedExpr,
    /// The checked expression's types and references.
    pub checked: Checked,
    /// The type of the whole expression.
    pub output: Type,
    /// The estimated cost.
    pub cost: CostEstimate,
}

/// Compiles one expression: parse, check, AST validators, cost. The error
/// is cel-go's `issues.String()`.
pub fn compile_expression(
    source: &str,
    env: &CheckEnv,
    root: &Arc<DeclType>,
    version: CompatibilityVersion,
) -> Result<Compiled, String> {
    let shape = check_limits(source).map_err(|e| {
        display_issues(
            source,
            &[Issue {
                line: -1,
                column: -1,
                message: e.0,
            }],
        )
    })?;
    if shape.max_total_depth > DEEP_EXPRESSION {
        // Deep expressions: the parser, the checker and the estimator
        // recurse, so compile on a thread with a large stack.
        let result = std::thread::scope(|scope| {
            let handle = std::thread::Builder::new()
                .stack_size(DEEP_STACK_SIZE)
                .spawn_scoped(scope, || compile_parsed_deep(source, env, root, version));
            match handle {
                Ok(h) => h
                    .join()
                    .map_err(|_| "internal error: compilation failed".to_string()),
                Err(e) => Err(format!("internal error: {e}")),
            }
        });
        return result.and_then(|r| r);
    }
    compile_parsed_deep(source, env, root, version)
}

/// The rule nesting (as the limit check measures it) above which an
/// expression is compiled on a thread of its own.
const DEEP_EXPRESSION: u32 = 40;
/// The stack of that thread: enough for the deepest expression the parser
/// limits allow.
const DEEP_STACK_SIZE: usize = 1 << 30;

fn compile_parsed_deep(
    source: &str,
    env: &CheckEnv,
    root: &Arc<DeclType>,
    version: CompatibilityVersion,
) -> Result<Compiled, String> {
    let parsed = parse_versioned(source, version).map_err(|i| display_issues(source, &i))?;
    compile_parsed(source, parsed, env, root, version)
}

fn compile_parsed(
    source: &str,
    parsed: Parsed,
    env: &CheckEnv,
    root: &Arc<DeclType>,
    version: CompatibilityVersion,
) -> Result<Compiled, String> {
    let (checked, issues) = check(&parsed.expr, env);
    if !issues.is_empty() {
        return Err(display_issues(
            source,
            &to_issues(source, &parsed.info, issues),
        ));
    }
    // The AST validators, in the order the environment installs them.
    let features = Features::at(version);
    let mut v_issues = Vec::new();
    if features.literal_validators {
        literal_arguments(&parsed.expr, &checked, &mut v_issues);
    }
    homogeneous_literals(&parsed.expr, &checked, &mut v_issues, false);
    if features.string_format {
        validate_format_calls(&parsed.expr, &checked, &mut v_issues);
    }
    if !v_issues.is_empty() {
        return Err(display_issues(
            source,
            &to_issues(source, &parsed.info, v_issues),
        ));
    }
    let output = checked.type_of(parsed.expr.id);
    let cost = estimate(&parsed.expr, &checked, root);
    Ok(Compiled {
        expr: parsed.expr,
        checked,
        output,
        cost,
    })
}

fn to_issues(source: &str, info: &SourceInfo, issues: Vec<CheckIssue>) -> Vec<Issue> {
    issues
        .into_iter()
        .map(|i| issue_at(source, info, i.expr_id, i.message))
        .collect()
}

/// Visits every expression below `e` (pre-order), with whether its parent
/// is an exempt `format` call (through list and map literals).
fn homogeneous_literals(e: &IdedExpr, checked: &Checked, out: &mut Vec<CheckIssue>, exempt: bool) {
    let mismatch = |out: &mut Vec<CheckIssue>, id: u64, expected: &Type, actual: &Type| {
        out.push(CheckIssue {
            expr_id: id,
            message: format!("expected type '{expected}' but found '{actual}'"),
        });
    };
    match &e.expr {
        Expr::List(l) => {
            if !exempt {
                let mut first: Option<Type> = None;
                for (i, el) in l.elements.iter().enumerate() {
                    let mut t = checked.type_of(el.id);
                    if l.optional_indices.contains(&i) {
                        if let Some(v) = t.optional_value() {
                            t = v.clone();
                        }
                    }
                    match &first {
                        None => first = Some(t),
                        Some(f) if !f.is_equivalent_type(&t) => {
                            mismatch(out, el.id, f, &t);
                            break;
                        }
                        Some(_) => {}
                    }
                }
            }
            for el in &l.elements {
                homogeneous_literals(el, checked, out, exempt);
            }
        }
        Expr::Map(m) => {
            if !exempt {
                let mut first: Option<(Type, Type)> = None;
                for entry in &m.entries {
                    let EntryExpr::MapEntry(me) = &entry.expr else {
                        continue;
                    };
                    let kt = checked.type_of(me.key.id);
                    let mut vt = checked.type_of(me.value.id);
                    if me.optional {
                        if let Some(v) = vt.optional_value() {
                            vt = v.clone();
                        }
                    }
                    match &first {
                        None => first = Some((kt, vt)),
                        Some((k, v)) => {
                            if !k.is_equivalent_type(&kt) {
                                mismatch(out, me.key.id, k, &kt);
                            }
                            if !v.is_equivalent_type(&vt) {
                                mismatch(out, me.value.id, v, &vt);
                            }
                        }
                    }
                }
            }
            for entry in &m.entries {
                if let EntryExpr::MapEntry(me) = &entry.expr {
                    homogeneous_literals(&me.key, checked, out, exempt);
                    homogeneous_literals(&me.value, checked, out, exempt);
                }
            }
        }
        Expr::Call(c) => {
            let name = match checked.references.get(&e.id) {
                Some(Reference::Function {
                    namespaced: Some(n),
                    ..
                }) => n.as_str(),
                _ => c.func_name.as_str(),
            };
            let child_exempt = name == "format";
            if let Some(t) = &c.target {
                homogeneous_literals(t, checked, out, child_exempt);
            }
            for a in &c.args {
                homogeneous_literals(a, checked, out, child_exempt);
            }
        }
        // Selections, messages and comprehensions: no exemption below.
        _ => for_each_child(e, &mut |x| homogeneous_literals(x, checked, out, false)),
    }
}

/// `ValidateDurationLiterals`, `ValidateTimestampLiterals` and
/// `ValidateRegexLiterals`.
fn literal_arguments(e: &IdedExpr, checked: &Checked, out: &mut Vec<CheckIssue>) {
    visit(e, &mut |x| {
        let Expr::Call(c) = &x.expr else {
            return;
        };
        let name = match checked.references.get(&x.id) {
            Some(Reference::Function {
                namespaced: Some(n),
                ..
            }) => n.as_str(),
            _ => c.func_name.as_str(),
        };
        let Some(arg) = c.args.first() else {
            return;
        };
        let Expr::Literal(lit) = &arg.expr else {
            return;
        };
        let valid = match (name, lit) {
            ("duration", LiteralValue::String(s)) => {
                let s: &str = s.as_ref();
                crate::cel::library::time::string_to_duration(s).is_ok()
            }
            ("timestamp", LiteralValue::String(s)) => {
                let s: &str = s.as_ref();
                crate::cel::library::time::string_to_timestamp(s).is_ok()
            }
            ("timestamp", LiteralValue::Int(i)) => {
                crate::cel::library::time::check_ts(i64::from(*i), 0, 0).is_ok()
            }
            ("matches", LiteralValue::String(s)) => {
                let s: &str = s.as_ref();
                crate::goregex::compile(s).is_ok()
            }
            _ => true,
        };
        if !valid {
            out.push(CheckIssue {
                expr_id: arg.id,
                message: format!("invalid {name} argument"),
            });
        }
    });
}

/// What cel-go does to a checked expression when it plans the program
/// (`env.Program` with `OptOptimize` and the regex optimizations of the
/// environment), in planning order: a type conversion of a constant is
/// evaluated (its error fails the program), and the constant pattern of
/// `matches`, `find` and `findAll` compiled.
///
/// # Errors
///
/// The first failure's message (without `program instantiation failed: `).
fn plan_program(expr: &IdedExpr) -> Result<(), String> {
    use crate::cel::eval::{Activation, CONVERSIONS, PER_CALL_LIMIT, is_const};
    let constant = |e: &IdedExpr| -> Option<Result<crate::cel::value::Val<'static>, String>> {
        if !is_const(e) {
            return None;
        }
        let act = Activation {
            self_: Err(crate::cel::error::EvalError::new("no self while planning")),
            old_self: None,
        };
        let out = crate::cel::eval::evaluate(e, None, &act, PER_CALL_LIMIT);
        Some(out.result.map_err(|err| err.msg))
    };
    let failure = crate::cel::ast::visit_post(expr, &mut |e| {
        let Expr::Call(c) = &e.expr else { return None };
        let name = c.func_name.as_str();
        if c.target.is_none() && c.args.len() == 1 && CONVERSIONS.contains(&name) {
            return constant(e).and_then(Result::err);
        }
        // The regex argument (the target counts as the first argument).
        let pattern = match (name, &c.target, c.args.as_slice()) {
            ("matches" | "find" | "findAll", Some(_), [p, ..]) => p,
            ("matches", None, [_, p]) => p,
            _ => return None,
        };
        match constant(pattern)? {
            Ok(crate::cel::value::Val::Str(p)) => crate::goregex::compile(p.as_str())
                .err()
                .map(|err| err.to_string()),
            _ => None,
        }
    });
    failure.map_or(Ok(()), Err)
}

/// The result of compiling one rule (`CompilationResult`).
#[derive(Clone, Debug, Default)]
pub struct RuleCompilation {
    /// The rule's error: `compilation failed: …` or `cel expression must
    /// evaluate to a bool`.
    pub error: Option<String>,
    /// Whether the rule references `oldSelf`.
    pub uses_old_self: bool,
    /// The estimated worst-case cost of the rule.
    pub max_cost: u64,
    /// The rule's cardinality when under unbounded lists or maps.
    pub max_cardinality: u64,
    /// The messageExpression's error.
    pub message_expression_error: Option<String>,
    /// The estimated cost of the messageExpression, when it compiled.
    pub message_expression_max_cost: Option<u64>,
    /// The rule's program (`Program`): the checked expression the
    /// evaluator runs, when the rule compiled.
    pub program: Option<Compiled>,
    /// The messageExpression's program, when it compiled.
    pub message_expression: Option<Compiled>,
}

/// Compiles a rule and its messageExpression (`compileRule`).
pub fn compile_rule(rule: &ValidationRule, env: &RuleEnv) -> RuleCompilation {
    compile_rule_in(rule, env, env)
}

/// [`compile_rule`] with the rule compiled in `rule_env` and its
/// messageExpression in `message_env`: the server's `EnvLoader` picks the
/// environment per expression (on a CRD update, the stored-expressions
/// environment for an expression the old CRD already had). Both
/// environments must be built for the same declared type.
pub fn compile_rule_in(
    rule: &ValidationRule,
    rule_env: &RuleEnv,
    message_env: &RuleEnv,
) -> RuleCompilation {
    let env = rule_env;
    let mut result = RuleCompilation::default();
    let source = rule.rule.as_deref().unwrap_or_default();
    if source.trim().is_empty() {
        return result;
    }
    let check_env = if rule.optional_old_self == Some(true) {
        &env.env_optional_old_self
    } else {
        &env.env
    };
    let compiled = match compile_expression(source, check_env, &env.root, env.version) {
        Ok(c) => c,
        Err(e) => {
            result.error = Some(format!("compilation failed: {e}"));
            return result;
        }
    };
    if compiled.output != Type::Bool {
        result.error = Some("cel expression must evaluate to a bool".into());
        return result;
    }
    result.uses_old_self = compiled.checked.references_variable(OLD_SCOPED_VAR_NAME);
    if let Err(e) = plan_program(&compiled.expr) {
        result.error = Some(format!("program instantiation failed: {e}"));
        return result;
    }
    result.max_cost = compiled.cost.max;
    result.max_cardinality = crate::cel::decl::max_cardinality(env.root.min_serialized_size);
    result.program = Some(compiled);
    if let Some(msg) = rule.message_expression.as_deref().filter(|m| !m.is_empty()) {
        let check_env = if rule.optional_old_self == Some(true) {
            &message_env.env_optional_old_self
        } else {
            &message_env.env
        };
        match compile_expression(msg, check_env, &message_env.root, message_env.version) {
            Err(e) => {
                result.message_expression_error =
                    Some(format!("messageExpression compilation failed: {e}"));
            }
            Ok(c) if c.output != Type::String => {
                result.message_expression_error =
                    Some("messageExpression must evaluate to a string".into());
            }
            Ok(c) => match plan_program(&c.expr) {
                Err(e) => {
                    result.message_expression_error =
                        Some(format!("messageExpression instantiation failed: {e}"));
                }
                Ok(()) => {
                    result.message_expression_max_cost = Some(c.cost.max);
                    result.message_expression = Some(c);
                }
            },
        }
    }
    result
}

/// `Compile` of one schema node's `x-kubernetes-validations`: each rule
/// and messageExpression compiled in the environment of `version` against
/// the node's declared type (with `apiVersion`, `kind` and `metadata` when
/// the node is a resource root), with its estimated cost and cardinality.
/// `None` when the node has no declared type (the CRD validation reports
/// that as an internal error).
pub fn compile_node_rules(
    s: &Structural,
    is_resource_root: bool,
    version: CompatibilityVersion,
) -> Option<Vec<RuleCompilation>> {
    let decl = crate::cel::decl::schema_decl_type(s, is_resource_root)?;
    let env = RuleEnv::new(&decl, version);
    Some(
        s.x_validations
            .iter()
            .map(|rule| compile_rule(rule, &env))
            .collect(),
    )
}
