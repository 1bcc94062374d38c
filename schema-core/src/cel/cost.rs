//! The static cost estimator (cel-go's `checker/cost.go`, with the
//! Kubernetes `library.CostEstimator`, the size estimator of apiextensions'
//! `compilation.go`, and the estimators of the sets and lists extensions).

use std::collections::HashMap;
use std::sync::Arc;

use cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue};

use crate::cel::decl::DeclType;
use crate::cel::library::entry::Estimate;
use crate::cel::library::registry;
use crate::cel::type_check::{Checked, Reference};
use crate::cel::types::{Kind, Type};

/// `common.StringTraversalCostFactor`.
pub const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
/// `common.RegexStringLengthCostFactor`.
pub const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;
/// `common.ListCreateBaseCost`.
pub const LIST_CREATE_BASE_COST: u64 = 10;
/// `common.MapCreateBaseCost`.
pub const MAP_CREATE_BASE_COST: u64 = 30;
/// `common.StructCreateBaseCost`.
pub const STRUCT_CREATE_BASE_COST: u64 = 40;
/// `apiservercel.MaxNameFormatRegexSize`.
pub const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;
/// `apiservercel.MaxFormatSize`.
pub const MAX_FORMAT_SIZE: u64 = 64;

/// A range of sizes (string length, list length, map size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeEstimate {
    /// Smallest size.
    pub min: u64,
    /// Largest size.
    pub max: u64,
}

/// A range of costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CostEstimate {
    /// Smallest cost.
    pub min: u64,
    /// Largest cost.
    pub max: u64,
}

const UNKNOWN_SIZE: SizeEstimate = SizeEstimate {
    min: 0,
    max: u64::MAX,
};

fn fixed_size(v: u64) -> SizeEstimate {
    SizeEstimate { min: v, max: v }
}

fn fixed_cost(v: u64) -> CostEstimate {
    CostEstimate { min: v, max: v }
}

/// `ceil(x * y)` saturated to `u64` (a cost factor applied to a size).
pub(crate) fn mul_factor(x: u64, y: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && y > 0.0 && xf > u64::MAX as f64 / y {
        return u64::MAX;
    }
    let c = (xf * y).ceil();
    if c >= 18_446_744_073_709_551_616.0 {
        return u64::MAX;
    }
    c as u64
}

/// The saturating arithmetic cel-go gives both kinds of estimate.
macro_rules! estimate_arithmetic {
    ($t:ident) => {
        impl $t {
            fn add(self, o: $t) -> $t {
                $t {
                    min: self.min.saturating_add(o.min),
                    max: self.max.saturating_add(o.max),
                }
            }
            fn multiply(self, o: $t) -> $t {
                $t {
                    min: self.min.saturating_mul(o.min),
                    max: self.max.saturating_mul(o.max),
                }
            }
            fn cost_factor(self, f: f64) -> CostEstimate {
                CostEstimate {
                    min: mul_factor(self.min, f),
                    max: mul_factor(self.max, f),
                }
            }
            fn union(self, o: $t) -> $t {
                $t {
                    min: self.min.min(o.min),
                    max: self.max.max(o.max),
                }
            }
        }
    };
}

estimate_arithmetic!(SizeEstimate);
estimate_arithmetic!(CostEstimate);

impl SizeEstimate {
    fn multiply_by_cost(self, c: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(c.min),
            max: self.max.saturating_mul(c.max),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    List,
    Map,
}

#[derive(Clone, Copy, Debug)]
struct EntrySize {
    container: Container,
    key: SizeEstimate,
    val: SizeEstimate,
}

fn union_entry(a: Option<EntrySize>, b: Option<EntrySize>) -> Option<EntrySize> {
    let (a, b) = (a?, b?);
    Some(EntrySize {
        container: a.container,
        key: a.key.union(b.key),
        val: a.val.union(b.val),
    })
}

#[derive(Clone, Debug)]
struct LocalVar {
    path: Vec<String>,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

/// What the estimator knows of an argument or target (cel-go's `AstNode`).
#[derive(Clone, Debug)]
struct Node<'e> {
    path: Vec<String>,
    ty: Option<Type>,
    expr: Option<&'e IdedExpr>,
    computed: Option<SizeEstimate>,
}

/// Where the sizes an expression does not determine itself come from
/// (cel-go's `SizeEstimator`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum SizeSource<'r> {
    /// apiextensions' size estimator: the declared type of `self` (and
    /// `oldSelf`), walked along the path of the value.
    Schema(&'r Arc<DeclType>),
    /// The size estimator of the Kubernetes CEL library's cost tests
    /// (`testCostEstimator` of apiserver's `library/cost_test.go`): any
    /// string or bytes is 0 to 12 long, nothing else is sized.
    #[cfg(test)]
    LibraryTests,
}

/// Estimates the cost of a checked expression. `root` is the declared type
/// of `self` (and `oldSelf`), used for size estimates.
pub fn estimate(expr: &IdedExpr, checked: &Checked, root: &Arc<DeclType>) -> CostEstimate {
    estimate_with(expr, checked, SizeSource::Schema(root))
}

/// Estimates the cost of a checked expression with sizes from `sizes`.
pub(crate) fn estimate_with(
    expr: &IdedExpr,
    checked: &Checked,
    sizes: SizeSource<'_>,
) -> CostEstimate {
    let mut c = Coster {
        checked,
        size_source: sizes,
        paths: HashMap::new(),
        locals: HashMap::new(),
        sizes: HashMap::new(),
        entries: HashMap::new(),
    };
    c.cost(expr)
}

struct Coster<'c> {
    checked: &'c Checked,
    size_source: SizeSource<'c>,
    paths: HashMap<u64, Vec<String>>,
    locals: HashMap<String, Vec<LocalVar>>,
    sizes: HashMap<u64, SizeEstimate>,
    entries: HashMap<u64, EntrySize>,
}

fn is_accumulator(name: &str) -> bool {
    name == "@result" || name == "__result__"
}

fn literal_uint(e: &IdedExpr) -> Option<u64> {
    match &e.expr {
        Expr::Literal(LiteralValue::Int(i)) => Some(i64::from(*i) as u64),
        Expr::Literal(LiteralValue::UInt(u)) => Some(u64::from(*u)),
        _ => None,
    }
}

impl<'c> Coster<'c> {
    fn ty(&self, e: &IdedExpr) -> Option<Type> {
        self.checked.types.get(&e.id).cloned()
    }

    fn peek(&self, name: &str) -> Option<&LocalVar> {
        self.locals.get(name).and_then(|v| v.last())
    }

    fn push_local(&mut self, name: &str, v: LocalVar) {
        self.locals.entry(name.to_string()).or_default().push(v);
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(v) = self.locals.get_mut(name) {
            v.pop();
        }
    }

    fn get_path(&self, e: &IdedExpr) -> Vec<String> {
        if let Expr::Ident(n) = &e.expr {
            if let Some(v) = self.peek(n) {
                return v.path.clone();
            }
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    fn node<'e>(&mut self, e: &'e IdedExpr) -> Node<'e> {
        let mut path = self.get_path(e);
        if path.first().is_some_and(|p| is_accumulator(p)) {
            path = Vec::new();
        }
        Node {
            path,
            ty: self.ty(e),
            expr: Some(e),
            computed: self.compute_size(e),
        }
    }

    /// The size estimator (`EstimateSize`) of a value at `path` of type
    /// `ty`.
    fn estimate_size(&self, path: &[String], ty: Option<&Type>) -> Option<SizeEstimate> {
        match self.size_source {
            SizeSource::Schema(root) => {
                // Only the path is known to apiextensions' estimator.
                let _ = ty;
                estimate_size_path(root, path)
            }
            #[cfg(test)]
            SizeSource::LibraryTests => {
                matches!(ty.map(Type::kind), Some(Kind::String | Kind::Bytes))
                    .then_some(SizeEstimate { min: 0, max: 12 })
            }
        }
    }

    fn compute_size(&mut self, e: &IdedExpr) -> Option<SizeEstimate> {
        if let Some(s) = self.sizes.get(&e.id) {
            return Some(*s);
        }
        if let Some(s) = compute_expr_size(e) {
            return Some(s);
        }
        let path = self.get_path(e);
        if let Some(s) = self.estimate_size(&path, self.ty(e).as_ref()) {
            self.sizes.insert(e.id, s);
            return Some(s);
        }
        if self.ty(e).is_some_and(|t| t.is_scalar()) {
            return Some(fixed_size(1));
        }
        if let Expr::Ident(n) = &e.expr {
            if let Some(s) = self.peek(n).and_then(|v| v.size) {
                return Some(s);
            }
        }
        None
    }

    fn size_or_unknown(&mut self, e: &IdedExpr) -> SizeEstimate {
        self.compute_size(e).unwrap_or(UNKNOWN_SIZE)
    }

    fn node_size(&self, n: &Node<'_>) -> SizeEstimate {
        if let Some(s) = n.computed {
            return s;
        }
        self.estimate_size(&n.path, n.ty.as_ref())
            .unwrap_or(UNKNOWN_SIZE)
    }

    fn compute_entry(&self, e: &IdedExpr) -> Option<EntrySize> {
        if let Some(s) = self.entries.get(&e.id) {
            return Some(*s);
        }
        if let Expr::Ident(n) = &e.expr {
            if let Some(s) = self.peek(n).and_then(|v| v.entry) {
                return Some(s);
            }
        }
        None
    }

    fn set_size(&mut self, id: u64, s: Option<SizeEstimate>) {
        if let Some(s) = s {
            self.sizes.insert(id, s);
        }
    }

    fn set_entry(&mut self, id: u64, s: Option<EntrySize>) {
        if let Some(s) = s {
            self.entries.insert(id, s);
        }
    }

    fn cost(&mut self, e: &IdedExpr) -> CostEstimate {
        match &e.expr {
            Expr::Literal(_) => fixed_cost(0),
            Expr::Ident(n) => self.cost_ident(e.id, n),
            Expr::Select(sel) => {
                if let Some(Reference::Ident(name)) = self.checked.references.get(&e.id) {
                    if !sel.test {
                        return self.cost_ident(e.id, &name.clone());
                    }
                }
                if sel.test {
                    // presence tests cost nothing (PresenceTestHasCost(false))
                    return self.cost(&sel.operand);
                }
                let mut sum = self.cost(&sel.operand);
                if let Some(t) = self.ty(&sel.operand) {
                    if matches!(t.kind(), Kind::Map | Kind::Struct | Kind::TypeParam) {
                        sum = sum.add(fixed_cost(1));
                    }
                }
                let mut p = self.get_path(&sel.operand);
                p.push(sel.field.clone());
                self.paths.insert(e.id, p);
                sum
            }
            Expr::Call(call) => self.cost_call(e, call),
            Expr::List(list) => {
                let mut sum = CostEstimate::default();
                let mut item = SizeEstimate {
                    min: if list.elements.is_empty() {
                        0
                    } else {
                        u64::MAX
                    },
                    max: 0,
                };
                for el in &list.elements {
                    sum = sum.add(self.cost(el));
                    let s = self.size_or_unknown(el);
                    item = item.union(s);
                }
                self.set_entry(
                    e.id,
                    Some(EntrySize {
                        container: Container::List,
                        key: fixed_size(1),
                        val: item,
                    }),
                );
                sum.add(fixed_cost(LIST_CREATE_BASE_COST))
            }
            Expr::Map(map) => {
                let mut sum = CostEstimate::default();
                let empty = map.entries.is_empty();
                let start = SizeEstimate {
                    min: if empty { 0 } else { u64::MAX },
                    max: 0,
                };
                let (mut ks, mut vs) = (start, start);
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        sum = sum.add(self.cost(&me.key));
                        sum = sum.add(self.cost(&me.value));
                        let k = self.size_or_unknown(&me.key);
                        ks = ks.union(k);
                        let v = self.size_or_unknown(&me.value);
                        vs = vs.union(v);
                    }
                }
                self.set_entry(
                    e.id,
                    Some(EntrySize {
                        container: Container::Map,
                        key: ks,
                        val: vs,
                    }),
                );
                sum.add(fixed_cost(MAP_CREATE_BASE_COST))
            }
            Expr::Struct(st) => {
                let mut sum = CostEstimate::default();
                for entry in &st.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        sum = sum.add(self.cost(&f.value));
                    }
                }
                sum.add(fixed_cost(STRUCT_CREATE_BASE_COST))
            }
            Expr::Comprehension(comp) => {
                if is_bind(comp) {
                    self.cost_bind(e, comp)
                } else {
                    self.cost_comprehension(e, comp)
                }
            }
            Expr::Unspecified => CostEstimate::default(),
        }
    }

    fn cost_ident(&mut self, id: u64, name: &str) -> CostEstimate {
        let path = match self.peek(name) {
            Some(v) => v.path.clone(),
            None => vec![name.to_string()],
        };
        self.paths.insert(id, path);
        fixed_cost(1)
    }

    /// The cost of a comprehension's range and initial accumulator, with
    /// the accumulator declared as a local.
    fn enter_accumulator(&mut self, comp: &ComprehensionExpr) -> CostEstimate {
        let sum = self.cost(&comp.iter_range).add(self.cost(&comp.accu_init));
        let lv = LocalVar {
            path: self.get_path(&comp.accu_init),
            size: self.compute_size(&comp.accu_init),
            entry: self.compute_entry(&comp.accu_init),
        };
        self.push_local(&comp.accu_var, lv);
        sum
    }

    fn cost_bind(&mut self, e: &IdedExpr, comp: &ComprehensionExpr) -> CostEstimate {
        let mut sum = self.enter_accumulator(comp);
        sum = sum.add(self.cost(&comp.result));
        self.pop_local(&comp.accu_var);
        let s = self.compute_size(&comp.result);
        self.set_size(e.id, s);
        let en = self.compute_entry(&comp.result);
        self.set_entry(e.id, en);
        sum
    }

    fn push_iter(&mut self, name: &str, range: &IdedExpr, which: IterVar) {
        let entry = self.compute_entry(range);
        let container = match entry.map(|e| e.container) {
            Some(c) => Some(c),
            None => match self.ty(range).map(|t| t.kind()) {
                Some(Kind::List) => Some(Container::List),
                Some(Kind::Map) => Some(Container::Map),
                _ => None,
            },
        };
        let mut path = self.get_path(range);
        let size = match which {
            IterVar::Key => {
                path.push(if container == Some(Container::List) {
                    "@indices".into()
                } else {
                    "@keys".into()
                });
                entry.map(|e| e.key)
            }
            IterVar::Value => {
                path.push(if container == Some(Container::List) {
                    "@items".into()
                } else {
                    "@values".into()
                });
                entry.map(|e| e.val)
            }
            IterVar::Single => {
                if container == Some(Container::List) {
                    path.push("@items".into());
                    entry.map(|e| e.val)
                } else {
                    path.push("@keys".into());
                    entry.map(|e| e.key)
                }
            }
        };
        self.push_local(
            name,
            LocalVar {
                path,
                size,
                entry: None,
            },
        );
    }

    fn cost_comprehension(&mut self, e: &IdedExpr, comp: &ComprehensionExpr) -> CostEstimate {
        let mut sum = self.enter_accumulator(comp);
        if let Some(v2) = &comp.iter_var2 {
            self.push_iter(&comp.iter_var, &comp.iter_range, IterVar::Key);
            self.push_iter(v2, &comp.iter_range, IterVar::Value);
        } else {
            self.push_iter(&comp.iter_var, &comp.iter_range, IterVar::Single);
        }
        let loop_cost = self.cost(&comp.loop_cond);
        let step_cost = self.cost(&comp.loop_step);
        self.pop_local(&comp.iter_var);
        if let Some(v2) = &comp.iter_var2 {
            self.pop_local(v2);
        }
        sum = sum.add(self.cost(&comp.result));
        self.pop_local(&comp.accu_var);
        let range_cnt = self.size_or_unknown(&comp.iter_range);
        sum = sum.add(range_cnt.multiply_by_cost(step_cost.add(loop_cost)));
        match &comp.accu_init.expr {
            Expr::Literal(_) => {
                let s = self.compute_size(&comp.accu_init);
                self.set_size(e.id, s);
            }
            Expr::List(_) | Expr::Map(_) => {
                self.set_size(e.id, Some(range_cnt));
                let en = self.compute_entry(&comp.loop_step);
                self.set_entry(e.id, en);
            }
            _ => {}
        }
        sum
    }

    fn cost_call(&mut self, e: &IdedExpr, call: &CallExpr) -> CostEstimate {
        let (overloads, namespaced) = match self.checked.references.get(&e.id) {
            Some(Reference::Function {
                overloads,
                namespaced,
            }) => (overloads.clone(), namespaced.clone()),
            _ => (Vec::new(), None),
        };
        let function = namespaced.clone().unwrap_or_else(|| call.func_name.clone());
        // A namespaced function lost its target: `ip.isCanonical(x)`.
        let target = if namespaced.is_some() {
            None
        } else {
            call.target.as_deref()
        };
        if function == "dyn" && target.is_none() {
            if let Some(arg) = call.args.first() {
                let c = self.cost(arg);
                let s = self.compute_size(arg);
                self.set_size(e.id, s);
                let en = self.compute_entry(arg);
                self.set_entry(e.id, en);
                return fixed_cost(1).add(c);
            }
        }
        let mut arg_costs = Vec::with_capacity(call.args.len());
        let mut arg_nodes = Vec::with_capacity(call.args.len());
        for a in &call.args {
            arg_costs.push(self.cost(a));
            let n = self.node(a);
            arg_nodes.push(n);
        }
        if overloads.is_empty() {
            return CostEstimate::default();
        }
        let mut sum = CostEstimate::default();
        let mut target_node = None;
        if let Some(t) = target {
            sum = sum.add(self.cost(t));
            target_node = Some(self.node(t));
        }
        let mut fn_cost = CostEstimate {
            min: u64::MAX,
            max: 0,
        };
        let mut result_size: Option<SizeEstimate> = None;
        for ov in &overloads {
            let (cost, rs) = self.function_cost(
                e,
                &function,
                ov,
                target_node.as_ref(),
                &arg_nodes,
                &arg_costs,
                &call.args,
            );
            fn_cost = fn_cost.union(cost);
            if let Some(rs) = rs {
                result_size = Some(match result_size {
                    None => rs,
                    Some(prev) => prev.union(rs),
                });
            }
            match ov.as_str() {
                "index_list" | "index_map" => {
                    if let Some(a0) = call.args.first() {
                        result_size = self.compute_entry(a0).map(|en| en.val);
                        let mut p = self.get_path(a0);
                        p.push(if ov == "index_list" {
                            "@items".into()
                        } else {
                            "@values".into()
                        });
                        self.paths.insert(e.id, p);
                    }
                }
                _ => {}
            }
            if result_size.is_none() {
                result_size = self.compute_size(e);
            }
        }
        self.set_size(e.id, result_size);
        sum.add(fn_cost)
    }

    // The arms mirror the cases of cel-go's `functionCost` switch.
    #[allow(clippy::too_many_arguments, clippy::collapsible_match)]
    fn function_cost(
        &mut self,
        e: &IdedExpr,
        function: &str,
        overload: &str,
        target: Option<&Node<'_>>,
        args: &[Node<'_>],
        arg_costs: &[CostEstimate],
        arg_exprs: &[IdedExpr],
    ) -> (CostEstimate, Option<SizeEstimate>) {
        let arg_sum = arg_costs
            .iter()
            .fold(CostEstimate::default(), |a, c| a.add(*c));
        if let Some((c, rs)) = self.overload_estimate(overload, target, args) {
            return (c.add(arg_sum), rs);
        }
        if let Some((c, rs)) = self.k8s_estimate(function, overload, target, args) {
            return (c.add(arg_sum), rs);
        }
        let tf = STRING_TRAVERSAL_COST_FACTOR;
        match overload {
            "string_format" => {
                if let Some(t) = target {
                    return (
                        self.node_size_or_unknown(t).cost_factor(tf).add(arg_sum),
                        None,
                    );
                }
            }
            "string_to_bytes" => {
                if args.len() == 1 {
                    let sz = self.node_size_or_unknown(&args[0]);
                    return (
                        sz.cost_factor(tf).add(arg_sum),
                        Some(SizeEstimate {
                            min: sz.min,
                            max: sz.max.saturating_mul(4),
                        }),
                    );
                }
            }
            "bytes_to_string" => {
                if args.len() == 1 {
                    let sz = self.node_size_or_unknown(&args[0]);
                    return (
                        sz.cost_factor(tf).add(arg_sum),
                        Some(SizeEstimate {
                            min: sz.min / 4,
                            max: sz.max,
                        }),
                    );
                }
            }
            "strings_quote" => {
                if args.len() == 1 {
                    let sz = self.node_size_or_unknown(&args[0]);
                    return (
                        sz.cost_factor(tf).add(arg_sum),
                        Some(SizeEstimate {
                            min: sz.min.saturating_add(2),
                            max: sz.max.saturating_mul(2).saturating_add(2),
                        }),
                    );
                }
            }
            "starts_with_string" | "ends_with_string" => {
                if args.len() == 1 {
                    let sz = self.node_size_or_unknown(&args[0]);
                    return (sz.cost_factor(tf).add(arg_sum), None);
                }
            }
            "in_list" => {
                if args.len() == 2 {
                    let sz = self.node_size_or_unknown(&args[1]);
                    return (sz.cost_factor(1.0).add(arg_sum), None);
                }
            }
            "matches_string" => {
                if let (Some(t), 1) = (target, args.len()) {
                    let str_cost = self
                        .node_size_or_unknown(t)
                        .add(fixed_size(1))
                        .cost_factor(tf);
                    let regex_cost = self
                        .node_size_or_unknown(&args[0])
                        .cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                    return (str_cost.multiply(regex_cost).add(arg_sum), None);
                }
            }
            "contains_string" => {
                if let (Some(t), 1) = (target, args.len()) {
                    let str_cost = self.node_size_or_unknown(t).cost_factor(tf);
                    let sub_cost = self.node_size_or_unknown(&args[0]).cost_factor(tf);
                    return (str_cost.multiply(sub_cost).add(arg_sum), None);
                }
            }
            "logical_or" | "logical_and" => {
                let lhs = arg_costs.first().copied().unwrap_or_default();
                let rhs = arg_costs.get(1).copied().unwrap_or_default();
                return (
                    CostEstimate {
                        min: lhs.min,
                        max: lhs.add(rhs).max,
                    },
                    None,
                );
            }
            "conditional" => {
                if arg_exprs.len() == 3 {
                    let size = self
                        .node_size_or_unknown(&args[1])
                        .union(self.node_size_or_unknown(&args[2]));
                    let en = union_entry(
                        self.compute_entry(&arg_exprs[1]),
                        self.compute_entry(&arg_exprs[2]),
                    );
                    self.set_entry(e.id, en);
                    let c = arg_costs[0].add(arg_costs[1].union(arg_costs[2]));
                    return (c, Some(size));
                }
            }
            "add_string" | "add_bytes" | "add_list" => {
                if args.len() == 2 {
                    let l = self.node_size_or_unknown(&args[0]);
                    let r = self.node_size_or_unknown(&args[1]);
                    let rs = l.add(r);
                    let en = union_entry(
                        self.compute_entry(&arg_exprs[0]),
                        self.compute_entry(&arg_exprs[1]),
                    );
                    self.set_entry(e.id, en);
                    if overload == "add_list" {
                        return (fixed_cost(1).add(arg_sum), Some(rs));
                    }
                    return (rs.cost_factor(tf).add(arg_sum), Some(rs));
                }
            }
            "less_string"
            | "greater_string"
            | "less_equals_string"
            | "greater_equals_string"
            | "less_bytes"
            | "greater_bytes"
            | "less_equals_bytes"
            | "greater_equals_bytes"
            | "equals"
            | "not_equals" => {
                if args.len() == 2 {
                    let l = self.node_size_or_unknown(&args[0]);
                    let r = self.node_size_or_unknown(&args[1]);
                    let smallest = l.max.min(r.max);
                    let min = u64::from(smallest > 0);
                    let c = CostEstimate { min, max: smallest }
                        .cost_factor(tf)
                        .add(arg_sum);
                    return (c, None);
                }
            }
            _ => {}
        }
        (fixed_cost(1).add(arg_sum), None)
    }

    fn node_size_or_unknown(&self, n: &Node<'_>) -> SizeEstimate {
        n.computed.unwrap_or(UNKNOWN_SIZE)
    }

    /// The per-overload estimators registered by the lists extension.
    fn overload_estimate(
        &self,
        overload: &str,
        target: Option<&Node<'_>>,
        args: &[Node<'_>],
    ) -> Option<(CostEstimate, Option<SizeEstimate>)> {
        let call = fixed_cost(1);
        let alloc = |factor: f64, size: SizeEstimate| {
            (
                size.cost_factor(factor)
                    .add(call)
                    .add(fixed_cost(LIST_CREATE_BASE_COST)),
                Some(size),
            )
        };
        match overload {
            "list_slice" => {
                let t = target?;
                if args.len() != 2 {
                    return None;
                }
                let sz = self.node_size(t);
                let start = args[0].expr.and_then(literal_uint).unwrap_or(0);
                let end = args[1].expr.and_then(literal_uint).unwrap_or(sz.max);
                Some(alloc(1.0, fixed_size(end.wrapping_sub(start))))
            }
            "list_flatten" | "list_flatten_int" => {
                let t = target?;
                if args.len() > 1 {
                    return None;
                }
                let depth = match args.first() {
                    Some(a) => a.expr.and_then(literal_uint).unwrap_or(u64::MAX),
                    None => 1,
                };
                Some(alloc(depth as f64, self.node_size(t)))
            }
            "lists_range" => {
                if target.is_some() || args.len() != 1 {
                    return None;
                }
                let n = args[0].expr.and_then(literal_uint).unwrap_or(u64::MAX);
                Some(alloc(1.0, fixed_size(n)))
            }
            "list_reverse" => {
                let t = target?;
                if !args.is_empty() {
                    return None;
                }
                Some(alloc(1.0, self.node_size(t)))
            }
            "list_distinct" => {
                let t = target?;
                if !args.is_empty() {
                    return None;
                }
                let sz = self.node_size(t);
                Some(alloc(2.0, sz.multiply(sz)))
            }
            _ => {
                if let Some(name) = overload
                    .strip_prefix("list_")
                    .and_then(|r| r.strip_suffix("_sort"))
                {
                    target?;
                    if !args.is_empty() {
                        return None;
                    }
                    let sz = self.node_size(target?);
                    let f = if name == "string" || name == "bytes" {
                        2.1
                    } else {
                        2.0
                    };
                    return Some(alloc(f, sz.multiply(sz)));
                }
                if let Some(name) = overload
                    .strip_prefix("list_")
                    .and_then(|r| r.strip_suffix("_sortByAssociatedKeys"))
                {
                    target?;
                    if args.len() != 1 {
                        return None;
                    }
                    let sz = self.node_size(&args[0]);
                    let f = if name == "string" || name == "bytes" {
                        2.1
                    } else {
                        2.0
                    };
                    return Some(alloc(f, sz.multiply(sz)));
                }
                None
            }
        }
    }

    fn list_element_node(&self, list: &Node<'_>) -> Option<Node<'static>> {
        let elem = match list.ty.as_ref()? {
            Type::List(e) => (**e).clone(),
            t => t.parameters().first().map(|p| (*p).clone())?,
        };
        let path = if list.path.is_empty() {
            Vec::new()
        } else {
            let mut p = list.path.clone();
            p.push("@items".into());
            p
        };
        Some(Node {
            path,
            ty: Some(elem),
            expr: None,
            computed: None,
        })
    }

    /// Kubernetes' `library.CostEstimator.EstimateCallCost`.
    fn k8s_estimate(
        &self,
        function: &str,
        overload: &str,
        target: Option<&Node<'_>>,
        args: &[Node<'_>],
    ) -> Option<(CostEstimate, Option<SizeEstimate>)> {
        let tf = STRING_TRAVERSAL_COST_FACTOR;
        let one = fixed_cost(1);
        // The Kubernetes estimator sizes the first argument, whether the
        // call is global (`isIP(s)`) or a member call.
        if let Some(f) = registry::named(function).first() {
            return match f.estimate {
                Estimate::Constant => Some((one, None)),
                Estimate::FirstArgumentTraversal => {
                    Some((self.node_size(args.first()?).cost_factor(tf), None))
                }
                Estimate::SetComparison { passes } => match args {
                    [a, b] => {
                        let (a, b) = (self.node_size(a), self.node_size(b));
                        Some((a.multiply(b).cost_factor(f64::from(passes)).add(one), None))
                    }
                    _ => None,
                },
                Estimate::ListElementsTraversal { any_target } => {
                    let t = target?;
                    let mut el_cost = one;
                    if let Some(el) = self.list_element_node(t) {
                        if matches!(
                            el.ty.as_ref().map(Type::kind),
                            Some(Kind::String | Kind::Bytes)
                        ) {
                            let sz = self.node_size(&el);
                            el_cost = el_cost.add(sz.cost_factor(tf));
                        }
                        Some((self.node_size(t).multiply_by_cost(el_cost), None))
                    } else if any_target {
                        // A dyn target may be a list: one comparison per
                        // element.
                        Some((self.node_size(t).multiply_by_cost(el_cost), None))
                    } else {
                        Some((self.node_size(t).cost_factor(tf), None))
                    }
                }
                Estimate::RegexSearch => {
                    let t = target?;
                    let first = args.first()?;
                    let sz = self.node_size(t);
                    let str_cost = sz.add(fixed_size(1)).cost_factor(tf);
                    let regex_cost = self
                        .node_size(first)
                        .cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                    Some((
                        str_cost.multiply(regex_cost),
                        Some(SizeEstimate {
                            min: 0,
                            max: sz.max,
                        }),
                    ))
                }
                Estimate::FirstArgumentTraversalTwice => {
                    Some((self.node_size(args.first()?).cost_factor(2.0 * tf), None))
                }
                Estimate::FirstArgumentTraversalExcept { constant_overload } => {
                    if overload == constant_overload {
                        return Some((one, None));
                    }
                    Some((self.node_size(args.first()?).cost_factor(tf), None))
                }
                Estimate::CidrContainment {
                    of_cidr,
                    string_overload,
                } => {
                    let first = args.first()?;
                    let sz = SizeEstimate { min: 4, max: 16 };
                    let mut c = sz.add(sz).cost_factor(tf);
                    if of_cidr {
                        c = c.add(sz.cost_factor(tf)).add(one);
                    }
                    if overload == string_overload {
                        c = c.add(self.node_size(first).cost_factor(tf));
                    }
                    Some((c, None))
                }
                Estimate::OnlyArgumentTraversalSized => match args {
                    [arg] => {
                        let sz = self.node_size(arg);
                        Some((sz.cost_factor(tf), Some(sz)))
                    }
                    _ => None,
                },
            };
        }
        match function {
            "check" => Some((fixed_cost(350_000), None)),
            "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace"
            | "name" | "allowed" | "reason" | "error" | "errored" => Some((one, None)),
            "fieldSelector" | "labelSelector" => {
                if args.len() == 1 {
                    let len = self.node_size(&args[0]);
                    let parse = len.cost_factor(tf);
                    let reqs = len.cost_factor(0.5);
                    let req_cost =
                        reqs.cost_factor((LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST) as f64);
                    return Some((
                        fixed_cost(LIST_CREATE_BASE_COST).add(parse).add(req_cost),
                        None,
                    ));
                }
                None
            }
            "jsonpatch.escapeKey" => {
                if args.len() == 1 {
                    let sz = self.node_size(&args[0]);
                    return Some((sz.cost_factor(tf), Some(sz)));
                }
                None
            }
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                let t = target?;
                let sz = self.node_size(t);
                Some((sz.cost_factor(tf), Some(sz)))
            }
            "replace" => {
                let t = target?;
                if args.len() < 2 {
                    return None;
                }
                let sz = self.node_size(t);
                let to_replace = self.node_size(&args[0]);
                let replace_with = self.node_size(&args[1]);
                let size = replace_result_size(sz, to_replace, replace_with);
                Some((sz.cost_factor(2.0 * tf), Some(size)))
            }
            "split" => {
                let t = target?;
                let sz = self.node_size(t);
                let mut max = sz.max;
                if args.len() > 1 {
                    if let Some(Expr::Literal(LiteralValue::Int(i))) = args[1].expr.map(|e| &e.expr)
                    {
                        max = i64::from(*i) as u64;
                    }
                }
                Some((sz.cost_factor(2.0 * tf), Some(SizeEstimate { min: 0, max })))
            }
            "join" => {
                let t = target?;
                let list_size = self.node_size(t);
                let mut sz = SizeEstimate { min: 0, max: 0 };
                if let Some(el) = self.list_element_node(t) {
                    sz = list_size.multiply(self.node_size(&el));
                }
                if let Some(sep) = args.first() {
                    let sep_size = self.node_size(sep);
                    let seps = SizeEstimate {
                        min: list_size.min.saturating_sub(1),
                        max: list_size.max.saturating_sub(1),
                    };
                    sz = sz.add(sep_size.multiply(seps));
                }
                Some((sz.cost_factor(tf), Some(sz)))
            }
            "validate" => {
                let sz = self.node_size(args.first()?);
                Some((
                    sz.cost_factor(tf)
                        .cost_factor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR),
                    None,
                ))
            }
            "format.named" => Some((one, None)),
            "_==_" => {
                if args.len() != 2 {
                    return None;
                }
                let (l, r) = (args[0].ty.as_ref()?, args[1].ty.as_ref()?);
                if l != r {
                    return None;
                }
                match l {
                    Type::Opaque(n, _) if n == "net.IP" || n == "net.CIDR" => Some((one, None)),
                    Type::Struct(n) => match n.as_str() {
                        "kubernetes.Quantity"
                        | "kubernetes.Semver"
                        | "kubernetes.authorization.Authorizer"
                        | "kubernetes.authorization.PathCheck"
                        | "kubernetes.authorization.GroupCheck"
                        | "kubernetes.authorization.ResourceCheck"
                        | "kubernetes.authorization.Decision" => Some((one, None)),
                        "kubernetes.NamedFormat" => Some((
                            CostEstimate {
                                min: 1,
                                max: MAX_FORMAT_SIZE,
                            }
                            .cost_factor(tf),
                            None,
                        )),
                        "kubernetes.URL" => {
                            let mut size = fixed_size(1);
                            if let Some(s) = args[1].computed {
                                size = s.union(s);
                            }
                            Some((
                                CostEstimate {
                                    min: 1,
                                    max: size.max,
                                }
                                .cost_factor(tf),
                                None,
                            ))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

#[derive(Clone, Copy)]
enum IterVar {
    Key,
    Value,
    Single,
}

fn is_bind(comp: &ComprehensionExpr) -> bool {
    matches!(&comp.iter_range.expr, Expr::List(l) if l.elements.is_empty())
        && matches!(&comp.loop_cond.expr, Expr::Literal(LiteralValue::Boolean(b)) if !bool::from(*b))
        && comp.accu_var != "__result__"
}

fn compute_expr_size(e: &IdedExpr) -> Option<SizeEstimate> {
    let v = match &e.expr {
        Expr::Literal(l) => match l {
            LiteralValue::String(s) => {
                let s: &str = s.as_ref();
                s.chars().count() as u64
            }
            LiteralValue::Bytes(b) => {
                let b: &[u8] = b.as_ref();
                b.len() as u64
            }
            _ => 1,
        },
        Expr::List(l) => l.elements.len() as u64,
        Expr::Map(m) => m.entries.len() as u64,
        _ => return None,
    };
    Some(fixed_size(v))
}

/// The size of `s.replace(a, b)` (Kubernetes' estimate): `s` sized
/// `sz`, `a` sized `to_replace`, `b` sized `replace_with`.
pub(crate) fn replace_result_size(
    sz: SizeEstimate,
    to_replace: SizeEstimate,
    replace_with: SizeEstimate,
) -> SizeEstimate {
    // One bound: replacing an empty string inserts at every
    // position; a replacement no longer than what it replaces
    // does not grow the string; else the string is all matches.
    let bound = |s: u64, to_replace: u64, no_growth: bool| -> (u64, u64) {
        if to_replace == 0 {
            (s.saturating_add(1), s)
        } else if no_growth {
            (0, s)
        } else {
            ((s as f64 / to_replace as f64).ceil() as u64, 0)
        }
    };
    let (count_max, retained_max) =
        bound(sz.max, to_replace.min, replace_with.max <= to_replace.min);
    let (count_min, retained_min) =
        bound(sz.min, to_replace.max, to_replace.max <= replace_with.min);
    let count = SizeEstimate {
        min: count_min,
        max: count_max,
    };
    let retained = SizeEstimate {
        min: retained_min,
        max: retained_max,
    };
    count.multiply(replace_with).add(retained)
}

/// The size estimator of apiextensions' compilation.go: walks the path
/// (after the variable) through the declared type.
fn estimate_size_path(root: &Arc<DeclType>, path: &[String]) -> Option<SizeEstimate> {
    if path.is_empty() {
        return None;
    }
    let mut cur: &Arc<DeclType> = root;
    for name in &path[1..] {
        match name.as_str() {
            "@items" | "@values" => cur = cur.elem()?,
            "@keys" => cur = cur.key()?,
            _ => cur = &cur.fields()?.get(name)?.ty,
        }
    }
    Some(SizeEstimate {
        min: 0,
        max: cur.max_elements.max(0) as u64,
    })
}
