//! [`Options`]: the settings every entry point takes once, so that no
//! entry point has a twin per setting.

use super::kube_version::KubeVersion;

/// How an entry point judges: as the API server of which Kubernetes
/// release. The default judges as the newest release supported
/// ([`KubeVersion::NEWEST`]).
///
/// ```
/// use schema_core::{KubeVersion, Options};
///
/// let at_1_33 = Options::default().with_kube_version(KubeVersion::new(33).unwrap());
/// assert_eq!(at_1_33.kube_version.minor(), 33);
/// assert_eq!(Options::default().kube_version, KubeVersion::NEWEST);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Options {
    /// The release whose API server is reproduced.
    pub kube_version: KubeVersion,
}

impl Options {
    /// The options that judge as the newest release supported.
    #[must_use]
    pub const fn new() -> Self {
        Options {
            kube_version: KubeVersion::NEWEST,
        }
    }

    /// These options, judging as the API server of `kube` instead.
    #[must_use]
    pub const fn with_kube_version(mut self, kube: KubeVersion) -> Self {
        self.kube_version = kube;
        self
    }
}
