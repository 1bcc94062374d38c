//! The Kubernetes IP and CIDR libraries' functions (`library/ip.go`,
//! `library/cidr.go`).

use std::net::IpAddr;
use std::rc::Rc;

use super::operands::str_arg;
use crate::cel::error::EvalError;
use crate::cel::value::ip::{Cidr, Ip, contains, masked, parse_addr, parse_cidr};
use crate::cel::value::{EvalResult, Ext, Val};

fn ext<'a>(e: Ext) -> Val<'a> {
    Val::Ext(Rc::new(e))
}

fn ip_of<'v>(v: Option<&'v Val<'_>>) -> Option<&'v Ip> {
    match v {
        Some(Val::Ext(e)) => match &**e {
            Ext::Ip(i) => Some(i),
            _ => None,
        },
        _ => None,
    }
}

fn cidr_of<'v>(v: Option<&'v Val<'_>>) -> Option<&'v Cidr> {
    match v {
        Some(Val::Ext(e)) => match &**e {
            Ext::Cidr(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

/// Dispatches the IP and CIDR functions.
pub(crate) fn call<'a>(name: &str, args: &[Val<'a>]) -> EvalResult<'a> {
    match name {
        "isIP" => Ok(Val::Bool(parse_addr(str_arg(args, 0)?).is_ok())),
        "isCIDR" => Ok(Val::Bool(parse_cidr(str_arg(args, 0)?).is_ok())),
        "ip.isCanonical" => {
            let s = str_arg(args, 0)?;
            let a = parse_addr(s).map_err(|e| {
                EvalError::new(format!(
                    "IP Address {} parse error during conversion from string: {e}",
                    crate::go::fmt::go_quote(s)
                ))
            })?;
            Ok(Val::Bool(a.to_string() == s))
        }
        "cidr" => {
            let s = str_arg(args, 0)?;
            parse_cidr(s).map(|c| ext(Ext::Cidr(c))).map_err(|e| {
                EvalError::new(format!(
                    "network address parse error during conversion from string: {e}"
                ))
            })
        }
        "ip" => {
            if let Some(c) = cidr_of(args.first()) {
                return Ok(ext(Ext::Ip(Ip(c.addr))));
            }
            let s = str_arg(args, 0)?;
            parse_addr(s).map(|a| ext(Ext::Ip(Ip(a)))).map_err(|e| {
                EvalError::new(format!(
                    "IP Address {} parse error during conversion from string: {e}",
                    crate::go::fmt::go_quote(s)
                ))
            })
        }
        "masked" => {
            let c = cidr_of(args.first()).ok_or_else(EvalError::no_overload)?;
            Ok(ext(Ext::Cidr(masked(c))))
        }
        "prefixLength" => {
            let c = cidr_of(args.first()).ok_or_else(EvalError::no_overload)?;
            Ok(Val::Int(i64::from(c.bits)))
        }
        "containsIP" => {
            let c = cidr_of(args.first()).ok_or_else(EvalError::no_overload)?;
            let ip = match args.get(1) {
                Some(Val::Str(s)) => parse_addr(s.as_str()).map_err(|e| {
                    EvalError::new(format!(
                        "IP Address {} parse error during conversion from string: {e}",
                        crate::go::fmt::go_quote(s.as_str())
                    ))
                })?,
                other => ip_of(other).ok_or_else(EvalError::no_overload)?.0,
            };
            Ok(Val::Bool(contains(c, &ip)))
        }
        "containsCIDR" => {
            let c = cidr_of(args.first()).ok_or_else(EvalError::no_overload)?;
            let other = match args.get(1) {
                Some(Val::Str(s)) => parse_cidr(s.as_str()).map_err(|e| {
                    EvalError::new(format!(
                        "network address parse error during conversion from string: {e}"
                    ))
                })?,
                other => cidr_of(other).ok_or_else(EvalError::no_overload)?.clone(),
            };
            Ok(Val::Bool(
                c.bits <= other.bits && contains(c, &masked(&other).addr),
            ))
        }
        _ => {
            let ip = ip_of(args.first()).ok_or_else(EvalError::no_overload)?;
            let a = ip.0;
            Ok(match name {
                "family" => Val::Int(if a.is_ipv4() { 4 } else { 6 }),
                "isUnspecified" => Val::Bool(a.is_unspecified()),
                "isLoopback" => Val::Bool(a.is_loopback()),
                "isLinkLocalMulticast" => Val::Bool(match a {
                    IpAddr::V4(v) => v.octets()[..3] == [224, 0, 0],
                    IpAddr::V6(v) => v.segments()[0] & 0xff0f == 0xff02,
                }),
                "isLinkLocalUnicast" => Val::Bool(match a {
                    IpAddr::V4(v) => v.octets()[..2] == [169, 254],
                    IpAddr::V6(v) => v.segments()[0] & 0xffc0 == 0xfe80,
                }),
                "isGlobalUnicast" => Val::Bool(match a {
                    IpAddr::V4(v) => {
                        !(v.is_unspecified()
                            || v.is_loopback()
                            || v.is_multicast()
                            || v.is_broadcast()
                            || v.octets()[..2] == [169, 254])
                    }
                    IpAddr::V6(v) => {
                        !(v.is_unspecified()
                            || v.is_loopback()
                            || v.is_multicast()
                            || v.segments()[0] & 0xffc0 == 0xfe80)
                    }
                }),
                _ => return Err(EvalError::no_overload()),
            })
        }
    }
}
