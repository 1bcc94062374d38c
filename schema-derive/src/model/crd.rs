//! The checked model of `#[schema(crd(...))]`: required keys, the API
//! server's name rules and defaults (plural, singular, list kind), printer
//! columns, scale paths, the whole object (`object_root`).
//!
//! What needs the whole type graph (whether a printer column's path names
//! a field of the schema, the selectable fields' types) is checked when
//! `CustomResource::crd` builds the CRD.

use proc_macro2::Span;
use quote::format_ident;
use syn::spanned::Spanned;

use crate::checks::crd::{COLUMN_FORMATS, COLUMN_TYPES, check_path, name_errors};
use crate::checks::names;
use crate::ctxt::Ctxt;
use crate::parse::attrs::Attrs;
use crate::parse::crd::CrdAttrs;
use crate::parse::json::Json;
use crate::parse::values::Val;
use crate::symbol::*;

/// The attribute a custom resource is written with: the defaults of its
/// names and the words of the messages follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrdForm {
    /// `#[schema(crd(...))]`: controller-gen's defaults.
    Schema,
    /// kube-derive's `#[kube(...)]` (`#[derive(CustomResource)]`):
    /// kube-derive's defaults (its plural rule, no `listKind`).
    Kube,
}

impl CrdForm {
    /// The attribute, for messages.
    fn written(self) -> &'static str {
        match self {
            CrdForm::Schema => "`crd(...)`",
            CrdForm::Kube => "`#[kube(...)]`",
        }
    }
}

/// What the root type gets beyond `crd(...)`'s: kube-derive's
/// `derive = "..."`, `attr = "..."`, root rules and schema mode.
#[derive(Default)]
pub struct RootExtras {
    /// Derives of the root besides `Clone` and `Debug`.
    pub(crate) derives: Vec<syn::Path>,
    /// Attributes of the root (`#[...]`), in order.
    pub(crate) attrs: Vec<syn::Meta>,
    /// The root schema's own attributes (its CEL rules), when it has any.
    pub(crate) rules: Option<Attrs>,
    /// The CRD carries no schema (the spec and status need none).
    pub(crate) no_schema: bool,
    /// `new` writes the CRD's annotations and labels into the object's
    /// metadata too, as kube-derive's does.
    pub(crate) labels_on_new: bool,
    /// The root schema as kube-derive's (schemars') is: titled with the
    /// root type's name, and the status `nullable` (an `Option` field).
    pub(crate) kube_root: bool,
}

/// A printer column, checked.
pub struct ColumnModel {
    pub(crate) name: String,
    pub(crate) type_: String,
    pub(crate) json_path: String,
    pub(crate) description: Option<String>,
    pub(crate) format: Option<String>,
    pub(crate) priority: Option<i64>,
}

/// `crd(object_root, ...)`: the struct is the whole object.
pub struct ObjectRoot {
    /// The type of the `spec` field (`()` without one).
    pub(crate) spec: syn::Type,
}

/// The checked model of `crd(...)`.
pub struct CrdModel {
    pub(crate) root: syn::Ident,
    pub(crate) spec: syn::Ident,
    pub(crate) object_root: Option<ObjectRoot>,
    pub(crate) omitted_names: Vec<&'static str>,
    pub(crate) annotations: Vec<(String, String)>,
    pub(crate) labels: Vec<(String, String)>,
    pub(crate) conversion: Option<Json>,
    pub(crate) preserve_unknown_fields: Option<bool>,
    pub(crate) empty_subresources: bool,
    pub(crate) vis: syn::Visibility,
    pub(crate) group: String,
    pub(crate) version: String,
    pub(crate) kind: String,
    pub(crate) plural: String,
    pub(crate) singular: String,
    pub(crate) list_kind: String,
    pub(crate) short_names: Vec<String>,
    pub(crate) categories: Vec<String>,
    pub(crate) namespaced: bool,
    pub(crate) status: Option<syn::Type>,
    pub(crate) status_subresource: bool,
    pub(crate) spec_optional: bool,
    pub(crate) scale: Option<(String, String, Option<String>)>,
    pub(crate) columns: Vec<ColumnModel>,
    pub(crate) selectable_fields: Vec<String>,
    pub(crate) served: bool,
    pub(crate) storage: bool,
    pub(crate) deprecated: bool,
    pub(crate) deprecation_warning: Option<String>,
    pub(crate) doc: Option<String>,
    pub(crate) max_description_len: Option<i64>,
    pub(crate) generate_embedded_object_meta: bool,
    /// A compile-time warning at a span (controller-gen's and kube-derive's
    /// plurals differ and none is written).
    pub(crate) plural_warning: Option<(Span, String)>,
    /// What the root type gets beyond `crd(...)`'s.
    pub(crate) extras: RootExtras,
}

/// `crd(object_root, ...)`: the keys that only make sense around a spec
/// struct, and the fields the root needs.
fn object_root(
    cx: &Ctxt,
    a: &CrdAttrs,
    span: Span,
    fields: &[serde_derive_internals::ast::Field<'_>],
) -> ObjectRoot {
    let misplaced = [
        (
            STATUS,
            a.status.as_ref().map(|v| v.span),
            "the struct's own `status` field is the status",
        ),
        (
            SPEC_OPTIONAL,
            a.spec_optional.as_ref().map(|v| v.span),
            "the struct's own `spec` field says whether the spec is required",
        ),
        (
            DOC,
            a.doc.as_ref().map(|v| v.span),
            "the struct's doc comment (or `description`) describes the root",
        ),
        (
            ROOT,
            a.root.as_ref().map(|v| v.span),
            "the struct itself is the root type",
        ),
    ];
    for (key, at, why) in misplaced {
        if let Some(at) = at {
            cx.error(
                at,
                format!("`{key}` does not apply with `object_root`: {why}"),
            );
        }
    }
    let by_name = |name: &str| {
        fields
            .iter()
            .find(|f| f.attrs.name().serialize_name() == name && !f.attrs.skip_serializing())
    };
    match by_name("metadata") {
        None => cx.error(
            span,
            "`object_root` needs a `metadata` field (`pub metadata: schema_core::rust::ObjectMeta`), as every API object has",
        ),
        Some(f) => {
            let named_metadata =
                matches!(&f.member, syn::Member::Named(i) if i == "metadata");
            if !named_metadata {
                let at = f.original.ident.as_ref().map_or(f.original.span(), |i| i.span());
                cx.error(
                    at,
                    "the `metadata` field of an `object_root` struct must be named `metadata`",
                );
            }
        }
    }
    let spec = by_name("spec").map_or_else(|| syn::parse_quote!(()), |f| f.ty.clone());
    ObjectRoot { spec }
}

impl CrdModel {
    /// Whether the struct is the whole object (`crd(object_root)`).
    pub fn is_object_root(&self) -> bool {
        self.object_root.is_some()
    }
}

/// Checks `crd(...)` on the struct `input` and builds the model. `fields`
/// are the struct's fields when it has named ones (and is not a newtype
/// or transparent).
pub fn build(
    cx: &Ctxt,
    attr: &Val<Box<CrdAttrs>>,
    input: &syn::DeriveInput,
    fields: Option<&[serde_derive_internals::ast::Field<'_>]>,
    form: CrdForm,
) -> Option<CrdModel> {
    let written = form.written();
    let a = &attr.value;
    let span = attr.span;
    let Some(fields) = fields else {
        let shapes = match form {
            CrdForm::Kube => "a struct with named fields or an enum",
            CrdForm::Schema => "a struct with named fields",
        };
        cx.error(
            span,
            format!("{written} applies to {shapes}: the spec of the custom resource"),
        );
        return None;
    };
    let object = a
        .object_root
        .as_ref()
        .filter(|v| v.value)
        .map(|_| object_root(cx, a, span, fields));
    let has_status = fields
        .iter()
        .any(|f| f.attrs.name().serialize_name() == "status");
    if !input.generics.params.is_empty() {
        cx.error(
            input.generics.span(),
            format!("{written} needs a spec struct without generic parameters"),
        );
    }
    for (key, v) in [(GROUP, &a.group), (VERSION, &a.version), (KIND, &a.kind)] {
        if v.is_none() {
            cx.error(span, format!("{written} needs `{key} = \"...\"`"));
        }
    }
    let (Some(group), Some(version), Some(kind)) = (&a.group, &a.version, &a.kind) else {
        return None;
    };
    name_errors(cx, group, "group", names::group_errors(&group.value));
    name_errors(cx, version, "version", names::dns1035_label(&version.value));
    if kind.value.is_empty() {
        cx.error(kind.span, "`kind` must not be empty");
    } else {
        name_errors(cx, kind, "kind", names::kind_errors(&kind.value));
    }
    let singular = match (&a.singular, form) {
        (Some(s), _) => s.value.clone(),
        (None, CrdForm::Schema) => kind.value.to_lowercase(),
        (None, CrdForm::Kube) => kind.value.to_ascii_lowercase(),
    };
    let kube_plural = names::kube_plural(&singular);
    let plural = match (&a.plural, form) {
        (Some(p), _) => p.value.clone(),
        (None, CrdForm::Schema) => names::plural(&kind.value),
        (None, CrdForm::Kube) => kube_plural.clone(),
    };
    if let Some(p) = &a.plural {
        name_errors(cx, p, "plural", names::dns1035_label(&p.value));
    } else if !kind.value.is_empty() && !names::dns1035_label(&plural).is_empty() {
        cx.error(
            kind.span,
            format!(
                "the plural of kind {:?} would be {plural:?}, which is not a DNS-1035 label; give one with `plural = \"...\"`",
                kind.value
            ),
        );
    }
    if let Some(s) = &a.singular {
        name_errors(cx, s, "singular", names::dns1035_label(&s.value));
    }
    let plural_warning = (a.plural.is_none()
        && form == CrdForm::Schema
        && !kind.value.is_empty()
        && plural != kube_plural)
        .then(|| {
            (
                kind.span,
                format!(
                    "the kind {:?} has the plural {plural:?} by controller-gen's rule (this derive's default) but {kube_plural:?} by kube-derive's, so the CRD's name and API path depend on the tool: write `plural = \"{plural}\"` (or `plural = \"{kube_plural}\"`) to choose one and silence this warning",
                    kind.value
                ),
            )
        });
    let list_kind = a
        .list_kind
        .as_ref()
        .map_or_else(|| format!("{}List", kind.value), |l| l.value.clone());
    if let Some(l) = &a.list_kind {
        name_errors(cx, l, "list_kind", names::kind_errors(&l.value));
        if l.value == kind.value {
            cx.error(l.span, "kind and listKind may not be the same");
        }
    }
    let mut short_names = Vec::new();
    for s in a.short_names.iter().flat_map(|l| &l.value) {
        name_errors(cx, s, "short name", names::dns1035_label(&s.value));
        short_names.push(s.value.clone());
    }
    let mut categories = Vec::new();
    for c in a.categories.iter().flat_map(|l| &l.value) {
        name_errors(cx, c, "category", names::dns1035_label(&c.value));
        categories.push(c.value.clone());
    }

    // The root type's name.
    let root_name = a.root.as_ref().unwrap_or(kind);
    let root = if object.is_some() {
        input.ident.clone()
    } else {
        match syn::parse_str::<syn::Ident>(&root_name.value) {
            Ok(_) => format_ident!("{}", root_name.value, span = root_name.span),
            Err(_) => {
                let hint = if a.root.is_some() {
                    ""
                } else {
                    "; name the root type with `root = \"...\"`"
                };
                cx.error(
                    root_name.span,
                    format!(
                        "`{}` is not a Rust identifier, so it cannot name the root type{hint}",
                        root_name.value
                    ),
                );
                return None;
            }
        }
    };
    if root == input.ident && object.is_none() {
        let msg = if a.root.is_some() {
            format!(
                "the root `{}` is the spec struct's own name: the derive generates the root type next to the spec, so it needs another name",
                root_name.value
            )
        } else {
            format!(
                "the kind `{0}` is the spec struct's own name: the derive generates the root type `{0}` next to it; name the spec `{0}Spec`, or the root with `root = \"...\"`",
                root_name.value
            )
        };
        cx.error(root_name.span, msg);
    }

    let has_status = if object.is_some() {
        has_status
    } else {
        a.status.is_some()
    };
    // With `object_root`, the subresource follows the `status` field
    // unless it is written (the API server allows either without the
    // other).
    let status_subresource = match (&a.status_subresource, &object) {
        (Some(s), Some(_)) => s.value,
        (None, Some(_)) => has_status,
        (Some(s), None) => {
            if !has_status {
                cx.error(
                    s.span,
                    "`status_subresource` needs a status: `status = StatusType`",
                );
            }
            has_status && s.value
        }
        (None, None) => has_status,
    };
    let scale = match &a.scale {
        None => None,
        Some(sc) => {
            if !has_status && object.is_none() {
                cx.error(
                    sc.span,
                    "`scale(...)` needs a status (`status = StatusType`): the status replicas path points into it",
                );
            }
            let s = &sc.value;
            if let Some(p) = &s.spec_replicas_path {
                check_path(cx, p, "spec_replicas_path", &[".spec."]);
            }
            if let Some(p) = &s.status_replicas_path {
                check_path(cx, p, "status_replicas_path", &[".status."]);
            }
            if let Some(p) = &s.label_selector_path {
                check_path(cx, p, "label_selector_path", &[".spec.", ".status."]);
            }
            match (&s.spec_replicas_path, &s.status_replicas_path) {
                (Some(spec), Some(status)) => Some((
                    spec.value.clone(),
                    status.value.clone(),
                    s.label_selector_path.as_ref().map(|v| v.value.clone()),
                )),
                _ => None,
            }
        }
    };

    let mut columns = Vec::new();
    // Names may repeat: the API server accepts it (cluster-api's
    // MachineDeployment has two `Available` columns).
    for c in &a.printer_columns {
        let c = &c.value;
        if let Some(n) = &c.name {
            if n.value.is_empty() {
                cx.error(n.span, "a printer column needs a non-empty `name`");
            }
        }
        if let Some(t) = &c.type_ {
            if !COLUMN_TYPES.contains(&t.value.as_str()) {
                cx.error(
                    t.span,
                    format!(
                        "unsupported printer column type {:?}: must be one of {}",
                        t.value,
                        COLUMN_TYPES.join(",")
                    ),
                );
            }
        }
        if let Some(f) = &c.format {
            if !COLUMN_FORMATS.contains(&f.value.as_str()) {
                cx.error(
                    f.span,
                    format!(
                        "unsupported printer column format {:?}: must be one of {}",
                        f.value,
                        COLUMN_FORMATS.join(",")
                    ),
                );
            }
        }
        if let Some(p) = &c.json_path {
            check_path(cx, p, "printer column json_path", &[]);
        }
        if let (Some(name), Some(type_), Some(json_path)) = (&c.name, &c.type_, &c.json_path) {
            columns.push(ColumnModel {
                name: name.value.clone(),
                type_: type_.value.clone(),
                json_path: json_path.value.clone(),
                description: c.description.as_ref().map(|v| v.value.clone()),
                format: c.format.as_ref().map(|v| v.value.clone()),
                priority: c.priority.as_ref().map(|v| v.value),
            });
        }
    }
    let mut selectable_fields = Vec::new();
    for f in &a.selectable_fields {
        check_path(cx, f, "selectable_field", &[]);
        if selectable_fields.contains(&f.value) {
            cx.error(f.span, format!("duplicate selectable field {:?}", f.value));
        }
        selectable_fields.push(f.value.clone());
    }
    if let Some(f) = a.selectable_fields.get(8) {
        cx.error(
            f.span,
            "too many selectable fields: a version may have at most 8",
        );
    }
    if let Some(w) = &a.deprecation_warning {
        if w.value.len() > 256 {
            cx.error(
                w.span,
                "`deprecation_warning` must be no more than 256 characters",
            );
        }
    }
    let deprecation_warning = a.deprecation_warning.as_ref().map(|v| v.value.clone());
    let mut omitted_names = Vec::new();
    if form == CrdForm::Kube {
        // kube-derive leaves `listKind` for the API server to default.
        omitted_names.push("listKind");
    }
    if Attrs::flag(&a.explicit_names) {
        if a.singular.is_none() {
            omitted_names.push("singular");
        }
        if a.list_kind.is_none() {
            omitted_names.push("listKind");
        }
    }
    Some(CrdModel {
        root,
        spec: input.ident.clone(),
        object_root: object,
        omitted_names,
        labels: a
            .labels
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        conversion: a.conversion.as_ref().map(|v| v.value.clone()),
        preserve_unknown_fields: a.preserve_unknown_fields.as_ref().map(|v| v.value),
        annotations: a
            .annotations
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        empty_subresources: Attrs::flag(&a.empty_subresources),
        vis: input.vis.clone(),
        group: group.value.clone(),
        version: version.value.clone(),
        kind: kind.value.clone(),
        plural,
        singular,
        list_kind,
        short_names,
        categories,
        namespaced: Attrs::flag(&a.namespaced),
        status: a.status.as_ref().map(|s| s.value.clone()),
        status_subresource,
        spec_optional: Attrs::flag(&a.spec_optional),
        scale,
        columns,
        selectable_fields,
        served: a.served.as_ref().is_none_or(|s| s.value),
        storage: a.storage.as_ref().is_none_or(|s| s.value),
        deprecated: Attrs::flag(&a.deprecated) || deprecation_warning.is_some(),
        deprecation_warning,
        doc: a.doc.as_ref().map(|d| d.value.clone()),
        max_description_len: a.max_description_len.as_ref().map(|v| v.value),
        generate_embedded_object_meta: Attrs::flag(&a.generate_embedded_object_meta),
        plural_warning,
        extras: RootExtras::default(),
    })
}
