//! String formats as kube-openapi's `strfmt.Default` registry checks them,
//! and the apiserver's choice of which formats a CRD schema keeps
//! (`StripUnsupportedFormatsPostProcessorForVersion`).
//!
//! Format names are normalized by removing dashes (`date-time` is
//! `datetime`), as the registry does.

use std::sync::OnceLock;

use regex::Regex;

use super::mail::is_email;
use super::net::{parse_cidr_sloppy, parse_ip_sloppy, parse_ip_strict, parse_mac};
use super::url::is_request_uri;

/// The format-support compatibility version of the API server: which
/// string formats a CRD schema keeps (the others are ignored).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FormatCompat {
    /// The current version (every format below is supported).
    #[default]
    Current,
    /// A `major.minor` compatibility version, e.g. `Version(1, 34)`.
    /// `k8s-short-name` and `k8s-long-name` are kept from 1.34 on.
    Version(u32, u32),
}

impl FormatCompat {
    /// Parses `"1.34"` (a `v` prefix and a patch part are tolerated).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim().trim_start_matches('v');
        let mut parts = s.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some(FormatCompat::Version(major, minor))
    }

    fn at_least(self, major: u32, minor: u32) -> bool {
        match self {
            FormatCompat::Current => true,
            FormatCompat::Version(a, b) => (a, b) >= (major, minor),
        }
    }
}

/// A string format of the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    BsonObjectId,
    Uri,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Cidr,
    Mac,
    Uuid,
    Uuid3,
    Uuid4,
    Uuid5,
    Isbn,
    Isbn10,
    Isbn13,
    CreditCard,
    Ssn,
    HexColor,
    RgbColor,
    Byte,
    Password,
    Date,
    Duration,
    DateTime,
    K8sShortName,
    K8sLongName,
    K8sIpSloppy,
}

/// Formats supported in CRD schemas since 1.0 (normalized names).
const BASE_FORMATS: [(&str, Format); 24] = [
    ("bsonobjectid", Format::BsonObjectId),
    ("uri", Format::Uri),
    ("email", Format::Email),
    ("hostname", Format::Hostname),
    ("ipv4", Format::Ipv4),
    ("ipv6", Format::Ipv6),
    ("cidr", Format::Cidr),
    ("mac", Format::Mac),
    ("uuid", Format::Uuid),
    ("uuid3", Format::Uuid3),
    ("uuid4", Format::Uuid4),
    ("uuid5", Format::Uuid5),
    ("isbn", Format::Isbn),
    ("isbn10", Format::Isbn10),
    ("isbn13", Format::Isbn13),
    ("creditcard", Format::CreditCard),
    ("ssn", Format::Ssn),
    ("hexcolor", Format::HexColor),
    ("rgbcolor", Format::RgbColor),
    ("byte", Format::Byte),
    ("password", Format::Password),
    ("date", Format::Date),
    ("duration", Format::Duration),
    ("datetime", Format::DateTime),
];

/// Formats supported in CRD schemas from 1.34 on (normalized names).
const V1_34_FORMATS: [(&str, Format); 2] = [
    ("k8sshortname", Format::K8sShortName),
    ("k8slongname", Format::K8sLongName),
];

/// The spellings under which the format check of CRD schemas
/// (`schema-gen check`'s warnings) knows the formats of 1.34: as written,
/// with their dashes.
const V1_34_SPELLINGS: [&str; 2] = ["k8s-short-name", "k8s-long-name"];

/// Whether the API server's validator knows `format` for `type_` (others
/// are ignored by the server: no validation happens), at the current
/// compatibility version.
pub fn is_supported_format(type_: &str, format: &str) -> bool {
    match type_ {
        "" | "string" => {
            let n = normalize(format);
            BASE_FORMATS.iter().any(|(k, _)| *k == n) || V1_34_SPELLINGS.contains(&format)
        }
        "integer" => matches!(format, "int32" | "int64"),
        "number" => matches!(format, "float" | "double"),
        _ => false,
    }
}

/// The registry's normalization: all dashes removed.
pub(crate) fn normalize(name: &str) -> String {
    name.replace('-', "")
}

/// The registry entry for a format name (normalized first), whether or not
/// CRD schemas keep it.
pub(crate) fn lookup(name: &str) -> Option<Format> {
    let n = normalize(name);
    BASE_FORMATS
        .iter()
        .chain(V1_34_FORMATS.iter())
        .chain([("k8sipsloppy", Format::K8sIpSloppy)].iter())
        .find(|(k, _)| *k == n)
        .map(|(_, f)| *f)
}

/// The string format a CRD schema keeps for `format`, at `compat`.
pub(crate) fn supported_string_format(name: &str, compat: FormatCompat) -> Option<Format> {
    let n = normalize(name);
    if let Some((_, f)) = BASE_FORMATS.iter().find(|(k, _)| *k == n) {
        return Some(*f);
    }
    if compat.at_least(1, 34) {
        if let Some((_, f)) = V1_34_FORMATS.iter().find(|(k, _)| *k == n) {
            return Some(*f);
        }
    }
    None
}

/// Whether `value` is valid for the registered format `name` (dashes are
/// ignored in the name); `None` if the registry does not know the name.
pub fn check(name: &str, value: &str) -> Option<bool> {
    lookup(name).map(|f| validates(f, value))
}

pub(crate) fn validates(f: Format, s: &str) -> bool {
    match f {
        Format::BsonObjectId => s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit()),
        Format::Uri => is_request_uri(s),
        Format::Email => is_email(s),
        Format::Hostname => is_hostname(s),
        Format::Ipv4 => parse_ip_sloppy(s) && s.contains('.'),
        Format::Ipv6 => parse_ip_strict(s) && s.contains(':'),
        Format::Cidr => parse_cidr_sloppy(s),
        Format::Mac => parse_mac(s),
        Format::Uuid => is_uuid(s, None),
        Format::Uuid3 => is_uuid(s, Some(b'3')),
        Format::Uuid4 => is_uuid(s, Some(b'4')),
        Format::Uuid5 => is_uuid(s, Some(b'5')),
        Format::Isbn => is_isbn10(s) || is_isbn13(s),
        Format::Isbn10 => is_isbn10(s),
        Format::Isbn13 => is_isbn13(s),
        Format::CreditCard => is_credit_card(s),
        Format::Ssn => is_ssn(s),
        Format::HexColor => is_hexcolor(s),
        Format::RgbColor => is_rgbcolor(s),
        Format::Byte => is_base64(s),
        Format::Password => true,
        Format::Date => is_date(s),
        Format::Duration => is_duration(s),
        Format::DateTime => is_date_time(s),
        Format::K8sShortName => s.len() <= 63 && is_dns_label(s),
        Format::K8sLongName => s.len() <= 253 && s.split('.').all(is_dns_label),
        Format::K8sIpSloppy => parse_ip_sloppy(s),
    }
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`.
fn is_dns_label(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            alnum(first) && alnum(last) && b.iter().all(|c| alnum(c) || *c == b'-')
        }
        _ => false,
    }
}

/// `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?V[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`
/// (`V` the version digit; the `[89ab]` variant only for versions 4 and 5).
fn is_uuid(s: &str, version: Option<u8>) -> bool {
    let mut b = s.as_bytes();
    let groups = [8usize, 4, 4, 4, 12];
    for (g, &len) in groups.iter().enumerate() {
        if g > 0 {
            if let Some(rest) = b.strip_prefix(b"-") {
                b = rest;
            }
        }
        let Some(chunk) = b.get(..len) else {
            return false;
        };
        if !chunk.iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        if let Some(v) = version {
            if g == 2 && chunk.first() != Some(&v) {
                return false;
            }
            if g == 3
                && v != b'3'
                && !matches!(chunk.first(), Some(b'8' | b'9' | b'a' | b'b' | b'A' | b'B'))
            {
                return false;
            }
        }
        b = b.get(len..).unwrap_or_default();
    }
    b.is_empty()
}

fn isbn_sanitize(s: &str) -> Vec<u8> {
    // `[\s-]+` removed (Go's `\s` is ASCII whitespace).
    s.bytes()
        .filter(|c| !matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'-'))
        .collect()
}

fn is_isbn10(s: &str) -> bool {
    let d = isbn_sanitize(s);
    if d.len() != 10 {
        return false;
    }
    let (head, last) = d.split_at(9);
    if !head.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let mut sum: i32 = 0;
    for (i, c) in head.iter().enumerate() {
        sum += (i as i32 + 1) * i32::from(c - b'0');
    }
    match last.first() {
        Some(b'X') => sum += 100,
        Some(c) if c.is_ascii_digit() => sum += 10 * i32::from(c - b'0'),
        _ => return false,
    }
    sum % 11 == 0
}

fn is_isbn13(s: &str) -> bool {
    let d = isbn_sanitize(s);
    if d.len() != 13 || !d.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let mut sum: i32 = 0;
    for (i, c) in d.iter().take(12).enumerate() {
        let factor = if i % 2 == 0 { 1 } else { 3 };
        sum += factor * i32::from(c - b'0');
    }
    let check = d.get(12).map_or(0, |c| i32::from(c - b'0'));
    check - ((10 - (sum % 10)) % 10) == 0
}

fn static_regex(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

fn is_credit_card(s: &str) -> bool {
    static RX: OnceLock<Option<Regex>> = OnceLock::new();
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    let Some(rx) = static_regex(
        &RX,
        "^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11}|6[27][0-9]{14})$",
    ) else {
        return false;
    };
    if !rx.is_match(&digits) {
        return false;
    }
    let mut sum = 0u32;
    let mut double = false;
    for c in digits.bytes().rev() {
        let mut n = u32::from(c - b'0');
        if double {
            n *= 2;
            sum += if n >= 10 { n % 10 + 1 } else { n };
        } else {
            sum += n;
        }
        double = !double;
    }
    sum % 10 == 0
}

fn is_ssn(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 11 {
        return false;
    }
    b.iter().enumerate().all(|(i, c)| match i {
        3 | 6 => *c == b'-' || *c == b' ',
        _ => c.is_ascii_digit(),
    })
}

fn is_hexcolor(s: &str) -> bool {
    let h = s.strip_prefix('#').unwrap_or(s);
    (h.len() == 3 || h.len() == 6) && h.bytes().all(|c| c.is_ascii_hexdigit())
}

fn is_rgbcolor(s: &str) -> bool {
    static RX: OnceLock<Option<Regex>> = OnceLock::new();
    const N: &str = "(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])";
    const WS: &str = "[\\t\\n\\x0C\\r ]*";
    let pattern = format!("^rgb\\({WS}{N}{WS},{WS}{N}{WS},{WS}{N}{WS}\\)$");
    static_regex(&RX, &pattern).is_some_and(|rx| rx.is_match(s))
}

/// govalidator `IsBase64`:
/// `^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`.
fn is_base64(s: &str) -> bool {
    !s.is_empty() && base64_padded_ok(s.as_bytes())
}

/// Whole quanta of the standard alphabet, the last one optionally padded
/// (`xx==` or `xxx=`).
fn base64_padded_ok(b: &[u8]) -> bool {
    if b.len() % 4 != 0 {
        return false;
    }
    let is_alpha = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    let Some(last_start) = b.len().checked_sub(4) else {
        return true;
    };
    let (body, last) = b.split_at(last_start);
    if !body.iter().all(is_alpha) {
        return false;
    }
    match last {
        [a, b2, c, d] => {
            is_alpha(a)
                && is_alpha(b2)
                && match (c, d) {
                    (b'=', b'=') => true,
                    (c, b'=') => is_alpha(c),
                    (c, d) => is_alpha(c) && is_alpha(d),
                }
        }
        _ => false,
    }
}

/// `^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`
/// plus the 255-byte total and 63-byte label limits (strfmt `IsHostname`).
fn is_hostname(s: &str) -> bool {
    static SYM_LETTER: OnceLock<Option<Regex>> = OnceLock::new();
    static LETTER: OnceLock<Option<Regex>> = OnceLock::new();
    let (Some(sl), Some(l)) = (
        static_regex(&SYM_LETTER, r"\A[\p{S}\p{L}]\z"),
        static_regex(&LETTER, r"\A\p{L}\z"),
    ) else {
        return false;
    };
    let mut buf = [0u8; 4];
    // `\p{S}` holds ASCII symbols too (`$ + < = > ^ ` | ~`).
    let is_x =
        |c: char, buf: &mut [u8; 4]| c.is_ascii_alphanumeric() || sl.is_match(c.encode_utf8(buf));
    let is_tld = |c: char, buf: &mut [u8; 4]| {
        c.is_ascii_alphabetic() || (!c.is_ascii() && l.is_match(c.encode_utf8(buf)))
    };

    // First alternative: one label, `X -? X{0,62}`.
    let single = {
        let mut chars = s.chars();
        match chars.next() {
            Some(c0) if is_x(c0, &mut buf) => {
                let rest: Vec<char> = chars.collect();
                let body = rest.strip_prefix(&['-']).unwrap_or(&rest);
                body.len() <= 62 && body.iter().all(|&c| is_x(c, &mut buf))
            }
            _ => false,
        }
    };
    let dotted = || {
        let parts: Vec<&str> = s.split('.').collect();
        let Some((tld, labels)) = parts.split_last() else {
            return false;
        };
        if labels.is_empty() {
            return false;
        }
        let tld_len = tld.chars().count();
        if !(2..=63).contains(&tld_len) || !tld.chars().all(|c| is_tld(c, &mut [0u8; 4])) {
            return false;
        }
        labels.iter().all(|label| {
            let chars: Vec<char> = label.chars().collect();
            match chars.as_slice() {
                [] => false,
                [only] => is_x(*only, &mut [0u8; 4]),
                [first, middle @ .., last] => {
                    is_x(*first, &mut [0u8; 4])
                        && is_x(*last, &mut [0u8; 4])
                        && middle.len() <= 61
                        && middle.iter().all(|&c| c == '-' || is_x(c, &mut [0u8; 4]))
                }
            }
        })
    };
    if !(single || dotted()) {
        return false;
    }
    s.len() <= 255 && s.split('.').all(|p| p.len() <= 63)
}

/// Go `time.Parse("2006-01-02", s)` succeeds.
pub(crate) fn is_date(s: &str) -> bool {
    crate::go::time::parse_date(s).is_some()
}

/// strfmt `IsDateTime`: split the lower-cased string at `t`; a date, then
/// `^(\d{2}):(\d{2}):(\d{2})(.[0-9]+)?(z|[+-]\d{2}:\d{2})$` with hours ≤ 23,
/// minutes and seconds ≤ 59.
pub(crate) fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let mut parts = s.split(['t', 'T']);
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    let b = time.as_bytes();
    let two = |i: usize| -> Option<&[u8]> {
        b.get(i..i + 2).filter(|d| d.iter().all(u8::is_ascii_digit))
    };
    let (Some(hh), Some(mm), Some(ss)) = (two(0), two(3), two(6)) else {
        return false;
    };
    if b.get(2) != Some(&b':') || b.get(5) != Some(&b':') {
        return false;
    }
    let rest = time.get(8..).unwrap_or_default();
    let is_zone = |z: &str| -> bool {
        let zb = z.as_bytes();
        z.eq_ignore_ascii_case("z")
            || (zb.len() == 6
                && matches!(zb.first(), Some(b'+' | b'-'))
                && zb.get(3) == Some(&b':')
                && [1, 2, 4, 5]
                    .iter()
                    .all(|&i| zb.get(i).is_some_and(u8::is_ascii_digit)))
    };
    let ok_rest = is_zone(rest) || {
        // `(.[0-9]+)` then the zone: any one character but a newline,
        // digits, then a zone (which never starts with a digit).
        let mut chars = rest.chars();
        match chars.next() {
            Some(c) if c != '\n' => {
                let after = chars.as_str();
                let digits = after.bytes().take_while(u8::is_ascii_digit).count();
                digits > 0 && is_zone(after.get(digits..).unwrap_or_default())
            }
            _ => false,
        }
    };
    ok_rest && hh <= b"23".as_slice() && mm <= b"59".as_slice() && ss <= b"59".as_slice()
}

/// strfmt `ParseDuration` succeeds (strfmt `IsDuration`).
pub(crate) fn is_duration(s: &str) -> bool {
    parse_duration(s).is_some()
}

/// strfmt `ParseDuration`: Go's `time.ParseDuration`, else the sum of the
/// Scala-like `(((?:-\s?)?\d+)\s*([A-Za-zµ]+))` matches with known units
/// (`5 days`, `-1 wk`), in nanoseconds (wrapping as Go's `int64` does).
pub(crate) fn parse_duration(s: &str) -> Option<i64> {
    if let Ok(d) = crate::go::time::parse_duration(s) {
        return Some(d);
    }
    const UNITS: [(&[&str], i64); 8] = [
        (&["ns", "nano"], 1),
        (&["us", "µs", "micro"], 1_000),
        (&["ms", "milli"], 1_000_000),
        (&["s", "sec"], 1_000_000_000),
        (&["m", "min"], 60_000_000_000),
        (&["h", "hr", "hour"], 3_600_000_000_000),
        (&["d", "day"], 86_400_000_000_000),
        (&["w", "wk", "week"], 604_800_000_000_000),
    ];
    let is_ws = |c: u8| matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
    let b = s.as_bytes();
    let mut ok = false;
    let mut total: i64 = 0;
    let mut pos = 0;
    while pos < b.len() {
        if !s.is_char_boundary(pos) {
            pos += 1;
            continue;
        }
        // Try a match starting at `pos`.
        let mut i = pos;
        let mut negative = false;
        if b.get(i) == Some(&b'-') {
            let j = if b.get(i + 1).is_some_and(|&c| is_ws(c))
                && b.get(i + 2).is_some_and(u8::is_ascii_digit)
            {
                i + 2
            } else {
                i + 1
            };
            if b.get(j).is_some_and(u8::is_ascii_digit) {
                i = j;
                negative = true;
            }
        }
        let digits_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == digits_start {
            pos += 1;
            continue;
        }
        let digits = s.get(digits_start..i).unwrap_or_default();
        while b.get(i).is_some_and(|&c| is_ws(c)) {
            i += 1;
        }
        let unit_start = i;
        let rest = s.get(i..).unwrap_or_default();
        let unit_len: usize = rest
            .chars()
            .take_while(|&c| c.is_ascii_alphabetic() || c == 'µ')
            .map(char::len_utf8)
            .sum();
        if unit_len == 0 {
            // Every start inside this run of digits fails the same way.
            pos = (pos + 1).max(i);
            continue;
        }
        let unit = s
            .get(unit_start..unit_start + unit_len)
            .unwrap_or_default()
            .to_ascii_lowercase();
        // strconv.Atoi of the digits (int64 range), negated after a `-`.
        let factor: i64 = digits.parse().ok()?;
        let factor = if negative { -factor } else { factor };
        for (variants, multiplier) in UNITS {
            let last = variants.len() - 1;
            for (k, variant) in variants.iter().enumerate() {
                if (k == last && unit.starts_with(variant)) || *variant == unit {
                    ok = true;
                    total = total.wrapping_add(factor.wrapping_mul(multiplier));
                }
            }
        }
        pos = unit_start + unit_len;
    }
    ok.then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_check_knows_what_the_server_validates() {
        assert!(is_supported_format("string", "date-time"));
        assert!(is_supported_format("", "uuid"));
        assert!(is_supported_format("string", "k8s-short-name"));
        assert!(!is_supported_format("string", "k8sshortname"));
        assert!(!is_supported_format("string", "int32"));
        assert!(is_supported_format("integer", "int32"));
        assert!(!is_supported_format("integer", "double"));
        assert!(is_supported_format("number", "double"));
        assert!(!is_supported_format("boolean", "byte"));
    }
}
