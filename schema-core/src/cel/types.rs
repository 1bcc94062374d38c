//! CEL types as the type checker sees them (cel-go's `common/types.Type`),
//! including the opaque and object types of the Kubernetes libraries.

use std::fmt;

/// Declares [`Type`] and its [`Kind`] from one list: each variant of
/// `Type`, documented, with its payload, and the `Kind` it has.
macro_rules! types_and_kinds {
    ($($(#[doc = $doc:literal])* $variant:ident $(($($payload:ty),+))? => $kind:ident,)+) => {
        /// A CEL type.
        // `TypeParam` and `TypeType` are cel-go's names.
        #[allow(clippy::enum_variant_names)]
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Type {
            $($(#[doc = $doc])* $variant $(($($payload),+))?,)+
        }

        /// The kind of a [`Type`], as cel-go's `types.Kind`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Kind {
            $($kind,)+
        }

        impl Type {
            /// The kind of the type.
            pub fn kind(&self) -> Kind {
                match self {
                    $(Type::$variant { .. } => Kind::$kind,)+
                }
            }
        }
    };
}

types_and_kinds! {
    /// `bool`.
    Bool => Bool,
    /// `bytes`.
    Bytes => Bytes,
    /// `double`.
    Double => Double,
    /// `google.protobuf.Duration`.
    Duration => Duration,
    /// `int`.
    Int => Int,
    /// `null_type`.
    Null => Null,
    /// `string`.
    String => String,
    /// `google.protobuf.Timestamp`.
    Timestamp => Timestamp,
    /// `uint`.
    Uint => Uint,
    /// `dyn`.
    Dyn => Dyn,
    /// The error type of an expression that failed to check.
    Error => Error,
    /// `list(T)`.
    List(Box<Type>) => List,
    /// `map(K, V)`.
    Map(Box<Type>, Box<Type>) => Map,
    /// An object (struct) type known by name: schema objects and the
    /// Kubernetes object types (`kubernetes.Quantity`, `kubernetes.URL`, …).
    Struct(String) => Struct,
    /// An opaque type with parameters: `optional_type(T)`, `net.IP`,
    /// `net.CIDR`, and the internal `function` type.
    Opaque(String, Vec<Type>) => Opaque,
    /// A type parameter (`A`, `_var0`).
    TypeParam(String) => TypeParam,
    /// `type`, or `type(T)`.
    TypeType(Option<Box<Type>>) => Type,
}

/// The name of the optional type.
pub const OPTIONAL_TYPE: &str = "optional_type";

impl Type {
    /// `list(t)`.
    pub fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }

    /// `map(k, v)`.
    pub fn map(k: Type, v: Type) -> Type {
        Type::Map(Box::new(k), Box::new(v))
    }

    /// `optional_type(t)`.
    pub fn optional(t: Type) -> Type {
        Type::Opaque(OPTIONAL_TYPE.to_string(), vec![t])
    }

    /// A type parameter.
    pub fn param(name: &str) -> Type {
        Type::TypeParam(name.to_string())
    }

    /// `type(t)`.
    pub fn type_of(t: Type) -> Type {
        Type::TypeType(Some(Box::new(t)))
    }

    /// The declared type name (cel-go's `DeclaredTypeName`).
    pub fn type_name(&self) -> &str {
        match self {
            Type::Bool => "bool",
            Type::Bytes => "bytes",
            Type::Double => "double",
            Type::Duration => "google.protobuf.Duration",
            Type::Int => "int",
            Type::Null => "null_type",
            Type::String => "string",
            Type::Timestamp => "google.protobuf.Timestamp",
            Type::Uint => "uint",
            Type::Dyn => "dyn",
            Type::Error => "*error*",
            Type::List(_) => "list",
            Type::Map(..) => "map",
            Type::Struct(n) | Type::Opaque(n, _) | Type::TypeParam(n) => n,
            Type::TypeType(_) => "type",
        }
    }

    /// The type parameters (element types, optional's value type, …).
    pub fn parameters(&self) -> Vec<&Type> {
        match self {
            Type::List(e) => vec![e],
            Type::Map(k, v) => vec![k, v],
            Type::Opaque(_, ps) => ps.iter().collect(),
            Type::TypeType(Some(t)) => vec![t],
            _ => Vec::new(),
        }
    }

    /// Whether this is `optional_type(T)`.
    pub fn is_optional(&self) -> bool {
        matches!(self, Type::Opaque(n, ps) if n == OPTIONAL_TYPE && ps.len() == 1)
    }

    /// The value type of an optional, or `None`.
    pub fn optional_value(&self) -> Option<&Type> {
        match self {
            Type::Opaque(n, ps) if n == OPTIONAL_TYPE && ps.len() == 1 => ps.first(),
            _ => None,
        }
    }

    /// Whether this is `dyn`.
    pub fn is_dyn(&self) -> bool {
        matches!(self, Type::Dyn)
    }

    /// Whether this is `dyn` or the error type.
    pub fn is_dyn_or_error(&self) -> bool {
        matches!(self, Type::Dyn | Type::Error)
    }

    /// cel-go's `IsAssignableType` (the default one: exact kinds, names
    /// and parameters, `dyn` accepting everything).
    pub fn is_assignable_type(&self, from: &Type) -> bool {
        if self == from || self.is_dyn() {
            return true;
        }
        if self.kind() != from.kind() || self.type_name() != from.type_name() {
            return false;
        }
        let (a, b) = (self.parameters(), from.parameters());
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.is_assignable_type(y))
    }

    /// cel-go's `IsEquivalentType`: equal up to the parameters of `type`.
    pub fn is_equivalent_type(&self, other: &Type) -> bool {
        if self.kind() != other.kind() || self.type_name() != other.type_name() {
            return false;
        }
        let (a, b) = (self.parameters(), other.parameters());
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.is_equivalent_type(y))
    }

    /// Whether the type is known to have a constant size (cel-go's
    /// `isScalar` in the cost estimator).
    pub fn is_scalar(&self) -> bool {
        match self {
            Type::Bool
            | Type::Double
            | Type::Duration
            | Type::Int
            | Type::Timestamp
            | Type::Uint => true,
            Type::Opaque(n, ps) if n == OPTIONAL_TYPE => ps.first().is_some_and(Type::is_scalar),
            _ => false,
        }
    }
}

impl fmt::Display for Type {
    /// cel-go's `FormatCELType`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Duration => return f.write_str("duration"),
            Type::Timestamp => return f.write_str("timestamp"),
            Type::Null => return f.write_str("null"),
            Type::Error => return f.write_str("!error!"),
            _ => {}
        }
        let params = self.parameters();
        if params.is_empty() {
            return f.write_str(self.type_name());
        }
        write!(f, "{}(", self.type_name())?;
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        f.write_str(")")
    }
}

/// The Kubernetes and library types by name.
pub mod k8s {
    use super::Type;

    /// `kubernetes.URL`.
    pub fn url() -> Type {
        Type::Struct("kubernetes.URL".into())
    }
    /// `kubernetes.Quantity`.
    pub fn quantity() -> Type {
        Type::Struct("kubernetes.Quantity".into())
    }
    /// `kubernetes.NamedFormat`.
    pub fn format() -> Type {
        Type::Struct("kubernetes.NamedFormat".into())
    }
    /// `kubernetes.Semver`.
    pub fn semver() -> Type {
        Type::Struct("kubernetes.Semver".into())
    }
    /// `net.IP`.
    pub fn ip() -> Type {
        Type::Opaque("net.IP".into(), Vec::new())
    }
    /// `net.CIDR`.
    pub fn cidr() -> Type {
        Type::Opaque("net.CIDR".into(), Vec::new())
    }
    /// An authorization library type (`kubernetes.authorization.<name>`).
    pub fn authz(name: &str) -> Type {
        Type::Struct(format!("kubernetes.authorization.{name}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_cel_go() {
        assert_eq!(Type::list(Type::Int).to_string(), "list(int)");
        assert_eq!(
            Type::map(Type::String, Type::optional(Type::Dyn)).to_string(),
            "map(string, optional_type(dyn))"
        );
        assert_eq!(Type::Duration.to_string(), "duration");
        assert_eq!(Type::type_of(Type::Int).to_string(), "type(int)");
        assert_eq!(Type::Null.to_string(), "null");
    }
}
