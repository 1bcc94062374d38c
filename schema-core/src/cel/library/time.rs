//! Durations and timestamps: cel-go's conversions from strings (Go's
//! `time` parsing, in [`crate::go::time`]), strfmt's date-time parsing, the
//! string forms and the timestamp accessors.

use super::operands::string_conv_err;
use crate::cel::error::EvalError;
use crate::cel::value::EvalResult;
use crate::cel::value::Val;
use crate::go;

/// Seconds of 0001-01-01T00:00:00Z and of 9999-12-31T23:59:59Z: CEL's
/// timestamp range.
const MIN_TS: i64 = -62_135_596_800;
const MAX_TS: i64 = 253_402_300_799;

/// A timestamp in range (in the zone `offset` seconds east of UTC), or
/// `timestamp overflow`.
pub(crate) fn check_ts<'a>(secs: i64, nanos: u32, offset: i32) -> EvalResult<'a> {
    if !(MIN_TS..=MAX_TS).contains(&secs) {
        return Err(EvalError::new("timestamp overflow"));
    }
    Ok(Val::Timestamp(secs, nanos, offset))
}

/// `timestamp + duration`, in the timestamp's zone.
pub(crate) fn ts_add<'a>(secs: i64, nanos: u32, offset: i32, d: i64) -> EvalResult<'a> {
    let total = i128::from(secs) * 1_000_000_000 + i128::from(nanos) + i128::from(d);
    let s = total.div_euclid(1_000_000_000);
    let n = total.rem_euclid(1_000_000_000);
    let s = i64::try_from(s).map_err(|_| EvalError::new("timestamp overflow"))?;
    check_ts(s, n as u32, offset)
}

/// cel-go's conversion of a string to a duration (`duration('1h')`): Go's
/// `time.ParseDuration`.
///
/// # Errors
///
/// cel-go's type conversion error (without Go's reason, as cel-go words it).
pub(crate) fn string_to_duration(s: &str) -> Result<i64, EvalError> {
    go::time::parse_duration(s).map_err(|_| string_conv_err("google.protobuf.Duration"))
}

/// cel-go's conversion of a string to a timestamp (`timestamp('…')`): Go's
/// `time.Parse(time.RFC3339, s)`, within CEL's range.
///
/// # Errors
///
/// cel-go's type conversion error (without Go's reason), or `timestamp
/// overflow`.
pub(crate) fn string_to_timestamp<'a>(s: &str) -> EvalResult<'a> {
    match go::time::parse(&go::time::Layout::RFC3339, s) {
        Ok(t) => check_ts(t.seconds, t.nanos, t.offset),
        Err(_) => Err(string_conv_err("google.protobuf.Timestamp")),
    }
}

/// The offset east of UTC, in seconds, of the time zone argument of a
/// timestamp accessor at the instant `unix_seconds`.
fn zone_offset(tz: &str, unix_seconds: i64) -> Result<i64, EvalError> {
    // cel-go's `inTimeZone`: a name without `:` is a location
    // (`time.LoadLocation`); else hours and minutes, each `strconv.Atoi`
    // (unchecked: `01:75` is 2h15m), as a Go `time.Duration`.
    let Some((h, m)) = tz.split_once(':') else {
        return go::time::location_offset(tz, unix_seconds)
            .map(i64::from)
            .map_err(EvalError::new);
    };
    let hr = go::fmt::atoi(h).map_err(EvalError::new)?;
    let min = go::fmt::atoi(m).map_err(EvalError::new)?;
    let minutes = if tz.starts_with('-') {
        hr.wrapping_mul(60).wrapping_sub(min)
    } else {
        hr.wrapping_mul(60).wrapping_add(min)
    };
    Ok(minutes.wrapping_mul(60_000_000_000) / 1_000_000_000)
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
        Some(Val::Timestamp(secs, nanos, _)) => {
            let offset = match args.get(1) {
                Some(Val::Str(tz)) => zone_offset(tz.as_str(), *secs)?,
                Some(_) => return Err(EvalError::no_overload()),
                None => 0,
            };
            let local = secs.wrapping_add(offset);
            let days = local.div_euclid(86_400);
            let rem = local.rem_euclid(86_400);
            let (y, m, d) = go::time::civil_from_days(days);
            Ok(Val::Int(match name {
                "getFullYear" => y,
                "getMonth" => m - 1,
                "getDayOfYear" => days - go::time::days_from_civil(y, 1, 1),
                "getDayOfMonth" => d - 1,
                "getDate" => d,
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
