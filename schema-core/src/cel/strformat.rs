//! The static check of `string.format` calls that the extended strings
//! library (version 1 and later) installs as an AST validator: for every
//! call `'<literal>'.format([<list literal>])`, the format string is parsed
//! with the runtime's clause syntax and each clause is checked against the
//! type of the list element it consumes; unused elements are an error.

use cel::common::ast::{Expr, IdedExpr, LiteralValue};

use crate::cel::type_check::{CheckIssue, Checked, Reference};
use crate::cel::types::{Kind, Type};

/// Reports the `string.format` issues of every matching call below `e`.
pub(crate) fn validate_format_calls(e: &IdedExpr, checked: &Checked, out: &mut Vec<CheckIssue>) {
    super::ast::visit(e, &mut |x| {
        let Some((format, args)) = matching_call(x, checked) else {
            return;
        };
        match check_format_string(format, args, checked) {
            Err(FormatIssue { expr_id, message }) => out.push(CheckIssue {
                expr_id: expr_id.unwrap_or(x.id),
                message,
            }),
            Ok(requested) => {
                if args.len() > requested {
                    out.push(CheckIssue {
                        expr_id: x.id,
                        message: format!(
                            "too many arguments supplied to string.format (expected {requested}, got {})",
                            args.len()
                        ),
                    });
                }
            }
        }
    });
}

/// A receiver call of `format` resolved to `string_format` (or not
/// resolved at all) on a string literal with one list-literal argument.
fn matching_call<'a>(x: &'a IdedExpr, checked: &Checked) -> Option<(&'a str, &'a [IdedExpr])> {
    let Expr::Call(c) = &x.expr else {
        return None;
    };
    let target = c.target.as_ref()?;
    if c.func_name != "format" {
        return None;
    }
    if let Some(Reference::Function { overloads, .. }) = checked.references.get(&x.id) {
        if !overloads.is_empty() && !overloads.iter().any(|o| o == "string_format") {
            return None;
        }
    }
    let Expr::Literal(LiteralValue::String(s)) = &target.expr else {
        return None;
    };
    let [arg] = c.args.as_slice() else {
        return None;
    };
    let Expr::List(list) = &arg.expr else {
        return None;
    };
    let s: &str = s.as_ref();
    Some((s, list.elements.as_slice()))
}

/// A failed check: the expression to report at (the call when `None`) and
/// the message.
struct FormatIssue {
    expr_id: Option<u64>,
    message: String,
}

impl FormatIssue {
    fn at_call(message: String) -> Self {
        FormatIssue {
            expr_id: None,
            message,
        }
    }
}

/// Walks the format string as the runtime does (bytes; `%%` is a literal
/// percent sign; a clause is `%`, an optional `.<digits>` precision and a
/// verb) and returns how many arguments the clauses consumed.
fn check_format_string(
    format: &str,
    args: &[IdedExpr],
    checked: &Checked,
) -> Result<usize, FormatIssue> {
    let b = format.as_bytes();
    let mut i = 0;
    let mut arg_index = 0usize;
    let mut requested = 0usize;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&b'%') {
            i += 2;
            continue;
        }
        requested += 1;
        if i + 1 >= b.len() {
            return Err(FormatIssue::at_call("unexpected end of string".into()));
        }
        let Some(arg) = args.get(arg_index) else {
            return Err(FormatIssue::at_call(format!(
                "index {arg_index} out of range"
            )));
        };
        let rest = &b[i + 1..];
        let consumed = check_clause(rest, arg, checked)?;
        i += 1 + consumed;
        arg_index += 1;
    }
    Ok(requested)
}

/// Checks the clause at the start of `rest` (just after the `%`) against
/// `arg`; returns the number of bytes the clause takes.
fn check_clause(rest: &[u8], arg: &IdedExpr, checked: &Checked) -> Result<usize, FormatIssue> {
    let parse_error = |m: String| {
        FormatIssue::at_call(format!(
            "could not parse formatting clause: error while parsing precision: {m}"
        ))
    };
    let mut j = 0;
    if rest.first() == Some(&b'.') {
        j = 1;
        loop {
            let Some(c) = rest.get(j) else {
                return Err(parse_error(
                    "could not find end of precision specifier".into(),
                ));
            };
            if !c.is_ascii_digit() {
                break;
            }
            j += 1;
        }
        let digits = String::from_utf8_lossy(&rest[1..j]);
        if digits.is_empty() {
            return Err(parse_error(format!(
                "error while converting precision to integer: strconv.Atoi: parsing \"{digits}\": invalid syntax"
            )));
        }
        if digits.parse::<i64>().is_err() {
            return Err(parse_error(format!(
                "error while converting precision to integer: strconv.Atoi: parsing \"{digits}\": value out of range"
            )));
        }
    }
    let Some(&verb) = rest.get(j) else {
        return Err(FormatIssue::at_call(
            "could not parse formatting clause: unexpected end of string".into(),
        ));
    };
    j += 1;
    let id = arg.id;
    let ty = checked.type_of(id);
    let fail = |expr_id: u64, ty: &Type, what: &str| FormatIssue {
        expr_id: Some(expr_id),
        message: format!(
            "error during formatting: {what}, was given {}",
            ty.type_name()
        ),
    };
    use Kind as K;
    match verb {
        b's' => {
            if let Some(bad) = verify_string(arg, checked) {
                return Err(fail(
                    bad,
                    &checked.type_of(bad),
                    "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps",
                ));
            }
        }
        b'd' => {
            if !one_of(&ty, &[K::Int, K::Uint]) {
                return Err(fail(id, &ty, "decimal clause can only be used on integers"));
            }
        }
        b'f' => {
            if !one_of(&ty, &[K::Double, K::String]) {
                return Err(fail(
                    id,
                    &ty,
                    "fixed-point clause can only be used on doubles",
                ));
            }
        }
        b'e' => {
            if !one_of(&ty, &[K::Double, K::String]) {
                return Err(fail(
                    id,
                    &ty,
                    "scientific clause can only be used on doubles",
                ));
            }
        }
        b'b' => {
            if !one_of(&ty, &[K::Int, K::Uint, K::Bool]) {
                return Err(fail(
                    id,
                    &ty,
                    "only integers and bools can be formatted as binary",
                ));
            }
        }
        b'x' | b'X' => {
            if !one_of(&ty, &[K::Int, K::Uint, K::String, K::Bytes]) {
                return Err(fail(
                    id,
                    &ty,
                    "only integers, byte buffers, and strings can be formatted as hex",
                ));
            }
        }
        b'o' => {
            if !one_of(&ty, &[K::Int, K::Uint]) {
                return Err(fail(id, &ty, "octal clause can only be used on integers"));
            }
        }
        other => {
            // Go formats the byte as a rune (Latin-1 for bytes >= 0x80).
            return Err(FormatIssue::at_call(format!(
                "could not parse formatting clause: unrecognized formatting clause \"{}\"",
                char::from(other)
            )));
        }
    }
    Ok(j)
}

/// Whether `t` is `dyn` or of one of `kinds` (parameters not compared).
fn one_of(t: &Type, kinds: &[Kind]) -> bool {
    matches!(t, Type::Dyn) || kinds.contains(&t.kind())
}

/// The `%s` check: the argument, and every element, key and value of list
/// and map literals in it, must be of a formattable kind; returns the first
/// expression that is not.
fn verify_string(e: &IdedExpr, checked: &Checked) -> Option<u64> {
    const KINDS: &[Kind] = &[
        Kind::List,
        Kind::Map,
        Kind::Int,
        Kind::Uint,
        Kind::Double,
        Kind::Bool,
        Kind::String,
        Kind::Timestamp,
        Kind::Bytes,
        Kind::Duration,
        Kind::Type,
        Kind::Null,
    ];
    if !one_of(&checked.type_of(e.id), KINDS) {
        return Some(e.id);
    }
    match &e.expr {
        Expr::List(l) => l.elements.iter().find_map(|x| verify_string(x, checked)),
        Expr::Map(m) => m.entries.iter().find_map(|entry| match &entry.expr {
            cel::common::ast::EntryExpr::MapEntry(me) => {
                verify_string(&me.key, checked).or_else(|| verify_string(&me.value, checked))
            }
            cel::common::ast::EntryExpr::StructField(_) => None,
        }),
        _ => None,
    }
}
