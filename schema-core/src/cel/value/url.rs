//! `kubernetes.URL`, the value of the Kubernetes URL library
//! (`library/urls.go`), on Go's `url.ParseRequestURI`.

use crate::go::url;

/// A parsed URL.
#[derive(Clone, Debug)]
pub struct Url {
    /// The text it was parsed from.
    pub raw: String,
    /// The scheme.
    pub(crate) scheme: String,
    /// The host, with the port if any.
    pub(crate) host: String,
    /// The escaped path.
    pub(crate) path: String,
    /// The raw query.
    pub(crate) query: String,
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

    /// The host without the port or IPv6 brackets.
    pub(crate) fn hostname(&self) -> &str {
        let h = self.host.as_str();
        if let Some(rest) = h.strip_prefix('[') {
            return rest.split_once(']').map_or(rest, |(a, _)| a);
        }
        h.rsplit_once(':').map_or(h, |(a, _)| a)
    }

    /// The port, empty when there is none.
    pub(crate) fn port(&self) -> &str {
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
}

/// `url.QueryUnescape`; `None` when it fails or the result is not UTF-8.
fn unescape_query(s: &str) -> Option<String> {
    String::from_utf8(url::unescape(s, url::Mode::QueryComponent).ok()?).ok()
}

/// `url.ParseQuery`, keeping the pairs that parse, keys in first-seen
/// order.
pub(crate) fn parse_query(q: &str) -> Vec<(String, Vec<String>)> {
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
