//! `kubernetes.Quantity`, the value of the Kubernetes quantity library
//! (`library/quantity.go`), on `resource.ParseQuantity` semantics: decimal values rounded up to
//! nano precision, with the decimal SI, binary SI and exponent suffixes.
//!
//! Values are kept as a 128-bit mantissa and a decimal exponent; a
//! quantity needing more than 38 significant digits is refused.

use std::cmp::Ordering;

use crate::cel::error::EvalError;

/// A quantity: `mantissa × 10^exp`.
#[derive(Clone, Copy, Debug)]
pub struct Quantity {
    /// The mantissa.
    pub(crate) mantissa: i128,
    /// The decimal exponent.
    pub(crate) exp: i32,
}

const REGEX_ERR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

fn pow10(e: u32) -> Option<i128> {
    10i128.checked_pow(e)
}

impl Quantity {
    /// `resource.ParseQuantity`.
    pub fn parse(s: &str) -> Result<Quantity, String> {
        if s.is_empty() {
            return Err("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'".into());
        }
        let b = s.as_bytes();
        let mut pos = 0;
        let mut neg = false;
        if let Some(&c) = b.first()
            && (c == b'+' || c == b'-')
        {
            neg = c == b'-';
            pos = 1;
        }
        let num_start = pos;
        while b.get(pos).is_some_and(|c| c.is_ascii_digit() || *c == b'.') {
            pos += 1;
        }
        let num = s.get(num_start..pos).unwrap_or_default();
        if num.is_empty() || num.matches('.').count() > 1 || num == "." {
            return Err(REGEX_ERR.into());
        }
        let suffix = s.get(pos..).unwrap_or_default();
        let (int_part, frac_part) = num.split_once('.').unwrap_or((num, ""));
        let digits = format!("{int_part}{frac_part}");
        let digits = digits.trim_start_matches('0');
        if digits.len() > 38 {
            return Err("quantity is too large".into());
        }
        let mut mantissa: i128 = if digits.is_empty() {
            0
        } else {
            digits.parse().map_err(|_| REGEX_ERR.to_string())?
        };
        let mut exp: i32 = -(frac_part.len() as i32);
        let mut bin: u32 = 0;
        match suffix {
            "" => {}
            "Ki" => bin = 10,
            "Mi" => bin = 20,
            "Gi" => bin = 30,
            "Ti" => bin = 40,
            "Pi" => bin = 50,
            "Ei" => bin = 60,
            "n" => exp -= 9,
            "u" => exp -= 6,
            "m" => exp -= 3,
            "k" => exp += 3,
            "M" => exp += 6,
            "G" => exp += 9,
            "T" => exp += 12,
            "P" => exp += 15,
            "E" => exp += 18,
            _ => {
                let rest = suffix
                    .strip_prefix('e')
                    .or_else(|| suffix.strip_prefix('E'))
                    .ok_or_else(|| "unable to parse quantity's suffix".to_string())?;
                let (sign, digits) = match rest.as_bytes().first() {
                    Some(b'-') => (-1, rest.get(1..).unwrap_or_default()),
                    Some(b'+') => (1, rest.get(1..).unwrap_or_default()),
                    _ => (1, rest),
                };
                if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                    return Err("unable to parse quantity's suffix".into());
                }
                let e: i32 = digits
                    .parse()
                    .map_err(|_| "unable to parse quantity's suffix".to_string())?;
                exp += sign * e;
            }
        }
        if bin > 0 {
            mantissa = mantissa
                .checked_mul(1i128 << bin)
                .ok_or_else(|| "quantity is too large".to_string())?;
        }
        if neg {
            mantissa = -mantissa;
        }
        // Round up (away from zero) to nano precision.
        if exp < -9 {
            let drop = (-9 - exp) as u32;
            match pow10(drop) {
                Some(p) => {
                    let q = mantissa / p;
                    let r = mantissa % p;
                    mantissa = if r == 0 {
                        q
                    } else if mantissa < 0 {
                        q - 1
                    } else {
                        q + 1
                    };
                }
                None => mantissa = mantissa.signum(),
            }
            exp = -9;
        }
        Ok(Quantity { mantissa, exp }.normalized())
    }

    pub(crate) fn normalized(mut self) -> Self {
        if self.mantissa == 0 {
            self.exp = 0;
            return self;
        }
        while self.mantissa % 10 == 0 && self.exp < 1000 {
            self.mantissa /= 10;
            self.exp += 1;
        }
        self
    }

    fn aligned(a: Quantity, b: Quantity) -> Option<(i128, i128, i32)> {
        let e = a.exp.min(b.exp);
        let am = a
            .mantissa
            .checked_mul(pow10(u32::try_from(a.exp - e).ok()?)?)?;
        let bm = b
            .mantissa
            .checked_mul(pow10(u32::try_from(b.exp - e).ok()?)?)?;
        Some((am, bm, e))
    }

    pub(crate) fn as_f64(self) -> f64 {
        self.mantissa as f64 * 10f64.powi(self.exp)
    }

    /// `Cmp`.
    pub fn compare(&self, other: &Quantity) -> Ordering {
        match Self::aligned(*self, *other) {
            Some((a, b, _)) => a.cmp(&b),
            None => self
                .as_f64()
                .partial_cmp(&other.as_f64())
                .unwrap_or(Ordering::Equal),
        }
    }

    pub(crate) fn add(self, other: Quantity) -> Result<Quantity, EvalError> {
        let (a, b, e) = Self::aligned(self, other)
            .ok_or_else(|| EvalError::new("quantity arithmetic overflow"))?;
        let m = a
            .checked_add(b)
            .ok_or_else(|| EvalError::new("quantity arithmetic overflow"))?;
        Ok(Quantity {
            mantissa: m,
            exp: e,
        }
        .normalized())
    }

    pub(crate) fn as_i64(self) -> Option<i64> {
        if self.exp < 0 {
            return None;
        }
        let m = self.mantissa.checked_mul(pow10(self.exp as u32)?)?;
        i64::try_from(m).ok()
    }
}
