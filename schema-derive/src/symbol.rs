//! The keys of `#[schema(...)]`, as named constants, with where each may
//! appear. They are the kubebuilder markers' names in snake_case.

/// Where an attribute is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// On a struct, enum or newtype.
    Container,
    /// On a struct field.
    Field,
    /// Inside `items(...)`.
    Items,
}

impl Target {
    pub fn describe(self) -> &'static str {
        match self {
            Target::Container => "a type",
            Target::Field => "a field",
            Target::Items => "`items(...)`",
        }
    }
}

pub const MINIMUM: &str = "minimum";
pub const MAXIMUM: &str = "maximum";
pub const EXCLUSIVE_MINIMUM: &str = "exclusive_minimum";
pub const EXCLUSIVE_MAXIMUM: &str = "exclusive_maximum";
pub const MULTIPLE_OF: &str = "multiple_of";
pub const MIN_LENGTH: &str = "min_length";
pub const MAX_LENGTH: &str = "max_length";
pub const PATTERN: &str = "pattern";
pub const FORMAT: &str = "format";
pub const ENUM: &str = "enum";
pub const MIN_ITEMS: &str = "min_items";
pub const MAX_ITEMS: &str = "max_items";
pub const UNIQUE_ITEMS: &str = "unique_items";
pub const MIN_PROPERTIES: &str = "min_properties";
pub const MAX_PROPERTIES: &str = "max_properties";
pub const ITEMS: &str = "items";
pub const DEFAULT: &str = "default";
pub const NULLABLE: &str = "nullable";
pub const REQUIRED: &str = "required";
pub const OPTIONAL: &str = "optional";
pub const TITLE: &str = "title";
pub const DESCRIPTION: &str = "description";
pub const EXAMPLE: &str = "example";
pub const TYPE: &str = "type";
pub const SCHEMALESS: &str = "schemaless";
pub const PRESERVE_UNKNOWN_FIELDS: &str = "preserve_unknown_fields";
pub const EMBEDDED_RESOURCE: &str = "embedded_resource";
pub const INT_OR_STRING: &str = "int_or_string";
pub const LIST_TYPE: &str = "list_type";
pub const LIST_MAP_KEYS: &str = "list_map_keys";
pub const MAP_TYPE: &str = "map_type";
pub const STRUCT_TYPE: &str = "struct_type";
pub const VALIDATION: &str = "validation";
pub const IMMUTABLE: &str = "immutable";
pub const EXACTLY_ONE_OF: &str = "exactly_one_of";
pub const AT_MOST_ONE_OF: &str = "at_most_one_of";
pub const AT_LEAST_ONE_OF: &str = "at_least_one_of";
pub const ALL_OF: &str = "all_of";
pub const ANY_OF: &str = "any_of";
pub const ONE_OF: &str = "one_of";
pub const NOT: &str = "not";
pub const REQUIRED_ORDER: &str = "required_order";
pub const WITH: &str = "with";
pub const SKIP: &str = "skip";
pub const CRATE: &str = "crate";
pub const CRD: &str = "crd";

pub const RULE: &str = "rule";
pub const MESSAGE: &str = "message";
pub const MESSAGE_EXPRESSION: &str = "message_expression";
pub const REASON: &str = "reason";
pub const FIELD_PATH: &str = "field_path";
pub const OPTIONAL_OLD_SELF: &str = "optional_old_self";

const C: u8 = 1;
const F: u8 = 2;
const I: u8 = 4;
const ALL: u8 = C | F | I;

/// Every key with the targets it is allowed on.
pub const KEYS: &[(&str, u8)] = &[
    (MINIMUM, ALL),
    (MAXIMUM, ALL),
    (EXCLUSIVE_MINIMUM, ALL),
    (EXCLUSIVE_MAXIMUM, ALL),
    (MULTIPLE_OF, ALL),
    (MIN_LENGTH, ALL),
    (MAX_LENGTH, ALL),
    (PATTERN, ALL),
    (FORMAT, ALL),
    (ENUM, ALL),
    (MIN_ITEMS, ALL),
    (MAX_ITEMS, ALL),
    (UNIQUE_ITEMS, ALL),
    (MIN_PROPERTIES, ALL),
    (MAX_PROPERTIES, ALL),
    (ITEMS, ALL),
    (DEFAULT, ALL),
    (NULLABLE, ALL),
    (REQUIRED, F),
    (OPTIONAL, F),
    (TITLE, ALL),
    (DESCRIPTION, ALL),
    (EXAMPLE, ALL),
    (TYPE, ALL),
    (SCHEMALESS, ALL),
    (PRESERVE_UNKNOWN_FIELDS, ALL),
    (EMBEDDED_RESOURCE, ALL),
    (INT_OR_STRING, ALL),
    (LIST_TYPE, ALL),
    (LIST_MAP_KEYS, ALL),
    (ALL_OF, ALL),
    (ANY_OF, ALL),
    (ONE_OF, ALL),
    (NOT, ALL),
    (REQUIRED_ORDER, C),
    (MAP_TYPE, ALL),
    (STRUCT_TYPE, ALL),
    (VALIDATION, ALL),
    (IMMUTABLE, F),
    (EXACTLY_ONE_OF, C),
    (AT_MOST_ONE_OF, C),
    (AT_LEAST_ONE_OF, C),
    (WITH, ALL),
    (SKIP, F),
    (CRATE, C),
    (CRD, C),
];

/// The keys of `validation(...)`.
pub const RULE_KEYS: &[&str] = &[
    RULE,
    MESSAGE,
    MESSAGE_EXPRESSION,
    REASON,
    FIELD_PATH,
    OPTIONAL_OLD_SELF,
];

pub const GROUP: &str = "group";
pub const VERSION: &str = "version";
pub const KIND: &str = "kind";
pub const PLURAL: &str = "plural";
pub const SINGULAR: &str = "singular";
pub const LIST_KIND: &str = "list_kind";
pub const SHORT_NAMES: &str = "short_names";
pub const CATEGORIES: &str = "categories";
pub const NAMESPACED: &str = "namespaced";
pub const STATUS: &str = "status";
pub const STATUS_SUBRESOURCE: &str = "status_subresource";
pub const SPEC_OPTIONAL: &str = "spec_optional";
pub const SCALE: &str = "scale";
pub const PRINTER_COLUMN: &str = "printer_column";
pub const SELECTABLE_FIELD: &str = "selectable_field";
pub const SERVED: &str = "served";
pub const STORAGE: &str = "storage";
pub const DEPRECATED: &str = "deprecated";
pub const DEPRECATION_WARNING: &str = "deprecation_warning";
pub const DOC: &str = "doc";
pub const MAX_DESCRIPTION_LEN: &str = "max_description_len";
pub const ROOT: &str = "root";
pub const OBJECT_ROOT: &str = "object_root";
pub const EXPLICIT_NAMES: &str = "explicit_names";
pub const ANNOTATIONS: &str = "annotations";
pub const EMPTY_SUBRESOURCES: &str = "empty_subresources";
pub const GENERATE_EMBEDDED_OBJECT_META: &str = "generate_embedded_object_meta";
pub const LABELS: &str = "labels";
pub const CONVERSION: &str = "conversion";
pub const PRESERVE_UNKNOWN_FIELDS_CRD: &str = "preserve_unknown_fields";

/// The keys of `crd(...)`.
pub const CRD_KEYS: &[&str] = &[
    GROUP,
    VERSION,
    KIND,
    PLURAL,
    SINGULAR,
    LIST_KIND,
    SHORT_NAMES,
    CATEGORIES,
    NAMESPACED,
    STATUS,
    STATUS_SUBRESOURCE,
    SPEC_OPTIONAL,
    SCALE,
    PRINTER_COLUMN,
    SELECTABLE_FIELD,
    SERVED,
    STORAGE,
    DEPRECATED,
    DEPRECATION_WARNING,
    DOC,
    MAX_DESCRIPTION_LEN,
    ROOT,
    OBJECT_ROOT,
    EXPLICIT_NAMES,
    ANNOTATIONS,
    EMPTY_SUBRESOURCES,
    GENERATE_EMBEDDED_OBJECT_META,
    LABELS,
    CONVERSION,
    PRESERVE_UNKNOWN_FIELDS_CRD,
];

pub const SPEC_REPLICAS_PATH: &str = "spec_replicas_path";
pub const STATUS_REPLICAS_PATH: &str = "status_replicas_path";
pub const LABEL_SELECTOR_PATH: &str = "label_selector_path";

/// The keys of `scale(...)`.
pub const SCALE_KEYS: &[&str] = &[
    SPEC_REPLICAS_PATH,
    STATUS_REPLICAS_PATH,
    LABEL_SELECTOR_PATH,
];

pub const NAME: &str = "name";
pub const JSON_PATH: &str = "json_path";
pub const PRIORITY: &str = "priority";

/// The keys of `printer_column(...)`.
pub const COLUMN_KEYS: &[&str] = &[NAME, TYPE, JSON_PATH, DESCRIPTION, FORMAT, PRIORITY];

/// Whether `key` is allowed on `target`; `None` for an unknown key.
pub fn allowed(key: &str, target: Target) -> Option<bool> {
    let bit = match target {
        Target::Container => C,
        Target::Field => F,
        Target::Items => I,
    };
    KEYS.iter()
        .find(|(k, _)| *k == key)
        .map(|(_, mask)| mask & bit != 0)
}

/// The targets `key` is allowed on, for messages.
pub fn targets_of(key: &str) -> String {
    let mask = KEYS.iter().find(|(k, _)| *k == key).map_or(0, |(_, m)| *m);
    let mut out = Vec::new();
    if mask & C != 0 {
        out.push("types");
    }
    if mask & F != 0 {
        out.push("fields");
    }
    if mask & I != 0 {
        out.push("`items(...)`");
    }
    out.join(" and ")
}

/// The closest known key to a misspelt one, if close enough.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = levenshtein(word, c);
        let limit = (c.len().max(word.len()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let keys = KEYS.iter().map(|(k, _)| *k);
        assert_eq!(did_you_mean("minimun", keys.clone()), Some(MINIMUM));
        assert_eq!(did_you_mean("maxlength", keys.clone()), Some(MAX_LENGTH));
        assert_eq!(did_you_mean("zzzz", keys), None);
    }
}
