//! Where a field error points in the source: from a [`Path`] (a field
//! path as errors and warnings name it) to the line and column of a
//! [`Document`].
//!
//! A field path and the JSON path of a node differ in two ways: value
//! validation reports a whole dotted path as one named child
//! (`openAPIV3Schema.type`), and a path may name fields the document does
//! not have (a missing required property, a defaulted field). The first is
//! undone by splitting such children ([`json_path`]); for the second the
//! nearest enclosing node that exists is taken ([`locate_field`]).
//!
//! The mapping from the server's internal CRD layout to the one written is
//! the CRD validation's (`crd::internal::submitted_location`), not
//! this module's.

use crate::model::field::{Path, PathElement};
use crate::model::source::{Document, Location, PathSegment};

/// The JSON path of the node `field` names: every element as one step,
/// named children holding `.` or `[` split as [`Path::parse`] reads them.
#[must_use]
pub fn json_path(field: &Path) -> Vec<PathSegment> {
    let mut out = Vec::new();
    push_json_path(field, &mut out);
    out
}

fn push_json_path(field: &Path, out: &mut Vec<PathSegment>) {
    for element in field.elements() {
        match element {
            PathElement::Child(name) if name.contains(['.', '[']) => {
                push_json_path(&Path::parse(&name), out);
            }
            PathElement::Child(name) | PathElement::Key(name) => out.push(PathSegment::Key(name)),
            PathElement::Index(i) => out.push(PathSegment::Index(i)),
        }
    }
}

/// The location of the deepest node of `field` that `doc` has, `field`
/// being relative to the node at `base` (the schema or object inside the
/// document; empty for the document root). A field the document lacks
/// entirely, `base` included, is located at the document's start.
#[must_use]
pub fn locate_field(doc: &Document, base: &[PathSegment], field: &Path) -> Location {
    let mut path = base.to_vec();
    push_json_path(field, &mut path);
    while !path.is_empty() {
        if let Some(location) = doc.locate(&path) {
            return location;
        }
        path.pop();
    }
    doc.start
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::source::{Limits, parse_documents};

    fn document(text: &str) -> Document {
        let mut docs =
            parse_documents("test.yaml", text.as_bytes(), &Limits::default()).expect("parses");
        assert_eq!(docs.len(), 1);
        docs.remove(0)
    }

    fn at(line: usize, column: usize) -> Location {
        Location { line, column }
    }

    const DOC: &str = "\
# a comment
spec:
  items:
  - name: a
    value: 1
  - name: b
  labels:
    app.kubernetes.io/name: x
";

    #[test]
    fn json_path_splits_dotted_children() {
        let field = Path::new(["spec"]).child("items[1].name");
        assert_eq!(
            json_path(&field),
            vec![
                PathSegment::from("spec"),
                PathSegment::from("items"),
                PathSegment::from(1),
                PathSegment::from("name"),
            ]
        );
    }

    #[test]
    fn json_path_keeps_keys_and_indexes_as_they_are() {
        let field = Path::new(["spec", "labels"]).key("app.kubernetes.io/name");
        assert_eq!(
            json_path(&field),
            vec![
                PathSegment::from("spec"),
                PathSegment::from("labels"),
                PathSegment::from("app.kubernetes.io/name"),
            ]
        );
        assert_eq!(
            json_path(&Path::new(["spec", "items"]).index(0)),
            vec![
                PathSegment::from("spec"),
                PathSegment::from("items"),
                PathSegment::from(0)
            ]
        );
        assert!(json_path(&Path::root()).is_empty());
    }

    #[test]
    fn a_present_field_is_located_at_its_key() {
        let doc = document(DOC);
        let field = Path::new(["spec", "items"]).index(1).child("name");
        assert_eq!(locate_field(&doc, &[], &field), at(6, 5));
        let dotted = Path::new(["spec"]).child("items[0].value");
        assert_eq!(locate_field(&doc, &[], &dotted), at(5, 5));
        let key = Path::new(["spec", "labels"]).key("app.kubernetes.io/name");
        assert_eq!(locate_field(&doc, &[], &key), at(8, 5));
    }

    #[test]
    fn a_missing_field_is_located_at_its_nearest_present_parent() {
        let doc = document(DOC);
        let field = Path::new(["spec", "items"]).index(1).child("value");
        assert_eq!(locate_field(&doc, &[], &field), at(6, 5));
        let field = Path::new(["spec", "items"]).index(7);
        assert_eq!(locate_field(&doc, &[], &field), at(3, 3));
    }

    #[test]
    fn fields_are_relative_to_the_base() {
        let doc = document(DOC);
        let base = [PathSegment::from("spec"), PathSegment::from("items")];
        let field = Path::root().index(0).child("value");
        assert_eq!(locate_field(&doc, &base, &field), at(5, 5));
    }

    #[test]
    fn a_field_outside_the_document_is_located_at_its_start() {
        let doc = document(DOC);
        assert_eq!(doc.start, at(2, 1));
        assert_eq!(locate_field(&doc, &[], &Path::new(["status"])), doc.start);
        assert_eq!(locate_field(&doc, &[], &Path::root()), doc.start);
    }
}
