//! The arithmetic operators (`_+_`, `_-_`, `_*_`, `_/_`, `_%_`) of the
//! standard library on two values, with cel-go's overflow errors.

use super::operands::{MAX_STRING_BYTES, check_len};
use super::time;
use crate::cel::error::EvalError;
use crate::cel::value::{EvalResult, Val, add_lists};

/// The operator `op` applied to `a` and `b`.
pub(crate) fn arith<'a>(op: &str, a: &Val<'a>, b: &Val<'a>) -> EvalResult<'a> {
    let ovf = || EvalError::new("integer overflow");
    let uovf = || EvalError::new("unsigned integer overflow");
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => match op {
            "_+_" => x.checked_add(*y).map(Val::Int).ok_or_else(ovf),
            "_-_" => x.checked_sub(*y).map(Val::Int).ok_or_else(ovf),
            "_*_" => x.checked_mul(*y).map(Val::Int).ok_or_else(ovf),
            "_/_" => {
                if *y == 0 {
                    Err(EvalError::new("division by zero"))
                } else {
                    x.checked_div(*y).map(Val::Int).ok_or_else(ovf)
                }
            }
            _ => {
                if *y == 0 {
                    Err(EvalError::new("modulus by zero"))
                } else {
                    x.checked_rem(*y).map(Val::Int).ok_or_else(ovf)
                }
            }
        },
        (Val::Uint(x), Val::Uint(y)) => match op {
            "_+_" => x.checked_add(*y).map(Val::Uint).ok_or_else(uovf),
            "_-_" => x.checked_sub(*y).map(Val::Uint).ok_or_else(uovf),
            "_*_" => x.checked_mul(*y).map(Val::Uint).ok_or_else(uovf),
            "_/_" => x
                .checked_div(*y)
                .map(Val::Uint)
                .ok_or_else(|| EvalError::new("division by zero")),
            _ => x
                .checked_rem(*y)
                .map(Val::Uint)
                .ok_or_else(|| EvalError::new("modulus by zero")),
        },
        (Val::Double(x), Val::Double(y)) => match op {
            "_+_" => Ok(Val::Double(x + y)),
            "_-_" => Ok(Val::Double(x - y)),
            "_*_" => Ok(Val::Double(x * y)),
            "_/_" => Ok(Val::Double(x / y)),
            _ => Err(EvalError::no_overload()),
        },
        (Val::Str(x), Val::Str(y)) if op == "_+_" => {
            let mut s = String::with_capacity(x.as_str().len() + y.as_str().len());
            s.push_str(x.as_str());
            s.push_str(y.as_str());
            check_len(s)
        }
        (Val::Bytes(x), Val::Bytes(y)) if op == "_+_" => {
            if x.len() + y.len() > MAX_STRING_BYTES {
                return Err(EvalError::new("bytes result exceeds the maximum size"));
            }
            let mut v = x.to_vec();
            v.extend_from_slice(y);
            Ok(Val::Bytes(v.into()))
        }
        (Val::List(x), Val::List(y)) if op == "_+_" => add_lists(x, y),
        (Val::Duration(x), Val::Duration(y)) if op == "_+_" || op == "_-_" => {
            let r = if op == "_+_" {
                x.checked_add(*y)
            } else {
                x.checked_sub(*y)
            };
            r.map(Val::Duration)
                .ok_or_else(|| EvalError::new("duration overflow"))
        }
        (Val::Timestamp(s, n, off), Val::Duration(d)) if op == "_+_" || op == "_-_" => {
            let d = if op == "_-_" {
                d.checked_neg()
                    .ok_or_else(|| EvalError::new("timestamp overflow"))?
            } else {
                *d
            };
            time::ts_add(*s, *n, *off, d)
        }
        (Val::Duration(d), Val::Timestamp(s, n, off)) if op == "_+_" => {
            time::ts_add(*s, *n, *off, *d)
        }
        (Val::Timestamp(s1, n1, _), Val::Timestamp(s2, n2, _)) if op == "_-_" => {
            let a = i128::from(*s1) * 1_000_000_000 + i128::from(*n1);
            let b = i128::from(*s2) * 1_000_000_000 + i128::from(*n2);
            i64::try_from(a - b)
                .map(Val::Duration)
                .map_err(|_| EvalError::new("integer overflow"))
        }
        _ => Err(EvalError::no_overload()),
    }
}
