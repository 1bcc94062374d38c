//! The Kubernetes URL library (`library/urls.go`): `url`, `isURL` and the
//! accessors, on Go's `url.ParseRequestURI`.

use std::rc::Rc;

use super::{Ext, string_list_map};
use crate::cel::eval::{EvalError, EvalResult, owned_str};
use crate::cel::value::Val;

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
    /// `url.ParseRequestURI`; `None` when it fails.
    pub fn parse(raw: &str) -> Option<Url> {
        if !crate::value::uri::is_request_uri(raw) {
            return None;
        }
        let mut scheme = String::new();
        let mut rest = raw;
        if let Some(i) = raw.find(':') {
            let cand = raw.get(..i).unwrap_or_default();
            if !cand.is_empty()
                && cand.bytes().next().is_some_and(|c| c.is_ascii_alphabetic())
                && cand
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
            {
                scheme = cand.to_ascii_lowercase();
                rest = raw.get(i + 1..).unwrap_or_default();
            }
        }
        let (rest, query) = match rest.split_once('?') {
            Some((a, q)) => (a, q.to_string()),
            None => (rest, String::new()),
        };
        let mut host = String::new();
        let mut path = rest.to_string();
        if !scheme.is_empty() && rest.starts_with("//") {
            let auth_path = rest.get(2..).unwrap_or_default();
            let (auth, p) = match auth_path.find('/') {
                Some(i) => (
                    auth_path.get(..i).unwrap_or_default(),
                    auth_path.get(i..).unwrap_or_default(),
                ),
                None => (auth_path, ""),
            };
            host = auth.rsplit_once('@').map_or(auth, |(_, h)| h).to_string();
            path = p.to_string();
        } else if !scheme.is_empty() && !rest.starts_with('/') {
            // Opaque.
            path = String::new();
        }
        Some(Url {
            raw: raw.to_string(),
            scheme,
            host,
            path,
            query,
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

fn unescape_query(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
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
        Some(u) => Ok(Val::Ext(Rc::new(Ext::Url(u)))),
        None => Err(EvalError::new(format!(
            "URL parse error during conversion from string: parse {}: invalid URI for request",
            crate::field::go_quote(s)
        ))),
    }
}
