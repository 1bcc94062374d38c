//! `kubernetes.Semver`, the value of the Kubernetes semver library
//! (`library/semverlib.go`), on the semantics of
//! `github.com/blang/semver/v4`'s `Parse` and `Version.Compare`.

use std::cmp::Ordering;

use crate::go::fmt::go_quote;

/// A prerelease identifier: numeric or alphanumeric.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pre {
    Num(u64),
    Alpha(String),
}

impl Pre {
    /// Numeric identifiers sort before alphanumeric ones; alphanumeric
    /// ones compare as byte strings.
    fn compare(&self, o: &Pre) -> Ordering {
        match (self, o) {
            (Pre::Num(a), Pre::Num(b)) => a.cmp(b),
            (Pre::Num(_), Pre::Alpha(_)) => Ordering::Less,
            (Pre::Alpha(_), Pre::Num(_)) => Ordering::Greater,
            (Pre::Alpha(a), Pre::Alpha(b)) => a.as_bytes().cmp(b.as_bytes()),
        }
    }
}

/// A semantic version (build metadata, which takes no part in
/// comparisons, is only validated).
#[derive(Clone, Debug)]
pub struct Semver {
    /// The major version.
    pub(crate) major: u64,
    /// The minor version.
    pub(crate) minor: u64,
    /// The patch version.
    pub(crate) patch: u64,
    pre: Vec<Pre>,
}

const NUMBERS: &str = "0123456789";
const ALPHANUM: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

fn contains_only(s: &str, set: &str) -> bool {
    s.chars().all(|c| set.contains(c))
}

fn has_leading_zeroes(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// `strconv.ParseUint(s, 10, 64)` of a string of ASCII digits.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(s)
        ));
    }
    s.parse::<u64>().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            go_quote(s)
        )
    })
}

/// A version number (major, minor or patch) named `what`.
fn number(s: &str, what: &str, capitalized: &str) -> Result<u64, String> {
    if !contains_only(s, NUMBERS) {
        return Err(format!(
            "Invalid character(s) found in {what} number {}",
            go_quote(s)
        ));
    }
    if has_leading_zeroes(s) {
        return Err(format!(
            "{capitalized} number must not contain leading zeroes {}",
            go_quote(s)
        ));
    }
    parse_uint(s)
}

fn prerelease(s: &str) -> Result<Pre, String> {
    if s.is_empty() {
        return Err("Prerelease is empty".into());
    }
    if contains_only(s, NUMBERS) {
        if has_leading_zeroes(s) {
            return Err(format!(
                "Numeric PreRelease version must not contain leading zeroes {}",
                go_quote(s)
            ));
        }
        return parse_uint(s).map(Pre::Num);
    }
    if contains_only(s, ALPHANUM) {
        return Ok(Pre::Alpha(s.to_string()));
    }
    Err(format!(
        "Invalid character(s) found in prerelease {}",
        go_quote(s)
    ))
}

impl Semver {
    /// `semver.Parse`.
    ///
    /// # Errors
    ///
    /// The library's error text.
    pub fn parse(s: &str) -> Result<Semver, String> {
        if s.is_empty() {
            return Err("Version string empty".into());
        }
        let parts: Vec<&str> = s.splitn(3, '.').collect();
        let [major, minor, rest] = parts.as_slice() else {
            return Err("No Major.Minor.Patch elements found".into());
        };
        let major = number(major, "major", "Major")?;
        let minor = number(minor, "minor", "Minor")?;
        let mut patch = *rest;
        let mut build = Vec::new();
        let mut pre = Vec::new();
        if let Some((p, b)) = patch.split_once('+') {
            build = b.split('.').collect();
            patch = p;
        }
        if let Some((p, r)) = patch.split_once('-') {
            pre = r.split('.').collect();
            patch = p;
        }
        let patch = number(patch, "patch", "Patch")?;
        let pre = pre
            .into_iter()
            .map(prerelease)
            .collect::<Result<Vec<_>, _>>()?;
        for b in &build {
            if b.is_empty() {
                return Err("Build meta data is empty".into());
            }
            if !contains_only(b, ALPHANUM) {
                return Err(format!(
                    "Invalid character(s) found in build meta data {}",
                    go_quote(b)
                ));
            }
        }
        Ok(Semver {
            major,
            minor,
            patch,
            pre,
        })
    }

    /// `normalizeAndParse`: without a `v` prefix, leading zeroes removed
    /// and a missing minor or patch number taken as 0.
    ///
    /// # Errors
    ///
    /// As `parse`, and for a short version with prerelease or build data.
    pub fn parse_normalized(s: &str) -> Result<Semver, String> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let mut parts: Vec<String> = s
            .splitn(3, '.')
            .map(|p| {
                if p.len() <= 1 {
                    return p.to_string();
                }
                let t = p.trim_start_matches('0');
                if t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                    t.to_string()
                } else {
                    format!("0{t}")
                }
            })
            .collect();
        if parts.len() < 3 {
            if parts
                .last()
                .is_some_and(|p| p.contains('+') || p.contains('-'))
            {
                return Err("short version cannot contain PreRelease/Build meta data".into());
            }
            while parts.len() < 3 {
                parts.push("0".into());
            }
        }
        Semver::parse(&parts.join("."))
    }

    /// `Version.Compare`: by number, then a version without prerelease
    /// after one with, then the prerelease identifiers in order.
    pub fn compare(&self, o: &Semver) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(o.major, o.minor, o.patch))
            .then_with(|| match (self.pre.is_empty(), o.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => {
                    for (a, b) in self.pre.iter().zip(&o.pre) {
                        let c = a.compare(b);
                        if c != Ordering::Equal {
                            return c;
                        }
                    }
                    self.pre.len().cmp(&o.pre.len())
                }
            })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::cmp::Ordering;

    use super::Semver;

    fn cmp(a: &str, b: &str) -> Ordering {
        Semver::parse(a)
            .unwrap()
            .compare(&Semver::parse(b).unwrap())
    }

    #[test]
    fn parse_errors() {
        for (s, e) in [
            ("", "Version string empty"),
            ("1.0", "No Major.Minor.Patch elements found"),
            ("a.0.0", "Invalid character(s) found in major number \"a\""),
            (
                "01.0.0",
                "Major number must not contain leading zeroes \"01\"",
            ),
            (
                "1.01.0",
                "Minor number must not contain leading zeroes \"01\"",
            ),
            (
                "1.0.01",
                "Patch number must not contain leading zeroes \"01\"",
            ),
            ("1.0.x", "Invalid character(s) found in patch number \"x\""),
            ("1..0", "strconv.ParseUint: parsing \"\": invalid syntax"),
            (
                "99999999999999999999.0.0",
                "strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
            ),
            ("1.0.0-", "Prerelease is empty"),
            (
                "1.0.0-01",
                "Numeric PreRelease version must not contain leading zeroes \"01\"",
            ),
            (
                "1.0.0-a_b",
                "Invalid character(s) found in prerelease \"a_b\"",
            ),
            ("1.0.0+", "Build meta data is empty"),
            (
                "1.0.0+a_b",
                "Invalid character(s) found in build meta data \"a_b\"",
            ),
        ] {
            assert_eq!(Semver::parse(s).unwrap_err(), e, "{s}");
        }
    }

    #[test]
    fn normalize() {
        for (s, n) in [
            ("v1", "1.0.0"),
            ("1.2", "1.2.0"),
            ("01.002.0003", "1.2.3"),
            ("1.2.00-alpha", "1.2.0-alpha"),
        ] {
            let a = Semver::parse_normalized(s).unwrap();
            assert_eq!(
                a.compare(&Semver::parse(n).unwrap()),
                Ordering::Equal,
                "{s}"
            );
        }
        assert_eq!(
            Semver::parse_normalized("1.2-alpha").unwrap_err(),
            "short version cannot contain PreRelease/Build meta data"
        );
        assert!(Semver::parse("v1.0.0").is_err());
    }

    #[test]
    fn precedence() {
        // The ordering example of the semver specification.
        let ordered = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "2.0.0",
            "2.1.0",
            "2.1.1",
        ];
        for w in ordered.windows(2) {
            assert_eq!(cmp(w[0], w[1]), Ordering::Less, "{} < {}", w[0], w[1]);
            assert_eq!(cmp(w[1], w[0]), Ordering::Greater);
        }
        assert_eq!(cmp("1.0.0+build", "1.0.0"), Ordering::Equal);
    }
}
