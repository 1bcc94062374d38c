//! The markers controller-gen v0.21's crd generator registers, by what they
//! do ([`Def`]), on fields and on types ([`Target`]); how it splits a marker
//! line into name and argument and looks the name up; and the order it
//! applies a node's markers in.

use super::go::{MarkerValue, Markers};

/// Where a marker sits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Target {
    Field,
    Type,
}

/// The markers controller-gen's crd generator registers, by what they do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Def {
    Maximum,
    Minimum,
    ExclusiveMaximum,
    ExclusiveMinimum,
    MultipleOf,
    MinProperties,
    MaxProperties,
    MaxLength,
    MinLength,
    Pattern,
    MaxItems,
    MinItems,
    UniqueItems,
    Enum,
    Format,
    Type,
    PreserveUnknownFields,
    EmbeddedResource,
    IntOrString,
    XValidation,
    Nullable,
    Default,
    KubernetesDefault,
    Example,
    Title,
    ExternalDocs,
    Schemaless,
    Immutable,
    ListType,
    ListMapKey,
    MapType,
    StructType,
    K8sEnum,
    K8sEnumOnField,
    OneOf,
    /// `required`, `optional` and their variants: no schema keys of their
    /// own (they decide the parent's `required`).
    Requiredness,
}

/// The `kubebuilder:validation:` markers valid on fields, types and (with
/// `items:`) array items, by their name after that prefix.
fn validation_marker(name: &str) -> Option<Def> {
    Some(match name {
        "Maximum" => Def::Maximum,
        "Minimum" => Def::Minimum,
        "ExclusiveMaximum" => Def::ExclusiveMaximum,
        "ExclusiveMinimum" => Def::ExclusiveMinimum,
        "MultipleOf" => Def::MultipleOf,
        "MinProperties" => Def::MinProperties,
        "MaxProperties" => Def::MaxProperties,
        "MaxLength" => Def::MaxLength,
        "MinLength" => Def::MinLength,
        "Pattern" => Def::Pattern,
        "MaxItems" => Def::MaxItems,
        "MinItems" => Def::MinItems,
        "UniqueItems" => Def::UniqueItems,
        "Enum" => Def::Enum,
        "Format" => Def::Format,
        "Type" => Def::Type,
        "XPreserveUnknownFields" => Def::PreserveUnknownFields,
        "XEmbeddedResource" => Def::EmbeddedResource,
        "XIntOrString" => Def::IntOrString,
        "XValidation" => Def::XValidation,
        _ => return None,
    })
}

/// A registered marker name, and whether it is an `items:` marker.
fn registered(name: &str, target: Target) -> Option<(Def, bool)> {
    if let Some(rest) = name.strip_prefix("kubebuilder:validation:items:") {
        return validation_marker(rest).map(|d| (d, true));
    }
    if let Some(rest) = name.strip_prefix("kubebuilder:validation:") {
        if let Some(d) = validation_marker(rest) {
            return Some((d, false));
        }
    }
    let both = match name {
        "kubebuilder:pruning:PreserveUnknownFields" => Some(Def::PreserveUnknownFields),
        "kubebuilder:title" => Some(Def::Title),
        "kubebuilder:externalDocs" => Some(Def::ExternalDocs),
        "listType" => Some(Def::ListType),
        "listMapKey" => Some(Def::ListMapKey),
        "mapType" => Some(Def::MapType),
        "structType" => Some(Def::StructType),
        _ => None,
    };
    if let Some(d) = both {
        return Some((d, false));
    }
    let d = match target {
        Target::Field => match name {
            "kubebuilder:validation:Required"
            | "kubebuilder:validation:Optional"
            | "required"
            | "optional"
            | "k8s:required"
            | "k8s:optional" => Def::Requiredness,
            "nullable" => Def::Nullable,
            "kubebuilder:default" => Def::Default,
            "default" => Def::KubernetesDefault,
            "kubebuilder:example" => Def::Example,
            "kubebuilder:validation:EmbeddedResource" => Def::EmbeddedResource,
            "kubebuilder:validation:Schemaless" => Def::Schemaless,
            "k8s:immutable" => Def::Immutable,
            "k8s:enum" => Def::K8sEnumOnField,
            _ => return None,
        },
        Target::Type => match name {
            "kubebuilder:validation:AtMostOneOf"
            | "kubebuilder:validation:ExactlyOneOf"
            | "kubebuilder:validation:AtLeastOneOf" => Def::OneOf,
            "k8s:enum" => Def::K8sEnum,
            _ => return None,
        },
    };
    Some((d, false))
}

/// controller-gen's `splitMarker` of a marker line without its `+`: the
/// name, the name when the marker is not a struct (`a:b:c` for
/// `a:b:c=x`), and the text after the first `=`.
pub(super) fn split_marker(raw: &str) -> (&str, &str, Option<&str>) {
    let Some((anon, rest)) = raw.split_once('=') else {
        return (raw, raw, None);
    };
    let name = anon.rsplit_once(':').map_or(anon, |(n, _)| n);
    (name, anon, Some(rest))
}

/// The registered definition of a marker line (controller-gen's
/// `tryAnonLookup`: the full name first, then the name without its last
/// `:` segment when the line has a value).
pub(super) fn lookup(raw: &str, target: Target) -> Option<(Def, bool)> {
    let (name, anon, _) = split_marker(raw);
    registered(anon, target).or_else(|| registered(name, target))
}

/// Whether a type's markers include one controller-gen applies to its
/// schema.
pub(super) fn has_schema_markers(markers: &Markers) -> bool {
    lines(markers)
        .iter()
        .any(|l| lookup(l, Target::Type).is_some())
}

/// The marker lines of a node, in source order (a repeated marker once per
/// value).
pub(super) fn lines(markers: &Markers) -> Vec<String> {
    let mut out = Vec::new();
    for (name, value) in markers {
        push_lines(name, value, &mut out);
    }
    out
}

fn push_lines(name: &str, value: &MarkerValue, out: &mut Vec<String>) {
    match value {
        MarkerValue::Flag => out.push(name.to_string()),
        MarkerValue::Text(v) => out.push(format!("{name}={v}")),
        MarkerValue::List(values) => {
            for v in values {
                push_lines(name, v, out);
            }
        }
    }
}

/// The order controller-gen applies markers in (`ApplyPriority`; equal
/// priorities in an order that does not matter for the markers here).
pub(super) fn priority(def: Def) -> i32 {
    match def {
        Def::Type | Def::IntOrString | Def::ListType | Def::KubernetesDefault => 9,
        Def::OneOf => 11,
        _ => 10,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::k8s_markers::arguments::parse_any_slice;

    #[test]
    fn marker_lines_split_as_controller_gen_splits_them() {
        assert_eq!(
            split_marker("listType=atomic"),
            ("listType", "listType", Some("atomic"))
        );
        assert_eq!(
            split_marker("kubebuilder:validation:XValidation:rule=\"a=b\""),
            (
                "kubebuilder:validation:XValidation",
                "kubebuilder:validation:XValidation:rule",
                Some("\"a=b\"")
            )
        );
        assert_eq!(
            lookup("optional", Target::Field),
            Some((Def::Requiredness, false))
        );
        assert_eq!(lookup("optional", Target::Type), None);
        assert_eq!(lookup("default=\"x\"", Target::Type), None);
        assert_eq!(
            lookup("k8s:alpha(since: \"1.36\")=+k8s:optional", Target::Field),
            None
        );
        assert_eq!(
            parse_any_slice("True;False;Unknown").unwrap(),
            vec![json!("True"), json!("False"), json!("Unknown")]
        );
        assert_eq!(
            parse_any_slice("{1,\"a,b\",true}").unwrap(),
            vec![json!(1), json!("a,b"), json!(true)]
        );
    }
}
