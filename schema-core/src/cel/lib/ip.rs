//! The Kubernetes IP and CIDR libraries (`library/ip.go`,
//! `library/cidr.go`): `netip` parsing (no zones, no IPv4-mapped IPv6).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::rc::Rc;

use super::{Ext, str_arg};
use crate::cel::error::EvalError;
use crate::cel::value::EvalResult;
use crate::cel::value::Val;

/// An IP address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ip(pub IpAddr);

/// A CIDR: an address and a prefix length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cidr {
    /// The address as written.
    pub addr: IpAddr,
    /// The prefix length.
    pub bits: u8,
}

impl fmt::Display for Ip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

/// `netip.ParseAddr` as the library uses it.
fn parse_addr(s: &str) -> Result<IpAddr, String> {
    if s.contains('%') {
        return Err("IP address with zone value is not allowed".into());
    }
    if s.contains(':') {
        let a: Ipv6Addr = s.parse().map_err(|_| {
            format!(
                "ParseAddr({}): unable to parse IP",
                crate::go::fmt::go_quote(s)
            )
        })?;
        if a.to_ipv4_mapped().is_some() {
            return Err("IPv4-mapped IPv6 address is not allowed".into());
        }
        Ok(IpAddr::V6(a))
    } else {
        let a: Ipv4Addr = s.parse().map_err(|_| {
            format!(
                "ParseAddr({}): unable to parse IP",
                crate::go::fmt::go_quote(s)
            )
        })?;
        Ok(IpAddr::V4(a))
    }
}

fn parse_cidr(s: &str) -> Result<Cidr, String> {
    let Some((a, b)) = s.rsplit_once('/') else {
        return Err(format!(
            "netip.ParsePrefix({}): no '/'",
            crate::go::fmt::go_quote(s)
        ));
    };
    let addr = parse_addr(a)?;
    let max = if addr.is_ipv4() { 32 } else { 128 };
    let bits: u8 = if !b.is_empty()
        && b.bytes().all(|c| c.is_ascii_digit())
        && (b == "0" || !b.starts_with('0'))
    {
        b.parse().map_err(|_| "bad bits".to_string())?
    } else {
        return Err(format!(
            "netip.ParsePrefix({}): bad bits after slash: {}",
            crate::go::fmt::go_quote(s),
            crate::go::fmt::go_quote(b)
        ));
    };
    if bits > max {
        return Err(format!(
            "netip.ParsePrefix({}): prefix length out of range",
            crate::go::fmt::go_quote(s)
        ));
    }
    Ok(Cidr { addr, bits })
}

fn bits_of(a: &IpAddr) -> u128 {
    match a {
        IpAddr::V4(v) => u128::from(u32::from(*v)),
        IpAddr::V6(v) => u128::from(*v),
    }
}

fn masked(c: &Cidr) -> Cidr {
    let width = if c.addr.is_ipv4() { 32 } else { 128 };
    let v = bits_of(&c.addr);
    let keep = u32::from(c.bits);
    let mask: u128 = if keep == 0 {
        0
    } else {
        (!0u128 << (width - keep)) & if width == 32 { 0xFFFF_FFFF } else { !0u128 }
    };
    let m = v & mask;
    let addr = if c.addr.is_ipv4() {
        IpAddr::V4(Ipv4Addr::from(m as u32))
    } else {
        IpAddr::V6(Ipv6Addr::from(m))
    };
    Cidr { addr, bits: c.bits }
}

fn contains(c: &Cidr, ip: &IpAddr) -> bool {
    if c.addr.is_ipv4() != ip.is_ipv4() {
        return false;
    }
    let m = masked(c);
    masked(&Cidr {
        addr: *ip,
        bits: c.bits,
    })
    .addr
        == m.addr
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
