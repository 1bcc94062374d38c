//! The Kubernetes URL library (`library/urls.go`): `url`, `isURL` and the
//! accessors.

use std::rc::Rc;

use super::entry::{Estimate, Function, Overload, RuntimeCost, global_with, member_with};
use super::operands::{str_arg, string_list_map};
use crate::cel::error::EvalError;
use crate::cel::types::{Type, k8s};
use crate::cel::value::url::{Url, parse_query};
use crate::cel::value::{Ext, Val, owned_str};

/// The library's functions.
pub(crate) const FUNCTIONS: &[Function] = &[
    Function {
        name: "url",
        overloads: &[Overload {
            id: "string_to_url",
            member: false,
            signature: || (vec![Type::String], k8s::url()),
        }],
        applies: |receiver, args| global_with(receiver, args, &[1]),
        call: |args| match Url::parse(str_arg(args, 0)?) {
            Ok(u) => Ok(Val::Ext(Rc::new(Ext::Url(u)))),
            Err(e) => Err(EvalError::new(format!(
                "URL parse error during conversion from string: {e}"
            ))),
        },
        runtime_cost: RuntimeCost::FirstArgumentTraversal,
        estimate: Estimate::OnlyArgumentTraversalSized,
    },
    Function {
        name: "getScheme",
        overloads: &[Overload {
            id: "url_get_scheme",
            member: true,
            signature: || (vec![k8s::url()], Type::String),
        }],
        applies: is_accessor,
        call: |args| receiver(args).map(|u| owned_str(u.scheme.clone())),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getHost",
        overloads: &[Overload {
            id: "url_get_host",
            member: true,
            signature: || (vec![k8s::url()], Type::String),
        }],
        applies: is_accessor,
        call: |args| receiver(args).map(|u| owned_str(u.host.clone())),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getHostname",
        overloads: &[Overload {
            id: "url_get_hostname",
            member: true,
            signature: || (vec![k8s::url()], Type::String),
        }],
        applies: is_accessor,
        call: |args| receiver(args).map(|u| owned_str(u.hostname().to_string())),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getPort",
        overloads: &[Overload {
            id: "url_get_port",
            member: true,
            signature: || (vec![k8s::url()], Type::String),
        }],
        applies: is_accessor,
        call: |args| receiver(args).map(|u| owned_str(u.port().to_string())),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getEscapedPath",
        overloads: &[Overload {
            id: "url_get_escaped_path",
            member: true,
            signature: || (vec![k8s::url()], Type::String),
        }],
        applies: is_accessor,
        call: |args| receiver(args).map(|u| owned_str(u.path.clone())),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getQuery",
        overloads: &[Overload {
            id: "url_get_query",
            member: true,
            signature: || {
                (
                    vec![k8s::url()],
                    Type::map(Type::String, Type::list(Type::String)),
                )
            },
        }],
        applies: is_accessor,
        call: |args| receiver(args).map(|u| string_list_map(parse_query(&u.query))),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "isURL",
        overloads: &[Overload {
            id: "is_url_string",
            member: false,
            signature: || (vec![Type::String], Type::Bool),
        }],
        applies: |receiver, args| global_with(receiver, args, &[1]),
        call: |args| Ok(Val::Bool(Url::parse(str_arg(args, 0)?).is_ok())),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
];

fn url_of<'v>(v: Option<&'v Val<'_>>) -> Option<&'v Url> {
    match v {
        Some(Val::Ext(e)) => match &**e {
            Ext::Url(u) => Some(u),
            _ => None,
        },
        _ => None,
    }
}

/// An accessor called on a URL.
fn is_accessor(receiver: bool, args: &[Val<'_>]) -> bool {
    member_with(receiver, args, &[1]) && url_of(args.first()).is_some()
}

fn receiver<'v>(args: &'v [Val<'_>]) -> Result<&'v Url, EvalError> {
    url_of(args.first()).ok_or_else(EvalError::no_overload)
}
