//! The CEL type checker (cel-go's `checker/checker.go` and `types.go`):
//! resolves identifiers, fields and function overloads, infers the type of
//! every expression, and reports errors in cel-go's words.

use std::collections::HashMap;
use std::sync::Arc;

use cel::common::ast::{
    CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue, SelectExpr,
};

use crate::cel::decl::DeclType;
use crate::cel::escape::keyword_field_fallback;
use crate::cel::functions::{Features, Function, Library};
use crate::cel::types::{Kind, Type};

/// The declarations an expression is checked against.
#[derive(Clone, Debug)]
pub struct CheckEnv {
    /// The functions.
    pub library: Arc<Library>,
    /// The language features.
    pub features: Features,
    /// The variables (`self`, `oldSelf`) and type identifiers.
    pub variables: Vec<(String, Type)>,
    /// The object types by name, for field selection.
    pub object_types: HashMap<String, Arc<DeclType>>,
}

/// What an expression refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    /// A variable (possibly reached by a qualified name such as `net.CIDR`).
    Ident(String),
    /// A function call: the matching overload ids and, when the function
    /// was reached by a qualified name (`ip.isCanonical(x)`), that name (the
    /// call is then a global call without its target).
    Function {
        /// The matching overload ids.
        overloads: Vec<String>,
        /// The qualified function name, when the target was a namespace.
        namespaced: Option<String>,
    },
}

/// A type error, located at an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckIssue {
    /// The expression the error is about.
    pub expr_id: u64,
    /// cel-go's message.
    pub message: String,
}

/// A checked expression: the type of every expression and what each
/// identifier and call refers to.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// The type of each expression, by id.
    pub types: HashMap<u64, Type>,
    /// The references of identifiers and calls, by id.
    pub references: HashMap<u64, Reference>,
}

impl Checked {
    /// The type of an expression (`dyn` when unknown).
    pub fn type_of(&self, id: u64) -> Type {
        self.types.get(&id).cloned().unwrap_or(Type::Dyn)
    }

    /// Whether any identifier refers to `name`.
    pub fn references_variable(&self, name: &str) -> bool {
        self.references
            .values()
            .any(|r| matches!(r, Reference::Ident(n) if n == name))
    }
}

/// Type-checks `expr` in `env`. On errors, the partial result and the
/// errors in the order they were found.
pub fn check(expr: &IdedExpr, env: &CheckEnv) -> (Checked, Vec<CheckIssue>) {
    let mut c = Checker {
        env,
        scopes: Vec::new(),
        mappings: HashMap::new(),
        counter: 0,
        types: HashMap::new(),
        references: HashMap::new(),
        issues: Vec::new(),
    };
    c.check(expr);
    let mut types = HashMap::with_capacity(c.types.len());
    for (id, t) in &c.types {
        types.insert(*id, substitute(&c.mappings, t, true, 0));
    }
    (
        Checked {
            types,
            references: c.references,
        },
        c.issues,
    )
}

type Mapping = HashMap<String, Type>;

struct Checker<'a> {
    env: &'a CheckEnv,
    scopes: Vec<Vec<(String, Type)>>,
    mappings: Mapping,
    counter: usize,
    types: HashMap<u64, Type>,
    references: HashMap<u64, Reference>,
    issues: Vec<CheckIssue>,
}

/// The dotted name an identifier or a chain of (non-test) selections on one
/// spells: `a.b.c`.
pub fn qualified_name(e: &IdedExpr) -> Option<String> {
    let mut segments: Vec<&str> = Vec::new();
    let mut cur = e;
    loop {
        match &cur.expr {
            Expr::Ident(n) => {
                let mut out = n.clone();
                for s in segments.iter().rev() {
                    out.push('.');
                    out.push_str(s);
                }
                return Some(out);
            }
            Expr::Select(SelectExpr {
                operand,
                field,
                test: false,
            }) => {
                segments.push(field.as_str());
                cur = operand;
            }
            _ => return None,
        }
    }
}

impl<'a> Checker<'a> {
    fn error(&mut self, id: u64, message: String) {
        self.issues.push(CheckIssue {
            expr_id: id,
            message,
        });
    }

    fn set_type(&mut self, id: u64, t: Type) {
        self.types.entry(id).or_insert(t);
    }

    fn get_type(&self, id: u64) -> Type {
        self.types.get(&id).cloned().unwrap_or(Type::Error)
    }

    fn new_type_var(&mut self) -> Type {
        let t = Type::TypeParam(format!("_var{}", self.counter));
        self.counter += 1;
        t
    }

    fn lookup_ident(&self, name: &str) -> Option<(String, Type)> {
        let name = name.strip_prefix('.').unwrap_or(name);
        for scope in self.scopes.iter().rev() {
            if let Some((n, t)) = scope.iter().find(|(n, _)| n == name) {
                return Some((n.clone(), t.clone()));
            }
        }
        self.env
            .variables
            .iter()
            .find(|(n, _)| n == name)
            .map(|(n, t)| (n.clone(), t.clone()))
    }

    fn lookup_function(&self, name: &str) -> Option<&'a Function> {
        let name = name.strip_prefix('.').unwrap_or(name);
        self.env.library.function(name)
    }

    fn check(&mut self, e: &IdedExpr) {
        match &e.expr {
            Expr::Literal(l) => {
                let t = match l {
                    LiteralValue::Boolean(_) => Type::Bool,
                    LiteralValue::Bytes(_) => Type::Bytes,
                    LiteralValue::Double(_) => Type::Double,
                    LiteralValue::Int(_) => Type::Int,
                    LiteralValue::Null => Type::Null,
                    LiteralValue::String(_) => Type::String,
                    LiteralValue::UInt(_) => Type::Uint,
                };
                self.set_type(e.id, t);
            }
            Expr::Ident(name) => self.check_ident(e.id, name),
            Expr::Select(sel) => self.check_select(e, sel),
            Expr::Call(call) => self.check_call(e, call),
            Expr::List(list) => {
                let optionals = &list.optional_indices;
                let mut elems: Option<Type> = None;
                for (i, el) in list.elements.iter().enumerate() {
                    self.check(el);
                    let mut t = self.get_type(el.id);
                    if optionals.contains(&i) {
                        match t.optional_value() {
                            Some(v) => t = v.clone(),
                            None => {
                                if !t.is_dyn() {
                                    self.error(
                                        el.id,
                                        format!(
                                            "expected type '{}' but found '{}'",
                                            Type::optional(t.clone()),
                                            t
                                        ),
                                    );
                                }
                            }
                        }
                    }
                    elems = Some(self.join_types(elems, t));
                }
                let elems = match elems {
                    Some(t) => t,
                    None => self.new_type_var(),
                };
                self.set_type(e.id, Type::list(elems));
            }
            Expr::Map(map) => {
                let mut key_t: Option<Type> = None;
                let mut val_t: Option<Type> = None;
                for entry in &map.entries {
                    let EntryExpr::MapEntry(me) = &entry.expr else {
                        continue;
                    };
                    self.check(&me.key);
                    let kt = self.get_type(me.key.id);
                    key_t = Some(self.join_types(key_t, kt));
                    self.check(&me.value);
                    let mut vt = self.get_type(me.value.id);
                    if me.optional {
                        match vt.optional_value() {
                            Some(v) => vt = v.clone(),
                            None => {
                                if !vt.is_dyn() {
                                    self.error(
                                        me.value.id,
                                        format!(
                                            "expected type '{}' but found '{}'",
                                            Type::optional(vt.clone()),
                                            vt
                                        ),
                                    );
                                }
                            }
                        }
                    }
                    val_t = Some(self.join_types(val_t, vt));
                }
                let (k, v) = match (key_t, val_t) {
                    (Some(k), Some(v)) => (k, v),
                    _ => (self.new_type_var(), self.new_type_var()),
                };
                self.set_type(e.id, Type::map(k, v));
            }
            Expr::Struct(st) => {
                let Some((name, t)) = self.lookup_ident(&st.type_name) else {
                    self.error(
                        e.id,
                        format!(
                            "undeclared reference to '{}' (in container '')",
                            st.type_name
                        ),
                    );
                    self.set_type(e.id, Type::Error);
                    return;
                };
                self.references.insert(e.id, Reference::Ident(name.clone()));
                let mut result = Type::Error;
                match &t {
                    Type::Error => {}
                    Type::TypeType(Some(inner)) => match inner.as_ref() {
                        Type::Struct(_) => result = (**inner).clone(),
                        other => self.error(
                            e.id,
                            format!("'{}' is not a message type", other.type_name()),
                        ),
                    },
                    _ => self.error(e.id, format!("'{name}' is not a type")),
                }
                self.set_type(e.id, result.clone());
                for entry in &st.entries {
                    let EntryExpr::StructField(f) = &entry.expr else {
                        continue;
                    };
                    self.check(&f.value);
                    let mut vt = self.get_type(f.value.id);
                    if f.optional {
                        if let Some(v) = vt.optional_value() {
                            vt = v.clone();
                        }
                    }
                    let ft = match &result {
                        Type::Struct(sn) => self
                            .lookup_field_type(entry.id, sn, &f.field)
                            .unwrap_or(Type::Error),
                        _ => Type::Error,
                    };
                    if !self.is_assignable(&ft, &vt) {
                        self.error(
                            entry.id,
                            format!(
                                "expected type of field '{}' is '{}' but provided type is '{}'",
                                f.field, ft, vt
                            ),
                        );
                    }
                }
            }
            Expr::Comprehension(comp) => self.check_comprehension(e, comp),
            Expr::Unspecified => self.set_type(e.id, Type::Error),
        }
    }

    fn check_ident(&mut self, id: u64, name: &str) {
        if let Some((resolved, t)) = self.lookup_ident(name) {
            self.set_type(id, t);
            self.references.insert(id, Reference::Ident(resolved));
            return;
        }
        self.set_type(id, Type::Error);
        self.error(
            id,
            format!("undeclared reference to '{name}' (in container '')"),
        );
    }

    fn check_select(&mut self, e: &IdedExpr, sel: &SelectExpr) {
        if !sel.test {
            if let Some(qname) = qualified_name(e) {
                if let Some((resolved, t)) = self.lookup_ident(&qname) {
                    self.set_type(e.id, t);
                    self.references.insert(e.id, Reference::Ident(resolved));
                    return;
                }
            }
        }
        let mut rt = self.check_select_field(e.id, &sel.operand, &sel.field, false);
        if sel.test {
            rt = Type::Bool;
        }
        let t = substitute(&self.mappings, &rt, false, 0);
        self.set_type(e.id, t);
    }

    fn check_select_field(
        &mut self,
        id: u64,
        operand: &IdedExpr,
        field: &str,
        optional: bool,
    ) -> Type {
        self.check(operand);
        let operand_type = substitute(&self.mappings, &self.get_type(operand.id), false, 0);
        let (target, is_opt) = match operand_type.optional_value() {
            Some(v) => (v.clone(), true),
            None => (operand_type.clone(), false),
        };
        let result = match &target {
            Type::Map(_, v) => (**v).clone(),
            Type::Struct(name) => self
                .lookup_field_type(id, name, field)
                .unwrap_or(Type::Error),
            Type::TypeParam(_) => {
                self.is_assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            _ => {
                if !target.is_dyn_or_error() {
                    self.error(
                        id,
                        format!("type '{target}' does not support field selection"),
                    );
                }
                Type::Dyn
            }
        };
        if is_opt || optional {
            Type::optional(result)
        } else {
            result
        }
    }

    fn lookup_field_type(&mut self, id: u64, struct_name: &str, field: &str) -> Option<Type> {
        let Some(decl) = self.env.object_types.get(struct_name) else {
            self.error(
                id,
                format!("[internal] unexpected failed resolution of '{struct_name}'"),
            );
            return None;
        };
        if let Some(fields) = decl.fields() {
            let mut f = fields.get(field);
            if f.is_none() && self.env.features.keyword_field_names {
                if let Some(escaped) = keyword_field_fallback(field) {
                    f = fields.get(&escaped);
                }
            }
            if let Some(f) = f {
                return Some(f.ty.cel_type());
            }
        }
        self.error(id, format!("undefined field '{field}'"));
        None
    }

    fn check_call(&mut self, e: &IdedExpr, call: &CallExpr) {
        if call.func_name == "_?._" {
            self.check_opt_select(e, call);
            return;
        }
        for arg in &call.args {
            self.check(arg);
        }
        let Some(target) = &call.target else {
            match self.lookup_function(&call.func_name) {
                Some(f) => self.resolve_overload_or_error(e.id, f, None, &call.args, None),
                None => {
                    self.error(
                        e.id,
                        format!(
                            "undeclared reference to '{}' (in container '')",
                            call.func_name
                        ),
                    );
                    self.set_type(e.id, Type::Error);
                }
            }
            return;
        };
        if let Some(prefix) = qualified_name(target) {
            let qualified = format!("{prefix}.{}", call.func_name);
            if let Some(f) = self.lookup_function(&qualified) {
                let name = f.name.clone();
                self.resolve_overload_or_error(e.id, f, None, &call.args, Some(name));
                return;
            }
        }
        self.check(target);
        match self.lookup_function(&call.func_name) {
            Some(f) => self.resolve_overload_or_error(e.id, f, Some(target), &call.args, None),
            None => {
                self.set_type(e.id, Type::Error);
                self.error(
                    e.id,
                    format!(
                        "undeclared reference to '{}' (in container '')",
                        call.func_name
                    ),
                );
            }
        }
    }

    fn check_opt_select(&mut self, e: &IdedExpr, call: &CallExpr) {
        if call.args.len() != 2 || call.target.is_some() {
            let t = if call.target.is_some() {
                " member call with"
            } else {
                ""
            };
            self.error(
                e.id,
                format!(
                    "unsupported optional field selection: incorrect signature.{t} argument count: {}",
                    call.args.len()
                ),
            );
            return;
        }
        let (operand, field) = (&call.args[0], &call.args[1]);
        let Expr::Literal(LiteralValue::String(name)) = &field.expr else {
            self.error(field.id, "unsupported optional field selection".to_string());
            return;
        };
        let name: &str = name.as_ref();
        let rt = self.check_select_field(e.id, operand, name, true);
        let t = substitute(&self.mappings, &rt, false, 0);
        self.set_type(e.id, t);
        self.references.insert(
            e.id,
            Reference::Function {
                overloads: vec!["select_optional_field".into()],
                namespaced: None,
            },
        );
    }

    fn resolve_overload_or_error(
        &mut self,
        id: u64,
        f: &Function,
        target: Option<&IdedExpr>,
        args: &[IdedExpr],
        namespaced: Option<String>,
    ) {
        match self.resolve_overload(id, f, target, args) {
            Some((t, overloads)) => {
                self.set_type(id, t);
                self.references.insert(
                    id,
                    Reference::Function {
                        overloads,
                        namespaced,
                    },
                );
            }
            None => self.set_type(id, Type::Error),
        }
    }

    fn resolve_overload(
        &mut self,
        id: u64,
        f: &Function,
        target: Option<&IdedExpr>,
        args: &[IdedExpr],
    ) -> Option<(Type, Vec<String>)> {
        let mut arg_types = Vec::with_capacity(args.len() + 1);
        if let Some(t) = target {
            arg_types.push(self.get_type(t.id));
        }
        for a in args {
            arg_types.push(self.get_type(a.id));
        }
        let mut result: Option<Type> = None;
        let mut refs: Vec<String> = Vec::new();
        for ov in &f.overloads {
            if target.is_none() == ov.member {
                continue;
            }
            if f.name == "_&&_" || f.name == "_||_" {
                let mut failed = false;
                for (i, at) in arg_types.iter().enumerate() {
                    if !self.is_assignable(at, &Type::Bool) {
                        let arg_id = args.get(i).map_or(id, |a| a.id);
                        self.error(arg_id, format!("expected type 'bool' but found '{at}'"));
                        failed = true;
                    }
                }
                if failed {
                    return None;
                }
                return Some((Type::Bool, vec![ov.id.clone()]));
            }
            let params = ov.type_params();
            let (cand_args, cand_result) = if params.is_empty() {
                (ov.args.clone(), ov.result.clone())
            } else {
                let mut subs = Mapping::new();
                for p in params {
                    let v = self.new_type_var();
                    subs.insert(p, v);
                }
                (
                    ov.args
                        .iter()
                        .map(|a| substitute(&subs, a, false, 0))
                        .collect(),
                    substitute(&subs, &ov.result, false, 0),
                )
            };
            if self.is_assignable_list(&arg_types, &cand_args) {
                refs.push(ov.id.clone());
                let fn_result = substitute(&self.mappings, &cand_result, false, 0);
                result = Some(match result {
                    None => fn_result,
                    Some(r) if !r.is_dyn() && fn_result != r => Type::Dyn,
                    Some(r) => r,
                });
            }
        }
        match result {
            Some(r) => Some((r, refs)),
            None => {
                let shown: Vec<Type> = arg_types
                    .iter()
                    .map(|t| substitute(&self.mappings, t, true, 0))
                    .collect();
                let sig = format_signature(&shown, target.is_some());
                self.error(
                    id,
                    format!(
                        "found no matching overload for '{}' applied to '{sig}'",
                        f.name
                    ),
                );
                None
            }
        }
    }

    fn check_comprehension(&mut self, e: &IdedExpr, comp: &ComprehensionExpr) {
        self.check(&comp.iter_range);
        self.check(&comp.accu_init);
        let range_type = substitute(&self.mappings, &self.get_type(comp.iter_range.id), false, 0);
        let accu_type = self.get_type(comp.accu_init.id);
        self.scopes
            .push(vec![(comp.accu_var.clone(), accu_type.clone())]);
        let two = comp.iter_var2.is_some();
        let (var_t, var2_t) = match &range_type {
            Type::List(elem) => {
                if two {
                    (Type::Int, (**elem).clone())
                } else {
                    ((**elem).clone(), Type::Error)
                }
            }
            Type::Map(k, v) => ((**k).clone(), (**v).clone()),
            t if matches!(t.kind(), Kind::Dyn | Kind::Error | Kind::TypeParam) => {
                self.is_assignable(&Type::Dyn, &range_type);
                (Type::Dyn, Type::Dyn)
            }
            _ => {
                self.error(
                    comp.iter_range.id,
                    format!(
                        "expression of type '{range_type}' cannot be range of a comprehension (must be list, map, or dynamic)"
                    ),
                );
                (Type::Error, Type::Error)
            }
        };
        let mut scope = vec![(comp.iter_var.clone(), var_t)];
        if let Some(v2) = &comp.iter_var2 {
            scope.push((v2.clone(), var2_t));
        }
        self.scopes.push(scope);
        self.check(&comp.loop_cond);
        self.assert_type(&comp.loop_cond, &Type::Bool);
        self.check(&comp.loop_step);
        self.assert_type(&comp.loop_step, &accu_type);
        self.scopes.pop();
        self.check(&comp.result);
        self.scopes.pop();
        let t = substitute(&self.mappings, &self.get_type(comp.result.id), false, 0);
        self.set_type(e.id, t);
    }

    fn assert_type(&mut self, e: &IdedExpr, t: &Type) {
        let actual = self.get_type(e.id);
        if !self.is_assignable(t, &actual) {
            self.error(e.id, format!("expected type '{t}' but found '{actual}'"));
        }
    }

    fn join_types(&mut self, previous: Option<Type>, current: Type) -> Type {
        let Some(prev) = previous else {
            return current;
        };
        if self.is_assignable(&prev, &current) {
            return most_general(&prev, &current);
        }
        // Dynamic aggregate literals: the homogeneity of literals is checked
        // by the AST validator afterwards.
        Type::Dyn
    }

    fn is_assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        let mut m = self.mappings.clone();
        if internal_is_assignable(&mut m, t1, t2, 0) {
            self.mappings = m;
            return true;
        }
        false
    }

    fn is_assignable_list(&mut self, l1: &[Type], l2: &[Type]) -> bool {
        if l1.len() != l2.len() {
            return false;
        }
        let mut m = self.mappings.clone();
        if l1
            .iter()
            .zip(l2)
            .all(|(a, b)| internal_is_assignable(&mut m, a, b, 0))
        {
            self.mappings = m;
            return true;
        }
        false
    }
}

/// `formatFunctionDeclType` without a result type: `(int, string)` or
/// `string.(int)`.
pub fn format_signature(args: &[Type], is_instance: bool) -> String {
    let mut out = String::new();
    let mut rest = args;
    if is_instance {
        if let Some((first, tail)) = args.split_first() {
            out.push_str(&first.to_string());
            out.push('.');
            rest = tail;
        }
    }
    out.push('(');
    for (i, a) in rest.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&a.to_string());
    }
    out.push(')');
    out
}

/// A bound on recursion through types (types nest only as deep as the
/// expressions that build them).
const MAX_TYPE_DEPTH: usize = 512;

fn is_equal_or_less_specific(t1: &Type, t2: &Type) -> bool {
    let (k1, k2) = (t1.kind(), t2.kind());
    if t1.is_dyn() || k1 == Kind::TypeParam {
        return true;
    }
    if t2.is_dyn() || k2 == Kind::TypeParam {
        return false;
    }
    if k1 != k2 {
        return false;
    }
    match k1 {
        Kind::Opaque => {
            let (p1, p2) = (t1.parameters(), t2.parameters());
            t1.type_name() == t2.type_name()
                && p1.len() == p2.len()
                && p1
                    .iter()
                    .zip(p2)
                    .all(|(a, b)| is_equal_or_less_specific(a, b))
        }
        Kind::List | Kind::Map => {
            let (p1, p2) = (t1.parameters(), t2.parameters());
            p1.len() == p2.len()
                && p1
                    .iter()
                    .zip(p2)
                    .all(|(a, b)| is_equal_or_less_specific(a, b))
        }
        Kind::Type => true,
        _ => t1 == t2,
    }
}

fn most_general(t1: &Type, t2: &Type) -> Type {
    if is_equal_or_less_specific(t1, t2) {
        t1.clone()
    } else {
        t2.clone()
    }
}

fn internal_is_assignable(m: &mut Mapping, t1: &Type, t2: &Type, depth: usize) -> bool {
    if depth > MAX_TYPE_DEPTH {
        return false;
    }
    let (k1, k2) = (t1.kind(), t2.kind());
    if k2 == Kind::TypeParam {
        let (valid, has_sub) = is_valid_type_substitution(m, t1, t2, depth + 1);
        if valid {
            return true;
        }
        if has_sub {
            return false;
        }
    }
    if k1 == Kind::TypeParam {
        return is_valid_type_substitution(m, t2, t1, depth + 1).0;
    }
    if t1.is_dyn_or_error() || t2.is_dyn_or_error() {
        return true;
    }
    if k1 == Kind::Null {
        return is_assignable_null(t2);
    }
    if k2 == Kind::Null {
        return is_assignable_null(t1);
    }
    match k1 {
        Kind::Bool
        | Kind::Bytes
        | Kind::Double
        | Kind::Int
        | Kind::String
        | Kind::Uint
        | Kind::Duration
        | Kind::Timestamp
        | Kind::Struct => t1.is_assignable_type(t2),
        Kind::Type => k2 == Kind::Type,
        Kind::Opaque | Kind::List | Kind::Map => {
            if k1 != k2 || t1.type_name() != t2.type_name() {
                return false;
            }
            let (p1, p2) = (t1.parameters(), t2.parameters());
            p1.len() == p2.len()
                && p1
                    .iter()
                    .zip(p2)
                    .all(|(a, b)| internal_is_assignable(m, a, b, depth + 1))
        }
        _ => false,
    }
}

fn is_assignable_null(t: &Type) -> bool {
    matches!(
        t.kind(),
        Kind::Opaque | Kind::Struct | Kind::Duration | Kind::Timestamp | Kind::Null
    ) || t.is_dyn()
}

fn is_valid_type_substitution(m: &mut Mapping, t1: &Type, t2: &Type, depth: usize) -> (bool, bool) {
    if t1 == t2 {
        return (true, true);
    }
    let Type::TypeParam(name) = t2 else {
        return (false, false);
    };
    if let Some(t2_sub) = m.get(name).cloned() {
        if *t1 == t2_sub {
            return (true, true);
        }
        if internal_is_assignable(m, t1, &t2_sub, depth + 1) {
            let new = most_general(t1, &t2_sub);
            if not_referenced_in(m, t2, &new, depth + 1) {
                m.insert(name.clone(), new);
            }
            return (true, true);
        }
        return (false, true);
    }
    if not_referenced_in(m, t2, t1, depth + 1) {
        m.insert(name.clone(), t1.clone());
        return (true, false);
    }
    (false, false)
}

fn not_referenced_in(m: &Mapping, t: &Type, within: &Type, depth: usize) -> bool {
    if depth > MAX_TYPE_DEPTH {
        return false;
    }
    if t == within {
        return false;
    }
    match within {
        Type::TypeParam(n) => match m.get(n) {
            None => true,
            Some(sub) => not_referenced_in(m, t, sub, depth + 1),
        },
        Type::Opaque(..) | Type::List(_) | Type::Map(..) => within
            .parameters()
            .iter()
            .all(|p| not_referenced_in(m, t, p, depth + 1)),
        _ => true,
    }
}

/// Replaces bound type parameters by their substitutions, and unbound ones
/// by `dyn` when `to_dyn`.
pub(crate) fn substitute(m: &Mapping, t: &Type, to_dyn: bool, depth: usize) -> Type {
    if depth > MAX_TYPE_DEPTH {
        return Type::Dyn;
    }
    if let Type::TypeParam(n) = t {
        if let Some(sub) = m.get(n) {
            return substitute(m, sub, to_dyn, depth + 1);
        }
        return if to_dyn { Type::Dyn } else { t.clone() };
    }
    match t {
        Type::Opaque(n, ps) => Type::Opaque(
            n.clone(),
            ps.iter()
                .map(|p| substitute(m, p, to_dyn, depth + 1))
                .collect(),
        ),
        Type::List(e) => Type::list(substitute(m, e, to_dyn, depth + 1)),
        Type::Map(k, v) => Type::map(
            substitute(m, k, to_dyn, depth + 1),
            substitute(m, v, to_dyn, depth + 1),
        ),
        Type::TypeType(Some(p)) => Type::type_of(substitute(m, p, to_dyn, depth + 1)),
        _ => t.clone(),
    }
}

#[cfg(test)]
mod tests;
