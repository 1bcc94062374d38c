//! The Kubernetes release whose API server is reproduced: [`KubeVersion`].
//!
//! What an API server does with a CRD changes between releases in a few
//! places, each selected here by the release's minor version. The
//! differences from 1.30 on:
//!
//! | release | CEL environment of new rules (compatibility version) | other differences |
//! | --- | --- | --- |
//! | 1.30 | 1.29: no `ip`/`cidr`, no `format`, no two-variable comprehensions, no semver, no `lists` extension | `CustomResourceFieldSelectors` off: `selectableFields` are dropped on create and not published |
//! | 1.31 | 1.30: adds `ip` and `cidr` | field selectors on (beta) |
//! | 1.32 | 1.31: adds the `format` library, reserved words as field names | a version without selectable fields is published with an empty `x-kubernetes-selectable-fields` list |
//! | 1.33 | 1.32: adds two-variable comprehensions (`all(k, v, …)`, `transformList`, …) | |
//! | 1.34 | 1.33: adds the semver library (`isSemver`, `semver`) | |
//! | 1.35 | 1.34: adds cel-go's `lists` extension, version 3 (`lists.range`, `sort`, `flatten`, …) | |
//! | 1.36 | 1.35: as 1.35 | the published OpenAPI keeps `externalDocs` and `example` |
//! | 1.37 | 1.36: as 1.35 | |
//!
//! In every one of these releases CRD validation ratcheting is on
//! (`CRDValidationRatcheting`, beta and on by default since 1.30, GA in
//! 1.33).
//!
//! The API server compiles the rules of a new or changed CRD in the
//! environment of its *compatibility version*, one minor release before
//! its own (`environment.DefaultCompatibilityVersion`), so a rule written
//! for a 1.33 cluster may use only what 1.32 had: an upgraded cluster can
//! be rolled back one release without rules it cannot compile.

use std::fmt;

/// A Kubernetes minor release, 1.30 to 1.37: whose API server's semantics
/// apply. The default is the newest, [`KubeVersion::NEWEST`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KubeVersion {
    minor: u32,
}

/// A release outside the supported range, or text that names none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unsupported Kubernetes version {given:?}: expected one of 1.{oldest}..1.{newest} (e.g. \"1.{newest}\")",
    oldest = KubeVersion::OLDEST.minor,
    newest = KubeVersion::NEWEST.minor
)]
pub struct KubeVersionError {
    /// What was given.
    pub given: String,
}

impl KubeVersion {
    /// The oldest release supported: 1.30.
    pub const OLDEST: KubeVersion = KubeVersion { minor: 30 };
    /// The newest release supported, the one the toolchain is pinned to:
    /// 1.37.
    pub const NEWEST: KubeVersion = KubeVersion { minor: 37 };

    /// Release `1.minor`, if supported.
    pub const fn new(minor: u32) -> Option<KubeVersion> {
        if minor >= Self::OLDEST.minor && minor <= Self::NEWEST.minor {
            Some(KubeVersion { minor })
        } else {
            None
        }
    }

    /// Reads `1.33`, `v1.33` or `1.33.2` (a patch release is its minor
    /// release).
    ///
    /// # Errors
    ///
    /// [`KubeVersionError`] for other text or a release outside
    /// 1.30..1.37.
    pub fn parse(s: &str) -> Result<KubeVersion, KubeVersionError> {
        let err = || KubeVersionError {
            given: s.to_string(),
        };
        let t = s.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let mut parts = t.split('.');
        let (Some("1"), Some(minor)) = (parts.next(), parts.next()) else {
            return Err(err());
        };
        if parts.clone().count() > 1 || parts.any(|p| p.parse::<u32>().is_err()) {
            return Err(err());
        }
        let minor: u32 = minor.parse().map_err(|_| err())?;
        Self::new(minor).ok_or_else(err)
    }

    /// Every supported release, oldest first.
    pub fn all() -> impl Iterator<Item = KubeVersion> {
        (Self::OLDEST.minor..=Self::NEWEST.minor).map(|minor| KubeVersion { minor })
    }

    /// The minor version number (`33` for 1.33).
    pub const fn minor(self) -> u32 {
        self.minor
    }

    /// The minor version of the CEL compatibility version new rules are
    /// compiled at: one release before (`DefaultCompatibilityVersion`,
    /// the binary version's `MinCompatibilityVersion`).
    pub const fn cel_compatibility_minor(self) -> u32 {
        self.minor - 1
    }

    /// Whether the `CustomResourceFieldSelectors` feature gate is on by
    /// default: `selectableFields` are kept, validated and published
    /// (beta in 1.31, GA in 1.32; alpha and off in 1.30).
    pub const fn field_selectors(self) -> bool {
        self.minor >= 31
    }

    /// Whether the published OpenAPI gives a version without selectable
    /// fields an empty `x-kubernetes-selectable-fields` list (1.32, whose
    /// `buildSelectableFields` tests for an empty list the wrong way; 1.31
    /// did too until 1.31.6).
    pub const fn publishes_empty_selectable_fields(self) -> bool {
        self.minor == 32
    }

    /// Whether the published OpenAPI keeps `externalDocs` and `example`
    /// (`newGenerics` carries them into the structural schema from 1.36).
    pub const fn publishes_external_docs_and_example(self) -> bool {
        self.minor >= 36
    }

    /// Whether the `CRDValidationRatcheting` feature gate is on by default:
    /// failures of unchanged values in an update are not errors (beta and
    /// on since 1.30).
    pub const fn validation_ratcheting(self) -> bool {
        self.minor >= 30
    }
}

impl Default for KubeVersion {
    fn default() -> Self {
        Self::NEWEST
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

impl std::str::FromStr for KubeVersion {
    type Err = KubeVersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_releases_in_range() {
        assert_eq!(KubeVersion::parse("1.33"), Ok(KubeVersion { minor: 33 }));
        assert_eq!(KubeVersion::parse("v1.30"), Ok(KubeVersion { minor: 30 }));
        assert_eq!(KubeVersion::parse("1.37.2"), Ok(KubeVersion { minor: 37 }));
        for bad in ["1.29", "1.38", "2.30", "1", "1.x", "1.33.2.1", "1.33.x", ""] {
            let e = KubeVersion::parse(bad).unwrap_err();
            assert_eq!(e.given, bad);
        }
        assert_eq!(
            KubeVersion::parse("1.29").unwrap_err().to_string(),
            "unsupported Kubernetes version \"1.29\": expected one of 1.30..1.37 (e.g. \"1.37\")"
        );
    }

    #[test]
    fn release_facts() {
        let v = |m| KubeVersion::new(m).unwrap();
        assert_eq!(KubeVersion::default(), v(37));
        assert_eq!(v(37).cel_compatibility_minor(), 36);
        assert!(!v(30).field_selectors());
        assert!(v(31).field_selectors());
        assert!(!v(35).publishes_external_docs_and_example());
        assert!(v(36).publishes_external_docs_and_example());
        assert!(KubeVersion::all().all(KubeVersion::validation_ratcheting));
        assert_eq!(KubeVersion::all().count(), 8);
        assert_eq!(v(33).to_string(), "1.33");
    }
}
