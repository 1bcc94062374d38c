//! The number checks (kube-openapi's `numberValidator`): `multipleOf`,
//! `minimum` and `maximum`, and the range checks of values and bounds
//! against the node's numeric type and format.

use super::error::{Kind, Raw};
use super::node::{Node, NumFormat, NumType, in_range};
use crate::go::json::{GoNum, go_f64_to_i64, is_float64_a_json_integer};
use crate::model::field::DottedPath;

/// `numberValidator.Validate`.
pub(super) fn check_number<'a>(
    n: &'a Node,
    d: GoNum,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) {
    if n.num_type != NumType::None && !in_range(d, n.num_type, n.num_format) {
        out.push(Raw::plain(range_message("Checked", n, &path.render())));
    }
    let named = |kind: Kind<'a>| Raw {
        origin: None,
        name: path.render(),
        kind,
    };

    if let Some(factor) = n.multiple_of {
        let float_check = |data: f64| -> Option<Kind<'a>> {
            if factor <= 0.0 {
                return Some(Kind::MultipleOfNotPositive {
                    factor: GoNum::Float(factor),
                });
            }
            let mult = if factor < 1.0 {
                1.0 / factor * data
            } else {
                data / factor
            };
            (!is_float64_a_json_integer(mult)).then_some(Kind::NotMultipleOf {
                factor: GoNum::Float(factor),
                data: GoNum::Float(data),
            })
        };
        if n.multiple_of_in_range {
            let kind = match d {
                GoNum::Int(i) => {
                    let f = go_f64_to_i64(factor);
                    if f <= 0 {
                        Some(Kind::MultipleOfNotPositive {
                            factor: GoNum::Int(f),
                        })
                    } else if i % f != 0 {
                        Some(Kind::NotMultipleOf {
                            factor: GoNum::Int(f),
                            data: d,
                        })
                    } else {
                        None
                    }
                }
                GoNum::Float(x) => float_check(x),
            };
            if let Some(k) = kind {
                out.push(named(k));
            }
        } else {
            out.push(Raw::plain(range_message("MultipleOf", n, &path.render())));
            if let Some(k) = float_check(d.as_f64()) {
                out.push(named(k));
            }
        }
    }

    let mut bound =
        |b: Option<f64>, in_range: bool, exclusive: bool, is_max: bool, prefix: &str| {
            let Some(b) = b else { return };
            let fails_f = |x: f64| {
                if is_max {
                    (!exclusive && x > b) || (exclusive && x >= b)
                } else {
                    (!exclusive && x < b) || (exclusive && x <= b)
                }
            };
            let make = |bound: GoNum, data: GoNum| {
                if is_max {
                    Kind::Maximum {
                        bound,
                        exclusive,
                        data,
                    }
                } else {
                    Kind::Minimum {
                        bound,
                        exclusive,
                        data,
                    }
                }
            };
            if in_range {
                match d {
                    GoNum::Int(i) => {
                        let bi = go_f64_to_i64(b);
                        let fails = if is_max {
                            (!exclusive && i > bi) || (exclusive && i >= bi)
                        } else {
                            (!exclusive && i < bi) || (exclusive && i <= bi)
                        };
                        if fails {
                            out.push(named(make(GoNum::Int(bi), d)));
                        }
                    }
                    GoNum::Float(x) => {
                        if fails_f(x) {
                            out.push(named(make(GoNum::Float(b), d)));
                        }
                    }
                }
            } else {
                out.push(Raw::plain(range_message(prefix, n, &path.render())));
                let x = d.as_f64();
                if fails_f(x) {
                    out.push(named(make(GoNum::Float(b), GoNum::Float(x))));
                }
            }
        };
    // Merged in the order multipleOf, minimum, maximum.
    bound(
        n.minimum,
        n.minimum_in_range,
        n.exclusive_minimum,
        false,
        "Minimum boundary",
    );
    bound(
        n.maximum,
        n.maximum_in_range,
        n.exclusive_maximum,
        true,
        "Maximum boundary",
    );
}

/// The message of a failed range check (`prefix`: what was checked).
fn range_message(prefix: &str, node: &Node, path: &str) -> String {
    let ty = match node.num_type {
        NumType::Integer => "integer",
        NumType::Number => "number",
        NumType::None => "",
    };
    if node.num_format == NumFormat::None {
        format!("{prefix} value must be of type {ty} (default format) in {path}")
    } else {
        format!(
            "{prefix} value must be of type {ty} with format {} in {path}",
            node.num_format.name()
        )
    }
}
