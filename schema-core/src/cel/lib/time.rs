//! Durations and timestamps: Go's `time.ParseDuration`, strfmt's duration
//! and date-time parsing, RFC 3339, and the timestamp accessors.

use crate::cel::eval::{EvalError, EvalResult};
use crate::cel::value::Val;

/// Seconds of 0001-01-01T00:00:00Z and of 9999-12-31T23:59:59Z: CEL's
/// timestamp range.
const MIN_TS: i64 = -62_135_596_800;
const MAX_TS: i64 = 253_402_300_799;

/// A timestamp in range, or `timestamp overflow`.
pub(crate) fn check_ts<'a>(secs: i64, nanos: u32) -> EvalResult<'a> {
    if !(MIN_TS..=MAX_TS).contains(&secs) {
        return Err(EvalError::new("timestamp overflow"));
    }
    Ok(Val::Timestamp(secs, nanos))
}

/// `timestamp + duration`.
pub(crate) fn ts_add<'a>(secs: i64, nanos: u32, d: i64) -> EvalResult<'a> {
    let total = i128::from(secs) * 1_000_000_000 + i128::from(nanos) + i128::from(d);
    let s = total.div_euclid(1_000_000_000);
    let n = total.rem_euclid(1_000_000_000);
    let s = i64::try_from(s).map_err(|_| EvalError::new("timestamp overflow"))?;
    check_ts(s, n as u32)
}

/// Go's `time.ParseDuration`, in nanoseconds, with Go's error text.
pub(crate) fn parse_go_duration(orig: &str) -> Result<i64, String> {
    let err = || format!("time: invalid duration {}", crate::field::go_quote(orig));
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
        return Err(err());
    }
    let mut d: u128 = 0;
    while !s.is_empty() {
        let first = s.first().copied().unwrap_or_default();
        if !(first == b'.' || first.is_ascii_digit()) {
            return Err(err());
        }
        let int_len = s.iter().take_while(|c| c.is_ascii_digit()).count();
        let int_part = s.get(..int_len).unwrap_or_default();
        s = s.get(int_len..).unwrap_or_default();
        let mut frac_part: &[u8] = &[];
        if s.first() == Some(&b'.') {
            s = s.get(1..).unwrap_or_default();
            let fl = s.iter().take_while(|c| c.is_ascii_digit()).count();
            frac_part = s.get(..fl).unwrap_or_default();
            s = s.get(fl..).unwrap_or_default();
        }
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(err());
        }
        let unit_len = s
            .iter()
            .position(|&c| c == b'.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if unit_len == 0 {
            return Err(format!(
                "time: missing unit in duration {}",
                crate::field::go_quote(orig)
            ));
        }
        let unit_bytes = s.get(..unit_len).unwrap_or_default();
        let unit: u128 = match unit_bytes {
            b"ns" => 1,
            b"us" | b"\xc2\xb5s" | b"\xce\xbcs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    crate::field::go_quote(&String::from_utf8_lossy(unit_bytes)),
                    crate::field::go_quote(orig)
                ));
            }
        };
        s = s.get(unit_len..).unwrap_or_default();
        let mut v: u128 = 0;
        for &c in int_part {
            v = v * 10 + u128::from(c - b'0');
            if v > 1 << 63 {
                return Err(err());
            }
        }
        v *= unit;
        if !frac_part.is_empty() {
            let mut f: u128 = 0;
            let mut scale: u128 = 1;
            for &c in frac_part.iter().take(30) {
                f = f * 10 + u128::from(c - b'0');
                scale *= 10;
            }
            v += f * unit / scale;
        }
        d += v;
        if d > 1 << 63 {
            return Err(err());
        }
    }
    if neg {
        Ok(-(d as i128) as i64)
    } else if d >= 1 << 63 {
        Err(err())
    } else {
        Ok(d as i64)
    }
}

/// strfmt's `ParseDuration`: Go's form, else `<n> <unit>` terms with the
/// units ns/us/µs/ms/s/m/h/d/w and their long names.
pub(crate) fn parse_strfmt_duration(s: &str) -> Option<i64> {
    if let Ok(d) = parse_go_duration(s) {
        return Some(d);
    }
    let b = s.as_bytes();
    let mut pos = 0;
    let mut total: i128 = 0;
    let mut any = false;
    while pos < b.len() {
        // (?:-\s?)?\d+\s*[A-Za-zµ]+
        let start = pos;
        let mut neg = false;
        if b.get(pos) == Some(&b'-') {
            neg = true;
            pos += 1;
            if b.get(pos).is_some_and(u8::is_ascii_whitespace) {
                pos += 1;
            }
        }
        let ds = pos;
        while b.get(pos).is_some_and(u8::is_ascii_digit) {
            pos += 1;
        }
        if pos == ds {
            pos = start + 1;
            continue;
        }
        let n: i128 = s.get(ds..pos)?.parse().ok()?;
        while b.get(pos).is_some_and(u8::is_ascii_whitespace) {
            pos += 1;
        }
        let us = pos;
        while pos < b.len() {
            let rest = s.get(pos..)?;
            let c = rest.chars().next()?;
            if c.is_ascii_alphabetic() || c == 'µ' {
                pos += c.len_utf8();
            } else {
                break;
            }
        }
        let unit = s.get(us..pos)?;
        let mult: i128 = match unit {
            "ns" | "nano" | "nanos" => 1,
            "us" | "µs" | "micro" | "micros" => 1_000,
            "ms" | "milli" | "millis" => 1_000_000,
            "s" | "sec" | "secs" => 1_000_000_000,
            "m" | "min" | "mins" => 60_000_000_000,
            "h" | "hr" | "hrs" | "hour" | "hours" => 3_600_000_000_000,
            "d" | "day" | "days" => 86_400_000_000_000,
            "w" | "wk" | "wks" | "week" | "weeks" => 604_800_000_000_000,
            _ => return None,
        };
        let n = if neg { -n } else { n };
        total += n * mult;
        any = true;
    }
    if !any {
        return None;
    }
    i64::try_from(total).ok()
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 0,
    }
}

fn digits(b: &[u8], r: std::ops::Range<usize>) -> Option<u32> {
    let d = b.get(r)?;
    d.iter()
        .all(u8::is_ascii_digit)
        .then(|| d.iter().fold(0u32, |acc, c| acc * 10 + u32::from(c - b'0')))
}

/// `time.Parse("2006-01-02", s)`: seconds since the epoch.
pub(crate) fn parse_date(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 10 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let (y, m, d) = (digits(b, 0..4)?, digits(b, 5..7)?, digits(b, 8..10)?);
    if !(1..=12).contains(&m) || d < 1 || d > days_in(m, i64::from(y)) {
        return None;
    }
    Some(days_from_civil(i64::from(y), m, d) * 86_400)
}

/// RFC 3339 (`time.RFC3339Nano` parsing): `(seconds, nanoseconds)` UTC.
pub(crate) fn parse_rfc3339(s: &str) -> Option<(i64, u32)> {
    let b = s.as_bytes();
    if b.len() < 20 {
        return None;
    }
    let date = parse_date(s.get(..10)?)?;
    if !matches!(b.get(10), Some(b'T' | b't')) {
        return None;
    }
    let (hh, mm, ss) = (digits(b, 11..13)?, digits(b, 14..16)?, digits(b, 17..19)?);
    if b.get(13) != Some(&b':') || b.get(16) != Some(&b':') || hh > 23 || mm > 59 || ss > 59 {
        return None;
    }
    let mut pos = 19;
    let mut nanos: u32 = 0;
    if b.get(pos) == Some(&b'.') {
        pos += 1;
        let start = pos;
        while b.get(pos).is_some_and(u8::is_ascii_digit) {
            pos += 1;
        }
        let frac = s.get(start..pos)?;
        if frac.is_empty() || frac.len() > 9 {
            return None;
        }
        nanos = frac.parse::<u32>().ok()? * 10u32.pow(9 - frac.len() as u32);
    }
    let zone = s.get(pos..)?;
    let offset: i64 = if zone == "Z" || zone == "z" {
        0
    } else {
        let zb = zone.as_bytes();
        if zb.len() != 6 || zb.get(3) != Some(&b':') {
            return None;
        }
        let sign = match zb.first() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return None,
        };
        let (oh, om) = (digits(zb, 1..3)?, digits(zb, 4..6)?);
        if oh > 23 || om > 59 {
            return None;
        }
        sign * (i64::from(oh) * 3600 + i64::from(om) * 60)
    };
    Some((
        date + i64::from(hh) * 3600 + i64::from(mm) * 60 + i64::from(ss) - offset,
        nanos,
    ))
}

/// strfmt's `ParseDateTime`: RFC 3339 with or without fractions, and the
/// forms without a colon in the zone or without a zone.
pub(crate) fn parse_strfmt_date_time(s: &str) -> Option<(i64, u32)> {
    if let Some(t) = parse_rfc3339(s) {
        return Some(t);
    }
    // `2006-01-02T15:04:05.999999999Z0700` and `…Z07:00` variants, and no zone.
    let b = s.as_bytes();
    if b.len() >= 19 {
        let zone_start = (19..b.len())
            .find(|&i| matches!(b.get(i), Some(b'+' | b'-' | b'Z')))
            .unwrap_or(b.len());
        let head = s.get(..zone_start)?;
        let zone = s.get(zone_start..)?;
        let fixed_zone = if zone.is_empty() {
            "Z".to_string()
        } else if zone.len() == 5 {
            format!("{}:{}", zone.get(..3)?, zone.get(3..)?)
        } else {
            zone.to_string()
        };
        return parse_rfc3339(&format!("{head}{fixed_zone}"));
    }
    None
}

/// `time.Time.Format(time.RFC3339Nano)` in UTC.
pub(crate) fn format_timestamp(secs: i64, nanos: u32) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let mut out = format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    );
    if nanos > 0 {
        let f = format!("{nanos:09}");
        out.push('.');
        out.push_str(f.trim_end_matches('0'));
    }
    out.push('Z');
    out
}

/// cel-go's string of a duration: seconds with up to nine decimals, `s`.
pub(crate) fn format_duration(d: i64) -> String {
    let neg = d < 0;
    let a = i128::from(d).abs();
    let secs = a / 1_000_000_000;
    let frac = a % 1_000_000_000;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&secs.to_string());
    if frac > 0 {
        let f = format!("{frac:09}");
        out.push('.');
        out.push_str(f.trim_end_matches('0'));
    }
    out.push('s');
    out
}

/// A fixed time zone offset in seconds: `UTC`, `Z`, `±HH:MM`.
fn zone_offset(tz: &str) -> Result<i64, EvalError> {
    if tz == "UTC" || tz == "Z" || tz.is_empty() {
        return Ok(0);
    }
    let b = tz.as_bytes();
    let sign = match b.first() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => {
            return Err(EvalError::new(format!("unknown time zone {tz}")));
        }
    };
    let (h, m) = match tz.get(1..).and_then(|r| r.split_once(':')) {
        Some((h, m)) => (h.parse::<i64>().ok(), m.parse::<i64>().ok()),
        None => (None, None),
    };
    match (h, m) {
        (Some(h), Some(m)) => Ok(sign * (h * 3600 + m * 60)),
        _ => Err(EvalError::new(format!("unknown time zone {tz}"))),
    }
}

/// The timestamp and duration accessors (`getFullYear`, …).
pub(crate) fn accessor<'a>(name: &str, args: &[Val<'a>]) -> EvalResult<'a> {
    match args.first() {
        Some(Val::Duration(d)) if args.len() == 1 => Ok(Val::Int(match name {
            "getHours" => d / 3_600_000_000_000,
            "getMinutes" => d / 60_000_000_000,
            "getSeconds" => d / 1_000_000_000,
            "getMilliseconds" => d / 1_000_000,
            _ => return Err(EvalError::no_overload()),
        })),
        Some(Val::Timestamp(secs, nanos)) => {
            let offset = match args.get(1) {
                Some(Val::Str(tz)) => zone_offset(tz.as_str())?,
                Some(_) => return Err(EvalError::no_overload()),
                None => 0,
            };
            let local = secs + offset;
            let days = local.div_euclid(86_400);
            let rem = local.rem_euclid(86_400);
            let (y, m, d) = civil_from_days(days);
            Ok(Val::Int(match name {
                "getFullYear" => y,
                "getMonth" => i64::from(m) - 1,
                "getDayOfYear" => days - days_from_civil(y, 1, 1),
                "getDayOfMonth" => i64::from(d) - 1,
                "getDate" => i64::from(d),
                "getDayOfWeek" => (days + 4).rem_euclid(7),
                "getHours" => rem / 3600,
                "getMinutes" => rem % 3600 / 60,
                "getSeconds" => rem % 60,
                "getMilliseconds" => i64::from(*nanos / 1_000_000),
                _ => return Err(EvalError::no_overload()),
            }))
        }
        _ => Err(EvalError::no_overload()),
    }
}
