//! The Kubernetes semver library's functions (`library/semverlib.go`):
//! `semver`, `isSemver` (optionally normalizing), the `major`, `minor`
//! and `patch` accessors and the comparisons.

use std::rc::Rc;

use super::operands::{comparison, str_arg};
use crate::cel::error::EvalError;
use crate::cel::value::semver::Semver;
use crate::cel::value::{EvalResult, Ext, Val};

fn semver_of<'v>(v: Option<&'v Val<'_>>) -> Option<&'v Semver> {
    match v {
        Some(Val::Ext(e)) => match &**e {
            Ext::Semver(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `v` is a semver (the receiver of the comparisons the quantity
/// library shares the names of).
pub(crate) fn is_semver(v: Option<&Val<'_>>) -> bool {
    semver_of(v).is_some()
}

/// The library's functions; the receiver, if any, is the first argument.
pub(crate) fn call<'a>(name: &str, args: &[Val<'a>]) -> EvalResult<'a> {
    match name {
        "semver" | "isSemver" => {
            let s = str_arg(args, 0)?;
            let normalize = match args.get(1) {
                None => false,
                Some(Val::Bool(b)) => *b,
                Some(_) => return Err(EvalError::no_overload()),
            };
            let parsed = if normalize {
                Semver::parse_normalized(s)
            } else {
                Semver::parse(s)
            };
            if name == "isSemver" {
                return Ok(Val::Bool(parsed.is_ok()));
            }
            parsed
                .map(|v| Val::Ext(Rc::new(Ext::Semver(v))))
                .map_err(EvalError::new)
        }
        _ => {
            let v = semver_of(args.first()).ok_or_else(EvalError::no_overload)?;
            match name {
                // Go's int64 of the uint64 number.
                "major" => Ok(Val::Int(v.major as i64)),
                "minor" => Ok(Val::Int(v.minor as i64)),
                "patch" => Ok(Val::Int(v.patch as i64)),
                "compareTo" | "isGreaterThan" | "isLessThan" => {
                    let o = semver_of(args.get(1)).ok_or_else(EvalError::no_overload)?;
                    Ok(comparison(name, v.compare(o)))
                }
                _ => Err(EvalError::no_overload()),
            }
        }
    }
}
