//! ytt's schema types, built from an annotated document as ytt builds them
//! (`pkg/schema`: `getType`, `getValue`, `getValidation`, the type checks of
//! defaults and examples), with ytt's errors.

use serde_json::{Map, Value};

use super::error::{Failure, SchemaError, YttError};
use super::starlark::SValue;
use super::yaml::{Ann, SrcFile, SrcItem, SrcValue, frame};

const ANN_NULLABLE: &str = "schema/nullable";
const ANN_TYPE: &str = "schema/type";
const ANN_DEFAULT: &str = "schema/default";
const ANN_DESC: &str = "schema/desc";
const ANN_TITLE: &str = "schema/title";
const ANN_EXAMPLES: &str = "schema/examples";
const ANN_DEPRECATED: &str = "schema/deprecated";
const ANN_VALIDATION: &str = "schema/validation";

/// The annotation names a schema document may use.
pub(crate) const SCHEMA_ANNOTATIONS: &[&str] = &[
    ANN_NULLABLE,
    ANN_TYPE,
    ANN_DEFAULT,
    ANN_DESC,
    ANN_TITLE,
    ANN_EXAMPLES,
    ANN_DEPRECATED,
    ANN_VALIDATION,
];

const EXAMPLES_EXPECTED: &str =
    "2-tuple containing description (string) and example value (of expected type)";

/// Documentation of a type (from `@schema/title`, `desc`, `examples`,
/// `deprecated`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Docs {
    /// `@schema/title`.
    pub title: String,
    /// `@schema/desc`.
    pub description: String,
    /// `@schema/deprecated`, with its notice.
    pub deprecated: Option<String>,
    /// `@schema/examples`: `(description, value)` pairs.
    pub examples: Vec<(String, Value)>,
}

/// The scalar types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    /// `string`.
    String,
    /// `integer`.
    Integer,
    /// `float`.
    Float,
    /// `boolean`.
    Boolean,
}

impl ScalarKind {
    fn name(self) -> &'static str {
        match self {
            ScalarKind::String => "string",
            ScalarKind::Integer => "integer",
            ScalarKind::Float => "float",
            ScalarKind::Boolean => "boolean",
        }
    }
}

/// The type of a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// A map with exactly these keys.
    Map {
        /// The items, in schema order.
        items: Vec<MapItemType>,
        /// Where the map is defined.
        line: usize,
        /// Documentation.
        docs: Docs,
    },
    /// An array of one element type.
    Array {
        /// The element type.
        item: Box<ArrayItemType>,
        /// The default (`[]` unless set).
        default: Value,
        /// Where the array is defined.
        line: usize,
        /// Documentation.
        docs: Docs,
    },
    /// A scalar.
    Scalar {
        /// Which scalar.
        kind: ScalarKind,
        /// The default.
        default: Value,
        /// Where it is defined.
        line: usize,
        /// Documentation.
        docs: Docs,
    },
    /// Any value (`@schema/type any=True`).
    Any {
        /// The default (the value as written, unless set).
        default: Value,
        /// Where it is defined.
        line: usize,
        /// Documentation.
        docs: Docs,
    },
    /// `@schema/nullable` around a type.
    Null {
        /// The wrapped type.
        inner: Box<Type>,
        /// Where it is defined.
        line: usize,
        /// Documentation.
        docs: Docs,
    },
}

/// One key of a map type.
#[derive(Clone, Debug, PartialEq)]
pub struct MapItemType {
    /// The key.
    pub key: String,
    /// The value's type.
    pub value: Type,
    /// The default value.
    pub default: Value,
    /// Where the item is.
    pub line: usize,
    /// `@schema/validation`.
    pub validation: Option<Validation>,
}

/// The element of an array type.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayItemType {
    /// The element's type.
    pub value: Type,
    /// The default of an element.
    pub default: Value,
    /// Where the item is.
    pub line: usize,
    /// `@schema/validation`.
    pub validation: Option<Validation>,
}

/// A schema document.
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentType {
    /// The type of the document's value.
    pub value: Type,
    /// The default data values.
    pub default: Value,
    /// Where the document is.
    pub line: usize,
    /// `@schema/validation` on the document.
    pub validation: Option<Validation>,
}

/// The rules of a `@schema/validation` annotation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Validation {
    /// Custom rules: `(description, lambda source)`.
    pub rules: Vec<(String, String)>,
    /// `min=`.
    pub min: Option<Value>,
    /// `max=`.
    pub max: Option<Value>,
    /// `min_len=`.
    pub min_len: Option<i64>,
    /// `max_len=`.
    pub max_len: Option<i64>,
    /// `not_null=`.
    pub not_null: bool,
    /// `one_not_null=`: `true` or the keys.
    pub one_not_null: Option<Value>,
    /// `one_of=`.
    pub one_of: Option<Vec<Value>>,
    /// `when=` (the lambda's source).
    pub when: Option<String>,
}

/// A field every variant of a [`Type`] has (`line`, `docs`), borrowed as
/// the type is.
macro_rules! common_field {
    ($t:expr, $field:ident) => {
        match $t {
            Type::Map { $field, .. }
            | Type::Array { $field, .. }
            | Type::Scalar { $field, .. }
            | Type::Any { $field, .. }
            | Type::Null { $field, .. } => $field,
        }
    };
}

impl Type {
    /// ytt's name of the type (`Type.String()`).
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Type::Map { .. } => "map",
            Type::Array { .. } => "array",
            Type::Scalar { kind, .. } => kind.name(),
            Type::Any { .. } => "any",
            Type::Null { .. } => "null",
        }
    }

    /// Where the type is defined.
    #[must_use]
    pub fn line(&self) -> usize {
        *common_field!(self, line)
    }

    /// The documentation of the type.
    #[must_use]
    pub fn docs(&self) -> &Docs {
        common_field!(self, docs)
    }

    fn docs_mut(&mut self) -> &mut Docs {
        common_field!(self, docs)
    }

    /// The default value of the type (`GetDefaultValue`): a map's is made
    /// of its items' defaults, a nullable's is `null`.
    #[must_use]
    pub fn default_value(&self) -> Value {
        match self {
            Type::Map { items, .. } => Value::Object(
                items
                    .iter()
                    .map(|i| (i.key.clone(), i.default.clone()))
                    .collect(),
            ),
            Type::Array { default, .. }
            | Type::Scalar { default, .. }
            | Type::Any { default, .. } => default.clone(),
            Type::Null { .. } => Value::Null,
        }
    }

    /// `SetDefaultValue`: ignored by maps, passed through by nullables.
    fn set_default(&mut self, v: Value) {
        match self {
            Type::Map { .. } => {}
            Type::Array { default, .. }
            | Type::Scalar { default, .. }
            | Type::Any { default, .. } => {
                *default = v;
            }
            Type::Null { inner, .. } => inner.set_default(v),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeKind {
    Document,
    MapItem,
    ArrayItem,
}

/// A node being typed: a document, map item or array item.
struct Node<'a> {
    kind: NodeKind,
    line: usize,
    value: &'a SrcValue,
    anns: &'a [Ann],
}

impl<'a> Node<'a> {
    fn of_item(item: &'a SrcItem) -> Node<'a> {
        Node {
            kind: if item.key.is_some() {
                NodeKind::MapItem
            } else {
                NodeKind::ArrayItem
            },
            line: item.line,
            value: &item.value,
            anns: &item.anns,
        }
    }

    fn ann(&self, name: &str) -> Option<&'a Ann> {
        self.anns.iter().find(|a| a.name == name)
    }
}

/// A type violation found while checking a value against a type.
struct Violation {
    line: usize,
    description: String,
    found: String,
    expected: String,
}

pub(crate) struct Builder<'f> {
    file: &'f SrcFile,
}

fn type_name_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "map",
    }
}

fn is_node(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Array(_))
}

impl<'f> Builder<'f> {
    pub(crate) fn new(file: &'f SrcFile) -> Self {
        Builder { file }
    }

    fn at(&self, line: usize) -> String {
        format!("{}:{line}", self.file.name)
    }

    fn failure(&self, ann_lines: &[usize], line: usize) -> Failure {
        Failure {
            description: String::new(),
            frame: frame(self.file, ann_lines, line),
            found: String::new(),
            expected: String::new(),
            hints: Vec::new(),
        }
    }

    fn invalid(
        &self,
        ann: &Ann,
        line: usize,
        description: String,
        found: String,
        expected: String,
        hints: &[&str],
    ) -> YttError {
        let mut f = self.failure(&[ann.line], line);
        f.description = description;
        f.found = found;
        f.expected = expected;
        f.hints = hints.iter().map(|h| (*h).to_string()).collect();
        YttError::Schema(SchemaError::new("Invalid schema", f))
    }

    pub(crate) fn document(
        &self,
        line: usize,
        value: &SrcValue,
        anns: &[Ann],
    ) -> Result<DocumentType, YttError> {
        let node = Node {
            kind: NodeKind::Document,
            line,
            value,
            anns,
        };
        let (t, default, validation) = self.typed(&node)?;
        Ok(DocumentType {
            value: t,
            default,
            line,
            validation,
        })
    }

    /// A node's type (with its default set), its default value and its
    /// validation: what a document, a map item and an array item each hold.
    fn typed(&self, node: &Node<'_>) -> Result<(Type, Value, Option<Validation>), YttError> {
        let mut t = self.get_type(node)?;
        let default = self.get_value(node, &t)?;
        let validation = self.get_validation(node)?;
        t.set_default(default.clone());
        Ok((t, default, validation))
    }

    fn map_item(&self, item: &SrcItem) -> Result<MapItemType, YttError> {
        let node = Node::of_item(item);
        let (t, default, validation) = self.typed(&node)?;
        Ok(MapItemType {
            key: item.key.clone().unwrap_or_default(),
            value: t,
            default,
            line: item.line,
            validation,
        })
    }

    fn array_item(&self, item: &SrcItem) -> Result<ArrayItemType, YttError> {
        let node = Node::of_item(item);
        let (t, default, validation) = self.typed(&node)?;
        Ok(ArrayItemType {
            value: t,
            default,
            line: item.line,
            validation,
        })
    }

    /// `InferTypeFromValue`; `None` for null.
    fn infer(&self, value: &SrcValue, line: usize) -> Result<Option<Type>, YttError> {
        Ok(Some(match value {
            SrcValue::Scalar(v) => {
                let kind = match v {
                    Value::Null => return Ok(None),
                    Value::String(_) => ScalarKind::String,
                    Value::Bool(_) => ScalarKind::Boolean,
                    Value::Number(n) if n.is_f64() => ScalarKind::Float,
                    Value::Number(_) => ScalarKind::Integer,
                    Value::Array(_) | Value::Object(_) => return Ok(None),
                };
                Type::Scalar {
                    kind,
                    default: v.clone(),
                    line,
                    docs: Docs::default(),
                }
            }
            SrcValue::Map(items) => Type::Map {
                items: items
                    .iter()
                    .map(|i| self.map_item(i))
                    .collect::<Result<_, _>>()?,
                line,
                docs: Docs::default(),
            },
            SrcValue::Array(items) => {
                let [only] = items.as_slice() else {
                    let mut f = self.failure(&[], line);
                    f.found = format!("{} array items", items.len());
                    f.expected = "exactly 1 array item, of the desired type".to_string();
                    f.hints = vec![
                        "in schema, the one item of the array implies the type of its elements."
                            .to_string(),
                        "in schema, the default value for an array is always an empty list."
                            .to_string(),
                        "default values can be overridden via a data values overlay.".to_string(),
                    ];
                    return Err(YttError::Schema(SchemaError::new(
                        "Invalid schema - wrong number of items in array definition",
                        f,
                    )));
                };
                Type::Array {
                    item: Box::new(self.array_item(only)?),
                    default: Value::Array(Vec::new()),
                    line,
                    docs: Docs::default(),
                }
            }
        }))
    }

    fn null_error(&self, line: usize) -> YttError {
        let mut f = self.failure(&[], line);
        f.found = "null value".to_string();
        f.expected = "non-null value".to_string();
        f.hints = vec![
            "in YAML, omitting a value implies null.".to_string(),
            "to set the default value to null, annotate with @schema/nullable.".to_string(),
            "to allow any value, annotate with @schema/type any=True.".to_string(),
        ];
        YttError::Schema(SchemaError::new(
            "Invalid schema - null value not allowed here",
            f,
        ))
    }

    /// `@schema/type`: whether it says `any=True`.
    fn type_annotation(&self, ann: &Ann, node: &Node<'_>) -> Result<bool, YttError> {
        if ann.args.kwargs.is_empty() {
            return Err(self.invalid(
                ann,
                node.line,
                "expected @schema/type annotation to have keyword argument and value".to_string(),
                format!(
                    "missing keyword argument and value (by {})",
                    self.at(ann.line)
                ),
                "valid keyword argument and value".to_string(),
                &["Supported key-value pairs are 'any=True', 'any=False'"],
            ));
        }
        let mut any = false;
        for (name, value) in &ann.args.kwargs {
            if name != "any" {
                return Err(self.invalid(
                    ann,
                    node.line,
                    "unknown @schema/type annotation keyword argument".to_string(),
                    format!("{name} (by {})", self.at(ann.line)),
                    "A valid kwarg".to_string(),
                    &["Supported kwargs are 'any'"],
                ));
            }
            let SValue::Bool(b) = value else {
                return Err(self.invalid(
                    ann,
                    node.line,
                    "unknown @schema/type annotation keyword argument".to_string(),
                    format!("{} (by {})", value.go_type(), self.at(ann.line)),
                    "starlark.Bool".to_string(),
                    &["Supported kwargs are 'any'"],
                ));
            };
            any = *b;
        }
        Ok(any)
    }

    fn nullable_annotation(&self, ann: &Ann, node: &Node<'_>) -> Result<(), YttError> {
        if ann.args.kwargs.is_empty() {
            return Ok(());
        }
        Err(self.invalid(
            ann,
            node.line,
            "expected @schema/nullable annotation to not contain any keyword arguments".to_string(),
            format!(
                "keyword argument in @schema/nullable (by {})",
                self.at(ann.line)
            ),
            "starlark.Bool".to_string(),
            &["Supported kwargs are 'any'"],
        ))
    }

    /// `getType`.
    fn get_type(&self, node: &Node<'_>) -> Result<Type, YttError> {
        let any = match node.ann(ANN_TYPE) {
            Some(a) => self.type_annotation(a, node)?,
            None => false,
        };
        let nullable = match node.ann(ANN_NULLABLE) {
            Some(a) => {
                self.nullable_annotation(a, node)?;
                true
            }
            None => false,
        };
        let mut t: Option<Type> = None;
        if any {
            t = Some(Type::Any {
                default: node.value.to_json(),
                line: node.line,
                docs: Docs::default(),
            });
        }
        if nullable {
            match &mut t {
                Some(t) => t.set_default(Value::Null),
                None => {
                    let Some(inner) = self.infer(node.value, node.line)? else {
                        return Err(self.null_error(node.line));
                    };
                    t = Some(Type::Null {
                        inner: Box::new(inner),
                        line: node.line,
                        docs: Docs::default(),
                    });
                }
            }
        }
        let mut t = match t {
            Some(t) => t,
            None => match self.infer(node.value, node.line)? {
                Some(t) => t,
                None => return Err(self.null_error(node.line)),
            },
        };
        if matches!(t, Type::Any { .. }) {
            self.check_no_type_annotations_below(node.value)?;
        }
        self.set_documentation(node, &mut t)?;
        Ok(t)
    }

    /// Within an "any type" fragment, `nullable`, `type` and `default` are
    /// errors (`checkForAnnotations`).
    fn check_no_type_annotations_below(&self, value: &SrcValue) -> Result<(), YttError> {
        // Pre-order, in document order.
        let mut stack: Vec<&SrcItem> = Vec::new();
        if let SrcValue::Map(items) | SrcValue::Array(items) = value {
            stack.extend(items.iter().rev());
        }
        while let Some(item) = stack.pop() {
            let found: Vec<&Ann> = [ANN_NULLABLE, ANN_TYPE, ANN_DEFAULT]
                .iter()
                .filter_map(|n| item.anns.iter().find(|a| a.name == *n))
                .collect();
            if !found.is_empty() {
                let lines: Vec<usize> = found.iter().map(|a| a.line).collect();
                let mut f = self.failure(&lines, item.line);
                f.description = "Schema was specified within an \"any type\" fragment".to_string();
                f.found = format!(
                    "@{} annotation(s)",
                    found
                        .iter()
                        .map(|a| a.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", @")
                );
                f.expected =
                    "no '@schema/...' on nodes within a node annotated '@schema/type any=True'"
                        .to_string();
                f.hints = vec!["an \"any type\" fragment has no constraints; nested schema annotations conflict and are disallowed".to_string()];
                return Err(YttError::Schema(SchemaError::new("Invalid schema", f)));
            }
            if let SrcValue::Map(items) | SrcValue::Array(items) = &item.value {
                stack.extend(items.iter().rev());
            }
        }
        Ok(())
    }

    /// The one string argument of `@schema/desc`, `title`, `deprecated`.
    fn string_arg(&self, ann: &Ann, node: &Node<'_>) -> Result<String, YttError> {
        let name = &ann.name;
        let syntax = format!("syntax error in @{name} annotation");
        if !ann.args.kwargs.is_empty() {
            return Err(self.invalid(
                ann,
                node.line,
                syntax,
                format!("keyword argument in @{name} (by {})", self.at(ann.line)),
                "string".to_string(),
                &["this annotation only accepts one argument: a string."],
            ));
        }
        match ann.args.positional.as_slice() {
            [] => Err(self.invalid(
                ann,
                node.line,
                syntax,
                format!("missing value in @{name} (by {})", self.at(ann.line)),
                "string".to_string(),
                &[],
            )),
            [SValue::Str(s)] => Ok(s.clone()),
            [_] => Err(self.invalid(
                ann,
                node.line,
                syntax,
                format!("Non-string value in @{name} (by {})", self.at(ann.line)),
                "string".to_string(),
                &[],
            )),
            many => Err(self.invalid(
                ann,
                node.line,
                syntax,
                format!(
                    "{} values in @{name} (by {})",
                    many.len(),
                    self.at(ann.line)
                ),
                "string".to_string(),
                &[],
            )),
        }
    }

    fn examples_arg(&self, ann: &Ann, node: &Node<'_>) -> Result<Vec<(String, Value)>, YttError> {
        let syntax = "syntax error in @schema/examples annotation".to_string();
        let err = |found: String| {
            self.invalid(
                ann,
                node.line,
                syntax.clone(),
                found,
                EXAMPLES_EXPECTED.to_string(),
                &[],
            )
        };
        if !ann.args.kwargs.is_empty() {
            return Err(err(format!(
                "keyword argument in @schema/examples (by {})",
                self.at(ann.line)
            )));
        }
        if ann.args.positional.is_empty() {
            return Err(err(format!(
                "missing value in @schema/examples (by {})",
                self.at(ann.line)
            )));
        }
        let mut out = Vec::new();
        for ex in &ann.args.positional {
            let SValue::Tuple(t) = ex else {
                return Err(err(format!(
                    "{} for @schema/examples (at {})",
                    ex.type_name(),
                    self.at(ann.line)
                )));
            };
            match t.as_slice() {
                [] | [_] => {
                    return Err(err(format!(
                        "empty tuple in @schema/examples (by {})",
                        self.at(ann.line)
                    )));
                }
                [SValue::Str(d), v] => {
                    let v = v.to_json().map_err(|m| {
                        err(format!(
                            "{m} in @schema/examples (by {})",
                            self.at(ann.line)
                        ))
                    })?;
                    out.push((d.clone(), v));
                }
                [d, _] => {
                    return Err(err(format!(
                        "{} value for @schema/examples (at {})",
                        d.type_name(),
                        self.at(ann.line)
                    )));
                }
                many => {
                    return Err(err(format!(
                        "{}-tuple argument in @schema/examples (by {})",
                        many.len(),
                        self.at(ann.line)
                    )));
                }
            }
        }
        Ok(out)
    }

    /// `collectDocumentationAnnotations` and `setDocumentationFromAnns`.
    fn set_documentation(&self, node: &Node<'_>, t: &mut Type) -> Result<(), YttError> {
        let desc = node
            .ann(ANN_DESC)
            .map(|a| self.string_arg(a, node))
            .transpose()?;
        let title = node
            .ann(ANN_TITLE)
            .map(|a| self.string_arg(a, node))
            .transpose()?;
        let examples = node
            .ann(ANN_EXAMPLES)
            .map(|a| self.examples_arg(a, node).map(|e| (a, e)))
            .transpose()?;
        let deprecated = match node.ann(ANN_DEPRECATED) {
            Some(a) if node.kind == NodeKind::Document => {
                let mut f = self.failure(&[a.line], node.line);
                f.description = "@schema/deprecated not supported on a document".to_string();
                f.hints = vec![
                    "do you mean to deprecate the entire schema document?".to_string(),
                    "use schema/deprecated on individual keys.".to_string(),
                ];
                return Err(YttError::Schema(SchemaError::new("Invalid schema", f)));
            }
            Some(a) => Some(self.string_arg(a, node)?),
            None => None,
        };
        if let Some(d) = desc {
            t.docs_mut().description = d;
        }
        if let Some(tl) = title {
            t.docs_mut().title = tl;
        }
        if let Some(n) = deprecated {
            t.docs_mut().deprecated = Some(n);
        }
        if let Some((ann, examples)) = examples {
            let mut violations = Vec::new();
            for (_, ex) in &examples {
                violations.extend(self.type_check(t, ex, node.line));
            }
            if !violations.is_empty() {
                return Err(self.violations(
                    "Invalid schema - @schema/examples has wrong type",
                    violations,
                    ann,
                    "by",
                ));
            }
            t.docs_mut().examples = examples;
        }
        Ok(())
    }

    fn violations(&self, summary: &str, vs: Vec<Violation>, ann: &Ann, word: &str) -> YttError {
        let failures = vs
            .into_iter()
            .map(|v| Failure {
                description: v.description,
                frame: frame(self.file, &[ann.line], v.line),
                found: format!("{} ({word} {})", v.found, self.at(ann.line)),
                expected: v.expected,
                hints: Vec::new(),
            })
            .collect();
        YttError::Schema(SchemaError {
            summary: summary.to_string(),
            failures,
        })
    }

    /// `getValue`.
    fn get_value(&self, node: &Node<'_>, t: &Type) -> Result<Value, YttError> {
        let Some(ann) = node.ann(ANN_DEFAULT) else {
            return Ok(t.default_value());
        };
        if node.kind == NodeKind::ArrayItem {
            let mut f = self.failure(&[ann.line], node.line);
            f.hints = vec![
                "do you mean to set a default value for the array?".to_string(),
                "set an array's default by annotating its parent.".to_string(),
            ];
            return Err(YttError::Schema(SchemaError::new(
                "Invalid schema - @schema/default not supported on array item",
                f,
            )));
        }
        let syntax = "syntax error in @schema/default annotation".to_string();
        let expected = format!("{} (by {})", t.name(), self.at(t.line()));
        if !ann.args.kwargs.is_empty() {
            return Err(self.invalid(
                ann,
                node.line,
                syntax,
                format!(
                    "keyword argument in @schema/default (by {})",
                    self.at(ann.line)
                ),
                expected,
                &[
                    "this annotation only accepts one argument: the default value.",
                    "value must be in Starlark format, e.g.: {'key': 'value'}, True.",
                ],
            ));
        }
        let value = match ann.args.positional.as_slice() {
            [] => {
                return Err(self.invalid(
                    ann,
                    node.line,
                    syntax,
                    format!(
                        "missing value in @schema/default (by {})",
                        self.at(ann.line)
                    ),
                    expected,
                    &[],
                ));
            }
            [v] => v.to_json().map_err(|m| {
                self.invalid(
                    ann,
                    node.line,
                    syntax.clone(),
                    format!("{m} in @schema/default (by {})", self.at(ann.line)),
                    expected.clone(),
                    &[],
                )
            })?,
            many => {
                return Err(self.invalid(
                    ann,
                    node.line,
                    syntax,
                    format!(
                        "{} values in @schema/default (by {})",
                        many.len(),
                        self.at(ann.line)
                    ),
                    expected,
                    &[],
                ));
            }
        };
        let mut value = value;
        let violations = if is_node(&value) {
            let mut vs = Vec::new();
            self.assign(t, &mut value, node.line, &mut vs);
            if vs.is_empty() {
                self.check_node(t, &value, node.line, &mut vs);
            }
            vs
        } else {
            let mut vs = Vec::new();
            self.check_scalar(t, &value, t.line(), &mut vs);
            vs
        };
        if !violations.is_empty() {
            return Err(self.violations(
                "Invalid schema - @schema/default is wrong type",
                violations,
                ann,
                "at",
            ));
        }
        Ok(value)
    }

    /// The type check of an example value (`checkExamplesValue`).
    fn type_check(&self, t: &Type, v: &Value, line: usize) -> Vec<Violation> {
        let mut vs = Vec::new();
        if is_node(v) {
            let mut copy = v.clone();
            self.assign(t, &mut copy, line, &mut vs);
            if vs.is_empty() {
                self.check_node(t, &copy, line, &mut vs);
            }
        } else {
            self.check_scalar(t, v, t.line(), &mut vs);
        }
        vs
    }

    fn mismatch(&self, found: &Value, t: &Type, line: usize) -> Violation {
        Violation {
            line,
            description: String::new(),
            found: type_name_of(found).to_string(),
            expected: format!("{} (by {})", t.name(), self.at(t.line())),
        }
    }

    /// `AssignTypeTo` on a map or array value: structure checks, and the
    /// defaults of missing map keys filled in.
    fn assign(&self, t: &Type, v: &mut Value, line: usize, vs: &mut Vec<Violation>) {
        match t {
            Type::Any { .. } => {}
            Type::Null { inner, .. } => self.assign(inner, v, line, vs),
            Type::Map { items, .. } => {
                let Value::Object(m) = v else {
                    vs.push(self.mismatch(v, t, line));
                    return;
                };
                for (k, child) in m.iter_mut() {
                    if let Some(it) = items.iter().find(|i| i.key == *k) {
                        if is_node(child) {
                            self.assign(&it.value, child, line, vs);
                        }
                    }
                }
                for it in items {
                    if !m.contains_key(&it.key) {
                        let mut d = it.default.clone();
                        if is_node(&d) {
                            self.assign(&it.value, &mut d, line, vs);
                        }
                        m.insert(it.key.clone(), d);
                    }
                }
            }
            Type::Array { item, .. } => {
                let Value::Array(a) = v else {
                    vs.push(self.mismatch(v, t, line));
                    return;
                };
                for el in a.iter_mut() {
                    if is_node(el) {
                        self.assign(&item.value, el, line, vs);
                    }
                }
            }
            Type::Scalar { .. } => vs.push(self.mismatch(v, t, line)),
        }
    }

    /// `CheckNode` on a map or array value that `assign` typed.
    fn check_node(&self, t: &Type, v: &Value, line: usize, vs: &mut Vec<Violation>) {
        match (t, v) {
            (Type::Null { inner, .. }, _) => self.check_node(inner, v, line, vs),
            (
                Type::Map {
                    items,
                    line: map_line,
                    ..
                },
                Value::Object(m),
            ) => {
                for k in m.keys() {
                    if !items.iter().any(|i| i.key == *k) {
                        let mut allowed: Vec<&str> = items.iter().map(|i| i.key.as_str()).collect();
                        allowed.sort_unstable();
                        let from = self.at(*map_line);
                        let expected = match allowed.as_slice() {
                            [one] => {
                                format!("a map item with the key named \"{one}\" (from {from})")
                            }
                            some if (2..=9).contains(&some.len()) => {
                                format!("one of {{ {} }} (from {from})", some.join(", "))
                            }
                            _ => format!("a key declared in map (from {from})"),
                        };
                        vs.push(Violation {
                            line,
                            description: "Given data value is not declared in schema".to_string(),
                            found: k.clone(),
                            expected,
                        });
                    }
                }
                for (k, child) in m {
                    if let Some(it) = items.iter().find(|i| i.key == *k) {
                        self.check_item(&it.value, child, line, vs);
                    }
                }
            }
            (Type::Array { item, .. }, Value::Array(a)) => {
                for el in a {
                    self.check_item(&item.value, el, line, vs);
                }
            }
            _ => {}
        }
    }

    fn check_item(&self, t: &Type, v: &Value, line: usize, vs: &mut Vec<Violation>) {
        if is_node(v) {
            if !matches!(t, Type::Any { .. }) {
                self.check_node(t, v, line, vs);
            }
        } else {
            self.check_scalar(t, v, line, vs);
        }
    }

    /// `CheckType` of a scalar value.
    fn check_scalar(&self, t: &Type, v: &Value, line: usize, vs: &mut Vec<Violation>) {
        match t {
            Type::Any { .. } => {}
            Type::Null { inner, .. } => {
                if !v.is_null() {
                    self.check_scalar(inner, v, line, vs);
                }
            }
            Type::Scalar { kind, .. } => {
                let ok = match v {
                    Value::String(_) => *kind == ScalarKind::String,
                    Value::Bool(_) => *kind == ScalarKind::Boolean,
                    Value::Number(n) if n.is_f64() => *kind == ScalarKind::Float,
                    Value::Number(_) => matches!(kind, ScalarKind::Integer | ScalarKind::Float),
                    _ => false,
                };
                if !ok {
                    vs.push(self.mismatch(v, t, line));
                }
            }
            Type::Map { .. } | Type::Array { .. } => vs.push(self.mismatch(v, t, line)),
        }
    }

    /// `getValidation`: the rules of `@schema/validation`.
    fn get_validation(&self, node: &Node<'_>) -> Result<Option<Validation>, YttError> {
        let Some(ann) = node.ann(ANN_VALIDATION) else {
            return Ok(None);
        };
        let fail = |msg: String| {
            YttError::Schema(SchemaError::new(
                format!("Invalid @schema/validation annotation - {msg}"),
                self.failure(&[ann.line], node.line),
            ))
        };
        let mut v = Validation::default();
        for rule in &ann.args.positional {
            match rule {
                SValue::Tuple(t) => match t.as_slice() {
                    [SValue::Str(d), SValue::Lambda(f)] => v.rules.push((d.clone(), f.clone())),
                    [SValue::Str(d), SValue::Builtin(f)] => v.rules.push((d.clone(), f.clone())),
                    [SValue::Str(_), other] => {
                        return Err(fail(format!(
                            "expected the second item of a rule to be a function, but was {}",
                            other.type_name()
                        )));
                    }
                    [other, _] => {
                        return Err(fail(format!(
                            "expected the first item of a rule to be a string, but was {}",
                            other.type_name()
                        )));
                    }
                    _ => {
                        return Err(fail(format!(
                            "expected annotation to have 2-tuple as argument(s), but found: {}-tuple",
                            t.len()
                        )));
                    }
                },
                other => {
                    return Err(fail(format!(
                        "expected annotation to have 2-tuple as argument(s), but found: {}",
                        other.type_name()
                    )));
                }
            }
        }
        for (name, value) in &ann.args.kwargs {
            let as_json = || {
                value
                    .to_json()
                    .map_err(|m| fail(format!("keyword argument \"{name}\": {m}")))
            };
            let as_len = || match value {
                SValue::Int(i) => Ok(*i),
                other => Err(fail(format!(
                    "expected keyword argument \"{name}\" to be a number, but was {}",
                    other.type_name()
                ))),
            };
            match name.as_str() {
                "min" => v.min = Some(as_json()?),
                "max" => v.max = Some(as_json()?),
                "min_len" => v.min_len = Some(as_len()?),
                "max_len" => v.max_len = Some(as_len()?),
                "not_null" => match value {
                    SValue::Bool(b) => v.not_null = *b,
                    other => {
                        return Err(fail(format!(
                            "expected keyword argument \"not_null\" to be a boolean, but was {}",
                            other.type_name()
                        )));
                    }
                },
                "one_not_null" => match value {
                    SValue::Bool(true) => v.one_not_null = Some(Value::Bool(true)),
                    SValue::List(_) | SValue::Tuple(_) => v.one_not_null = Some(as_json()?),
                    other => {
                        return Err(fail(format!(
                            "expected keyword argument \"one_not_null\" to be True or a sequence of keys, but was {}",
                            if matches!(other, SValue::Bool(false)) {
                                "False"
                            } else {
                                other.type_name()
                            }
                        )));
                    }
                },
                "one_of" => match value {
                    SValue::List(items) | SValue::Tuple(items) => {
                        v.one_of = Some(
                            items
                                .iter()
                                .map(SValue::to_json)
                                .collect::<Result<_, _>>()
                                .map_err(|m| fail(format!("keyword argument \"one_of\": {m}")))?,
                        );
                    }
                    other => {
                        return Err(fail(format!(
                            "expected keyword argument \"one_of\" to be a sequence, but was {}",
                            other.type_name()
                        )));
                    }
                },
                "when" => match value {
                    SValue::Lambda(f) | SValue::Builtin(f) => v.when = Some(f.clone()),
                    other => {
                        return Err(fail(format!(
                            "expected keyword argument \"when\" to be a function, but was {}",
                            other.type_name()
                        )));
                    }
                },
                other => return Err(fail(format!("unknown keyword argument \"{other}\""))),
            }
        }
        Ok(Some(v))
    }
}

/// The map form of a JSON object (for building documents in key order).
pub(crate) fn object(entries: Vec<(&str, Value)>) -> Value {
    let mut m = Map::new();
    for (k, v) in entries {
        m.insert(k.to_string(), v);
    }
    Value::Object(m)
}
