//! The Kubernetes URL library (`library/urls.go`): `url`, `isURL` and the
//! accessors, on Go's `url.ParseRequestURI`.

use std::rc::Rc;

use super::{Ext, string_list_map};
use crate::cel::error::EvalError;
use crate::cel::value::Val;
use crate::cel::value::{EvalResult, owned_str};
use crate::go::url;

/// A parsed URL.
#[derive(Clone, Debug)]
pub struct Url {
    /// The text it was parsed from.
    pub raw: String,
    scheme: String,
    host: String,
    path: String,
    query: String,
}

impl Url {
    /// `url.ParseRequestURI` to check, then `url.Parse` for the parts (a
    /// fragment is not part of the path or query).
    ///
    /// # Errors
    ///
    /// Go's `*url.Error` text.
    pub fn parse(raw: &str) -> Result<Url, String> {
        url::parse_request_uri(raw)?;
        let u = url::parse(raw)?;
        Ok(Url {
            raw: raw.to_string(),
            scheme: u.scheme.clone(),
            host: u.host.clone(),
            path: u.escaped_path(),
            query: u.raw_query,
        })
    }

    fn hostname(&self) -> &str {
        let h = self.host.as_str();
        if let Some(rest) = h.strip_prefix('[') {
            return rest.split_once(']').map_or(rest, |(a, _)| a);
        }
        h.rsplit_once(':').map_or(h, |(a, _)| a)
    }

    fn port(&self) -> &str {
        let h = self.host.as_str();
        let after = match h.rfind(']') {
            Some(i) => h.get(i + 1..).unwrap_or_default(),
            None => h,
        };
        match after.rfind(':') {
            Some(i) => after.get(i + 1..).unwrap_or_default(),
            None => "",
        }
    }

    /// The accessor `name`.
    pub(crate) fn accessor<'a>(&self, name: &str) -> EvalResult<'a> {
        Ok(match name {
            "getScheme" => owned_str(self.scheme.clone()),
            "getHost" => owned_str(self.host.clone()),
            "getHostname" => owned_str(self.hostname().to_string()),
            "getPort" => owned_str(self.port().to_string()),
            "getEscapedPath" => owned_str(self.path.clone()),
            "getQuery" => string_list_map(parse_query(&self.query)),
            _ => return Err(EvalError::no_overload()),
        })
    }
}

/// `url.QueryUnescape`; `None` when it fails or the result is not UTF-8.
fn unescape_query(s: &str) -> Option<String> {
    String::from_utf8(url::unescape(s, url::Mode::QueryComponent).ok()?).ok()
}

/// `url.ParseQuery`, keeping the pairs that parse, keys in first-seen
/// order.
fn parse_query(q: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for part in q.split('&') {
        if part.is_empty() || part.contains(';') {
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let (Some(k), Some(v)) = (unescape_query(k), unescape_query(v)) else {
            continue;
        };
        match out.iter_mut().find(|(ek, _)| *ek == k) {
            Some((_, vs)) => vs.push(v),
            None => out.push((k, vec![v])),
        }
    }
    out
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
