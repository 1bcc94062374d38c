//! Reading a call's arguments and building its results: what the
//! function libraries share.

use std::cmp::Ordering;
use std::rc::Rc;

use crate::cel::error::EvalError;
use crate::cel::value::{EvalResult, List, MapV, OwnedMap, Val, owned_str};

/// The largest string a rule may build (a bound on memory; the API
/// server's static cost estimate keeps rules far below it).
pub(crate) const MAX_STRING_BYTES: usize = 64 << 20;

/// `s` as a string value, unless it is longer than [`MAX_STRING_BYTES`].
pub(crate) fn check_len<'a>(s: String) -> EvalResult<'a> {
    if s.len() > MAX_STRING_BYTES {
        return Err(EvalError::new("string result exceeds the maximum size"));
    }
    Ok(owned_str(s))
}

/// Argument `i` (the receiver of a member call is argument 0).
pub(crate) fn arg<'v, 'a>(args: &'v [Val<'a>], i: usize) -> Result<&'v Val<'a>, EvalError> {
    args.get(i).ok_or_else(EvalError::no_overload)
}

/// Argument `i`, a string.
pub(crate) fn str_arg<'v>(args: &'v [Val<'_>], i: usize) -> Result<&'v str, EvalError> {
    match args.get(i) {
        Some(Val::Str(s)) => Ok(s.as_str()),
        _ => Err(EvalError::no_overload()),
    }
}

/// Argument `i`, an int.
pub(crate) fn int_arg(args: &[Val<'_>], i: usize) -> Result<i64, EvalError> {
    match args.get(i) {
        Some(Val::Int(n)) => Ok(*n),
        _ => Err(EvalError::no_overload()),
    }
}

/// A bool result.
pub(crate) fn bool_of<'a>(b: bool) -> EvalResult<'a> {
    Ok(Val::Bool(b))
}

/// The Kubernetes regex library's error for a pattern that does not
/// compile at runtime.
pub(crate) fn illegal_regex(e: EvalError) -> EvalError {
    EvalError::new(format!("Illegal regex: {}", e.msg))
}

/// Compiles a regex with Go's RE2 semantics.
pub(crate) fn compile_regex(p: &str) -> Result<crate::goregex::GoRegex, EvalError> {
    crate::goregex::compile(p).map_err(|e| EvalError::new(e.to_string()))
}

/// `compareTo`'s result: -1, 0 or 1.
pub(crate) fn compare_to<'a>(c: Ordering) -> Val<'a> {
    Val::Int(match c {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    })
}

/// cel-go's `String.ConvertToType` failure: the type names only, never
/// the parser's reason (`type conversion error from 'string' to 'int'`).
pub(crate) fn string_conv_err(to: &str) -> EvalError {
    EvalError::new(format!("type conversion error from 'string' to '{to}'"))
}

/// A borrowed or owned list's elements as strings.
pub(crate) fn list_strings(l: &List<'_>) -> Result<Vec<String>, EvalError> {
    let mut out = Vec::with_capacity(l.len());
    for v in l.to_vec()? {
        match v {
            Val::Str(s) => out.push(s.as_str().to_string()),
            _ => return Err(EvalError::no_overload()),
        }
    }
    Ok(out)
}

/// The map of a URL query: `map<string, list<string>>`.
pub(crate) fn string_list_map<'a>(entries: Vec<(String, Vec<String>)>) -> Val<'a> {
    let mut m = OwnedMap::default();
    for (k, vs) in entries {
        m.insert(
            owned_str(k),
            Val::list(vs.into_iter().map(owned_str).collect()),
        );
    }
    Val::Map(MapV::Owned(Rc::new(m)))
}
