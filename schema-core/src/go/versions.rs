//! apimachinery's `version.CompareKubeAwareVersionStrings`: the order in
//! which the API server lists a group's versions, and so which one
//! discovery prefers.

use std::cmp::Ordering;

/// A version name as `CompareKubeAwareVersionStrings` parses it:
/// `v<major>`, `v<major>beta<minor>`, `v<major>alpha<minor>`, or another
/// string.
#[derive(Debug, PartialEq, Eq)]
enum Parsed<'a> {
    /// Matches `^v\d+((alpha|beta)\d+)?$`: stability (2 GA, 1 beta,
    /// 0 alpha), major, minor.
    Kube(u8, i64, i64),
    /// Anything else.
    Other(&'a str),
}

fn parse(v: &str) -> Parsed<'_> {
    let Some(rest) = v.strip_prefix('v') else {
        return Parsed::Other(v);
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    // `strconv.Atoi` of the digits: an overflow is not a kube-like version.
    let Some(major) = (digits > 0)
        .then(|| rest[..digits].parse::<i64>().ok())
        .flatten()
    else {
        return Parsed::Other(v);
    };
    let tail = &rest[digits..];
    if tail.is_empty() {
        return Parsed::Kube(2, major, 0);
    }
    let (stability, minor) = if let Some(m) = tail.strip_prefix("beta") {
        (1, m)
    } else if let Some(m) = tail.strip_prefix("alpha") {
        (0, m)
    } else {
        return Parsed::Other(v);
    };
    if minor.is_empty() || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return Parsed::Other(v);
    }
    match minor.parse::<i64>() {
        Ok(minor) => Parsed::Kube(stability, major, minor),
        Err(_) => Parsed::Other(v),
    }
}

/// The order of two version names by priority: `Less` when `a` comes
/// first (GA before beta before alpha, higher numbers first, then other
/// names alphabetically).
pub(crate) fn priority_order(a: &str, b: &str) -> Ordering {
    match (parse(a), parse(b)) {
        (Parsed::Kube(sa, ma, na), Parsed::Kube(sb, mb, nb)) => {
            sb.cmp(&sa).then(mb.cmp(&ma)).then(nb.cmp(&na))
        }
        (Parsed::Kube(..), Parsed::Other(_)) => Ordering::Less,
        (Parsed::Other(_), Parsed::Kube(..)) => Ordering::Greater,
        (Parsed::Other(x), Parsed::Other(y)) => x.cmp(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_as_the_api_server_lists_versions() {
        let mut v = vec![
            "foo1",
            "v1alpha1",
            "v10",
            "v1",
            "v2beta1",
            "v11alpha2",
            "v12beta3",
            "v2",
            "foo10",
            "v10beta3",
            "v01",
            "v1beta",
            "v99999999999999999999",
        ];
        v.sort_by(|a, b| priority_order(a, b));
        assert_eq!(
            v,
            [
                "v10",
                "v2",
                "v1",
                "v01",
                "v12beta3",
                "v10beta3",
                "v2beta1",
                "v11alpha2",
                "v1alpha1",
                "foo1",
                "foo10",
                "v1beta",
                "v99999999999999999999",
            ]
        );
    }
}
