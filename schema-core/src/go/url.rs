//! Go's `net/url` parsing: `url.Parse` and `url.ParseRequestURI`, with the
//! parts the API server reads (scheme, user information, host, path, raw
//! query, fragment) and the errors printed as Go prints `*url.Error`. The
//! `uri` format (govalidator's `IsRequestURI`), CRD webhook URLs and API
//! approval annotations, and the CEL URL library all parse here.

use crate::go::fmt::go_quote;

/// A parsed URL (the fields of Go's `url.URL` that are read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Url {
    /// The scheme, lower-cased.
    pub scheme: String,
    /// `u.User.String()`, if user information is present.
    pub user: Option<String>,
    /// The host (with the port), unescaped.
    pub host: String,
    /// The path as written (Go's `EscapedPath` when it is validly
    /// escaped); empty for an opaque URL.
    pub raw_path: String,
    /// The query, without `?`.
    pub raw_query: String,
    /// The unescaped fragment.
    pub fragment: String,
}

impl Url {
    /// `u.EscapedPath()`: the path as written when it is validly escaped
    /// (`validEncoded`), else the decoded path escaped again.
    pub(crate) fn escaped_path(&self) -> String {
        if valid_encoded(&self.raw_path) || self.raw_path == "*" {
            return self.raw_path.clone();
        }
        match unescape(&self.raw_path, Mode::Path) {
            Ok(path) => escape(&path, Mode::Path),
            Err(_) => self.raw_path.clone(),
        }
    }
}

/// `validEncoded(s, encodePath)`: only characters a path may hold as they
/// are (escapes included).
fn valid_encoded(s: &str) -> bool {
    s.bytes()
        .all(|c| b"!$&'()*+,;=:@[]%".contains(&c) || !should_escape(c, Mode::Path))
}

/// Go's `encoding` modes of `shouldEscape`, `escape` and `unescape`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

/// `shouldEscape`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone) && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => return true,
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    !(mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*'))
}

/// `url.unescape`: checks the escapes (and, in a host or zone, the
/// characters) and decodes.
///
/// # Errors
///
/// Go's `invalid URL escape "%zz"` and `invalid character " " in host
/// name`.
pub(crate) fn unescape(s: &str, mode: Mode) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let escape_error = |i: usize| {
        let bad = b.get(i..(i + 3).min(b.len())).unwrap_or_default();
        format!(
            "invalid URL escape {}",
            go_quote(&String::from_utf8_lossy(bad))
        )
    };
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'%' => {
                let (Some(&h1), Some(&h2)) = (b.get(i + 1), b.get(i + 2)) else {
                    return Err(escape_error(i));
                };
                if !h1.is_ascii_hexdigit() || !h2.is_ascii_hexdigit() {
                    return Err(escape_error(i));
                }
                let is25 = h1 == b'2' && h2 == b'5';
                let v = (unhex(h1) << 4) | unhex(h2);
                // In a host, %-encoding is for non-ASCII bytes only (and
                // %25 before a zone); a zone may not escape what it could
                // not write directly.
                if mode == Mode::Host && unhex(h1) < 8 && !is25 {
                    return Err(escape_error(i));
                }
                if mode == Mode::Zone && !is25 && v != b' ' && should_escape(v, Mode::Host) {
                    return Err(escape_error(i));
                }
                out.push(v);
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        go_quote(&char::from(c).to_string())
                    ));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// `url.escape` (user information, paths).
fn escape(s: &[u8], mode: Mode) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s {
        if should_escape(c, mode) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(char::from(c));
        }
    }
    out
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `url.Parse`; the error is `*url.Error`'s text.
pub(crate) fn parse(raw: &str) -> Result<Url, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse_inner(u, false).map_err(|e| format!("parse {}: {e}", go_quote(u)))?;
    if !frag.is_empty() {
        url.fragment = unescape(frag, Mode::Fragment)
            .map(|f| lossy(&f))
            .map_err(|e| format!("parse {}: {e}", go_quote(raw)))?;
    }
    Ok(url)
}

/// `url.ParseRequestURI`; the error is `*url.Error`'s text.
pub(crate) fn parse_request_uri(raw: &str) -> Result<Url, String> {
    parse_inner(raw, true).map_err(|e| format!("parse {}: {e}", go_quote(raw)))
}

/// `url.ParseRequestURI(s)` succeeds (govalidator's `IsRequestURI`).
pub(crate) fn is_request_uri(raw: &str) -> bool {
    parse_request_uri(raw).is_ok()
}

/// Go's `parse(rawURL, viaRequest)`.
fn parse_inner(raw: &str, via_request: bool) -> Result<Url, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".into());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.raw_path = "*".into();
        return Ok(url);
    }
    let (scheme, rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest.get(..rest.len() - 1).unwrap_or(rest)
    } else {
        match rest.split_once('?') {
            Some((r, q)) => {
                url.raw_query = q.to_string();
                r
            }
            None => rest,
        }
    };
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // A rootless path: opaque, no host.
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".into());
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with("///"))
        && rest.starts_with("//")
    {
        let after = rest.get(2..).unwrap_or("");
        let (authority, path) = match after.find('/') {
            Some(i) => (after.get(..i).unwrap_or(""), after.get(i..).unwrap_or("")),
            None => (after, ""),
        };
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = host;
        rest = path;
    }
    unescape(rest, Mode::Path)?;
    url.raw_path = rest.to_string();
    Ok(url)
}

/// `getScheme`.
fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        if c.is_ascii_alphabetic() {
            continue;
        }
        if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') {
            if i == 0 {
                return Ok(("", raw));
            }
            continue;
        }
        if c == b':' {
            if i == 0 {
                return Err("missing protocol scheme".into());
            }
            return Ok((raw.get(..i).unwrap_or(""), raw.get(i + 1..).unwrap_or("")));
        }
        return Ok(("", raw));
    }
    Ok(("", raw))
}

/// `parseAuthority`: the user information (`u.User.String()`) and the
/// host.
fn parse_authority(authority: &str) -> Result<(Option<String>, String), String> {
    let at = authority.rfind('@');
    let host = match at {
        None => parse_host(authority)?,
        Some(i) => parse_host(authority.get(i + 1..).unwrap_or(""))?,
    };
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = authority.get(..i).unwrap_or("");
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match userinfo.split_once(':') {
        None => escape(&unescape(userinfo, Mode::UserPassword)?, Mode::UserPassword),
        Some((u, p)) => format!(
            "{}:{}",
            escape(&unescape(u, Mode::UserPassword)?, Mode::UserPassword),
            escape(&unescape(p, Mode::UserPassword)?, Mode::UserPassword)
        ),
    };
    Ok((Some(user), host))
}

/// `parseHost`: IP literals with an optional RFC 6874 zone, ports, and
/// the host's escapes.
fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = host.get(i + 1..).unwrap_or("");
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
        if let Some(zone) = host.get(..i).and_then(|h| h.find("%25")) {
            let mut out = unescape(host.get(..zone).unwrap_or_default(), Mode::Host)?;
            out.extend(unescape(host.get(zone..i).unwrap_or_default(), Mode::Zone)?);
            out.extend(unescape(host.get(i..).unwrap_or_default(), Mode::Host)?);
            return Ok(lossy(&out));
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = host.get(i..).unwrap_or("");
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
    }
    unescape(host, Mode::Host).map(|h| lossy(&h))
}

/// `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(port: &str) -> bool {
    if port.is_empty() {
        return true;
    }
    port.strip_prefix(':')
        .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// `validUserinfo`.
fn valid_userinfo(s: &str) -> bool {
    s.chars().all(|r| {
        r.is_ascii_alphanumeric()
            || matches!(
                r,
                '-' | '.'
                    | '_'
                    | ':'
                    | '~'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
                    | '@'
            )
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn parses_like_go() {
        let u = parse("https://user:pw@example.com:8443/path?q=1#frag").unwrap();
        assert_eq!(u.scheme, "https");
        assert_eq!(u.host, "example.com:8443");
        assert_eq!(u.user.as_deref(), Some("user:pw"));
        assert_eq!(u.fragment, "frag");
        assert_eq!(u.raw_query, "q=1");
        assert_eq!(u.raw_path, "/path");
        assert_eq!(parse("").unwrap(), Url::default());
        assert_eq!(
            parse("https://exa mple.com").unwrap_err(),
            r#"parse "https://exa mple.com": invalid character " " in host name"#
        );
        assert_eq!(
            parse(":foo").unwrap_err(),
            r#"parse ":foo": missing protocol scheme"#
        );
        assert_eq!(
            parse("https://example.com:80a").unwrap_err(),
            r#"parse "https://example.com:80a": invalid port ":80a" after host"#
        );
        assert_eq!(
            parse("https://example.com/%zz").unwrap_err(),
            r#"parse "https://example.com/%zz": invalid URL escape "%zz""#
        );
        assert_eq!(parse("a:b/c:d").map(|u| u.scheme), Ok("a".to_string()));
        assert_eq!(parse("foo:bar").map(|u| u.host), Ok(String::new()));
        assert!(parse_request_uri("https://github.com/x").is_ok_and(|u| u.host == "github.com"));
        assert!(parse_request_uri("foo").is_err());
        assert!(parse_request_uri("example.com/x").is_err());
    }

    #[test]
    fn request_uris_as_govalidator() {
        for ok in [
            "/a/b",
            "*",
            "http://h/p?q",
            "mailto:x@y",
            "http://[fe80::1%25en0]:80/",
            "http://u:p@h:1/p",
        ] {
            assert!(is_request_uri(ok), "{ok}");
        }
        for bad in [
            "",
            "a/b",
            "http://h:x/",
            "http://[fe80::1%25%00]/",
            "http://h/%zz",
            "http://a b/",
            "\u{7f}",
        ] {
            assert!(!is_request_uri(bad), "{bad}");
        }
    }

    #[test]
    fn query_components_unescape() {
        assert_eq!(unescape("a+b%21", Mode::QueryComponent).unwrap(), b"a b!");
        assert_eq!(unescape("a+b", Mode::Path).unwrap(), b"a+b");
        assert!(unescape("%2", Mode::QueryComponent).is_err());
    }
}
