//! The Kubernetes URL library's functions (`library/urls.go`): `url`,
//! `isURL` and the accessors.

use std::rc::Rc;

use super::operands::string_list_map;
use crate::cel::error::EvalError;
use crate::cel::value::url::{Url, parse_query};
use crate::cel::value::{EvalResult, Ext, Val, owned_str};

/// The accessor `name` of `u`.
pub(crate) fn accessor<'a>(u: &Url, name: &str) -> EvalResult<'a> {
    Ok(match name {
        "getScheme" => owned_str(u.scheme.clone()),
        "getHost" => owned_str(u.host.clone()),
        "getHostname" => owned_str(u.hostname().to_string()),
        "getPort" => owned_str(u.port().to_string()),
        "getEscapedPath" => owned_str(u.path.clone()),
        "getQuery" => string_list_map(parse_query(&u.query)),
        _ => return Err(EvalError::no_overload()),
    })
}

/// `url(s)`.
pub(crate) fn to_url<'a>(s: &str) -> EvalResult<'a> {
    match Url::parse(s) {
        Ok(u) => Ok(Val::Ext(Rc::new(Ext::Url(u)))),
        Err(e) => Err(EvalError::new(format!(
            "URL parse error during conversion from string: {e}"
        ))),
    }
}
