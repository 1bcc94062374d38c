//! The function declarations of the CEL environment the API server compiles
//! CRD validation rules in (`k8s.io/apiserver/pkg/cel/environment/base.go`):
//! the CEL standard library, the optional types library, the cel-go
//! extensions (strings, sets, lists, two-variable comprehensions) and the
//! Kubernetes libraries (lists, regex, urls, quantity, ip, cidr, format,
//! semver, authz), each enabled from the compatibility version that
//! introduced it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::cel::library::entry;
use crate::cel::library::{ip, lists, optional, quantity, regex, semver, sets, time, url};
use crate::cel::types::{Type, k8s};
use crate::model::kube_version::KubeVersion;

/// The internal map insertion of `transformMap` and `transformMapEntry`.
pub const MAP_INSERT: &str = "cel.@mapInsert";

/// A Kubernetes compatibility version (major.minor) selecting the CEL
/// libraries of the `NewExpressions` environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CompatibilityVersion {
    /// Major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

impl CompatibilityVersion {
    /// The newest library set this implementation knows: every library and
    /// language option of the base environment is enabled from here on.
    pub const CURRENT: CompatibilityVersion = CompatibilityVersion {
        major: 1,
        minor: 34,
    };

    /// `major.minor`.
    pub const fn new(major: u32, minor: u32) -> Self {
        Self { major, minor }
    }

    /// Parses `"1.30"` (a patch part is ignored).
    pub fn parse(s: &str) -> Option<Self> {
        let mut parts = s.trim().trim_start_matches('v').split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some(Self { major, minor })
    }

    /// The environment the API server of release `kube` compiles new
    /// rules in (a CRD created or changed): its default compatibility
    /// version, one minor release before its own.
    pub const fn new_expressions(kube: KubeVersion) -> Self {
        Self::new(1, kube.cel_compatibility_minor())
    }

    /// The environment the API server of release `kube` compiles stored
    /// rules in (to validate objects): every library of its own release.
    pub const fn stored_expressions(kube: KubeVersion) -> Self {
        Self::new(1, kube.minor())
    }

    /// Whether this version is at least `major.minor`.
    pub fn at_least(self, major: u32, minor: u32) -> bool {
        self >= Self::new(major, minor)
    }
}

impl Default for CompatibilityVersion {
    fn default() -> Self {
        Self::CURRENT
    }
}

/// One overload of a function.
#[derive(Clone, Debug)]
pub struct Overload {
    /// The overload id (`add_int64`, `string_find_string`, …).
    pub id: String,
    /// Whether it is called on a receiver (`x.f()`), the receiver being the
    /// first argument type.
    pub member: bool,
    /// The argument types (receiver first for a member overload).
    pub args: Vec<Type>,
    /// The result type.
    pub result: Type,
}

impl Overload {
    /// The names of the type parameters the overload's signature uses.
    pub fn type_params(&self) -> Vec<String> {
        fn collect(t: &Type, out: &mut Vec<String>) {
            if let Type::TypeParam(n) = t {
                if !out.contains(n) {
                    out.push(n.clone());
                }
            }
            for p in t.parameters() {
                collect(p, out);
            }
        }
        let mut out = Vec::new();
        for a in &self.args {
            collect(a, &mut out);
        }
        collect(&self.result, &mut out);
        out
    }
}

/// A function and its overloads, in declaration order.
#[derive(Clone, Debug)]
pub struct Function {
    /// The function name (`_+_`, `size`, `ip.isCanonical`).
    pub name: String,
    /// The overloads.
    pub overloads: Vec<Overload>,
}

/// Which language features and libraries an environment has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Optional types and the `?.`/`[?]` syntax (1.28).
    pub optional_types: bool,
    /// Cross-type numeric comparisons (1.28).
    pub cross_type_numeric_comparisons: bool,
    /// The duration/timestamp/regex literal validators (1.29).
    pub literal_validators: bool,
    /// Reserved words usable as field names (1.31).
    pub keyword_field_names: bool,
    /// Two-variable comprehensions (1.32).
    pub two_var_comprehensions: bool,
    /// The lists extension, version 3 (1.34).
    pub ext_lists: bool,
    /// The sets extension (1.29).
    pub ext_sets: bool,
    /// `string.format` and its static check (strings extension version 1
    /// and later, 1.29).
    pub string_format: bool,
}

impl Features {
    /// The features of the `NewExpressions` environment at `v`.
    pub fn at(v: CompatibilityVersion) -> Self {
        Self {
            optional_types: v.at_least(1, 28),
            cross_type_numeric_comparisons: v.at_least(1, 28),
            literal_validators: v.at_least(1, 29),
            keyword_field_names: v.at_least(1, 31),
            two_var_comprehensions: v.at_least(1, 32),
            ext_lists: v.at_least(1, 34),
            ext_sets: v.at_least(1, 29),
            string_format: v.at_least(1, 29),
        }
    }
}

/// The functions of an environment.
#[derive(Clone, Debug, Default)]
pub struct Library {
    functions: HashMap<String, Function>,
}

impl Library {
    /// The function named `name`, if declared.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.get(name)
    }

    /// Every declared function, in no particular order.
    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.functions.values()
    }

    fn add(&mut self, name: &str, id: &str, member: bool, args: Vec<Type>, result: Type) {
        let f = self
            .functions
            .entry(name.to_string())
            .or_insert_with(|| Function {
                name: name.to_string(),
                overloads: Vec::new(),
            });
        if f.overloads.iter().any(|o| o.id == id) {
            return;
        }
        f.overloads.push(Overload {
            id: id.to_string(),
            member,
            args,
            result,
        });
    }

    /// Declares the overloads of a library's registry entries.
    fn declare(&mut self, functions: &[entry::Function]) {
        for f in functions {
            for o in f.overloads {
                let (args, result) = (o.signature)();
                self.add(f.name, o.id, o.member, args, result);
            }
        }
    }

    fn global(&mut self, name: &str, id: &str, args: Vec<Type>, result: Type) {
        self.add(name, id, false, args, result);
    }

    fn member(&mut self, name: &str, id: &str, args: Vec<Type>, result: Type) {
        self.add(name, id, true, args, result);
    }
}

/// The overload ids of the cross-type numeric comparisons, removed below
/// compatibility version 1.28.
fn is_cross_type_comparison(id: &str) -> bool {
    [
        "_int64_double",
        "_int64_uint64",
        "_uint64_double",
        "_uint64_int64",
        "_double_int64",
        "_double_uint64",
    ]
    .iter()
    .any(|s| id.ends_with(s))
        && (id.starts_with("less_") || id.starts_with("greater_"))
}

/// The library of the `NewExpressions` environment at `v`, built once per
/// version.
pub fn library(v: CompatibilityVersion) -> Arc<Library> {
    type Cache = Mutex<Vec<(CompatibilityVersion, Arc<Library>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Ok(guard) = cache.lock() {
        if let Some((_, lib)) = guard.iter().find(|(ver, _)| *ver == v) {
            return Arc::clone(lib);
        }
    }
    let lib = Arc::new(build(v));
    if let Ok(mut guard) = cache.lock() {
        if guard.len() < 32 {
            guard.push((v, Arc::clone(&lib)));
        }
    }
    lib
}

fn build(v: CompatibilityVersion) -> Library {
    let features = Features::at(v);
    let mut lib = Library::default();
    standard(&mut lib, features);
    // Kubernetes libraries present from the start.
    lib.declare(url::FUNCTIONS);
    lib.declare(regex::FUNCTIONS);
    lib.declare(lists::FUNCTIONS);
    k8s_authz(&mut lib);
    if features.optional_types {
        optional(&mut lib);
        lib.declare(quantity::FUNCTIONS);
    }
    ext_strings(&mut lib, if v.at_least(1, 29) { 2 } else { 0 });
    if features.ext_sets {
        lib.declare(sets::FUNCTIONS);
    }
    if v.at_least(1, 30) {
        lib.declare(ip::FUNCTIONS);
        // The standard `string` function implements these.
        lib.global("string", "ip_to_string", vec![k8s::ip()], Type::String);
        lib.global("string", "cidr_to_string", vec![k8s::cidr()], Type::String);
    }
    if v.at_least(1, 31) {
        k8s_format(&mut lib);
    }
    if features.two_var_comprehensions {
        let kv = Type::map(Type::param("K"), Type::param("V"));
        lib.global(
            "cel.@mapInsert",
            "@mapInsert_map_key_value",
            vec![kv.clone(), Type::param("K"), Type::param("V")],
            kv.clone(),
        );
        lib.global(
            "cel.@mapInsert",
            "@mapInsert_map_map",
            vec![kv.clone(), kv.clone()],
            kv,
        );
    }
    if v.at_least(1, 33) {
        lib.declare(semver::FUNCTIONS);
    }
    if v.at_least(1, 37) {
        lib.declare(lists::VERSION_1_FUNCTIONS);
    }
    if features.ext_lists {
        ext_lists(&mut lib);
    }
    if !features.cross_type_numeric_comparisons {
        for f in lib.functions.values_mut() {
            f.overloads.retain(|o| !is_cross_type_comparison(&o.id));
        }
    }
    lib
}

fn standard(lib: &mut Library, _features: Features) {
    use Type::*;
    let a = || Type::param("A");
    let b = || Type::param("B");
    let list_a = || Type::list(a());
    let map_ab = || Type::map(a(), b());

    lib.global("_?_:_", "conditional", vec![Bool, a(), a()], a());
    lib.global("_&&_", "logical_and", vec![Bool, Bool], Bool);
    lib.global("_||_", "logical_or", vec![Bool, Bool], Bool);
    lib.global("!_", "logical_not", vec![Bool], Bool);
    lib.global(
        "@not_strictly_false",
        "not_strictly_false",
        vec![Bool],
        Bool,
    );
    lib.global("_==_", "equals", vec![a(), a()], Bool);
    lib.global("_!=_", "not_equals", vec![a(), a()], Bool);

    for (id, l, r, res) in [
        ("add_bytes", Bytes, Bytes, Bytes),
        ("add_double", Double, Double, Double),
        ("add_duration_duration", Duration, Duration, Duration),
        ("add_duration_timestamp", Duration, Timestamp, Timestamp),
        ("add_timestamp_duration", Timestamp, Duration, Timestamp),
        ("add_int64", Int, Int, Int),
        ("add_list", list_a(), list_a(), list_a()),
        ("add_string", String, String, String),
        ("add_uint64", Uint, Uint, Uint),
    ] {
        lib.global("_+_", id, vec![l, r], res);
    }
    for (id, t) in [
        ("divide_double", Double),
        ("divide_int64", Int),
        ("divide_uint64", Uint),
    ] {
        lib.global("_/_", id, vec![t.clone(), t.clone()], t);
    }
    for (id, t) in [("modulo_int64", Int), ("modulo_uint64", Uint)] {
        lib.global("_%_", id, vec![t.clone(), t.clone()], t);
    }
    for (id, t) in [
        ("multiply_double", Double),
        ("multiply_int64", Int),
        ("multiply_uint64", Uint),
    ] {
        lib.global("_*_", id, vec![t.clone(), t.clone()], t);
    }
    lib.global("-_", "negate_double", vec![Double], Double);
    lib.global("-_", "negate_int64", vec![Int], Int);
    for (id, l, r, res) in [
        ("subtract_double", Double, Double, Double),
        ("subtract_duration_duration", Duration, Duration, Duration),
        ("subtract_int64", Int, Int, Int),
        (
            "subtract_timestamp_duration",
            Timestamp,
            Duration,
            Timestamp,
        ),
        (
            "subtract_timestamp_timestamp",
            Timestamp,
            Timestamp,
            Duration,
        ),
        ("subtract_uint64", Uint, Uint, Uint),
    ] {
        lib.global("_-_", id, vec![l, r], res);
    }
    for (op, prefix) in [
        ("_<_", "less"),
        ("_<=_", "less_equals"),
        ("_>_", "greater"),
        ("_>=_", "greater_equals"),
    ] {
        for (suffix, l, r) in [
            ("bool", Bool, Bool),
            ("int64", Int, Int),
            ("int64_double", Int, Double),
            ("int64_uint64", Int, Uint),
            ("uint64", Uint, Uint),
            ("uint64_double", Uint, Double),
            ("uint64_int64", Uint, Int),
            ("double", Double, Double),
            ("double_int64", Double, Int),
            ("double_uint64", Double, Uint),
            ("string", String, String),
            ("bytes", Bytes, Bytes),
            ("timestamp", Timestamp, Timestamp),
            ("duration", Duration, Duration),
        ] {
            lib.global(op, &format!("{prefix}_{suffix}"), vec![l, r], Bool);
        }
    }
    lib.global("_[_]", "index_list", vec![list_a(), Int], a());
    lib.global("_[_]", "index_map", vec![map_ab(), a()], b());
    lib.global("@in", "in_list", vec![a(), list_a()], Bool);
    lib.global("@in", "in_map", vec![a(), map_ab()], Bool);
    for (gid, mid, t) in [
        ("size_bytes", "bytes_size", Bytes),
        ("size_list", "list_size", list_a()),
        ("size_map", "map_size", map_ab()),
        ("size_string", "string_size", String),
    ] {
        lib.global("size", gid, vec![t.clone()], Int);
        lib.member("size", mid, vec![t], Int);
    }
    lib.global("type", "type", vec![a()], Type::type_of(a()));
    lib.global("bool", "bool_to_bool", vec![Bool], Bool);
    lib.global("bool", "string_to_bool", vec![String], Bool);
    lib.global("bytes", "bytes_to_bytes", vec![Bytes], Bytes);
    lib.global("bytes", "string_to_bytes", vec![String], Bytes);
    for (id, t) in [
        ("double_to_double", Double),
        ("int64_to_double", Int),
        ("string_to_double", String),
        ("uint64_to_double", Uint),
    ] {
        lib.global("double", id, vec![t], Double);
    }
    for (id, t) in [
        ("duration_to_duration", Duration),
        ("int64_to_duration", Int),
        ("string_to_duration", String),
    ] {
        lib.global("duration", id, vec![t], Duration);
    }
    lib.global("dyn", "to_dyn", vec![a()], Dyn);
    for (id, t) in [
        ("int64_to_int64", Int),
        ("double_to_int64", Double),
        ("duration_to_int64", Duration),
        ("string_to_int64", String),
        ("timestamp_to_int64", Timestamp),
        ("uint64_to_int64", Uint),
    ] {
        lib.global("int", id, vec![t], Int);
    }
    for (id, t) in [
        ("string_to_string", String),
        ("bool_to_string", Bool),
        ("bytes_to_string", Bytes),
        ("double_to_string", Double),
        ("duration_to_string", Duration),
        ("int64_to_string", Int),
        ("timestamp_to_string", Timestamp),
        ("uint64_to_string", Uint),
    ] {
        lib.global("string", id, vec![t], String);
    }
    for (id, t) in [
        ("timestamp_to_timestamp", Timestamp),
        ("int64_to_timestamp", Int),
        ("string_to_timestamp", String),
    ] {
        lib.global("timestamp", id, vec![t], Timestamp);
    }
    for (id, t) in [
        ("uint64_to_uint64", Uint),
        ("double_to_uint64", Double),
        ("int64_to_uint64", Int),
        ("string_to_uint64", String),
    ] {
        lib.global("uint", id, vec![t], Uint);
    }
    lib.member("contains", "contains_string", vec![String, String], Bool);
    lib.member("endsWith", "ends_with_string", vec![String, String], Bool);
    lib.member(
        "startsWith",
        "starts_with_string",
        vec![String, String],
        Bool,
    );
    lib.global("matches", "matches", vec![String, String], Bool);
    lib.member("matches", "matches_string", vec![String, String], Bool);
    lib.declare(time::FUNCTIONS);
}

fn optional(lib: &mut Library) {
    let v = || Type::param("V");
    let k = || Type::param("K");
    let opt = Type::optional;
    lib.declare(optional::FUNCTIONS);
    lib.global(
        "_[?_]",
        "list_optindex_optional_int",
        vec![Type::list(v()), Type::Int],
        opt(v()),
    );
    lib.global(
        "_[?_]",
        "optional_list_optindex_optional_int",
        vec![opt(Type::list(v())), Type::Int],
        opt(v()),
    );
    lib.global(
        "_[?_]",
        "map_optindex_optional_value",
        vec![Type::map(k(), v()), k()],
        opt(v()),
    );
    lib.global(
        "_[?_]",
        "optional_map_optindex_optional_value",
        vec![opt(Type::map(k(), v())), k()],
        opt(v()),
    );
    lib.global(
        "_[_]",
        "optional_list_index_int",
        vec![opt(Type::list(v())), Type::Int],
        opt(v()),
    );
    lib.global(
        "_[_]",
        "optional_map_index_value",
        vec![opt(Type::map(k(), v())), k()],
        opt(v()),
    );
}

fn ext_strings(lib: &mut Library, version: u32) {
    use Type::*;
    lib.member("charAt", "string_char_at_int", vec![String, Int], String);
    lib.member(
        "indexOf",
        "string_index_of_string",
        vec![String, String],
        Int,
    );
    lib.member(
        "indexOf",
        "string_index_of_string_int",
        vec![String, String, Int],
        Int,
    );
    lib.member(
        "lastIndexOf",
        "string_last_index_of_string",
        vec![String, String],
        Int,
    );
    lib.member(
        "lastIndexOf",
        "string_last_index_of_string_int",
        vec![String, String, Int],
        Int,
    );
    lib.member("lowerAscii", "string_lower_ascii", vec![String], String);
    lib.member(
        "replace",
        "string_replace_string_string",
        vec![String, String, String],
        String,
    );
    lib.member(
        "replace",
        "string_replace_string_string_int",
        vec![String, String, String, Int],
        String,
    );
    lib.member(
        "split",
        "string_split_string",
        vec![String, String],
        Type::list(String),
    );
    lib.member(
        "split",
        "string_split_string_int",
        vec![String, String, Int],
        Type::list(String),
    );
    lib.member(
        "substring",
        "string_substring_int",
        vec![String, Int],
        String,
    );
    lib.member(
        "substring",
        "string_substring_int_int",
        vec![String, Int, Int],
        String,
    );
    lib.member("trim", "string_trim", vec![String], String);
    lib.member("upperAscii", "string_upper_ascii", vec![String], String);
    if version >= 1 {
        lib.member(
            "format",
            "string_format",
            vec![String, Type::list(Dyn)],
            String,
        );
        lib.global("strings.quote", "strings_quote", vec![String], String);
    }
    if version >= 2 {
        lib.member("join", "list_join", vec![Type::list(String)], String);
        lib.member(
            "join",
            "list_join_string",
            vec![Type::list(String), String],
            String,
        );
    }
}

/// The comparable types of the lists extension, for `sort` and `sortBy`.
pub fn ext_lists_comparable() -> [Type; 8] {
    [
        Type::Int,
        Type::Uint,
        Type::Double,
        Type::Bool,
        Type::Duration,
        Type::Timestamp,
        Type::String,
        Type::Bytes,
    ]
}

fn ext_lists(lib: &mut Library) {
    let t = || Type::param("T");
    let lt = || Type::list(t());
    let dyn_list = || Type::list(Type::Dyn);
    lib.member(
        "slice",
        "list_slice",
        vec![lt(), Type::Int, Type::Int],
        lt(),
    );
    lib.member("flatten", "list_flatten", vec![Type::list(lt())], lt());
    lib.member(
        "flatten",
        "list_flatten_int",
        vec![dyn_list(), Type::Int],
        dyn_list(),
    );
    for c in ext_lists_comparable() {
        lib.member(
            "sort",
            &format!("list_{}_sort", c.type_name()),
            vec![Type::list(c.clone())],
            Type::list(c.clone()),
        );
    }
    for c in ext_lists_comparable() {
        lib.member(
            "@sortByAssociatedKeys",
            &format!("list_{}_sortByAssociatedKeys", c.type_name()),
            vec![lt(), Type::list(c.clone())],
            lt(),
        );
    }
    lib.global(
        "lists.range",
        "lists_range",
        vec![Type::Int],
        Type::list(Type::Int),
    );
    lib.member("reverse", "list_reverse", vec![lt()], lt());
    lib.member("distinct", "list_distinct", vec![lt()], lt());
}

fn k8s_authz(lib: &mut Library) {
    use Type::*;
    let authorizer = || k8s::authz("Authorizer");
    let path_check = || k8s::authz("PathCheck");
    let group_check = || k8s::authz("GroupCheck");
    let resource_check = || k8s::authz("ResourceCheck");
    let decision = || k8s::authz("Decision");
    lib.member(
        "path",
        "authorizer_path",
        vec![authorizer(), String],
        path_check(),
    );
    lib.member(
        "group",
        "authorizer_group",
        vec![authorizer(), String],
        group_check(),
    );
    lib.member(
        "serviceAccount",
        "authorizer_serviceaccount",
        vec![authorizer(), String, String],
        authorizer(),
    );
    lib.member(
        "resource",
        "groupcheck_resource",
        vec![group_check(), String],
        resource_check(),
    );
    lib.member(
        "subresource",
        "resourcecheck_subresource",
        vec![resource_check(), String],
        resource_check(),
    );
    lib.member(
        "namespace",
        "resourcecheck_namespace",
        vec![resource_check(), String],
        resource_check(),
    );
    lib.member(
        "name",
        "resourcecheck_name",
        vec![resource_check(), String],
        resource_check(),
    );
    lib.member(
        "check",
        "pathcheck_check",
        vec![path_check(), String],
        decision(),
    );
    lib.member(
        "check",
        "resourcecheck_check",
        vec![resource_check(), String],
        decision(),
    );
    lib.member("errored", "decision_errored", vec![decision()], Bool);
    lib.member("error", "decision_error", vec![decision()], String);
    lib.member("allowed", "decision_allowed", vec![decision()], Bool);
    lib.member("reason", "decision_reason", vec![decision()], String);
    // AuthzSelectors (feature gate AuthorizeWithSelectors, enabled).
    lib.member(
        "fieldSelector",
        "authorizer_fieldselector",
        vec![resource_check(), String],
        resource_check(),
    );
    lib.member(
        "labelSelector",
        "authorizer_labelselector",
        vec![resource_check(), String],
        resource_check(),
    );
}

/// The named formats of the format library.
pub const FORMAT_NAMES: [&str; 13] = [
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

fn k8s_format(lib: &mut Library) {
    lib.member(
        "validate",
        "format-validate",
        vec![k8s::format(), Type::String],
        Type::optional(Type::list(Type::String)),
    );
    lib.global(
        "format.named",
        "format-named",
        vec![Type::String],
        Type::optional(k8s::format()),
    );
    for name in FORMAT_NAMES {
        let full = format!("format.{name}");
        lib.global(&full, &full, vec![], k8s::format());
    }
}

/// The type identifiers of an environment (`int`, `list`, `net.CIDR`, …)
/// and their `type(T)` types.
pub fn type_identifiers(v: CompatibilityVersion) -> Vec<(&'static str, Type)> {
    let mut out = vec![
        ("bool", Type::type_of(Type::Bool)),
        ("bytes", Type::type_of(Type::Bytes)),
        ("double", Type::type_of(Type::Double)),
        ("google.protobuf.Duration", Type::type_of(Type::Duration)),
        ("int", Type::type_of(Type::Int)),
        ("list", Type::type_of(Type::list(Type::param("A")))),
        (
            "map",
            Type::type_of(Type::map(Type::param("A"), Type::param("B"))),
        ),
        ("null_type", Type::type_of(Type::Null)),
        ("string", Type::type_of(Type::String)),
        ("google.protobuf.Timestamp", Type::type_of(Type::Timestamp)),
        ("type", Type::type_of(Type::TypeType(None))),
        ("uint", Type::type_of(Type::Uint)),
    ];
    if v.at_least(1, 28) {
        out.push((
            "optional_type",
            Type::type_of(Type::optional(Type::param("T"))),
        ));
    }
    if v.at_least(1, 30) {
        out.push(("net.IP", Type::type_of(k8s::ip())));
        out.push(("net.CIDR", Type::type_of(k8s::cidr())));
    }
    out
}
