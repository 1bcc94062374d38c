//! Go's `time` package, the parts the API server's algorithms reach:
//! `time.ParseDuration`, `time.Parse` with the layouts the server uses
//! (RFC 3339, its strfmt variants and the full date, with Go's error
//! messages), strfmt's `ParseDateTime`, `Format(time.RFC3339)` in UTC and
//! `Format(time.RFC3339Nano)` in a zone, and the proleptic Gregorian
//! calendar under them. Times are `(seconds since the Unix epoch,
//! nanoseconds)`, with a zone offset where one was parsed.

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

/// A layout of `time.Parse`, as its elements (Go's `nextStdChunk`
/// tokens): the layouts the API server parses with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    text: &'static str,
    elems: &'static [Elem],
}

/// One element of a [`Layout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Elem {
    /// Literal text (`skip`).
    Lit(&'static str),
    /// `2006`.
    LongYear,
    /// `01`.
    ZeroMonth,
    /// `02`.
    ZeroDay,
    /// `15`.
    Hour,
    /// `04`.
    ZeroMinute,
    /// `05`.
    ZeroSecond,
    /// `.000…`: exactly this many fraction digits.
    FracFixed(usize),
    /// `.999…`: an optional fraction of any length.
    FracOptional(usize),
    /// `Z07:00`.
    IsoColonTz,
}

impl Elem {
    /// The layout text of a standard element (`stdstr`).
    fn text(self) -> &'static str {
        match self {
            Elem::Lit(s) => s,
            Elem::LongYear => "2006",
            Elem::ZeroMonth => "01",
            Elem::ZeroDay => "02",
            Elem::Hour => "15",
            Elem::ZeroMinute => "04",
            Elem::ZeroSecond => "05",
            Elem::FracFixed(3) => ".000",
            Elem::FracFixed(_) => ".000000",
            Elem::FracOptional(_) => ".999999999",
            Elem::IsoColonTz => "Z07:00",
        }
    }
}

use Elem::{
    FracFixed, FracOptional, Hour, IsoColonTz, Lit, LongYear, ZeroDay, ZeroMinute, ZeroMonth,
    ZeroSecond,
};

/// The date and time elements every layout here starts with.
macro_rules! date_time {
    ($($tail:expr),*) => {
        &[LongYear, Lit("-"), ZeroMonth, Lit("-"), ZeroDay, Lit("T"), Hour, Lit(":"), ZeroMinute,
          Lit(":"), ZeroSecond $(, $tail)*]
    };
}

impl Layout {
    /// `time.RFC3339`.
    pub const RFC3339: Layout = Layout {
        text: RFC3339,
        elems: date_time!(IsoColonTz),
    };
    /// `time.RFC3339Nano`.
    pub const RFC3339_NANO: Layout = Layout {
        text: "2006-01-02T15:04:05.999999999Z07:00",
        elems: date_time!(FracOptional(9), IsoColonTz),
    };
    /// strfmt's `RFC3339Millis`.
    pub const RFC3339_MILLIS: Layout = Layout {
        text: "2006-01-02T15:04:05.000Z07:00",
        elems: date_time!(FracFixed(3), IsoColonTz),
    };
    /// strfmt's `RFC3339Micro`.
    pub const RFC3339_MICRO: Layout = Layout {
        text: "2006-01-02T15:04:05.000000Z07:00",
        elems: date_time!(FracFixed(6), IsoColonTz),
    };
    /// strfmt's `ISO8601LocalTime` (no zone: UTC).
    pub const ISO8601_LOCAL_TIME: Layout = Layout {
        text: "2006-01-02T15:04:05",
        elems: date_time!(),
    };
    /// strfmt's `RFC3339FullDate`.
    pub const FULL_DATE: Layout = Layout {
        text: "2006-01-02",
        elems: &[LongYear, Lit("-"), ZeroMonth, Lit("-"), ZeroDay],
    };
}

/// A time `time.Parse` returned: the instant, and the zone offset it was
/// written with (UTC, `0`, when it names none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedTime {
    /// Seconds since the Unix epoch.
    pub seconds: i64,
    /// Nanoseconds within the second.
    pub nanos: u32,
    /// The zone offset east of UTC, in seconds.
    pub offset: i32,
}

/// `time.ParseError.Error()` with an empty message.
fn parse_error(layout: &Layout, value: &str, layout_elem: &str, value_elem: &[u8]) -> String {
    format!(
        "parsing time {} as {}: cannot parse {} as {}",
        quote(value),
        quote(layout.text),
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

/// Go's `time.atoi`: an optional sign, then digits only.
fn atoi(b: &[u8]) -> Option<i64> {
    let (neg, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, b),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut x: i64 = 0;
    for d in digits {
        x = x.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
    }
    Some(if neg { -x } else { x })
}

/// Why one element failed: Go's `err` (the element's text and the value
/// it was parsing) or its `rangeErrString`.
enum ElemError {
    Bad,
    Range(&'static str),
}

/// `parseNanoseconds(value, nbytes)`: `value` starts with the separator.
fn parse_nanoseconds(value: &[u8], nbytes: usize) -> Result<i64, ElemError> {
    if !matches!(value.first(), Some(b'.' | b',')) {
        return Err(ElemError::Bad);
    }
    let nbytes = nbytes.min(10);
    let ns = atoi(value.get(1..nbytes).unwrap_or_default()).ok_or(ElemError::Bad)?;
    if ns < 0 {
        return Err(ElemError::Range("fractional second"));
    }
    Ok(ns * 10i64.pow(u32::try_from(10 - nbytes).unwrap_or(0)))
}

/// `time.Parse(layout, value)` (Go's generic layout parser, with its error
/// messages; the RFC 3339 fast path accepts a subset of what it accepts,
/// with the same result): one-digit hours, `,` fractions, fractions of any
/// length where the layout has none and years 0000 to 9999 are accepted.
/// A value without a zone is UTC.
///
/// # Errors
///
/// Go's `parsing time …` messages.
pub fn parse(layout: &Layout, value: &str) -> Result<ParsedTime, String> {
    let mut v = value.as_bytes();
    let (mut year, mut month, mut day) = (0i64, -1i64, -1i64);
    let (mut hour, mut min, mut sec, mut nsec) = (0i64, 0i64, 0i64, 0i64);
    let mut offset: i64 = 0;
    for (i, elem) in layout.elems.iter().enumerate() {
        let hold = v;
        let res: Result<(), ElemError> = match *elem {
            Lit(prefix) => {
                // `skip` for prefixes without spaces.
                for &c in prefix.as_bytes() {
                    match v.split_first() {
                        Some((f, rest)) if *f == c => v = rest,
                        _ => return Err(parse_error(layout, value, prefix, v)),
                    }
                }
                continue;
            }
            LongYear => match v.get(..4) {
                Some(p) if digit(v, 0).is_some() => match atoi(p) {
                    Some(y) => {
                        year = y;
                        v = v.get(4..).unwrap_or_default();
                        Ok(())
                    }
                    None => Err(ElemError::Bad),
                },
                _ => Err(ElemError::Bad),
            },
            ZeroMonth => getnum(v, true).ok_or(ElemError::Bad).and_then(|(m, rest)| {
                v = rest;
                month = m;
                if (1..=12).contains(&m) {
                    Ok(())
                } else {
                    Err(ElemError::Range("month"))
                }
            }),
            ZeroDay => getnum(v, true).ok_or(ElemError::Bad).map(|(d, rest)| {
                // The day is checked against the month at the end.
                v = rest;
                day = d;
            }),
            Hour => getnum(v, false)
                .ok_or(ElemError::Bad)
                .and_then(|(h, rest)| {
                    v = rest;
                    hour = h;
                    if h < 24 {
                        Ok(())
                    } else {
                        Err(ElemError::Range("hour"))
                    }
                }),
            ZeroMinute => getnum(v, true).ok_or(ElemError::Bad).and_then(|(m, rest)| {
                v = rest;
                min = m;
                if m < 60 {
                    Ok(())
                } else {
                    Err(ElemError::Range("minute"))
                }
            }),
            ZeroSecond => getnum(v, true).ok_or(ElemError::Bad).and_then(|(s, rest)| {
                v = rest;
                sec = s;
                if s >= 60 {
                    return Err(ElemError::Range("second"));
                }
                // A fraction the layout does not have next.
                let layout_has_fraction = matches!(
                    layout.elems.get(i + 1),
                    Some(FracFixed(_) | FracOptional(_))
                );
                if !layout_has_fraction
                    && v.len() >= 2
                    && matches!(v.first(), Some(b'.' | b','))
                    && digit(v, 1).is_some()
                {
                    let mut n = 2;
                    while digit(v, n).is_some() {
                        n += 1;
                    }
                    nsec = parse_nanoseconds(v, n)?;
                    v = v.get(n..).unwrap_or_default();
                }
                Ok(())
            }),
            FracFixed(digits) => {
                let n = 1 + digits;
                if v.len() < n {
                    Err(ElemError::Bad)
                } else {
                    parse_nanoseconds(v, n).map(|ns| {
                        nsec = ns;
                        v = v.get(n..).unwrap_or_default();
                    })
                }
            }
            FracOptional(_) => {
                if v.len() < 2 || !matches!(v.first(), Some(b'.' | b',')) || digit(v, 1).is_none() {
                    // The fraction is omitted.
                    Ok(())
                } else {
                    let mut n = 1;
                    while digit(v, n).is_some() {
                        n += 1;
                    }
                    parse_nanoseconds(v, n).map(|ns| {
                        nsec = ns;
                        v = v.get(n..).unwrap_or_default();
                    })
                }
            }
            IsoColonTz => {
                if v.first() == Some(&b'Z') {
                    v = v.get(1..).unwrap_or_default();
                    offset = 0;
                    Ok(())
                } else if v.len() < 6 || v.get(3) != Some(&b':') {
                    Err(ElemError::Bad)
                } else {
                    let (sign, hh, mm) = (v.first(), v.get(1..3), v.get(4..6));
                    v = v.get(6..).unwrap_or_default();
                    // As Go: the minutes are read only if the hours were;
                    // the range checks come before the digit and sign
                    // errors (minutes win).
                    let hr = hh.and_then(|h| getnum(h, true)).map(|x| x.0);
                    let mn = hr.and(mm.and_then(|m| getnum(m, true)).map(|x| x.0));
                    let (h, m) = (hr.unwrap_or(0), mn.unwrap_or(0));
                    offset = (h * 60 + m) * 60;
                    if m > 60 {
                        Err(ElemError::Range("time zone offset minute"))
                    } else if h > 24 {
                        Err(ElemError::Range("time zone offset hour"))
                    } else if hr.is_none() || mn.is_none() {
                        Err(ElemError::Bad)
                    } else {
                        match sign {
                            Some(b'+') => Ok(()),
                            Some(b'-') => {
                                offset = -offset;
                                Ok(())
                            }
                            _ => Err(ElemError::Bad),
                        }
                    }
                }
            }
        };
        match res {
            Ok(()) => {}
            Err(ElemError::Range(what)) => {
                return Err(parse_error_msg(value, &format!(": {what} out of range")));
            }
            Err(ElemError::Bad) => return Err(parse_error(layout, value, elem.text(), hold)),
        }
    }
    if !v.is_empty() {
        let r = String::from_utf8_lossy(v);
        return Err(parse_error_msg(
            value,
            &format!(": extra text: {}", quote(&r)),
        ));
    }
    if month < 0 {
        month = 1;
    }
    if day < 0 {
        day = 1;
    }
    if day < 1 || day > days_in(month, year) {
        return Err(parse_error_msg(value, ": day out of range"));
    }
    let days = days_from_civil(year, month, day);
    Ok(ParsedTime {
        seconds: days * 86_400 + hour * 3600 + min * 60 + sec - offset,
        nanos: u32::try_from(nsec).unwrap_or(0),
        offset: i32::try_from(offset).unwrap_or(0),
    })
}

/// `time.Parse(time.RFC3339, value)`: `(seconds, nanoseconds)` in UTC.
///
/// # Errors
///
/// Go's `parsing time …` messages.
pub fn parse_rfc3339(value: &str) -> Result<(i64, u32), String> {
    parse(&Layout::RFC3339, value).map(|t| (t.seconds, t.nanos))
}

/// `time.Parse("2006-01-02", s)`: the seconds since the epoch of the day's
/// midnight (UTC), or `None`.
pub fn parse_date(s: &str) -> Option<i64> {
    parse(&Layout::FULL_DATE, s).ok().map(|t| t.seconds)
}

/// strfmt's `ParseDateTime`: the layouts `RFC3339Micro`, `RFC3339Millis`,
/// `RFC3339`, `RFC3339Nano` and `ISO8601LocalTime` in turn, the last one's
/// error when none parses; the empty string is the Unix epoch.
///
/// # Errors
///
/// Go's `parsing time …` message of the last layout.
pub fn parse_strfmt_date_time(s: &str) -> Result<ParsedTime, String> {
    if s.is_empty() {
        return Ok(ParsedTime {
            seconds: 0,
            nanos: 0,
            offset: 0,
        });
    }
    let mut last = String::new();
    for layout in [
        Layout::RFC3339_MICRO,
        Layout::RFC3339_MILLIS,
        Layout::RFC3339,
        Layout::RFC3339_NANO,
        Layout::ISO8601_LOCAL_TIME,
    ] {
        match parse(&layout, s) {
            Ok(t) => return Ok(t),
            Err(e) => last = e,
        }
    }
    Err(last)
}

// ---------------------------------------------------------------------------
// time.LoadLocation
// ---------------------------------------------------------------------------

/// The offset east of UTC, in seconds, of the location `name`
/// (`time.LoadLocation`) at the instant `unix_seconds`: `""` and `UTC` are
/// UTC, `Local` is the server's zone (UTC, as in its container images), and
/// any other name an IANA time zone, matched exactly (from the IANA
/// database bundled with the toolchain, so the answer does not depend on
/// the machine).
///
/// # Errors
///
/// Go's `unknown time zone …` or `time: invalid location name`.
pub fn location_offset(name: &str, unix_seconds: i64) -> Result<i32, String> {
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(0);
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err("time: invalid location name".to_string());
    }
    let unknown = || format!("unknown time zone {name}");
    static DB: std::sync::OnceLock<jiff::tz::TimeZoneDatabase> = std::sync::OnceLock::new();
    let tz = DB
        .get_or_init(jiff::tz::TimeZoneDatabase::bundled)
        .get(name)
        .map_err(|_| unknown())?;
    // The database matches names without regard to case; Go's file
    // lookup does not.
    if tz.iana_name() != Some(name) {
        return Err(unknown());
    }
    let at = jiff::Timestamp::from_second(unix_seconds).map_err(|_| unknown())?;
    Ok(tz.to_offset(at).seconds())
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

/// `t.Format(time.RFC3339Nano)` of a time in a zone `offset` seconds east
/// of UTC: the local time, the fraction without trailing zeros (none when
/// zero), then `Z` for UTC or the offset as `±hh:mm`.
pub fn format_rfc3339_nano_in(seconds: i64, nanos: u32, offset: i32) -> String {
    let mut out = format_seconds(seconds + i64::from(offset));
    push_fraction(&mut out, nanos);
    if offset == 0 {
        out.push('Z');
    } else {
        let minutes = offset.unsigned_abs() / 60;
        let sign = if offset < 0 { '-' } else { '+' };
        let _ = write!(out, "{sign}{:02}:{:02}", minutes / 60, minutes % 60);
    }
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
        assert_eq!(format_rfc3339_nano_in(0, 0, 0), "1970-01-01T00:00:00Z");
        assert_eq!(
            format_rfc3339_nano_in(1_577_836_800, 120_000_000, 0),
            "2020-01-01T00:00:00.12Z"
        );
        assert_eq!(format_rfc3339(-62_135_596_800), "0001-01-01T00:00:00Z");
        assert_eq!(
            format_rfc3339_nano_in(1_704_063_600, 5, 3600),
            "2024-01-01T00:00:00.000000005+01:00"
        );
        assert_eq!(
            format_rfc3339_nano_in(1_704_072_600, 0, -5400),
            "2024-01-01T00:00:00-01:30"
        );
    }

    #[test]
    fn layouts_parse_and_fail_like_go() {
        let full_date = |s: &str| parse(&Layout::FULL_DATE, s);
        assert_eq!(
            full_date("2024-02-29").map(|t| t.seconds),
            Ok(1_709_164_800)
        );
        assert_eq!(
            full_date("2024-02-30"),
            Err("parsing time \"2024-02-30\": day out of range".into())
        );
        assert_eq!(
            full_date("2024-02-29T00:00:00Z"),
            Err("parsing time \"2024-02-29T00:00:00Z\": extra text: \"T00:00:00Z\"".into())
        );
        assert_eq!(
            full_date("2024-2-29"),
            Err(
                "parsing time \"2024-2-29\" as \"2006-01-02\": cannot parse \"2-29\" as \"01\""
                    .into()
            )
        );
        // The fixed fraction takes a sign, as Go's atoi does.
        let millis = |s: &str| parse(&Layout::RFC3339_MILLIS, s);
        assert_eq!(
            millis("2024-01-01T00:00:00.+12Z").map(|t| t.nanos),
            Ok(12_000_000)
        );
        assert_eq!(
            millis("2024-01-01T00:00:00.-12Z"),
            Err("parsing time \"2024-01-01T00:00:00.-12Z\": fractional second out of range".into())
        );
        assert_eq!(
            millis("2024-01-01T00:00:00.12Z"),
            Err("parsing time \"2024-01-01T00:00:00.12Z\" as \"2006-01-02T15:04:05.000Z07:00\": cannot parse \".12Z\" as \".000\"".into())
        );
        // strfmt's date-time: the last layout's error; no zone is UTC.
        assert_eq!(
            parse_strfmt_date_time("2024-01-01t00:00:00z"),
            Err("parsing time \"2024-01-01t00:00:00z\" as \"2006-01-02T15:04:05\": cannot parse \"t00:00:00z\" as \"T\"".into())
        );
        let t = parse_strfmt_date_time("2024-01-01T00:00:00.5+01:00").unwrap();
        assert_eq!(
            (t.seconds, t.nanos, t.offset),
            (1_704_063_600, 500_000_000, 3600)
        );
        assert_eq!(
            parse_strfmt_date_time("2024-01-01T00:00:00").map(|t| t.offset),
            Ok(0)
        );
        assert_eq!(parse_strfmt_date_time("").map(|t| t.seconds), Ok(0));
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
