//! The Kubernetes IP and CIDR libraries (`library/ip.go`,
//! `library/cidr.go`). Their `string` conversions are the standard
//! `string` function's.

use std::net::{IpAddr, Ipv4Addr};
use std::rc::Rc;

use super::entry::{Estimate, Function, Overload, RuntimeCost, global_with, member_with};
use super::operands::str_arg;
use crate::cel::error::EvalError;
use crate::cel::types::{Type, k8s};
use crate::cel::value::ip::{Cidr, Ip, contains, masked, parse_addr, parse_cidr};
use crate::cel::value::{EvalResult, Ext, Val};

/// A predicate method of an IP address (`ip.isLoopback()`): its name,
/// overload id and test; it costs one unit.
macro_rules! ip_predicate {
    ($name:literal, $id:literal, $test:path) => {
        Function {
            name: $name,
            overloads: &[Overload {
                id: $id,
                member: true,
                signature: || (vec![k8s::ip()], Type::Bool),
            }],
            applies: is_method,
            call: |args| ip_receiver(args).map(|a| Val::Bool($test(&a))),
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        }
    };
}

/// A containment method of a CIDR: its name, the overload taking a
/// string, the type of the other argument and its overload, whether the
/// argument is a CIDR (for the costs) and the implementation.
macro_rules! cidr_containment {
    (
        $name:literal,
        string $string_id:literal,
        or $arg:path, $typed_id:literal,
        of_cidr $of_cidr:literal,
        $call:path
    ) => {
        Function {
            name: $name,
            overloads: &[
                Overload {
                    id: $string_id,
                    member: true,
                    signature: || (vec![k8s::cidr(), Type::String], Type::Bool),
                },
                Overload {
                    id: $typed_id,
                    member: true,
                    signature: || (vec![k8s::cidr(), $arg()], Type::Bool),
                },
            ],
            applies: is_method,
            call: $call,
            runtime_cost: RuntimeCost::CidrContainment { of_cidr: $of_cidr },
            estimate: Estimate::CidrContainment {
                of_cidr: $of_cidr,
                string_overload: $string_id,
            },
        }
    };
}

/// The libraries' functions.
pub(crate) const FUNCTIONS: &[Function] = &[
    Function {
        name: "ip",
        overloads: &[
            Overload {
                id: "string_to_ip",
                member: false,
                signature: || (vec![Type::String], k8s::ip()),
            },
            Overload {
                id: "cidr_ip",
                member: true,
                signature: || (vec![k8s::cidr()], k8s::ip()),
            },
        ],
        applies: |receiver, args| global_with(receiver, args, &[1]) || is_method(receiver, args),
        call: to_ip,
        runtime_cost: RuntimeCost::ConstantOnCidrElseFirstArgumentTraversal,
        estimate: Estimate::FirstArgumentTraversalExcept {
            constant_overload: "cidr_ip",
        },
    },
    Function {
        name: "family",
        overloads: &[Overload {
            id: "ip_family",
            member: true,
            signature: || (vec![k8s::ip()], Type::Int),
        }],
        applies: is_method,
        call: |args| ip_receiver(args).map(|a| Val::Int(if a.is_ipv4() { 4 } else { 6 })),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "ip.isCanonical",
        overloads: &[Overload {
            id: "ip_is_canonical",
            member: false,
            signature: || (vec![Type::String], Type::Bool),
        }],
        applies: |receiver, args| global_with(receiver, args, &[1]),
        call: |args| {
            let s = str_arg(args, 0)?;
            let a = parse_addr(s).map_err(|e| ip_parse_error(s, &e))?;
            Ok(Val::Bool(a.to_string() == s))
        },
        runtime_cost: RuntimeCost::FirstArgumentTraversalTwice,
        estimate: Estimate::FirstArgumentTraversalTwice,
    },
    ip_predicate!("isUnspecified", "ip_is_unspecified", IpAddr::is_unspecified),
    ip_predicate!("isLoopback", "ip_is_loopback", IpAddr::is_loopback),
    ip_predicate!(
        "isLinkLocalMulticast",
        "ip_is_link_local_multicast",
        is_link_local_multicast
    ),
    ip_predicate!(
        "isLinkLocalUnicast",
        "ip_is_link_local_unicast",
        is_link_local_unicast
    ),
    ip_predicate!("isGlobalUnicast", "ip_is_global_unicast", is_global_unicast),
    Function {
        name: "isIP",
        overloads: &[Overload {
            id: "is_ip",
            member: false,
            signature: || (vec![Type::String], Type::Bool),
        }],
        applies: |receiver, args| global_with(receiver, args, &[1]),
        call: |args| Ok(Val::Bool(parse_addr(str_arg(args, 0)?).is_ok())),
        runtime_cost: RuntimeCost::FirstArgumentTraversal,
        estimate: Estimate::FirstArgumentTraversal,
    },
    Function {
        name: "cidr",
        overloads: &[Overload {
            id: "string_to_cidr",
            member: false,
            signature: || (vec![Type::String], k8s::cidr()),
        }],
        applies: |receiver, args| global_with(receiver, args, &[1]),
        call: |args| {
            parse_cidr(str_arg(args, 0)?)
                .map(|c| ext(Ext::Cidr(c)))
                .map_err(|e| cidr_parse_error(&e))
        },
        runtime_cost: RuntimeCost::FirstArgumentTraversal,
        estimate: Estimate::FirstArgumentTraversal,
    },
    cidr_containment!(
        "containsIP",
        string "cidr_contains_ip_string",
        or k8s::ip, "cidr_contains_ip_ip",
        of_cidr false,
        contains_ip
    ),
    cidr_containment!(
        "containsCIDR",
        string "cidr_contains_cidr_string",
        or k8s::cidr, "cidr_contains_cidr",
        of_cidr true,
        contains_cidr
    ),
    Function {
        name: "prefixLength",
        overloads: &[Overload {
            id: "cidr_prefix_length",
            member: true,
            signature: || (vec![k8s::cidr()], Type::Int),
        }],
        applies: is_method,
        call: |args| cidr_receiver(args).map(|c| Val::Int(i64::from(c.bits))),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "masked",
        overloads: &[Overload {
            id: "cidr_masked",
            member: true,
            signature: || (vec![k8s::cidr()], k8s::cidr()),
        }],
        applies: is_method,
        call: |args| cidr_receiver(args).map(|c| ext(Ext::Cidr(masked(c)))),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "isCIDR",
        overloads: &[Overload {
            id: "is_cidr",
            member: false,
            signature: || (vec![Type::String], Type::Bool),
        }],
        applies: |receiver, args| global_with(receiver, args, &[1]),
        call: |args| Ok(Val::Bool(parse_cidr(str_arg(args, 0)?).is_ok())),
        runtime_cost: RuntimeCost::FirstArgumentTraversal,
        estimate: Estimate::FirstArgumentTraversal,
    },
];

/// A method: a receiver and at most one argument.
fn is_method(receiver: bool, args: &[Val<'_>]) -> bool {
    member_with(receiver, args, &[1, 2])
}

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

fn ip_receiver(args: &[Val<'_>]) -> Result<IpAddr, EvalError> {
    ip_of(args.first())
        .map(|ip| ip.0)
        .ok_or_else(EvalError::no_overload)
}

fn cidr_receiver<'v>(args: &'v [Val<'_>]) -> Result<&'v Cidr, EvalError> {
    cidr_of(args.first()).ok_or_else(EvalError::no_overload)
}

fn ip_parse_error(s: &str, e: &impl std::fmt::Display) -> EvalError {
    EvalError::new(format!(
        "IP Address {} parse error during conversion from string: {e}",
        crate::go::fmt::go_quote(s)
    ))
}

fn cidr_parse_error(e: &impl std::fmt::Display) -> EvalError {
    EvalError::new(format!(
        "network address parse error during conversion from string: {e}"
    ))
}

/// `ip(s)` and `cidr.ip()`.
fn to_ip<'a>(args: &[Val<'a>]) -> EvalResult<'a> {
    if let Some(c) = cidr_of(args.first()) {
        return Ok(ext(Ext::Ip(Ip(c.addr))));
    }
    let s = str_arg(args, 0)?;
    parse_addr(s)
        .map(|a| ext(Ext::Ip(Ip(a))))
        .map_err(|e| ip_parse_error(s, &e))
}

fn contains_ip<'a>(args: &[Val<'a>]) -> EvalResult<'a> {
    let c = cidr_receiver(args)?;
    let ip = match args.get(1) {
        Some(Val::Str(s)) => parse_addr(s.as_str()).map_err(|e| ip_parse_error(s.as_str(), &e))?,
        other => ip_of(other).ok_or_else(EvalError::no_overload)?.0,
    };
    Ok(Val::Bool(contains(c, &ip)))
}

fn contains_cidr<'a>(args: &[Val<'a>]) -> EvalResult<'a> {
    let c = cidr_receiver(args)?;
    let other = match args.get(1) {
        Some(Val::Str(s)) => parse_cidr(s.as_str()).map_err(|e| cidr_parse_error(&e))?,
        other => cidr_of(other).ok_or_else(EvalError::no_overload)?.clone(),
    };
    Ok(Val::Bool(
        c.bits <= other.bits && contains(c, &masked(&other).addr),
    ))
}

/// Go's `IP.IsLinkLocalMulticast`.
fn is_link_local_multicast(a: &IpAddr) -> bool {
    match a {
        IpAddr::V4(v) => v.octets()[..3] == [224, 0, 0],
        IpAddr::V6(v) => v.segments()[0] & 0xff0f == 0xff02,
    }
}

/// Go's `IP.IsLinkLocalUnicast`.
fn is_link_local_unicast(a: &IpAddr) -> bool {
    match a {
        IpAddr::V4(v) => v.octets()[..2] == [169, 254],
        IpAddr::V6(v) => v.segments()[0] & 0xffc0 == 0xfe80,
    }
}

/// Go's `IP.IsGlobalUnicast`: none of the special addresses, nor the IPv4
/// broadcast address.
fn is_global_unicast(a: &IpAddr) -> bool {
    !(a.is_unspecified()
        || a.is_loopback()
        || a.is_multicast()
        || is_link_local_unicast(a)
        || *a == IpAddr::V4(Ipv4Addr::BROADCAST))
}
