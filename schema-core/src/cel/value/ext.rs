//! `Val::Ext`: the values of the Kubernetes libraries.

use std::cmp::Ordering;

use super::ip::{Cidr, Ip};
use super::quantity::Quantity;
use super::semver::Semver;
use super::url::Url;

/// Values of the Kubernetes libraries.
#[derive(Debug)]
pub enum Ext {
    /// `kubernetes.Quantity`.
    Quantity(Quantity),
    /// `kubernetes.URL`.
    Url(Url),
    /// `net.IP`.
    Ip(Ip),
    /// `net.CIDR`.
    Cidr(Cidr),
    /// `kubernetes.NamedFormat`.
    Format(&'static str),
    /// `kubernetes.Semver`.
    Semver(Semver),
}

impl Ext {
    /// The CEL type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Ext::Quantity(_) => "kubernetes.Quantity",
            Ext::Url(_) => "kubernetes.URL",
            Ext::Ip(_) => "net.IP",
            Ext::Cidr(_) => "net.CIDR",
            Ext::Format(_) => "kubernetes.NamedFormat",
            Ext::Semver(_) => "kubernetes.Semver",
        }
    }

    /// Equality of two library values.
    pub fn equals(&self, other: &Ext) -> bool {
        match (self, other) {
            (Ext::Quantity(a), Ext::Quantity(b)) => a.compare(b) == Ordering::Equal,
            (Ext::Url(a), Ext::Url(b)) => a.raw == b.raw,
            (Ext::Ip(a), Ext::Ip(b)) => a == b,
            (Ext::Cidr(a), Ext::Cidr(b)) => a == b,
            (Ext::Format(a), Ext::Format(b)) => a == b,
            (Ext::Semver(a), Ext::Semver(b)) => a.compare(b) == Ordering::Equal,
            _ => false,
        }
    }
}
