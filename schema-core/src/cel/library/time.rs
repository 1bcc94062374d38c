//! Durations and timestamps: cel-go's conversions from strings (Go's
//! `time` parsing, in [`crate::go::time`]), strfmt's date-time parsing, the
//! string forms and the timestamp accessors.

use super::entry::{Estimate, Function, Overload, RuntimeCost, member_with};
use super::operands::string_conv_err;
use crate::cel::error::EvalError;
use crate::cel::types::Type;
use crate::cel::value::EvalResult;
use crate::cel::value::Val;
use crate::go;

/// The timestamp and duration accessors of the standard library.
pub(crate) const FUNCTIONS: &[Function] = &[
    Function {
        name: "getFullYear",
        overloads: &[
            Overload {
                id: "timestamp_to_year",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_year_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| accessor(args, None, |c| c.year),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getMonth",
        overloads: &[
            Overload {
                id: "timestamp_to_month",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_month_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| accessor(args, None, |c| c.month - 1),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getDayOfYear",
        overloads: &[
            Overload {
                id: "timestamp_to_day_of_year",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_day_of_year_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| {
            accessor(args, None, |c| {
                c.days - go::time::days_from_civil(c.year, 1, 1)
            })
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getDayOfMonth",
        overloads: &[
            Overload {
                id: "timestamp_to_day_of_month",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_day_of_month_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| accessor(args, None, |c| c.day - 1),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getDate",
        overloads: &[
            Overload {
                id: "timestamp_to_day_of_month_1_based",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_day_of_month_1_based_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| accessor(args, None, |c| c.day),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getDayOfWeek",
        overloads: &[
            Overload {
                id: "timestamp_to_day_of_week",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_day_of_week_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| accessor(args, None, |c| (c.days + 4).rem_euclid(7)),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getHours",
        overloads: &[
            Overload {
                id: "timestamp_to_hours",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_hours_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
            Overload {
                id: "duration_to_hours",
                member: true,
                signature: || (vec![Type::Duration], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| {
            accessor(args, Some(|d| d / 3_600_000_000_000), |c| {
                c.seconds_of_day / 3600
            })
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getMinutes",
        overloads: &[
            Overload {
                id: "timestamp_to_minutes",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_minutes_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
            Overload {
                id: "duration_to_minutes",
                member: true,
                signature: || (vec![Type::Duration], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| {
            accessor(args, Some(|d| d / 60_000_000_000), |c| {
                c.seconds_of_day % 3600 / 60
            })
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getSeconds",
        overloads: &[
            Overload {
                id: "timestamp_to_seconds",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_seconds_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
            Overload {
                id: "duration_to_seconds",
                member: true,
                signature: || (vec![Type::Duration], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| accessor(args, Some(|d| d / 1_000_000_000), |c| c.seconds_of_day % 60),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "getMilliseconds",
        overloads: &[
            Overload {
                id: "timestamp_to_milliseconds",
                member: true,
                signature: || (vec![Type::Timestamp], Type::Int),
            },
            Overload {
                id: "timestamp_to_milliseconds_with_tz",
                member: true,
                signature: || (vec![Type::Timestamp, Type::String], Type::Int),
            },
            Overload {
                id: "duration_to_milliseconds",
                member: true,
                signature: || (vec![Type::Duration], Type::Int),
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[1, 2]),
        call: |args| {
            accessor(args, Some(|d| d / 1_000_000), |c| {
                i64::from(c.nanos / 1_000_000)
            })
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
];

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

/// A timestamp's calendar parts in its time zone.
struct Civil {
    /// Days since 1970-01-01.
    days: i64,
    /// Seconds since midnight.
    seconds_of_day: i64,
    year: i64,
    /// 1 to 12.
    month: i64,
    /// 1 to 31.
    day: i64,
    nanos: u32,
}

/// A timestamp accessor (`of_timestamp`, in UTC or the time zone of the
/// optional argument) or a duration accessor (`of_duration`, if the
/// function has one).
fn accessor<'a>(
    args: &[Val<'a>],
    of_duration: Option<fn(i64) -> i64>,
    of_timestamp: fn(&Civil) -> i64,
) -> EvalResult<'a> {
    match args.first() {
        Some(Val::Duration(d)) if args.len() == 1 => of_duration
            .map(|f| Val::Int(f(*d)))
            .ok_or_else(EvalError::no_overload),
        Some(Val::Timestamp(secs, nanos, _)) => {
            let offset = match args.get(1) {
                Some(Val::Str(tz)) => zone_offset(tz.as_str(), *secs)?,
                Some(_) => return Err(EvalError::no_overload()),
                None => 0,
            };
            let local = secs.wrapping_add(offset);
            let days = local.div_euclid(86_400);
            let (year, month, day) = go::time::civil_from_days(days);
            Ok(Val::Int(of_timestamp(&Civil {
                days,
                seconds_of_day: local.rem_euclid(86_400),
                year,
                month,
                day,
                nanos: *nanos,
            })))
        }
        _ => Err(EvalError::no_overload()),
    }
}
