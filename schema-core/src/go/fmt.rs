//! Go's `fmt` and `strconv` as apimachinery's messages use them: `%v` of
//! numbers (`strconv.FormatFloat` with `'g'` and `'e'`), `%q` of strings
//! (`strconv.Quote`) and the `unicode.IsPrint` it rests on, and
//! `strconv.Atoi`.

use std::fmt::Write as _;

/// Formats a JSON number as Go's `%v` does for int64 or float64.
pub fn format_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        format_float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Formats a float64 as Go's `%v` (`strconv.FormatFloat(f, 'g', -1, 64)`
/// with Go's exponent form: `1e+06`, `1.5e-05`).
pub fn format_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // strconv's 'g' with the shortest precision switches to %e when the
    // decimal exponent is < -4 or >= 6; otherwise it is the shortest
    // round-trip decimal, which is Rust's `Display`.
    let e = format!("{f:e}");
    let exp: i32 = e
        .split_once('e')
        .and_then(|(_, x)| x.parse().ok())
        .unwrap_or(0);
    if (-4..6).contains(&exp) {
        format!("{f}")
    } else {
        format_float_e(f)
    }
}

/// Go's `strconv.FormatFloat(f, 'e', -1, 64)` of a finite float: the
/// shortest digits as `d.ddde±XX` (at least two exponent digits).
pub(crate) fn format_float_e(f: f64) -> String {
    let e = format!("{f:e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut out = String::from(mantissa);
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    let a = exp.unsigned_abs();
    if a < 10 {
        out.push('0');
    }
    out.push_str(&a.to_string());
    out
}

/// Go's `strconv.FormatFloat(f, 'f', -1, 64)`: shortest round-trip
/// digits, never an exponent.
pub(crate) fn format_float_f(f: f64) -> String {
    // Rust's `Display` for f64 is exactly that.
    format!("{f}")
}

/// `strconv.Atoi`: an optional sign and decimal digits, in `int64`.
///
/// # Errors
///
/// Go's `strconv.Atoi: parsing "…": invalid syntax` or `value out of
/// range`.
pub(crate) fn atoi(s: &str) -> Result<i64, String> {
    let err = |what: &str| format!("strconv.Atoi: parsing {}: {what}", go_quote(s));
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err("invalid syntax"));
    }
    let mut n: i128 = 0;
    for b in digits.bytes() {
        n = n * 10 + i128::from(b - b'0');
        if n > i128::from(i64::MAX) + 1 {
            return Err(err("value out of range"));
        }
    }
    let n = if neg { -n } else { n };
    i64::try_from(n).map_err(|_| err("value out of range"))
}

/// Go's `strconv.Quote`: double quotes, with `\"`, `\\`, control characters
/// and invalid code points escaped; printable Unicode kept as is.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if let Some(e) = backslash_escape(c) {
            out.push_str(e);
            continue;
        }
        match c {
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_go_print(c) => out.push(c),
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// The backslash escapes of Go's `strconv.Quote` (and of CEL's
/// `strings.quote`): `\"`, `\\` and the C escapes `\a \b \f \n \r \t \v`.
pub(crate) fn backslash_escape(c: char) -> Option<&'static str> {
    Some(match c {
        '"' => "\\\"",
        '\\' => "\\\\",
        '\u{7}' => "\\a",
        '\u{8}' => "\\b",
        '\u{c}' => "\\f",
        '\n' => "\\n",
        '\r' => "\\r",
        '\t' => "\\t",
        '\u{b}' => "\\v",
        _ => return None,
    })
}

/// Go's `unicode.IsPrint`, approximated: letters, marks, numbers,
/// punctuation, symbols and the ASCII space, so not the controls, the
/// spaces, the format characters, the private use areas and the
/// noncharacters.
pub(crate) fn is_go_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !(c.is_control()
        || c.is_whitespace()
        || matches!(
            u32::from(c),
            0xad | 0x600..=0x605
                | 0x61c
                | 0x6dd
                | 0x70f
                | 0x180e
                | 0x200b..=0x200f
                | 0x2028..=0x202e
                | 0x2060..=0x206f
                | 0xd800..=0xdfff
                | 0xe000..=0xf8ff
                | 0xfeff
                | 0xfff0..=0xfffb
                | 0xfffe..=0xffff
                | 0xe0000..=0xe007f
                | 0xf0000..=0x10ffff
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_go() {
        for (f, s) in [
            (1.2, "1.2"),
            (100000.0, "100000"),
            (1e6, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (-2.5, "-2.5"),
            (1.2e19, "1.2e+19"),
            (123456.7, "123456.7"),
        ] {
            assert_eq!(format_float(f), s, "{f}");
        }
    }
}
