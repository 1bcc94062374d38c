//! Go's `time` package, the parts the API server's algorithms reach:
//! `time.ParseDuration`, `time.Parse` with the RFC 3339 and full-date
//! layouts (with Go's error messages), `Format(time.RFC3339)` and
//! `Format(time.RFC3339Nano)` in UTC, and the proleptic Gregorian calendar
//! under them. Times are `(seconds since the Unix epoch, nanoseconds)`.

use std::fmt::Write as _;

/// `time.RFC3339`.
const RFC3339: &str = "2006-01-02T15:04:05Z07:00";

// ---------------------------------------------------------------------------
// time.ParseDuration
// ---------------------------------------------------------------------------

/// `time.ParseDuration`: the duration in nanoseconds, or Go's error
/// (`time: invalid duration "…"`, `time: missing unit in duration "…"`,
/// `time: unknown unit "…" in duration "…"`).
///
/// # Errors
///
/// Go's error text when `orig` is not a duration or overflows.
pub fn parse_duration(orig: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {}", quote(orig));
    const LIMIT: u64 = 1 << 63;
    let mut s = orig.as_bytes();
    let mut neg = false;
    if let Some(&c) = s.first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        s = s.get(1..).unwrap_or_default();
    }
    if s == b"0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut d: u64 = 0;
    while !s.is_empty() {
        let first = s.first().copied().unwrap_or_default();
        if !(first == b'.' || first.is_ascii_digit()) {
            return Err(invalid());
        }
        // leadingInt
        let mut v: u64 = 0;
        let mut i = 0;
        while let Some(&c) = s.get(i) {
            if !c.is_ascii_digit() {
                break;
            }
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
            i += 1;
        }
        let pre = i > 0;
        s = s.get(i..).unwrap_or_default();
        // leadingFraction
        let mut f: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut post = false;
        if s.first() == Some(&b'.') {
            s = s.get(1..).unwrap_or_default();
            let mut j = 0;
            let mut overflow = false;
            while let Some(&c) = s.get(j) {
                if !c.is_ascii_digit() {
                    break;
                }
                j += 1;
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = j > 0;
            s = s.get(j..).unwrap_or_default();
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s
            .iter()
            .position(|&c| c == b'.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {}", quote(orig)));
        }
        let unit_bytes = s.get(..unit_len).unwrap_or_default();
        let unit: u64 = match unit_bytes {
            b"ns" => 1,
            b"us" | b"\xc2\xb5s" | b"\xce\xbcs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    quote(&String::from_utf8_lossy(unit_bytes)),
                    quote(orig)
                ));
            }
        };
        s = s.get(unit_len..).unwrap_or_default();
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            // As Go: float64 keeps fractions of hours nanosecond-accurate.
            v = v.wrapping_add((f as f64 * (unit as f64 / scale)) as u64);
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d = d.wrapping_add(v);
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        Ok((d as i64).wrapping_neg())
    } else if d >= LIMIT {
        Err(invalid())
    } else {
        Ok(d as i64)
    }
}

// ---------------------------------------------------------------------------
// time.Parse
// ---------------------------------------------------------------------------

/// Go's `time` package `quote`: ASCII printable as is (with `"` and `\`
/// escaped), every byte of any other rune as `\xNN`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if u32::from(c) >= 0x80 || u32::from(c) < 0x20 {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "\\x{b:02x}");
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// `time.ParseError.Error()` with an empty message.
fn parse_error(value: &str, layout_elem: &str, value_elem: &[u8]) -> String {
    format!(
        "parsing time {} as {}: cannot parse {} as {}",
        quote(value),
        quote(RFC3339),
        quote(&String::from_utf8_lossy(value_elem)),
        quote(layout_elem)
    )
}

/// `time.ParseError.Error()` with a message.
fn parse_error_msg(value: &str, msg: &str) -> String {
    format!("parsing time {}{msg}", quote(value))
}

fn digit(b: &[u8], i: usize) -> Option<i64> {
    b.get(i)
        .filter(|c| c.is_ascii_digit())
        .map(|c| i64::from(*c - b'0'))
}

/// `getnum`: one or two digits (exactly two when `fixed`).
fn getnum(b: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    let d0 = digit(b, 0)?;
    match digit(b, 1) {
        None if fixed => None,
        None => Some((d0, b.get(1..).unwrap_or_default())),
        Some(d1) => Some((d0 * 10 + d1, b.get(2..).unwrap_or_default())),
    }
}

/// `time.Parse(time.RFC3339, value)`: `(seconds, nanoseconds)` in UTC.
/// This is the generic layout parser with its error messages (the RFC 3339
/// fast path accepts a subset of what it accepts, with the same result):
/// one-digit hours, `,` fractions, fractions of any length and years 0000
/// to 9999 are accepted.
///
/// # Errors
///
/// Go's `parsing time …` messages.
pub fn parse_rfc3339(value: &str) -> Result<(i64, u32), String> {
    let v = value.as_bytes();

    // Year: "2006".
    let year = match v.get(..4) {
        Some(p) if digit(v, 0).is_some() => match std::str::from_utf8(p).ok().and_then(atoi) {
            Some(y) => y,
            None => return Err(parse_error(value, "2006", v)),
        },
        _ => return Err(parse_error(value, "2006", v)),
    };
    let rest = v.get(4..).unwrap_or_default();
    let rest = expect(value, rest, b'-')?;
    // Month: "01".
    let (month, rest2) = getnum(rest, true).ok_or_else(|| parse_error(value, "01", rest))?;
    if !(1..=12).contains(&month) {
        return Err(parse_error_msg(value, ": month out of range"));
    }
    let rest = expect(value, rest2, b'-')?;
    // Day: "02".
    let (day, rest2) = getnum(rest, true).ok_or_else(|| parse_error(value, "02", rest))?;
    let rest = expect(value, rest2, b'T')?;
    // Hour: "15" (one or two digits).
    let (hour, rest2) = getnum(rest, false).ok_or_else(|| parse_error(value, "15", rest))?;
    if hour >= 24 {
        return Err(parse_error_msg(value, ": hour out of range"));
    }
    let rest = expect(value, rest2, b':')?;
    // Minute: "04".
    let (min, rest2) = getnum(rest, true).ok_or_else(|| parse_error(value, "04", rest))?;
    if min >= 60 {
        return Err(parse_error_msg(value, ": minute out of range"));
    }
    let rest = expect(value, rest2, b':')?;
    // Second: "05", then an optional fraction the layout does not have.
    let (sec, mut rest) = getnum(rest, true).ok_or_else(|| parse_error(value, "05", rest))?;
    if sec >= 60 {
        return Err(parse_error_msg(value, ": second out of range"));
    }
    let mut nanos: i64 = 0;
    if rest.len() >= 2 && matches!(rest.first(), Some(b'.' | b',')) && digit(rest, 1).is_some() {
        let mut n = 2;
        while digit(rest, n).is_some() {
            n += 1;
        }
        let used = n.min(10);
        for i in 1..used {
            nanos = nanos * 10 + digit(rest, i).unwrap_or(0);
        }
        for _ in used..10 {
            nanos *= 10;
        }
        rest = rest.get(n..).unwrap_or_default();
    }
    // Zone: "Z07:00".
    let offset: i64 = if rest.first() == Some(&b'Z') {
        rest = rest.get(1..).unwrap_or_default();
        0
    } else {
        let bad = || parse_error(value, "Z07:00", rest);
        if rest.len() < 6 || rest.get(3) != Some(&b':') {
            return Err(bad());
        }
        // As Go: the minutes are read only if the hours were; the range
        // checks come before the digit and sign errors (minutes win).
        let hh = rest.get(1..3).and_then(|h| getnum(h, true)).map(|x| x.0);
        let mm = hh.and(rest.get(4..6).and_then(|m| getnum(m, true)).map(|x| x.0));
        let (hr, mn) = (hh.unwrap_or(0), mm.unwrap_or(0));
        if mn > 60 {
            return Err(parse_error_msg(
                value,
                ": time zone offset minute out of range",
            ));
        }
        if hr > 24 {
            return Err(parse_error_msg(
                value,
                ": time zone offset hour out of range",
            ));
        }
        if hh.is_none() || mm.is_none() {
            return Err(bad());
        }
        let off = (hr * 60 + mn) * 60;
        let off = match rest.first() {
            Some(b'+') => off,
            Some(b'-') => -off,
            _ => return Err(bad()),
        };
        rest = rest.get(6..).unwrap_or_default();
        off
    };
    if !rest.is_empty() {
        let r = String::from_utf8_lossy(rest);
        return Err(parse_error_msg(
            value,
            &format!(": extra text: {}", quote(&r)),
        ));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(parse_error_msg(value, ": day out of range"));
    }
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + min * 60 + sec - offset;
    Ok((seconds, u32::try_from(nanos).unwrap_or(0)))
}

/// `skip(value, prefix)` for a one-byte prefix.
fn expect<'a>(value: &str, rest: &'a [u8], c: u8) -> Result<&'a [u8], String> {
    match rest.split_first() {
        Some((f, r)) if *f == c => Ok(r),
        _ => Err(parse_error(value, &char::from(c).to_string(), rest)),
    }
}

/// Go's `time.atoi` on the four year bytes (a leading digit is known).
fn atoi(s: &str) -> Option<i64> {
    if s.bytes().all(|c| c.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// `time.Parse("2006-01-02", s)`: the seconds since the epoch of the day's
/// midnight (UTC), or `None`.
pub fn parse_date(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 10 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let d = b.get(r)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| d.iter().fold(0i64, |acc, c| acc * 10 + i64::from(c - b'0')))
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(1..=12).contains(&m) || d < 1 || d > days_in(m, y) {
        return None;
    }
    Some(days_from_civil(y, m, d) * 86_400)
}

// ---------------------------------------------------------------------------
// Time.Format
// ---------------------------------------------------------------------------

/// `t.UTC().Format(time.RFC3339)` (fractional seconds are dropped).
pub fn format_rfc3339(seconds: i64) -> String {
    let mut out = format_seconds(seconds);
    out.push('Z');
    out
}

/// `t.UTC().Format(time.RFC3339Nano)`: the fraction without trailing
/// zeros, none when zero.
pub fn format_rfc3339_nano(seconds: i64, nanos: u32) -> String {
    let mut out = format_seconds(seconds);
    push_fraction(&mut out, nanos);
    out.push('Z');
    out
}

/// The `.999999999` of `RFC3339Nano`: up to nine digits without trailing
/// zeros, nothing for zero nanoseconds.
pub(crate) fn push_fraction(out: &mut String, nanos: u32) {
    if nanos > 0 {
        let f = format!("{nanos:09}");
        out.push('.');
        out.push_str(f.trim_end_matches('0'));
    }
}

/// `2006-01-02T15:04:05` of a time in UTC.
fn format_seconds(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let mut out = go_year(y);
    let _ = write!(
        out,
        "-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
    out
}

/// Go's `stdLongYear` formatting: at least four digits, sign for negatives.
fn go_year(y: i64) -> String {
    if y < 0 {
        format!("-{:04}", y.unsigned_abs())
    } else {
        format!("{y:04}")
    }
}

// ---------------------------------------------------------------------------
// The calendar
// ---------------------------------------------------------------------------

/// Whether `y` is a leap year.
pub fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// The days of `month` (1 to 12) in `year`.
pub fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (month and day from
/// 1).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date `(year, month, day)` of a day count since
/// 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_like_go() {
        assert_eq!(parse_duration("1h30m"), Ok(5_400_000_000_000));
        assert_eq!(parse_duration("-1.5s"), Ok(-1_500_000_000));
        assert_eq!(parse_duration("+.5ms"), Ok(500_000));
        assert_eq!(parse_duration("1\u{b5}s1\u{3bc}s1us"), Ok(3_000));
        assert_eq!(parse_duration("0"), Ok(0));
        assert_eq!(parse_duration("1.0000000001h"), Ok(3_600_000_000_360));
        assert_eq!(parse_duration("-9223372036.854775808s"), Ok(i64::MIN));
        assert_eq!(
            parse_duration("9223372036.854775808s"),
            Err(r#"time: invalid duration "9223372036.854775808s""#.into())
        );
        assert_eq!(
            parse_duration(""),
            Err(r#"time: invalid duration """#.into())
        );
        assert_eq!(
            parse_duration(".s"),
            Err(r#"time: invalid duration ".s""#.into())
        );
        assert_eq!(
            parse_duration("5"),
            Err(r#"time: missing unit in duration "5""#.into())
        );
        assert_eq!(
            parse_duration("5d\u{e9}"),
            Err(r#"time: unknown unit "d\xc3\xa9" in duration "5d\xc3\xa9""#.into())
        );
    }

    #[test]
    fn dates_parse_like_go() {
        assert_eq!(parse_date("1970-01-02"), Some(86_400));
        assert!(parse_date("2020-02-29").is_some());
        assert!(parse_date("2021-02-29").is_none());
        assert!(parse_date("2021-2-09").is_none());
        assert!(parse_date("2021-02-09T").is_none());
    }

    #[test]
    fn times_format_like_go() {
        assert_eq!(format_rfc3339_nano(0, 0), "1970-01-01T00:00:00Z");
        assert_eq!(
            format_rfc3339_nano(1_577_836_800, 120_000_000),
            "2020-01-01T00:00:00.12Z"
        );
        assert_eq!(format_rfc3339(-62_135_596_800), "0001-01-01T00:00:00Z");
    }

    #[test]
    fn rfc3339_parsing_like_go() {
        let ok = |s: &str| parse_rfc3339(s).map(|(secs, _)| format_rfc3339(secs));
        assert_eq!(
            ok("2020-01-01T01:00:00+01:00"),
            Ok("2020-01-01T00:00:00Z".into())
        );
        assert_eq!(
            ok("2020-02-29T23:59:59.999999999-00:30"),
            Ok("2020-03-01T00:29:59Z".into())
        );
        assert_eq!(
            ok("2020-01-01T1:02:03,5Z"),
            Ok("2020-01-01T01:02:03Z".into())
        );
        assert_eq!(
            ok("0000-01-01T00:00:00+01:00"),
            Ok("-0001-12-31T23:00:00Z".into())
        );
        assert_eq!(
            ok("9999-12-31T23:00:00-02:00"),
            Ok("10000-01-01T01:00:00Z".into())
        );
        assert_eq!(
            parse_rfc3339("2020-01-01T00:00:00.1234567891Z"),
            Ok((1_577_836_800, 123_456_789))
        );
        let l = r#"as "2006-01-02T15:04:05Z07:00""#;
        let cases = [
            (
                "2020-01-01",
                format!(r#"parsing time "2020-01-01" {l}: cannot parse "" as "T""#),
            ),
            (
                "2020/01/01",
                format!(r#"parsing time "2020/01/01" {l}: cannot parse "/01/01" as "-""#),
            ),
            (
                "20x0-01-01T00:00:00Z",
                format!(
                    r#"parsing time "20x0-01-01T00:00:00Z" {l}: cannot parse "20x0-01-01T00:00:00Z" as "2006""#
                ),
            ),
            (
                "2020-1-01T00:00:00Z",
                format!(
                    r#"parsing time "2020-1-01T00:00:00Z" {l}: cannot parse "1-01T00:00:00Z" as "01""#
                ),
            ),
            (
                "2020-01-01T00:00:00",
                format!(r#"parsing time "2020-01-01T00:00:00" {l}: cannot parse "" as "Z07:00""#),
            ),
            (
                "2020-01-01T00:00:00+0100",
                format!(
                    r#"parsing time "2020-01-01T00:00:00+0100" {l}: cannot parse "+0100" as "Z07:00""#
                ),
            ),
            (
                "2020-01-01T00:00:00z",
                format!(r#"parsing time "2020-01-01T00:00:00z" {l}: cannot parse "z" as "Z07:00""#),
            ),
            (
                "2020-01-01 00:00:00Z",
                format!(
                    r#"parsing time "2020-01-01 00:00:00Z" {l}: cannot parse " 00:00:00Z" as "T""#
                ),
            ),
            (
                "2020-13-01T00:00:00Z",
                r#"parsing time "2020-13-01T00:00:00Z": month out of range"#.into(),
            ),
            (
                "2020-02-30T00:00:00Z",
                r#"parsing time "2020-02-30T00:00:00Z": day out of range"#.into(),
            ),
            (
                "2020-01-01T24:00:00Z",
                r#"parsing time "2020-01-01T24:00:00Z": hour out of range"#.into(),
            ),
            (
                "2020-01-01T00:60:00Z",
                r#"parsing time "2020-01-01T00:60:00Z": minute out of range"#.into(),
            ),
            (
                "2020-01-01T00:00:60Z",
                r#"parsing time "2020-01-01T00:00:60Z": second out of range"#.into(),
            ),
            (
                "2020-01-01T00:00:00+25:00",
                r#"parsing time "2020-01-01T00:00:00+25:00": time zone offset hour out of range"#
                    .into(),
            ),
            (
                "2020-01-01T00:00:00Zé\"",
                r#"parsing time "2020-01-01T00:00:00Z\xc3\xa9\"": extra text: "\xc3\xa9\"""#.into(),
            ),
        ];
        for (s, want) in cases {
            assert_eq!(parse_rfc3339(s), Err(want), "{s}");
        }
    }
}
