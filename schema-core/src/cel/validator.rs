//! The API server's CEL validator (`apiextensions-apiserver`
//! `pkg/apiserver/schema/cel/validation.go`): every node's
//! `x-kubernetes-validations` rules evaluated on the node's value, with
//! `oldSelf` correlated through objects and map lists, transition rules,
//! `optionalOldSelf`, `messageExpression`, `reason`, `fieldPath`,
//! ratcheting of unchanged values on update, and the runtime cost budget.

use std::sync::Arc;

use serde_json::Value;

use super::compile::{self, RuleCompilation, RuleEnv, compile_rule};
use super::decl::{DeclType, schema_decl_type};
use super::error::EvalError;
use super::escape::escape;
use super::eval::{Activation, PER_CALL_LIMIT, evaluate};
use super::functions::CompatibilityVersion;
use super::value::{EvalResult, SchemaRef, Val, from_json};
use crate::cel::field_path::{FieldPathError, valid_field_path};
use crate::model::correlation::{Correlated, map_list_item};
use crate::model::field::{BadValue, ErrorList, ErrorType, FieldError, Path};
use crate::model::kube_version::KubeVersion;
use crate::model::structural::{NestedValueValidation, Structural};
use crate::model::wire::ValidationRule;

/// The runtime cost budget of one object (`RuntimeCELCostBudget`).
pub const RUNTIME_CEL_COST_BUDGET: i64 = 10_000_000;

/// The stack of the evaluation thread.
pub const EVAL_STACK_SIZE: usize = 256 << 20;

/// The longest evaluated `messageExpression` (`MaxEvaluatedMessageExpressionSizeBytes`).
pub const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES: usize = 5 * 1024;

const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// A rule compiled by the checker, with its resolved `fieldPath`.
struct Compiled {
    rule: ValidationRule,
    result: RuleCompilation,
    field_path: Option<String>,
}

/// The validator of one schema node: its rules and the validators below it.
struct Node {
    /// Why the node's rules could not be compiled at all (no declared
    /// type for `self`).
    init_error: Option<String>,
    rules: Vec<Compiled>,
    items: Option<Box<Node>>,
    properties: Vec<(String, Node)>,
    additional: Option<Box<Node>>,
    all_of: Vec<Node>,
    is_resource_root: bool,
}

/// The rules of a schema compiled for evaluation. Build once per schema.
pub struct CelValidator {
    schema: Structural,
    root: Option<Node>,
}

/// Options of one validation.
#[derive(Clone, Copy, Debug)]
pub struct CelOptions {
    /// Ratchet failing rules without `oldSelf` on values equal to their
    /// old values into warnings (`CRDValidationRatcheting`, on by default).
    pub ratcheting: bool,
    /// The per-call cost limit.
    pub per_call_limit: u64,
}

impl Default for CelOptions {
    fn default() -> Self {
        CelOptions {
            ratcheting: true,
            per_call_limit: PER_CALL_LIMIT,
        }
    }
}

/// What a validation found.
#[derive(Clone, Debug, Default)]
pub struct CelOutcome {
    /// The errors, in the server's words.
    pub errors: ErrorList,
    /// Errors of rules on values an update left unchanged, which do not
    /// fail it (ratcheting): the server returns them as warnings.
    pub ratcheted: ErrorList,
    /// The budget left; negative when validation stopped early.
    pub remaining_budget: i64,
}

/// A source of rules: a structural node or a nested value validation
/// under `allOf`.
#[derive(Clone, Copy)]
enum Src<'s> {
    S(&'s Structural),
    N(&'s NestedValueValidation),
}

impl<'s> Src<'s> {
    fn rules(self) -> &'s [ValidationRule] {
        match self {
            Src::S(s) => &s.x_validations,
            Src::N(n) => &n.x_validations,
        }
    }
    fn items(self) -> Option<Src<'s>> {
        match self {
            Src::S(s) => s.items.as_deref().map(Src::S),
            Src::N(n) => n.items.as_deref().map(Src::N),
        }
    }
    fn property(self, k: &str) -> Option<Src<'s>> {
        match self {
            Src::S(s) => s.properties.get(k).map(Src::S),
            Src::N(n) => n.properties.get(k).map(Src::N),
        }
    }
    fn property_names(self) -> Vec<&'s str> {
        match self {
            Src::S(s) => s.properties.keys().map(String::as_str).collect(),
            Src::N(n) => n.properties.keys().map(String::as_str).collect(),
        }
    }
    fn additional(self) -> Option<Src<'s>> {
        match self {
            Src::S(s) => s
                .generic
                .additional_properties
                .as_ref()
                .and_then(|a| a.structural.as_deref())
                .map(Src::S),
            Src::N(n) => n.additional_properties.as_deref().map(Src::N),
        }
    }
    fn all_of(self) -> &'s [NestedValueValidation] {
        match self {
            Src::S(s) => s.value_validation.as_ref().map_or(&[], |v| &v.all_of),
            Src::N(n) => &n.value_validation.all_of,
        }
    }
}

/// Compiles the rules of a node whose value has the declared type `decl`
/// (`Compile` with the stored-expressions environment: every library).
fn compile(
    rules: &[ValidationRule],
    node: &Structural,
    decl: Option<&Arc<DeclType>>,
    version: CompatibilityVersion,
) -> Result<Vec<Compiled>, String> {
    if rules.is_empty() {
        return Ok(Vec::new());
    }
    let decl = decl.ok_or("unable to convert structural schema to CEL declarations")?;
    let env = RuleEnv::new(decl, version);
    Ok(rules
        .iter()
        .map(|rule| Compiled {
            rule: rule.clone(),
            result: compile_rule(rule, &env),
            field_path: rule
                .field_path
                .as_deref()
                .filter(|p| !p.is_empty())
                .and_then(|p| match valid_field_path(p, Some(node), true) {
                    Ok((path, _)) | Err(FieldPathError::NilSchema(path)) => Some(path.to_string()),
                    Err(FieldPathError::Message(_)) => None,
                }),
        })
        .collect())
}

/// The declared type of the property `name` of a node of type `decl`
/// (`None`: the property is not validated).
fn property_decl(
    decl: Option<&Arc<DeclType>>,
    name: &str,
    prop: &Structural,
) -> Option<Arc<DeclType>> {
    match escape(name) {
        Some(escaped) => decl?.fields()?.get(&escaped).map(|f| Arc::clone(&f.ty)),
        None => schema_decl_type(prop, prop.extensions.embedded_resource),
    }
}

fn build(
    validation: Src<'_>,
    node: &Structural,
    is_resource_root: bool,
    decl: Option<&Arc<DeclType>>,
    version: CompatibilityVersion,
) -> Option<Node> {
    let (rules, init_error) = match compile(validation.rules(), node, decl, version) {
        Ok(r) => (r, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    let elem = decl.and_then(|d| d.elem());
    let items = match (validation.items(), node.items.as_deref()) {
        (Some(v), Some(n)) => {
            build(v, n, n.extensions.embedded_resource, elem, version).map(Box::new)
        }
        _ => None,
    };
    let mut properties = Vec::new();
    for k in validation.property_names() {
        let (Some(v), Some(n)) = (validation.property(k), node.properties.get(k)) else {
            continue;
        };
        let Some(field_decl) = property_decl(decl, k, n) else {
            continue;
        };
        if let Some(p) = build(
            v,
            n,
            n.extensions.embedded_resource,
            Some(&field_decl),
            version,
        ) {
            properties.push((k.to_string(), p));
        }
    }
    let node_additional = node
        .generic
        .additional_properties
        .as_ref()
        .and_then(|a| a.structural.as_deref());
    let additional = match (validation.additional(), node_additional) {
        (Some(v), Some(n)) => {
            build(v, n, n.extensions.embedded_resource, elem, version).map(Box::new)
        }
        _ => None,
    };
    let all_of: Vec<Node> = validation
        .all_of()
        .iter()
        .filter_map(|a| build(Src::N(a), node, is_resource_root, decl, version))
        .collect();
    if rules.is_empty()
        && init_error.is_none()
        && items.is_none()
        && properties.is_empty()
        && additional.is_none()
        && all_of.is_empty()
    {
        return None;
    }
    Some(Node {
        init_error,
        rules,
        items,
        properties,
        additional,
        all_of,
        is_resource_root,
    })
}

/// Whether any node of the schema has `x-kubernetes-validations`.
pub fn has_x_validations(s: &Structural) -> bool {
    let mut stack = vec![s];
    while let Some(s) = stack.pop() {
        if !s.x_validations.is_empty() {
            return true;
        }
        stack.extend(s.items.as_deref());
        stack.extend(s.properties.values());
        stack.extend(
            s.generic
                .additional_properties
                .as_ref()
                .and_then(|a| a.structural.as_deref()),
        );
    }
    false
}

impl CelValidator {
    /// `NewValidator(s, isResourceRoot, PerCallLimit)`: compiles the
    /// rules of `s` with the checker, each node's against the declared
    /// type of its values. Rules that do not compile are reported, with
    /// the compilation error, when evaluated.
    pub fn new(s: &Structural, is_resource_root: bool) -> Self {
        Self::at(
            s,
            is_resource_root,
            CompatibilityVersion::stored_expressions(KubeVersion::default()),
        )
    }

    /// [`CelValidator::new`] with the rules compiled in the environment of
    /// `version`: for objects, the API server's stored-expressions
    /// environment, every library of its own release
    /// ([`CompatibilityVersion::stored_expressions`]).
    pub fn at(s: &Structural, is_resource_root: bool, version: CompatibilityVersion) -> Self {
        let root = if has_x_validations(s) {
            let decl = schema_decl_type(s, is_resource_root);
            build(Src::S(s), s, is_resource_root, decl.as_ref(), version)
        } else {
            None
        };
        CelValidator {
            schema: s.clone(),
            root,
        }
    }

    /// [`CelValidator::at`] when `s` has rules to evaluate; `None`, without
    /// copying the schema, when it has none.
    pub fn with_rules(
        s: &Structural,
        is_resource_root: bool,
        version: CompatibilityVersion,
    ) -> Option<Self> {
        if !has_x_validations(s) {
            return None;
        }
        Some(Self::at(s, is_resource_root, version)).filter(Self::has_rules)
    }

    /// apiextensions' `validator(s, s, isResourceRoot, …)`, which
    /// [`CelValidator::new`] (`NewValidator`) calls only when the schema has
    /// rules outside `allOf`: the rules of every node, those under `allOf`
    /// included, even when they are the only ones. The API server never
    /// gets such a schema (CRD validation forbids rules under `allOf`); its
    /// own tests build the validator this way.
    pub fn for_node(s: &Structural, is_resource_root: bool) -> Self {
        let decl = schema_decl_type(s, is_resource_root);
        CelValidator {
            schema: s.clone(),
            root: build(
                Src::S(s),
                s,
                is_resource_root,
                decl.as_ref(),
                CompatibilityVersion::stored_expressions(KubeVersion::default()),
            ),
        }
    }

    /// Whether there is anything to evaluate.
    pub fn has_rules(&self) -> bool {
        self.root.is_some()
    }

    /// `Validate`: evaluates the rules on `obj` (and `old`, for an update)
    /// under the path `path`, with `budget` to spend.
    ///
    /// Evaluation recurses along the rules' expression trees (at most
    /// [`super::eval::MAX_EVAL_DEPTH`] deep) and runs on a helper thread with a
    /// [`EVAL_STACK_SIZE`] stack.
    pub fn validate(
        &self,
        path: &Path,
        obj: &Value,
        old: Option<&Value>,
        opts: CelOptions,
        budget: i64,
    ) -> CelOutcome {
        let Some(root) = &self.root else {
            return CelOutcome {
                remaining_budget: budget,
                ..CelOutcome::default()
            };
        };
        std::thread::scope(|scope| {
            let run = || {
                let corr = if opts.ratcheting {
                    old.map(|o| Correlated::root(obj, o, &self.schema))
                } else {
                    None
                };
                let values = Values {
                    schema: &self.schema,
                    obj,
                    old,
                    corr: Ratchet {
                        current: corr,
                        parent: None,
                    },
                };
                Walk::run(root, path, values, opts, budget)
            };
            match std::thread::Builder::new()
                .name("cel-eval".to_owned())
                .stack_size(EVAL_STACK_SIZE)
                .spawn_scoped(scope, run)
            {
                Ok(handle) => handle.join().unwrap_or_else(|_| {
                    CelOutcome::failed(path, "CEL evaluation failed unexpectedly".to_owned())
                }),
                Err(e) => CelOutcome::failed(
                    path,
                    format!("could not start the CEL evaluation thread: {e}"),
                ),
            }
        })
    }
}

impl CelOutcome {
    /// An evaluation that could not run: an internal error at `path`, the
    /// budget spent.
    fn failed(path: &Path, detail: String) -> Self {
        CelOutcome {
            errors: vec![FieldError::internal(path, detail)],
            ratcheted: ErrorList::new(),
            remaining_budget: -1,
        }
    }
}

/// The schema at a node, the value there, its old value (on an update)
/// and their correlation for ratcheting.
#[derive(Clone, Copy)]
struct Values<'v> {
    schema: &'v Structural,
    obj: &'v Value,
    old: Option<&'v Value>,
    corr: Ratchet<'v>,
}

#[derive(Clone, Copy)]
struct Ratchet<'v> {
    current: Option<Correlated<'v>>,
    parent: Option<Correlated<'v>>,
}

impl<'v> Ratchet<'v> {
    fn should_ratchet(&self) -> bool {
        match (&self.current, &self.parent) {
            (Some(c), _) => c.unchanged(),
            (None, Some(p)) => p.unchanged(),
            (None, None) => false,
        }
    }

    fn key(&self, field: &str) -> Ratchet<'v> {
        let Some(cur) = self.current else {
            return *self;
        };
        if self.parent.is_none() && (field == "apiVersion" || field == "kind") {
            return Ratchet {
                current: None,
                parent: None,
            };
        }
        Ratchet {
            current: cur.key(field),
            parent: Some(cur),
        }
    }

    fn index(&self, i: usize) -> Ratchet<'v> {
        let Some(cur) = self.current else {
            return *self;
        };
        Ratchet {
            current: cur.index(i),
            parent: Some(cur),
        }
    }
}

struct Walk {
    opts: CelOptions,
    errors: ErrorList,
    ratcheted: ErrorList,
}

fn invalid(path: &Path, value: impl Into<Value>, detail: impl Into<String>) -> FieldError {
    FieldError::invalid(path, value, detail)
}

fn rule_error_string(rule: &ValidationRule) -> String {
    match rule.message.as_deref() {
        Some(m) if !m.is_empty() => m.trim().to_string(),
        _ => rule.rule.as_deref().unwrap_or("").trim().to_string(),
    }
}

fn rule_message_or_default(rule: &ValidationRule) -> String {
    match rule.message.as_deref() {
        Some(m) if !m.is_empty() => m.trim().to_string(),
        _ => format!("failed rule: {}", rule_error_string(rule)),
    }
}

/// `fieldErrorForReason`.
fn field_error_for_reason(
    path: &Path,
    value: BadValue,
    detail: String,
    reason: Option<&str>,
) -> FieldError {
    let (error_type, bad_value, detail) = match reason {
        Some("FieldValueForbidden") => (ErrorType::Forbidden, BadValue::Omitted, detail),
        Some("FieldValueRequired") => (ErrorType::Required, BadValue::Omitted, detail),
        Some("FieldValueDuplicate") => (ErrorType::Duplicate, value, String::new()),
        _ => (ErrorType::Invalid, value, detail),
    };
    FieldError {
        error_type,
        field: path.clone(),
        bad_value,
        detail,
    }
}

impl Walk {
    /// Evaluates `program` in `act` with the per-call limit: its result
    /// and the budget left of `remaining`, or `None` when its cost exceeds
    /// `remaining`.
    fn evaluate_within<'a>(
        &self,
        program: &compile::Compiled,
        act: &Activation<'a>,
        remaining: i64,
    ) -> Option<(EvalResult<'a>, i64)> {
        let out = evaluate(
            &program.expr,
            Some(&program.checked),
            act,
            self.opts.per_call_limit,
        );
        let cost = i64::try_from(out.cost).ok().filter(|c| *c <= remaining)?;
        Some((out.result, remaining - cost))
    }

    /// Walks the rules from `root` over `values`.
    fn run(
        root: &Node,
        path: &Path,
        values: Values<'_>,
        opts: CelOptions,
        budget: i64,
    ) -> CelOutcome {
        let mut w = Walk {
            opts,
            errors: ErrorList::new(),
            ratcheted: ErrorList::new(),
        };
        let remaining = w.node(root, path, values, budget);
        CelOutcome {
            errors: w.errors,
            ratcheted: w.ratcheted,
            remaining_budget: remaining,
        }
    }

    fn node(&mut self, v: &Node, path: &Path, values: Values<'_>, budget: i64) -> i64 {
        let Values {
            schema: s,
            obj,
            old,
            corr,
        } = values;
        if obj.is_null() {
            return budget;
        }
        let old = old.filter(|o| !o.is_null());
        let mut remaining = self.expressions(v, path, Values { old, ..values }, budget);
        if remaining < 0 {
            return remaining;
        }
        for a in &v.all_of {
            let r = Ratchet {
                current: None,
                parent: corr.parent,
            };
            let values = Values {
                old,
                corr: r,
                ..values
            };
            remaining = self.node(a, path, values, remaining);
            if remaining < 0 {
                return remaining;
            }
        }
        match obj {
            Value::Array(items) => {
                let Some(iv) = &v.items else { return remaining };
                let Some(is) = s.items.as_deref() else {
                    return remaining;
                };
                let old_items = match old {
                    Some(Value::Array(o)) if s.extensions.list_type.as_deref() == Some("map") => {
                        Some(o)
                    }
                    _ => None,
                };
                for (i, item) in items.iter().enumerate() {
                    let old_item = old_items.and_then(|o| map_list_item(s, o, item));
                    let values = Values {
                        schema: is,
                        obj: item,
                        old: old_item,
                        corr: corr.index(i),
                    };
                    remaining = self.node(iv, &path.index(i), values, remaining);
                    if remaining < 0 {
                        return remaining;
                    }
                }
            }
            Value::Object(m) => {
                let correlatable = matches!(
                    s.extensions.map_type.as_deref(),
                    None | Some("granular" | "atomic")
                );
                let old_map = match old {
                    Some(Value::Object(o)) if correlatable => Some(o),
                    _ => None,
                };
                // Additional properties first, then properties, as the
                // server walks them.
                let additional = v.additional.as_deref().zip(
                    s.generic
                        .additional_properties
                        .as_ref()
                        .and_then(|a| a.structural.as_deref()),
                );
                let to_additional = additional.into_iter().flat_map(|(av, as_)| {
                    m.iter()
                        .map(move |(k, val)| (av, as_, path.key(k.as_str()), k, val))
                });
                let to_properties = m.iter().filter_map(|(k, val)| {
                    let (_, pv) = v.properties.iter().find(|(n, _)| n == k)?;
                    let ps = s.properties.get(k)?;
                    Some((pv, ps, path.child(k.as_str()), k, val))
                });
                for (cv, cs, cp, k, val) in to_additional.chain(to_properties) {
                    let old_v = old_map.and_then(|o| o.get(k));
                    let values = Values {
                        schema: cs,
                        obj: val,
                        old: old_v,
                        corr: corr.key(k),
                    };
                    remaining = self.node(cv, &cp, values, remaining);
                    if remaining < 0 {
                        return remaining;
                    }
                }
            }
            _ => {}
        }
        remaining
    }

    fn expressions<'v>(&mut self, v: &Node, path: &Path, values: Values<'v>, budget: i64) -> i64 {
        let (s, obj, old, corr) = (values.schema, values.obj, values.old, values.corr);
        let mut remaining = budget;
        let type_ = s.generic.type_.as_str();
        if let Some(e) = &v.init_error {
            self.errors.push(invalid(
                path,
                type_,
                format!("rule compiler initialization error: {e}"),
            ));
            return remaining;
        }
        if v.rules.is_empty() {
            return remaining;
        }
        if remaining <= 0 {
            self.errors.push(invalid(path, type_, OUT_OF_BUDGET));
            return -1;
        }
        let schema = if v.is_resource_root {
            SchemaRef::resource(s)
        } else {
            SchemaRef::of(s)
        };
        let uses_old = v.rules.iter().any(|r| r.result.uses_old_self);
        let self_val: Result<Val<'v>, EvalError> = from_json(obj, schema);
        let old_val: Option<Result<Val<'v>, EvalError>> = if uses_old {
            old.map(|o| from_json(o, schema))
        } else {
            None
        };
        for compiled in &v.rules {
            let rule = &compiled.rule;
            let cr = &compiled.result;
            if let Some(e) = &cr.error {
                self.errors
                    .push(invalid(path, type_, format!("rule compile error: {e}")));
                continue;
            }
            let Some(program) = &cr.program else {
                continue;
            };
            let optional_old_self = rule.optional_old_self == Some(true);
            if cr.uses_old_self && old.is_none() && !optional_old_self {
                continue;
            }
            // A value that does not convert is an error value of `self`
            // (or `oldSelf`), raised where the rule reads it.
            let act_self = self_val.clone();
            let plain_old = old_val.clone();
            let activation = Activation {
                self_: act_self.clone(),
                old_self: if uses_old { plain_old.clone() } else { None },
            };
            let rule_activation = if optional_old_self && uses_old {
                Activation {
                    self_: act_self,
                    old_self: Some(match plain_old {
                        None => Ok(Val::Optional(None)),
                        Some(Ok(o)) => Ok(Val::Optional(Some(std::rc::Rc::new(o)))),
                        Some(Err(e)) => Err(e),
                    }),
                }
            } else {
                activation.clone()
            };
            let Some((result, left)) = self.evaluate_within(program, &rule_activation, remaining)
            else {
                self.errors.push(invalid(path, type_, OUT_OF_BUDGET));
                return -1;
            };
            remaining = left;
            let result = match result {
                Err(e) => {
                    if e.msg.starts_with("no such overload") {
                        self.errors.push(invalid(path, type_, format!(
                            "'{}': call arguments did not match a supported operator, function or macro signature for rule: {}",
                            e.msg,
                            rule_error_string(rule)
                        )));
                    } else if e.cancelled {
                        self.errors.push(invalid(path, type_, format!(
                            "'{}': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                            e.msg,
                            rule_error_string(rule)
                        )));
                        return -1;
                    } else {
                        self.errors.push(invalid(
                            path,
                            type_,
                            format!("{} evaluating rule: {}", e.msg, rule_error_string(rule)),
                        ));
                    }
                    continue;
                }
                Ok(r) => r,
            };
            if matches!(result, Val::Bool(true)) {
                continue;
            }
            let current = match &compiled.field_path {
                Some(fp) => path.child(fp.as_str()),
                None => path.clone(),
            };
            let ratchet = !cr.uses_old_self && corr.should_ratchet();
            let mut detail = None;
            if let Some(me) = &cr.message_expression {
                let src = rule.message_expression.as_deref().unwrap_or("");
                let Some((message, left)) = self.evaluate_within(me, &activation, remaining) else {
                    self.add(
                        ratchet,
                        invalid(&current, type_, "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"),
                    );
                    return -1;
                };
                match message {
                    Err(e) if e.cancelled => {
                        self.add(
                            ratchet,
                            invalid(&current, type_, format!(
                                "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                                crate::go::fmt::go_quote(src)
                            )),
                        );
                        return -1;
                    }
                    Err(_) => remaining = left,
                    Ok(Val::Str(m)) => {
                        remaining = left;
                        let t = m.as_str().trim();
                        if t.len() <= MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES
                            && !t.contains('\n')
                            && !t.is_empty()
                        {
                            detail = Some(t.to_string());
                        }
                    }
                    Ok(_) => remaining = left,
                }
            }
            let detail = detail.unwrap_or_else(|| rule_message_or_default(rule));
            let value = if type_ == "object" || type_ == "array" {
                BadValue::Omitted
            } else {
                BadValue::Json(obj.clone())
            };
            let e = field_error_for_reason(&current, value, detail, rule.reason.as_deref());
            self.add(ratchet, e);
        }
        remaining
    }

    fn add(&mut self, ratchet: bool, e: FieldError) {
        if ratchet {
            self.ratcheted.push(e);
        } else {
            self.errors.push(e);
        }
    }
}
