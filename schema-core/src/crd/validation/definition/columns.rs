//! Additional printer columns (`ValidateCustomResourceColumnDefinition`)
//! and selectable fields (`ValidateCustomResourceSelectableFields`).

use super::subresources::simple_json_path_error;
use crate::cel::field_path::{FieldPathError, valid_field_path};
use crate::crd::internal::opt_str;
use crate::model::field::{ErrorList, FieldError, Path, PathElement};
use crate::model::structural::Structural;
use crate::model::wire::{JsonSchemaProps, PrinterColumn, SelectableField};

const COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

/// `ValidateCustomResourceColumnDefinition` (the path of the JSON path is
/// the internal field name `JSONPath`).
pub(super) fn validate_column(col: &PrinterColumn, p: &Path, errs: &mut ErrorList) {
    if opt_str(col.name.as_ref()).is_empty() {
        errs.push(FieldError::required(&p.child("name"), ""));
    }
    let t = opt_str(col.type_.as_ref());
    let type_detail = format!("must be one of {COLUMN_TYPES}");
    if t.is_empty() {
        errs.push(FieldError::required(&p.child("type"), type_detail));
    } else if !COLUMN_TYPES.split(',').any(|x| x == t) {
        errs.push(FieldError::invalid(&p.child("type"), t, type_detail));
    }
    let f = opt_str(col.format.as_ref());
    if !f.is_empty() && !COLUMN_FORMATS.split(',').any(|x| x == f) {
        errs.push(FieldError::invalid(
            &p.child("format"),
            f,
            format!("must be one of {COLUMN_FORMATS}"),
        ));
    }
    let jp = opt_str(col.json_path.as_ref());
    let fp = p.child("JSONPath");
    if jp.is_empty() {
        errs.push(FieldError::required(&fp, ""));
    } else if let Some(e) = simple_json_path_error(jp, &fp) {
        errs.push(e);
    }
}

/// The most selectable fields a version may have (`MaxSelectableFields`).
pub(crate) const MAX_SELECTABLE_FIELDS: usize = 8;

/// Builds the structural schema (reporting a `NewStructural` error at
/// `schema_path`) and validates the selectable fields against it. Where
/// the server would dereference the missing structural schema (and answer
/// with an internal error), validation of the fields stops.
pub(super) fn validate_selectable_fields_with_schema(
    fields: &[SelectableField],
    schema: Option<&JsonSchemaProps>,
    schema_path: &Path,
    p: &Path,
    allow_too_many: bool,
    errs: &mut ErrorList,
) {
    let structural = match schema.map(Structural::from_props) {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            errs.push(FieldError::invalid(schema_path, "", e.0));
            None
        }
    };
    validate_selectable_fields(fields, structural.as_ref(), p, allow_too_many, errs);
}

/// `ValidateCustomResourceSelectableFields`; `allow_too_many` is the
/// update's `allowTooManySelectableFields` for these fields.
fn validate_selectable_fields(
    fields: &[SelectableField],
    schema: Option<&Structural>,
    p: &Path,
    allow_too_many: bool,
    errs: &mut ErrorList,
) {
    let mut unique: Vec<String> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let fp = p.index(i).child("jsonPath");
        let jp = opt_str(f.json_path.as_ref());
        if jp.is_empty() {
            errs.push(FieldError::required(&fp, ""));
            continue;
        }
        let (path, found) = match valid_field_path(jp, schema, false) {
            Ok(r) => r,
            Err(FieldPathError::Message(m)) => {
                errs.push(FieldError::invalid(
                    &fp,
                    jp,
                    format!("is an invalid path: {m}"),
                ));
                continue;
            }
            // The server would dereference a nil schema here.
            Err(FieldPathError::NilSchema(_)) => return,
        };
        if matches!(path.elements().first(), Some(PathElement::Child(c)) if c == "metadata") {
            errs.push(FieldError::invalid(
                &fp,
                jp,
                "must not point to fields in metadata",
            ));
        }
        let allowed = found
            .is_some_and(|s| matches!(s.generic.type_.as_str(), "string" | "boolean" | "integer"));
        if !allowed {
            errs.push(FieldError::invalid(
                &fp,
                jp,
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        let key = path.to_string();
        if unique.contains(&key) {
            errs.push(FieldError::duplicate(&fp, jp));
        } else {
            unique.push(key);
        }
    }
    if unique.len() > MAX_SELECTABLE_FIELDS && !allow_too_many {
        errs.push(FieldError::too_many(
            p,
            i64::try_from(unique.len()).unwrap_or(i64::MAX),
            i64::try_from(MAX_SELECTABLE_FIELDS).unwrap_or(i64::MAX),
        ));
    }
}
