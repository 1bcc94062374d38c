//! The keys of `#[schema(...)]` and of its nested lists, as named
//! constants. They are the kubebuilder markers' names in snake_case.

/// `minimum`.
pub const MINIMUM: &str = "minimum";
/// `maximum`.
pub const MAXIMUM: &str = "maximum";
/// `exclusive_minimum`.
pub const EXCLUSIVE_MINIMUM: &str = "exclusive_minimum";
/// `exclusive_maximum`.
pub const EXCLUSIVE_MAXIMUM: &str = "exclusive_maximum";
/// `multiple_of`.
pub const MULTIPLE_OF: &str = "multiple_of";
/// `min_length`.
pub const MIN_LENGTH: &str = "min_length";
/// `max_length`.
pub const MAX_LENGTH: &str = "max_length";
/// `pattern`.
pub const PATTERN: &str = "pattern";
/// `format`.
pub const FORMAT: &str = "format";
/// `enum`.
pub const ENUM: &str = "enum";
/// `min_items`.
pub const MIN_ITEMS: &str = "min_items";
/// `max_items`.
pub const MAX_ITEMS: &str = "max_items";
/// `unique_items`.
pub const UNIQUE_ITEMS: &str = "unique_items";
/// `min_properties`.
pub const MIN_PROPERTIES: &str = "min_properties";
/// `max_properties`.
pub const MAX_PROPERTIES: &str = "max_properties";
/// `items`.
pub const ITEMS: &str = "items";
/// `default`.
pub const DEFAULT: &str = "default";
/// `nullable`.
pub const NULLABLE: &str = "nullable";
/// `required`.
pub const REQUIRED: &str = "required";
/// `optional`.
pub const OPTIONAL: &str = "optional";
/// `title`.
pub const TITLE: &str = "title";
/// `description`.
pub const DESCRIPTION: &str = "description";
/// `example`.
pub const EXAMPLE: &str = "example";
/// `type`.
pub const TYPE: &str = "type";
/// `schemaless`.
pub const SCHEMALESS: &str = "schemaless";
/// `preserve_unknown_fields`.
pub const PRESERVE_UNKNOWN_FIELDS: &str = "preserve_unknown_fields";
/// `embedded_resource`.
pub const EMBEDDED_RESOURCE: &str = "embedded_resource";
/// `int_or_string`.
pub const INT_OR_STRING: &str = "int_or_string";
/// `list_type`.
pub const LIST_TYPE: &str = "list_type";
/// `list_map_keys`.
pub const LIST_MAP_KEYS: &str = "list_map_keys";
/// `map_type`.
pub const MAP_TYPE: &str = "map_type";
/// `struct_type`.
pub const STRUCT_TYPE: &str = "struct_type";
/// `validation`.
pub const VALIDATION: &str = "validation";
/// `immutable`.
pub const IMMUTABLE: &str = "immutable";
/// `exactly_one_of`.
pub const EXACTLY_ONE_OF: &str = "exactly_one_of";
/// `at_most_one_of`.
pub const AT_MOST_ONE_OF: &str = "at_most_one_of";
/// `at_least_one_of`.
pub const AT_LEAST_ONE_OF: &str = "at_least_one_of";
/// `all_of`.
pub const ALL_OF: &str = "all_of";
/// `any_of`.
pub const ANY_OF: &str = "any_of";
/// `one_of`.
pub const ONE_OF: &str = "one_of";
/// `not`.
pub const NOT: &str = "not";
/// `required_order`.
pub const REQUIRED_ORDER: &str = "required_order";
/// `external_docs`.
pub const EXTERNAL_DOCS: &str = "external_docs";
/// `with`.
pub const WITH: &str = "with";
/// `skip`.
pub const SKIP: &str = "skip";
/// `crate`.
pub const CRATE: &str = "crate";
/// `crd`.
pub const CRD: &str = "crd";

// `validation(...)`
/// `rule`.
pub const RULE: &str = "rule";
/// `message`.
pub const MESSAGE: &str = "message";
/// `message_expression`.
pub const MESSAGE_EXPRESSION: &str = "message_expression";
/// `reason`.
pub const REASON: &str = "reason";
/// `field_path`.
pub const FIELD_PATH: &str = "field_path";
/// `optional_old_self`.
pub const OPTIONAL_OLD_SELF: &str = "optional_old_self";

// `crd(...)`
/// `group`.
pub const GROUP: &str = "group";
/// `version`.
pub const VERSION: &str = "version";
/// `kind`.
pub const KIND: &str = "kind";
/// `plural`.
pub const PLURAL: &str = "plural";
/// `singular`.
pub const SINGULAR: &str = "singular";
/// `list_kind`.
pub const LIST_KIND: &str = "list_kind";
/// `short_names`.
pub const SHORT_NAMES: &str = "short_names";
/// `categories`.
pub const CATEGORIES: &str = "categories";
/// `namespaced`.
pub const NAMESPACED: &str = "namespaced";
/// `status`.
pub const STATUS: &str = "status";
/// `status_subresource`.
pub const STATUS_SUBRESOURCE: &str = "status_subresource";
/// `spec_optional`.
pub const SPEC_OPTIONAL: &str = "spec_optional";
/// `scale`.
pub const SCALE: &str = "scale";
/// `printer_column`.
pub const PRINTER_COLUMN: &str = "printer_column";
/// `selectable_field`.
pub const SELECTABLE_FIELD: &str = "selectable_field";
/// `served`.
pub const SERVED: &str = "served";
/// `storage`.
pub const STORAGE: &str = "storage";
/// `deprecated`.
pub const DEPRECATED: &str = "deprecated";
/// `deprecation_warning`.
pub const DEPRECATION_WARNING: &str = "deprecation_warning";
/// `doc`.
pub const DOC: &str = "doc";
/// `max_description_len`.
pub const MAX_DESCRIPTION_LEN: &str = "max_description_len";
/// `root`.
pub const ROOT: &str = "root";
/// `object_root`.
pub const OBJECT_ROOT: &str = "object_root";
/// `explicit_names`.
pub const EXPLICIT_NAMES: &str = "explicit_names";
/// `annotations`.
pub const ANNOTATIONS: &str = "annotations";
/// `empty_subresources`.
pub const EMPTY_SUBRESOURCES: &str = "empty_subresources";
/// `generate_embedded_object_meta`.
pub const GENERATE_EMBEDDED_OBJECT_META: &str = "generate_embedded_object_meta";
/// `labels`.
pub const LABELS: &str = "labels";
/// `conversion`.
pub const CONVERSION: &str = "conversion";
/// `preserve_unknown_fields` of `crd(...)`.
pub const PRESERVE_UNKNOWN_FIELDS_CRD: &str = "preserve_unknown_fields";

// `scale(...)`
/// `spec_replicas_path`.
pub const SPEC_REPLICAS_PATH: &str = "spec_replicas_path";
/// `status_replicas_path`.
pub const STATUS_REPLICAS_PATH: &str = "status_replicas_path";
/// `label_selector_path`.
pub const LABEL_SELECTOR_PATH: &str = "label_selector_path";

// `printer_column(...)`
/// `name`.
pub const NAME: &str = "name";
/// `json_path`.
pub const JSON_PATH: &str = "json_path";
/// `priority`.
pub const PRIORITY: &str = "priority";

/// The keys of `validation(...)`.
pub const RULE_KEYS: &[&str] = &[
    RULE,
    MESSAGE,
    MESSAGE_EXPRESSION,
    REASON,
    FIELD_PATH,
    OPTIONAL_OLD_SELF,
];

/// The keys of `scale(...)`.
pub const SCALE_KEYS: &[&str] = &[
    SPEC_REPLICAS_PATH,
    STATUS_REPLICAS_PATH,
    LABEL_SELECTOR_PATH,
];

/// The keys of `printer_column(...)`.
pub const COLUMN_KEYS: &[&str] = &[NAME, TYPE, JSON_PATH, DESCRIPTION, FORMAT, PRIORITY];
