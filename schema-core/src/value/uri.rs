//! Go's `url.ParseRequestURI` (the `uri` format, via govalidator's
//! `IsRequestURI`), reduced to its verdict.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
}

fn is_hex(c: u8) -> bool {
    c.is_ascii_hexdigit()
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

/// `shouldEscape` for the modes `unescape` consults.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => c == b'?',
            Mode::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::Host | Mode::Zone => true,
        },
        _ => true,
    }
}

/// Whether `unescape(s, mode)` succeeds.
fn unescape_ok(s: &[u8], mode: Mode) -> bool {
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        match c {
            b'%' => {
                let (Some(&h1), Some(&h2)) = (s.get(i + 1), s.get(i + 2)) else {
                    return false;
                };
                if !is_hex(h1) || !is_hex(h2) {
                    return false;
                }
                let is25 = h1 == b'2' && h2 == b'5';
                if mode == Mode::Host && unhex(h1) < 8 && !is25 {
                    return false;
                }
                if mode == Mode::Zone {
                    let v = (unhex(h1) << 4) | unhex(h2);
                    if !is25 && v != b' ' && should_escape(v, Mode::Host) {
                        return false;
                    }
                }
                i += 3;
            }
            _ => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return false;
                }
                i += 1;
            }
        }
    }
    true
}

fn valid_optional_port(port: &str) -> bool {
    match port.strip_prefix(':') {
        None => port.is_empty(),
        Some(digits) => digits.bytes().all(|b| b.is_ascii_digit()),
    }
}

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

fn parse_host(host: &str) -> bool {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return false;
        };
        if !valid_optional_port(host.get(i + 1..).unwrap_or_default()) {
            return false;
        }
        if let Some(zone) = host.get(..i).and_then(|h| h.find("%25")) {
            return unescape_ok(host.get(..zone).unwrap_or_default().as_bytes(), Mode::Host)
                && unescape_ok(host.get(zone..i).unwrap_or_default().as_bytes(), Mode::Zone)
                && unescape_ok(host.get(i..).unwrap_or_default().as_bytes(), Mode::Host);
        }
    } else if let Some(i) = host.rfind(':') {
        if !valid_optional_port(host.get(i..).unwrap_or_default()) {
            return false;
        }
    }
    unescape_ok(host.as_bytes(), Mode::Host)
}

fn parse_authority(authority: &str) -> bool {
    match authority.rfind('@') {
        None => parse_host(authority),
        Some(i) => {
            if !parse_host(authority.get(i + 1..).unwrap_or_default()) {
                return false;
            }
            let userinfo = authority.get(..i).unwrap_or_default();
            if !valid_userinfo(userinfo) {
                return false;
            }
            match userinfo.split_once(':') {
                None => unescape_ok(userinfo.as_bytes(), Mode::UserPassword),
                Some((u, p)) => {
                    unescape_ok(u.as_bytes(), Mode::UserPassword)
                        && unescape_ok(p.as_bytes(), Mode::UserPassword)
                }
            }
        }
    }
}

/// `getScheme`: `Ok((scheme, rest))`, `Err(())` for "missing protocol scheme".
fn get_scheme(raw: &str) -> Result<(&str, &str), ()> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok(("", raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err(());
                }
                return Ok((
                    raw.get(..i).unwrap_or_default(),
                    raw.get(i + 1..).unwrap_or_default(),
                ));
            }
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// `url.ParseRequestURI(s)` succeeds.
pub(crate) fn is_request_uri(raw: &str) -> bool {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return false;
    }
    if raw.is_empty() {
        return false;
    }
    if raw == "*" {
        return true;
    }
    let Ok((scheme, rest)) = get_scheme(raw) else {
        return false;
    };
    let rest = if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest.get(..rest.len() - 1).unwrap_or_default()
    } else {
        rest.split_once('?').map_or(rest, |(a, _)| a)
    };
    if !rest.starts_with('/') {
        // Rootless paths are opaque when a scheme is present.
        return !scheme.is_empty();
    }
    let mut path = rest;
    if !scheme.is_empty() && rest.starts_with("//") {
        let authority = rest.get(2..).unwrap_or_default();
        let (authority, p) = match authority.find('/') {
            Some(i) => (
                authority.get(..i).unwrap_or_default(),
                authority.get(i..).unwrap_or_default(),
            ),
            None => (authority, ""),
        };
        if !parse_authority(authority) {
            return false;
        }
        path = p;
    }
    unescape_ok(path.as_bytes(), Mode::Path)
}
