//! The checked model of `#[derive(CustomResource)]` (kube-derive's
//! attributes): the custom resource in the same [`CrdModel`] as
//! `#[schema(crd(...))]`'s, built with kube-derive's defaults, and what
//! kube-derive's root type has besides (`Default`, `cel`).

use crate::checks::syntax::{self, Class};
use crate::ctxt::Ctxt;
use crate::model::crd::{self, CrdForm, CrdModel};
use crate::parse::attrs::Attrs;
use crate::parse::kube::{self, SchemaMode};
use crate::parse::values::Val;
use crate::symbol::VALIDATION;

/// The checked model of `#[derive(CustomResource)]`.
pub struct KubeModel {
    /// The custom resource, with the root's derives, attributes and rules.
    pub(crate) crd: CrdModel,
    /// The path of the runtime crate.
    pub(crate) krate: syn::Path,
    /// `derive = "Default"`: an implementation with empty metadata, the
    /// spec's default and no status.
    pub(crate) default: bool,
    /// `cel`: `validate_cel` and `validate_cel_update` on the root.
    pub(crate) cel: bool,
    /// The rules written with kube's `Rule` builder: the expressions are
    /// compiled (never run), so that their paths resolve as with
    /// kube-derive.
    pub(crate) rule_exprs: Vec<syn::Expr>,
}

/// Reads and checks `#[kube(...)]` on `input`.
pub fn build(cx: &Ctxt, input: &syn::DeriveInput) -> Option<KubeModel> {
    let a = kube::parse(cx, &input.attrs);
    let Some(span) = a.span else {
        cx.error(
            input.ident.span(),
            "`#[derive(CustomResource)]` needs `#[kube(group = \"...\", version = \"...\", kind = \"...\")]`",
        );
        return None;
    };
    // The spec is a struct with named fields or, as kube-derive allows, an
    // enum (its schema is the enum's own).
    let named = match &input.data {
        syn::Data::Struct(s) => matches!(s.fields, syn::Fields::Named(_)),
        syn::Data::Enum(_) => true,
        syn::Data::Union(_) => false,
    };
    let attr = Val {
        value: Box::new(a.crd),
        span,
    };
    // The root's own fields are generated, so the spec's are not needed.
    let no_fields: &[serde_derive_internals::ast::Field<'_>] = &[];
    let mut model = crd::build(cx, &attr, input, named.then_some(no_fields), CrdForm::Kube)?;
    let mut default = false;
    for d in a.derives {
        if d.value.is_ident("Default") {
            default = true;
        } else {
            model.extras.derives.push(d.value);
        }
    }
    model.extras.attrs = a.attrs;
    model.extras.labels_on_new = true;
    model.extras.kube_root = true;
    // kube-derive documents the root type, and so describes the root
    // schema, with `doc`, else with this sentence.
    if model.doc.is_none() {
        model.doc = Some(format!(
            "Auto-generated derived type for {} via `CustomResource`",
            input.ident
        ));
    }
    let mode = a.schema.as_ref().map_or(SchemaMode::Derived, |m| m.value);
    model.extras.no_schema = mode != SchemaMode::Derived;
    let cel = a.cel.as_ref().is_some_and(|c| c.value);
    let rule_exprs = a.rule_exprs;
    if model.extras.no_schema {
        let without = a.validations.first().map(|v| (v.span, "`validation`")).or(a
            .cel
            .as_ref()
            .filter(|c| c.value)
            .map(|c| (c.span, "`cel`")));
        if let Some((at, key)) = without {
            cx.error(
                at,
                format!(
                    "{key} needs the derived schema (the rules live in it); it cannot be combined with `schema = \"manual\"` or `\"disabled\"`"
                ),
            );
        }
    }
    if !a.validations.is_empty() {
        let rules = Attrs {
            validations: a.validations,
            keys: vec![VALIDATION.to_string()],
            ..Attrs::default()
        };
        syntax::check_attrs(cx, &rules, Class::Object, None);
        model.extras.rules = Some(rules);
    }
    Some(KubeModel {
        crd: model,
        krate: syn::parse_quote!(::schema_core),
        default,
        cel,
        rule_exprs,
    })
}
