//! Every function the environment declares is implemented: each overload
//! of each function of the newest library set, called with values of its
//! declared argument types, finds an implementation (it may still fail,
//! e.g. on a value it does not accept, but never for want of an overload).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::rc::Rc;

use super::{call, registry};
use crate::cel::functions::{CompatibilityVersion, library};
use crate::cel::types::Type;
use crate::cel::value::ip::{Cidr, Ip};
use crate::cel::value::quantity::Quantity;
use crate::cel::value::semver::Semver;
use crate::cel::value::url::Url;
use crate::cel::value::{Ext, MapV, OwnedMap, Val};

/// The functions the evaluator plans itself (short-circuits, selection,
/// indexing, `or`/`orValue` of optionals): never dispatched to the
/// libraries.
const PLANNED_BY_THE_EVALUATOR: [&str; 8] = [
    "_&&_",
    "_||_",
    "_?_:_",
    "@not_strictly_false",
    "_[_]",
    "_[?_]",
    "or",
    "orValue",
];

/// Declared overloads (by id) that have no implementation: a call to one
/// fails with `no such overload`.
const NOT_IMPLEMENTED: [&str; 2] = ["int64_to_duration", "quantity_sign"];

fn ext<'a>(e: Ext) -> Val<'a> {
    Val::Ext(Rc::new(e))
}

/// A value of type `t`; `None` for types no rule of a CRD can hold (the
/// authorization library's).
fn sample<'a>(t: &Type) -> Option<Val<'a>> {
    Some(match t {
        Type::Bool => Val::Bool(true),
        Type::Bytes => Val::Bytes(b"1".as_slice().into()),
        Type::Double => Val::Double(1.0),
        Type::Duration => Val::Duration(1_000_000_000),
        Type::Int | Type::Dyn | Type::TypeParam(_) => Val::Int(1),
        Type::Null => Val::Null,
        Type::String => Val::string("1"),
        Type::Timestamp => Val::Timestamp(1, 0, 0),
        Type::Uint => Val::Uint(1),
        Type::List(e) => Val::list(vec![sample(e)?]),
        Type::Map(k, v) => {
            let mut m = OwnedMap::default();
            m.insert(sample(k)?, sample(v)?);
            Val::Map(MapV::Owned(Rc::new(m)))
        }
        Type::TypeType(_) => Val::type_val("int"),
        Type::Opaque(name, params) => match name.as_str() {
            "optional_type" => Val::Optional(Some(Rc::new(sample(params.first()?)?))),
            "net.IP" => ext(Ext::Ip(Ip("10.0.0.1".parse().ok()?))),
            "net.CIDR" => ext(Ext::Cidr(Cidr {
                addr: "10.0.0.0".parse().ok()?,
                bits: 8,
            })),
            _ => return None,
        },
        Type::Struct(name) => match name.as_str() {
            "kubernetes.Quantity" => ext(Ext::Quantity(Quantity::parse("1").ok()?)),
            "kubernetes.URL" => ext(Ext::Url(Url::parse("https://example.com/").ok()?)),
            "kubernetes.Semver" => ext(Ext::Semver(Semver::parse("1.0.0").ok()?)),
            "kubernetes.NamedFormat" => ext(Ext::Format("dns1123Label")),
            _ => return None,
        },
        Type::Error => return None,
    })
}

#[test]
fn every_declared_overload_is_implemented() {
    let newest = CompatibilityVersion::new(1, 37);
    let mut missing = Vec::new();
    let mut called = 0;
    for f in library(newest).functions() {
        if PLANNED_BY_THE_EVALUATOR.contains(&f.name.as_str()) {
            continue;
        }
        for o in &f.overloads {
            let Some(mut args) = o.args.iter().map(sample).collect::<Option<Vec<_>>>() else {
                continue;
            };
            let target = if o.member { Some(args.remove(0)) } else { None };
            called += 1;
            if let (Err(e), _) = call(&f.name, target, args, &[])
                && e.msg == "no such overload"
            {
                missing.push(o.id.clone());
            }
        }
    }
    missing.sort();
    assert!(called > 300, "only {called} overloads called");
    assert_eq!(
        missing, NOT_IMPLEMENTED,
        "the overloads declared but not implemented"
    );
}

/// Every registry entry is declared (each of its overloads is in the
/// newest library set, under its name) and routes a call with values of
/// each declared overload's argument types to itself.
#[test]
fn every_registry_entry_is_declared_and_routed_to() {
    let newest = library(CompatibilityVersion::new(1, 37));
    let mut faults = Vec::new();
    for f in registry::all() {
        if f.overloads.is_empty() {
            faults.push(format!("{}: no overload", f.name));
        }
        for o in f.overloads {
            let declared = newest
                .function(f.name)
                .is_some_and(|d| d.overloads.iter().any(|d| d.id == o.id));
            if !declared {
                faults.push(format!("{}: {} not declared", f.name, o.id));
            }
            if NOT_IMPLEMENTED.contains(&o.id) {
                continue;
            }
            let (args, _) = (o.signature)();
            let Some(args) = args.iter().map(sample).collect::<Option<Vec<_>>>() else {
                continue;
            };
            let routed = registry::resolve(f.name, o.member, &args);
            if !routed.is_some_and(|r| r.name == f.name && r.overloads.iter().any(|r| r.id == o.id))
            {
                faults.push(format!("{}: {} not routed to its entry", f.name, o.id));
            }
        }
    }
    assert!(faults.is_empty(), "{faults:#?}");
}
