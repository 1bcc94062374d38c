//! The types of the derive benchmark: a deterministic generator of operator
//! types (CRD spec roots, each with nested structs and unit enums), written
//! once as a model so that every flavour of the crate gets the same types.

use std::collections::BTreeSet;

/// Number of CRD spec roots.
pub const ROOTS: usize = 20;
/// Types per root: the spec, its nested structs, its unit enums.
const STRUCTS_PER_ROOT: usize = 8;
const ENUMS_PER_ROOT: usize = 2;
/// The API group of every generated resource.
pub const GROUP: &str = "bench.example.com";

/// All the types, roots first in each group, in declaration order.
pub struct Model {
    /// Structs and enums, in the order they are written.
    pub types: Vec<TypeDef>,
}

/// One generated type.
pub enum TypeDef {
    /// A struct with named fields.
    Struct(StructDef),
    /// An enum of unit variants.
    Enum(EnumDef),
}

/// A struct with named fields.
pub struct StructDef {
    /// The Rust name.
    pub name: String,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// `#[serde(rename_all = "camelCase")]`.
    pub camel: bool,
    /// The fields, in order.
    pub fields: Vec<Field>,
    /// Container-level CEL rules: (rule, message).
    pub rules: Vec<(String, String)>,
    /// The resource kind when this is a CRD spec root.
    pub kind: Option<String>,
}

/// An enum of unit variants.
pub struct EnumDef {
    /// The Rust name.
    pub name: String,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// Variant names with an optional doc line.
    pub variants: Vec<(String, Option<String>)>,
}

/// A named field.
pub struct Field {
    /// The Rust name (snake case).
    pub name: String,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// The type.
    pub ty: FieldTy,
    /// The serde field attribute, if any (its inside).
    pub serde: Option<&'static str>,
    /// Validation constraints.
    pub constraints: Vec<Constraint>,
}

/// A leaf type.
#[derive(Clone, PartialEq)]
pub enum Scalar {
    /// `String`
    Str,
    /// `i32`, `i64`, `u16`, `u32`
    Int(&'static str),
    /// `f64`
    F64,
    /// `bool`
    Bool,
    /// A generated struct or enum, by name.
    Named(String),
}

/// A field's type.
#[derive(Clone)]
pub enum FieldTy {
    /// `T`
    Plain(Scalar),
    /// `Option<T>`
    Opt(Scalar),
    /// `Vec<T>`
    Vec(Scalar),
    /// `BTreeMap<String, T>`
    Map(Scalar),
}

impl FieldTy {
    /// The Rust type.
    pub fn rust(&self) -> String {
        match self {
            FieldTy::Plain(s) => s.rust().to_string(),
            FieldTy::Opt(s) => format!("Option<{}>", s.rust()),
            FieldTy::Vec(s) => format!("Vec<{}>", s.rust()),
            FieldTy::Map(s) => format!("BTreeMap<String, {}>", s.rust()),
        }
    }
}

impl Scalar {
    fn rust(&self) -> &str {
        match self {
            Scalar::Str => "String",
            Scalar::Int(t) => t,
            Scalar::F64 => "f64",
            Scalar::Bool => "bool",
            Scalar::Named(n) => n,
        }
    }
}

/// A validation constraint, written in each flavour's attribute syntax.
pub enum Constraint {
    /// `minimum`/`maximum` (numbers).
    Range(Number, Option<Number>),
    /// `min_length`/`max_length` (strings).
    Length(Option<u32>, u32),
    /// `pattern` (strings).
    Pattern(&'static str),
    /// `enum` of strings.
    StrEnum(&'static [&'static str]),
    /// `max_items` (arrays).
    MaxItems(u32),
    /// `x-kubernetes-list-type` (`map` lists are keyed by `name`).
    ListType(&'static str),
    /// `max_length` of an array's items.
    ItemsMaxLength(u32),
    /// `max_properties` (maps).
    MaxProperties(u32),
    /// A `default` value, as a JSON literal.
    Default(String),
    /// A field-level CEL rule: (rule, message).
    Rule(String, String),
}

/// A number written as Rust and JSON accept it.
#[derive(Clone, Copy)]
pub enum Number {
    /// An integer.
    Int(i64),
    /// A float (written with a decimal point).
    Float(f64),
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// splitmix64: small, deterministic, good enough to pick shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() - 1)]
    }
}

const KINDS: [&str; ROOTS] = [
    "Widget",
    "Gizmo",
    "Database",
    "CacheCluster",
    "MessageQueue",
    "Pipeline",
    "ApiGateway",
    "BackupPlan",
    "DnsZone",
    "Bucket",
    "Notebook",
    "ModelServer",
    "Tenant",
    "FeatureFlag",
    "CronTask",
    "IngressRoute",
    "SecretSync",
    "MetricsStack",
    "LogShipper",
    "EdgeProxy",
];

const PARTS: &[&str] = &[
    "Template",
    "Storage",
    "Network",
    "Tls",
    "Auth",
    "Backup",
    "Scaling",
    "Probe",
    "Resources",
    "Endpoint",
    "Policy",
    "Schedule",
    "Monitoring",
    "Retention",
    "Source",
    "Sink",
    "Port",
    "Volume",
    "Container",
    "Toleration",
];

const ENUMS: &[(&str, &[&str])] = &[
    ("Mode", &["Active", "Passive", "Standby", "Maintenance"]),
    ("Protocol", &["Tcp", "Udp", "Sctp", "Http", "Grpc"]),
    (
        "Strategy",
        &["RollingUpdate", "Recreate", "BlueGreen", "Canary"],
    ),
    ("LogLevel", &["Debug", "Info", "Warn", "Error"]),
    ("PullPolicy", &["Always", "IfNotPresent", "Never"]),
    ("Tier", &["Free", "Standard", "Premium", "Enterprise"]),
    ("Scope", &["Cluster", "Namespace", "Global"]),
    (
        "Phase",
        &["Pending", "Running", "Succeeded", "Failed", "Unknown"],
    ),
];

const STRINGS: &[&str] = &[
    "image",
    "host",
    "path",
    "secret_name",
    "service_account",
    "storage_class",
    "endpoint",
    "region",
    "bucket",
    "target_namespace",
    "schedule",
    "version",
    "display_name",
    "cluster_name",
    "url",
    "config_map",
    "log_format",
    "node_name",
    "zone",
    "owner",
    "checksum",
    "issuer",
];
const INTS: &[&str] = &[
    "replicas",
    "port",
    "timeout_seconds",
    "max_retries",
    "min_available",
    "priority",
    "weight",
    "period_seconds",
    "cpu_millis",
    "memory_mib",
    "max_connections",
    "batch_size",
    "retention_days",
    "threads",
    "shards",
];
const BOOLS: &[&str] = &[
    "enabled",
    "suspend",
    "paused",
    "read_only",
    "insecure_skip_verify",
    "auto_scale",
    "compress",
    "dry_run",
    "verbose",
    "allow_privileged",
];
const FLOATS: &[&str] = &["ratio", "threshold", "sample_rate", "burst_factor"];
const LISTS: &[&str] = &[
    "args",
    "command",
    "hosts",
    "tags",
    "scopes",
    "zones",
    "allowed_cidrs",
    "extra_flags",
];
const MAPS: &[&str] = &[
    "labels",
    "annotations",
    "node_selector",
    "env",
    "parameters",
    "limits",
    "quotas",
    "headers",
];

const PATTERNS: &[&str] = &[
    "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
    "^[0-9]+(m|Mi|Gi)?$",
    "^(http|https)://.+$",
    "^[A-Za-z0-9+/=]*$",
    "^([0-9]+h)?([0-9]+m)?([0-9]+s)?$",
];
const FORMATS: &[&str] = &["json", "text", "logfmt"];

const VERBS: &[&str] = &[
    "Configures",
    "Selects",
    "Controls",
    "Sets",
    "Describes",
    "Limits",
    "Overrides",
    "Defines",
];
const NOUNS: &[&str] = &[
    "the desired state",
    "how the controller reconciles",
    "the upstream endpoint",
    "the rollout behaviour",
    "the retention window",
    "the credentials used",
    "the observed generation",
    "the scheduling constraints",
];
const TAILS: &[&str] = &[
    "When unset, the operator picks a default.",
    "Changing it triggers a rolling restart.",
    "Must be unique within the namespace.",
    "See the user guide for the accepted values.",
    "This field is ignored when the resource is paused.",
];

fn doc(rng: &mut Rng, subject: &str) -> Vec<String> {
    let mut lines = vec![format!(
        "{} {} of the {subject}.",
        rng.pick(VERBS),
        rng.pick(NOUNS)
    )];
    if rng.chance(50) {
        lines.push((*rng.pick(TAILS)).to_string());
    }
    if rng.chance(15) {
        lines.push(String::new());
        lines.push(format!(
            "More info: https://docs.example.com/{}",
            subject.to_lowercase().replace(' ', "-")
        ));
    }
    lines
}

fn snake(camel: &str) -> String {
    let mut s = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                s.push('_');
            }
            s.push(c.to_ascii_lowercase());
        } else {
            s.push(c);
        }
    }
    s
}

/// The serialized name of a field.
pub fn json_name(field: &str, camel: bool) -> String {
    if !camel {
        return field.to_string();
    }
    let mut out = String::new();
    let mut up = false;
    for c in field.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// A type of a group, before its fields are known.
enum Slot {
    Struct { name: String, keyed: bool },
    Enum { name: String },
}

impl Slot {
    fn name(&self) -> &str {
        match self {
            Slot::Struct { name, .. } | Slot::Enum { name } => name,
        }
    }
}

/// Builds the fields of one struct.
struct FieldsBuilder<'r> {
    rng: &'r mut Rng,
    used: BTreeSet<String>,
    fields: Vec<Field>,
}

impl FieldsBuilder<'_> {
    fn name(&mut self, pool: &[&str]) -> String {
        let start = self.rng.range(0, pool.len() - 1);
        for i in 0..pool.len() {
            let n = pool[(start + i) % pool.len()];
            if self.used.insert(n.to_string()) {
                return n.to_string();
            }
        }
        let mut k = 2;
        loop {
            let n = format!("{}_{k}", pool[start]);
            if self.used.insert(n.clone()) {
                return n;
            }
            k += 1;
        }
    }

    fn push(&mut self, name: String, ty: FieldTy, constraints: Vec<Constraint>) {
        let serde = match &ty {
            FieldTy::Opt(_) if self.rng.chance(60) => {
                Some("default, skip_serializing_if = \"Option::is_none\"")
            }
            FieldTy::Vec(_) if self.rng.chance(60) => {
                Some("default, skip_serializing_if = \"Vec::is_empty\"")
            }
            FieldTy::Map(_) if self.rng.chance(60) => {
                Some("default, skip_serializing_if = \"BTreeMap::is_empty\"")
            }
            _ => None,
        };
        let doc = if self.rng.chance(75) {
            doc(self.rng, &name.replace('_', " "))
        } else {
            Vec::new()
        };
        self.fields.push(Field {
            name,
            doc,
            ty,
            serde,
            constraints,
        });
    }

    /// A field of a primitive kind, with typical constraints.
    fn primitive(&mut self) {
        let roll = self.rng.range(0, 99);
        let optional = self.rng.chance(50);
        let wrap = |s: Scalar| {
            if optional {
                FieldTy::Opt(s)
            } else {
                FieldTy::Plain(s)
            }
        };
        let mut cs = Vec::new();
        match roll {
            0..=34 => {
                let name = self.name(STRINGS);
                let c = self.rng.range(0, 99);
                if c < 35 {
                    let max = *self.rng.pick(&[63, 128, 253, 1024]);
                    let min = self.rng.chance(40).then_some(1);
                    cs.push(Constraint::Length(min, max));
                } else if c < 50 {
                    cs.push(Constraint::Pattern(
                        PATTERNS[self.rng.range(0, PATTERNS.len() - 1)],
                    ));
                    cs.push(Constraint::Length(None, 253));
                } else if c < 58 {
                    cs.push(Constraint::StrEnum(FORMATS));
                } else if c < 63 {
                    cs.push(Constraint::Rule(
                        "!self.startsWith('-')".to_string(),
                        "must not start with a dash".to_string(),
                    ));
                }
                self.push(name, wrap(Scalar::Str), cs);
            }
            35..=59 => {
                let name = self.name(INTS);
                let t = *self.rng.pick(&["i32", "i32", "i32", "i64", "u16", "u32"]);
                if self.rng.chance(55) {
                    let min = if t.starts_with('u') || self.rng.chance(50) {
                        1
                    } else {
                        0
                    };
                    let max = match t {
                        "u16" => Some(65535),
                        _ if self.rng.chance(60) => Some(*self.rng.pick(&[10, 100, 3600, 65535])),
                        _ => None,
                    };
                    cs.push(Constraint::Range(Number::Int(min), max.map(Number::Int)));
                }
                if optional && self.rng.chance(20) {
                    cs.push(Constraint::Default(self.rng.range(1, 10).to_string()));
                }
                self.push(name, wrap(Scalar::Int(t)), cs);
            }
            60..=74 => {
                let name = self.name(BOOLS);
                if optional && self.rng.chance(25) {
                    cs.push(Constraint::Default("false".to_string()));
                }
                self.push(name, wrap(Scalar::Bool), cs);
            }
            75..=77 => {
                let name = self.name(FLOATS);
                if self.rng.chance(60) {
                    cs.push(Constraint::Range(
                        Number::Float(0.0),
                        Some(Number::Float(1.0)),
                    ));
                }
                self.push(name, FieldTy::Opt(Scalar::F64), cs);
            }
            78..=89 => {
                let name = self.name(LISTS);
                if self.rng.chance(40) {
                    cs.push(Constraint::MaxItems(*self.rng.pick(&[8, 16, 64])));
                }
                if self.rng.chance(35) {
                    cs.push(Constraint::ListType("set"));
                }
                if self.rng.chance(20) {
                    cs.push(Constraint::ItemsMaxLength(63));
                }
                self.push(name, FieldTy::Vec(Scalar::Str), cs);
            }
            _ => {
                let name = self.name(MAPS);
                if self.rng.chance(30) {
                    cs.push(Constraint::MaxProperties(*self.rng.pick(&[16, 64])));
                }
                let value = if self.rng.chance(80) {
                    Scalar::Str
                } else {
                    Scalar::Int("i32")
                };
                self.push(name, FieldTy::Map(value), cs);
            }
        }
    }

    /// A field referring to a generated type.
    fn reference(&mut self, target: &Slot) {
        let stem = snake(part_of(target.name()));
        let scalar = Scalar::Named(target.name().to_string());
        let mut cs = Vec::new();
        let ty = match target {
            Slot::Enum { .. } => {
                if self.rng.chance(50) {
                    FieldTy::Opt(scalar)
                } else {
                    FieldTy::Plain(scalar)
                }
            }
            Slot::Struct { keyed: true, .. } => {
                cs.push(Constraint::ListType("map"));
                if self.rng.chance(40) {
                    cs.push(Constraint::MaxItems(*self.rng.pick(&[16, 64, 256])));
                }
                FieldTy::Vec(scalar)
            }
            Slot::Struct { keyed: false, .. } => match self.rng.range(0, 9) {
                0..=3 => FieldTy::Plain(scalar),
                4..=7 => FieldTy::Opt(scalar),
                8 => {
                    if self.rng.chance(50) {
                        cs.push(Constraint::ListType("atomic"));
                    }
                    FieldTy::Vec(scalar)
                }
                _ => FieldTy::Map(scalar),
            },
        };
        let name = match &ty {
            FieldTy::Vec(_) if stem.ends_with('s') => format!("{stem}_list"),
            FieldTy::Vec(_) => format!("{stem}s"),
            FieldTy::Map(_) => format!("{stem}_by_name"),
            _ => stem,
        };
        let name = self.name(&[name.as_str()]);
        self.push(name, ty, cs);
    }
}

/// `WidgetTls` -> `Tls`: the part after the group's kind.
fn part_of(name: &str) -> &str {
    for kind in KINDS {
        if let Some(rest) = name.strip_prefix(kind)
            && !rest.is_empty()
        {
            return rest;
        }
    }
    name
}

/// A CEL rule over the struct's fields, if one fits.
fn container_rule(fields: &[Field], camel: bool) -> Option<(String, String)> {
    let ints: Vec<&Field> = fields
        .iter()
        .filter(|f| matches!(f.ty, FieldTy::Plain(Scalar::Int(_))))
        .collect();
    if let [a, b, ..] = ints.as_slice() {
        let (a, b) = (json_name(&a.name, camel), json_name(&b.name, camel));
        return Some((
            format!("self.{a} <= self.{b}"),
            format!("{a} must not exceed {b}"),
        ));
    }
    let opt = fields
        .iter()
        .find(|f| matches!(f.ty, FieldTy::Opt(Scalar::Str)))?;
    let x = json_name(&opt.name, camel);
    Some((
        format!("!has(self.{x}) || self.{x} != ''"),
        format!("{x} must not be empty when set"),
    ))
}

/// The 200 types, always the same.
pub fn generate() -> Model {
    let mut rng = Rng(0x5eed);
    let mut types = Vec::new();
    for kind in KINDS {
        // The group's types: the spec, nested structs, enums (in this order;
        // a struct refers only to types after it, so there is no cycle).
        let mut slots = vec![Slot::Struct {
            name: format!("{kind}Spec"),
            keyed: false,
        }];
        let mut parts: Vec<&str> = PARTS.to_vec();
        for _ in 1..STRUCTS_PER_ROOT {
            let i = rng.range(0, parts.len() - 1);
            let part = parts.swap_remove(i);
            slots.push(Slot::Struct {
                name: format!("{kind}{part}"),
                keyed: rng.chance(35),
            });
        }
        let mut enums: Vec<&(&str, &[&str])> = ENUMS.iter().collect();
        let mut variants = Vec::new();
        for _ in 0..ENUMS_PER_ROOT {
            let i = rng.range(0, enums.len() - 1);
            let (part, vs) = enums.swap_remove(i);
            slots.push(Slot::Enum {
                name: format!("{kind}{part}"),
            });
            variants.push(*vs);
        }
        // Each type but the spec is referred to by one earlier struct.
        let mut refs: Vec<Vec<usize>> = vec![Vec::new(); STRUCTS_PER_ROOT];
        for j in 1..slots.len() {
            let parent = rng.range(0, j.min(STRUCTS_PER_ROOT) - 1);
            refs[parent].push(j);
        }
        for (i, slot) in slots.iter().enumerate() {
            match slot {
                Slot::Struct { name, keyed } => {
                    let mut b = FieldsBuilder {
                        rng: &mut rng,
                        used: BTreeSet::new(),
                        fields: Vec::new(),
                    };
                    if *keyed {
                        b.used.insert("name".to_string());
                        b.push(
                            "name".to_string(),
                            FieldTy::Plain(Scalar::Str),
                            vec![Constraint::Length(Some(1), 63)],
                        );
                    }
                    let target = if i == 0 {
                        b.rng.range(8, 15)
                    } else {
                        b.rng.range(3, 12)
                    };
                    let mut mine = refs[i].clone();
                    // Occasionally a second reference to a later enum.
                    if b.rng.chance(20) {
                        mine.push(b.rng.range(STRUCTS_PER_ROOT, slots.len() - 1));
                    }
                    for j in mine {
                        b.reference(&slots[j]);
                    }
                    while b.fields.len() < target {
                        b.primitive();
                    }
                    // Shuffle lightly: references need not come first.
                    let n = b.fields.len();
                    for k in 0..n {
                        let other = b.rng.range(0, n - 1);
                        if !(*keyed && (k == 0 || other == 0)) {
                            b.fields.swap(k, other);
                        }
                    }
                    let fields = b.fields;
                    let camel = rng.chance(40) || i == 0;
                    let rules = if rng.chance(25) {
                        container_rule(&fields, camel).into_iter().collect()
                    } else {
                        Vec::new()
                    };
                    let subject = snake(part_of(name)).replace('_', " ");
                    types.push(TypeDef::Struct(StructDef {
                        name: name.clone(),
                        doc: doc(&mut rng, &subject),
                        camel,
                        fields,
                        rules,
                        kind: (i == 0).then(|| kind.to_string()),
                    }));
                }
                Slot::Enum { name } => {
                    let vs = variants[i - STRUCTS_PER_ROOT];
                    let count = rng.range(2, vs.len());
                    let variants = vs[..count]
                        .iter()
                        .map(|v| {
                            let d = rng.chance(30).then(|| format!("The {v} setting."));
                            (v.to_string(), d)
                        })
                        .collect();
                    types.push(TypeDef::Enum(EnumDef {
                        name: name.clone(),
                        doc: doc(&mut rng, &snake(part_of(name)).replace('_', " ")),
                        variants,
                    }));
                }
            }
        }
    }
    Model { types }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_hundred_types_of_three_to_fifteen_fields() {
        let m = generate();
        assert_eq!(m.types.len(), 200);
        let mut roots = 0;
        for t in &m.types {
            if let TypeDef::Struct(s) = t {
                assert!((3..=15).contains(&s.fields.len()), "{}", s.name);
                roots += usize::from(s.kind.is_some());
            }
        }
        assert_eq!(roots, ROOTS);
    }
}
