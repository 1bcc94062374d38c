//! The `schema-gen` command line: argument parsing, reading inputs, and
//! printing diagnostics. [`run`] is the whole program minus the process
//! boundary, so tests drive it in-process.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use crate::ytt::{self, YttError};
use schema_core::crd::check::{CheckReport, check};
use schema_core::crd::internal::submitted_location;
use schema_core::crd::publish::{publish_schema_v2, publish_schema_v3, publish_v2, publish_v3};
use schema_core::model::field::{FieldError, Path, PathElement};
use schema_core::model::source::{self, Document, Limits, PathSegment};
use schema_core::model::structural::Structural;
use schema_core::model::wire::input::{Input, ReadError, Warning, read_input_owned};
use schema_core::model::wire::{CustomResourceDefinition, JsonSchemaProps};
use schema_core::object::admission::{Admission, Admitted};
use schema_core::object::default::{default, prune_non_nullable_nulls_without_defaults};
use schema_core::object::prune::prune;

use crate::lint::{self, RuleSet, Severity};

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: the input was processed and has errors.
pub const EXIT_ERRORS: i32 = 1;
/// Exit code: the input could not be processed.
pub const EXIT_UNPROCESSABLE: i32 = 2;

/// Kubernetes structural schemas, offline.
#[derive(Parser, Debug)]
#[command(name = "schema-gen", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// Output formats of diagnostics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagnosticsFormat {
    /// Human-readable lines.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// Output formats of documents.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DocumentFormat {
    /// YAML (multi-document with `---`).
    Yaml,
    /// JSON (a `List` for several documents).
    Json,
}

/// The rule sets of `lint`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LintRuleSet {
    /// Giant Swarm's cluster-app requirements, as the reference linter
    /// (schemalint) checks them.
    ClusterApp,
    /// `cluster-app` plus required properties, enumerated string values and
    /// non-empty defaults.
    ClusterAppStrict,
}

impl LintRuleSet {
    fn rule_set(self) -> RuleSet {
        match self {
            LintRuleSet::ClusterApp => RuleSet::ClusterApp,
            LintRuleSet::ClusterAppStrict => RuleSet::ClusterAppStrict,
        }
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check CRDs or bare schemas exactly as the API server does on create.
    Check {
        /// Files to check (`-` for stdin), YAML or JSON, one or more documents each.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DiagnosticsFormat::Text)]
        output: DiagnosticsFormat,
    },
    /// Read a CRD or schema through the wire model and write it back in canonical order.
    Fmt {
        /// The file (`-` for stdin).
        file: PathBuf,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DocumentFormat::Yaml)]
        output: DocumentFormat,
    },
    /// Print the OpenAPI the API server publishes for CRDs (or a bare
    /// schema): one Swagger 2.0 document with `--v2`, the document of the
    /// group-version with `--v3` (a JSON object keyed by
    /// `apis/<group>/<version>` when the input spans several).
    Openapi {
        /// The file (`-` for stdin).
        file: PathBuf,
        /// Publish OpenAPI v2 (Swagger 2.0).
        #[arg(long, conflicts_with = "v3", required_unless_present = "v3")]
        v2: bool,
        /// Publish OpenAPI v3.
        #[arg(long)]
        v3: bool,
        /// Only these CRD versions (repeatable).
        #[arg(long)]
        version: Vec<String>,
    },
    /// Prune objects as the API server does before storing them: unknown
    /// fields removed, then nulls the schema neither allows nor defaults.
    Prune {
        /// The schema to process objects with.
        #[command(flatten)]
        schema: SchemaArgs,
        /// Objects (`-` for stdin), YAML or JSON, one or more documents each.
        #[arg(required = true)]
        objects: Vec<PathBuf>,
        /// Output format; `json` also lists the pruned fields.
        #[arg(long, short, value_enum, default_value_t = DocumentFormat::Yaml)]
        output: DocumentFormat,
    },
    /// Convert a schema written for another tool into this toolchain's
    /// outputs.
    Convert {
        /// The kind of source.
        #[command(subcommand)]
        source: ConvertSource,
    },
    /// Apply schema defaults to objects with the API server's defaulting
    /// algorithm.
    Default {
        /// The schema to process objects with.
        #[command(flatten)]
        schema: SchemaArgs,
        /// Objects (`-` for stdin), YAML or JSON, one or more documents each.
        #[arg(required = true)]
        objects: Vec<PathBuf>,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DocumentFormat::Yaml)]
        output: DocumentFormat,
    },
    /// Admit objects as the API server does on create: prune, default, then
    /// validate (kind, metadata, values, scale paths, embedded resources,
    /// list sets and maps, then the x-kubernetes-validations CEL rules),
    /// printing every error in the server's words. With --old, admit them
    /// as updates of the old objects.
    Validate {
        /// The schema to process objects with.
        #[command(flatten)]
        schema: SchemaArgs,
        /// Objects (`-` for stdin), YAML or JSON, one or more documents each.
        #[arg(required = true)]
        objects: Vec<PathBuf>,
        /// Old objects (`-` for stdin): validate each object as an update of
        /// the old object at the same position (documents counted across
        /// the files in order; the counts must match). Transition rules
        /// (`oldSelf`) run, and failures of values left unchanged are
        /// ratcheted into warnings.
        #[arg(long, value_name = "FILE")]
        old: Option<PathBuf>,
        /// Output format; `json` gives each object as stored, its pruned
        /// fields and its errors.
        #[arg(long, short, value_enum, default_value_t = DiagnosticsFormat::Text)]
        output: DiagnosticsFormat,
    },
    /// Generate Rust types from CRDs or a bare schema: one module per
    /// version (every served version unless `--version` is given), types
    /// that `#[derive(StructuralSchema)]` turns back into the same schema,
    /// and `pub fn crds()` rebuilding the CRDs from them.
    Rust {
        /// The file (`-` for stdin), YAML or JSON, one or more documents.
        file: PathBuf,
        /// Only these versions (repeatable).
        #[arg(long)]
        version: Vec<String>,
        /// Write to this file instead of stdout (only when the content
        /// changed).
        #[arg(long, short = 'o', value_name = "OUT.rs")]
        out: Option<PathBuf>,
        /// Extra derives on every type (repeatable), e.g. `Clone`.
        #[arg(long)]
        derive: Vec<String>,
        /// Descriptions as `description` attributes instead of doc comments.
        #[arg(long)]
        no_docs: bool,
        /// Map int-or-string, quantities, times and metadata to serde_json
        /// and plain types instead of k8s-openapi's.
        #[arg(long)]
        no_k8s_openapi: bool,
    },
    /// Lint a Helm values schema (JSON Schema, YAML or JSON) with a rule
    /// set: one finding per line (rule, severity, location, message).
    /// Exits 1 when a finding is an error; recommendations do not fail.
    Lint {
        /// The schema file (`-` for stdin). Relative `$ref`s are read from
        /// the file's directory.
        file: PathBuf,
        /// The rule set.
        #[arg(long, value_enum, default_value_t = LintRuleSet::ClusterApp)]
        rule_set: LintRuleSet,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DiagnosticsFormat::Text)]
        output: DiagnosticsFormat,
    },
}

/// The sources `convert` reads.
#[derive(Subcommand, Debug)]
pub enum ConvertSource {
    /// A Carvel ytt data-values schema (a YAML document annotated
    /// `#@data/values-schema`).
    Ytt {
        /// The schema file (`-` for stdin).
        file: PathBuf,
        /// What to print: `openapi-v3` (exactly what `ytt
        /// --data-values-schema-inspect -o openapi-v3` prints), `crd` (a
        /// CustomResourceDefinition whose resources hold the data values in
        /// `spec`) or `defaults` (the default data values).
        #[arg(long)]
        to: Option<String>,
        /// API group of the CRD (`--to crd`).
        #[arg(long, default_value = "values.example.com")]
        group: String,
        /// Kind of the CRD (`--to crd`); the plural is its lowercase form
        /// plus `s` (unless it ends in `s`).
        #[arg(long, default_value = "DataValues")]
        kind: String,
        /// Version of the CRD (`--to crd`).
        #[arg(long = "crd-version", default_value = "v1alpha1")]
        crd_version: String,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DocumentFormat::Yaml)]
        output: DocumentFormat,
    },
}

/// Where the schema for objects comes from.
#[derive(clap::Args, Debug)]
#[group(required = true, multiple = false)]
pub struct SchemaArgs {
    /// A bare structural schema (the content of `openAPIV3Schema`).
    #[arg(long)]
    schema: Option<PathBuf>,
    /// A CustomResourceDefinition; the version is taken from each object's
    /// `apiVersion` unless `--version` is given.
    #[arg(long)]
    crd: Option<PathBuf>,
    /// The CRD version to use.
    #[arg(long, requires = "crd")]
    version: Option<String>,
}

/// Runs the program with `args` (including the program name).
pub fn run<I, T>(
    args: I,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_UNPROCESSABLE
            } else {
                EXIT_OK
            };
            let rendered = e.render().to_string();
            let _ = if e.use_stderr() {
                stderr.write_all(rendered.as_bytes())
            } else {
                stdout.write_all(rendered.as_bytes())
            };
            return code;
        }
    };
    let mut io = Io {
        stdin,
        stdout,
        stderr,
    };
    match cli.command {
        Command::Check { files, output } => cmd_check(&files, output, &mut io),
        Command::Fmt { file, output } => cmd_fmt(&file, output, &mut io),
        Command::Openapi {
            file,
            v2,
            v3: _,
            version,
        } => cmd_openapi(&file, v2, &version, &mut io),
        Command::Prune {
            schema,
            objects,
            output,
        } => cmd_objects(&schema, &objects, output, ObjectOp::Prune, &mut io),
        Command::Default {
            schema,
            objects,
            output,
        } => cmd_objects(&schema, &objects, output, ObjectOp::Default, &mut io),
        Command::Validate {
            schema,
            objects,
            old,
            output,
        } => cmd_validate(&schema, &objects, old.as_deref(), output, &mut io),
        Command::Lint {
            file,
            rule_set,
            output,
        } => cmd_lint(&file, rule_set.rule_set(), output, &mut io),
        Command::Convert { source } => cmd_convert(source, &mut io),
        Command::Rust {
            file,
            version,
            out,
            derive,
            no_docs,
            no_k8s_openapi,
        } => {
            let mut config = crate::rustgen::Config::new();
            for v in version {
                config.version(v);
            }
            for d in derive {
                config.derive(d);
            }
            config.docs(!no_docs).k8s_openapi(!no_k8s_openapi);
            cmd_rust(&config, &file, out.as_deref(), &mut io)
        }
    }
}

fn cmd_rust(
    config: &crate::rustgen::Config,
    file: &std::path::Path,
    out: Option<&std::path::Path>,
    io: &mut Io<'_>,
) -> i32 {
    let name = display_name(file);
    let limits = Limits::default();
    let mut bytes = Vec::new();
    let read = if file.as_os_str() == "-" {
        io.stdin
            .take(limits.max_bytes as u64 + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file)
            .and_then(|f| f.take(limits.max_bytes as u64 + 1).read_to_end(&mut bytes))
    };
    if let Err(e) = read {
        let _ = writeln!(io.stderr, "error: {name}: cannot read: {e}");
        return EXIT_UNPROCESSABLE;
    }
    let generated = crate::rustgen::InputFile::parse(&name, &bytes)
        .and_then(|input| config.generate(std::slice::from_ref(&input)));
    let source = match generated {
        Ok(g) => {
            for w in &g.warnings {
                let _ = writeln!(io.stderr, "warning: {w}");
            }
            g.files.into_values().next().unwrap_or_default()
        }
        Err(e) => {
            let _ = writeln!(io.stderr, "error: {e}");
            return EXIT_UNPROCESSABLE;
        }
    };
    match out {
        Some(p) => match crate::rustgen::write_if_changed(p, &source) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                let _ = writeln!(io.stderr, "error: {e}");
                EXIT_UNPROCESSABLE
            }
        },
        None => match io.stdout.write_all(source.as_bytes()) {
            Ok(()) => EXIT_OK,
            Err(_) => EXIT_UNPROCESSABLE,
        },
    }
}

struct Io<'a> {
    stdin: &'a mut dyn Read,
    stdout: &'a mut dyn Write,
    stderr: &'a mut dyn Write,
}

/// One input file, read and parsed.
struct Loaded {
    name: String,
    docs: Vec<Document>,
}

fn display_name(p: &std::path::Path) -> String {
    if p.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        p.display().to_string()
    }
}

fn load(p: &std::path::Path, io: &mut Io<'_>) -> Result<Loaded, String> {
    let name = display_name(p);
    let limits = Limits::default();
    let mut bytes = Vec::new();
    let read = if p.as_os_str() == "-" {
        io.stdin
            .take(limits.max_bytes as u64 + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(p)
            .and_then(|f| f.take(limits.max_bytes as u64 + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("{name}: cannot read: {e}"))?;
    let docs = source::parse_documents(&name, &bytes, &limits).map_err(|e| e.to_string())?;
    if docs.is_empty() {
        return Err(format!("{name}: no YAML or JSON document found"));
    }
    Ok(Loaded { name, docs })
}

/// Maps a field path to the JSON path of the node it names, as far as the
/// document has it. `Child` names may hold dots (`openAPIV3Schema.type`).
fn json_segments(field: &Path) -> Vec<PathSegment> {
    let mut out = Vec::new();
    for e in field.elements() {
        match e {
            // Value validation reports whole dotted paths as one child.
            PathElement::Child(name) if name.contains(['.', '[']) => {
                out.extend(json_segments(&Path::parse(&name)));
            }
            PathElement::Child(name) => out.push(PathSegment::Key(name)),
            PathElement::Key(k) => out.push(PathSegment::Key(k)),
            PathElement::Index(i) => out.push(PathSegment::Index(i)),
        }
    }
    out
}

/// The line and column of the deepest node of `field` present in `doc`.
fn locate(doc: &Document, base: &[PathSegment], field: &Path) -> Option<(usize, usize)> {
    let mut segs = base.to_vec();
    segs.extend(json_segments(field));
    while !segs.is_empty() {
        if let Some(l) = doc.map.locate(&segs) {
            return Some((l.line, l.column));
        }
        segs.pop();
    }
    Some((doc.start.line, doc.start.column))
}

fn location_prefix(name: &str, loc: Option<(usize, usize)>) -> String {
    match loc {
        Some((l, c)) => format!("{name}:{l}:{c}"),
        None => name.to_string(),
    }
}

fn cmd_check(files: &[PathBuf], output: DiagnosticsFormat, io: &mut Io<'_>) -> i32 {
    let mut exit = EXIT_OK;
    let mut json_files = Vec::new();
    for f in files {
        let loaded = match load(f, io) {
            Ok(l) => l,
            Err(msg) => {
                let _ = writeln!(io.stderr, "error: {msg}");
                exit = EXIT_UNPROCESSABLE;
                json_files.push(
                    json!({"file": display_name(f), "error": msg, "errors": [], "warnings": []}),
                );
                continue;
            }
        };
        let mut file_errors = Vec::new();
        let mut file_warnings = Vec::new();
        let multi = loaded.docs.len() > 1;
        let n_docs = loaded.docs.len();
        for (di, mut doc) in loaded.docs.into_iter().enumerate() {
            let doc = &mut doc;
            let (input, warnings) = match read_input_owned(std::mem::take(&mut doc.value)) {
                Ok(x) => x,
                Err(e) => {
                    let msg = read_error_message(&loaded.name, doc, &e);
                    let _ = writeln!(io.stderr, "{msg}");
                    exit = EXIT_UNPROCESSABLE;
                    file_errors.push(json!({"document": di, "field": "", "type": "DecodeError", "detail": e.to_string(), "message": e.to_string()}));
                    continue;
                }
            };
            let mut report: CheckReport = check(&input);
            let mut all_warnings: Vec<Warning> = warnings;
            all_warnings.append(&mut report.warnings);
            // Errors of a v1 CRD use the server's internal layout
            // (`spec.validation` for a schema shared by all versions); find
            // them where they are written.
            let written = |f: &Path| match &input {
                Input::CrdV1(_) => submitted_location(f),
                _ => f.clone(),
            };
            for e in &report.errors {
                let loc = locate(doc, &[], &written(&e.field));
                let mut j = report_error(e, &loaded.name, loc, output, io);
                if multi {
                    j["document"] = json!(di);
                }
                file_errors.push(j);
            }
            for w in &all_warnings {
                let loc = locate(doc, &[], &w.field);
                let text = if w.field.is_root() {
                    w.message.clone()
                } else {
                    format!("{}: {}", w.field, w.message)
                };
                if output == DiagnosticsFormat::Text {
                    let _ = writeln!(
                        io.stderr,
                        "{}: warning: {text}",
                        location_prefix(&loaded.name, loc)
                    );
                }
                let mut j = json!({"field": w.field.to_string(), "message": text});
                if let Some((l, c)) = loc {
                    j["line"] = json!(l);
                    j["column"] = json!(c);
                }
                if multi {
                    j["document"] = json!(di);
                }
                file_warnings.push(j);
            }
            if !report.errors.is_empty() && exit == EXIT_OK {
                exit = EXIT_ERRORS;
            }
        }
        if output == DiagnosticsFormat::Text {
            let n = file_errors.len();
            if n == 0 {
                let _ = writeln!(
                    io.stderr,
                    "{}: ok ({n_docs} document{})",
                    loaded.name,
                    plural(n_docs)
                );
            } else {
                let _ = writeln!(io.stderr, "{}: {n} error{}", loaded.name, plural(n));
            }
        }
        json_files
            .push(json!({"file": loaded.name, "errors": file_errors, "warnings": file_warnings}));
    }
    if output == DiagnosticsFormat::Json {
        let doc = json!({ "files": json_files });
        let _ = writeln!(
            io.stdout,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        );
    }
    exit
}

/// Prints a field error as a diagnostic line (text output) and returns its
/// JSON form.
fn report_error(
    e: &FieldError,
    name: &str,
    loc: Option<(usize, usize)>,
    output: DiagnosticsFormat,
    io: &mut Io<'_>,
) -> serde_json::Value {
    if output == DiagnosticsFormat::Text {
        let _ = writeln!(io.stdout, "{}: error: {e}", location_prefix(name, loc));
    }
    let mut j = json!({
        "field": e.field.to_string(),
        "type": e.error_type.name(),
        "detail": e.detail,
        "message": e.to_string(),
    });
    if let Some((l, c)) = loc {
        j["line"] = json!(l);
        j["column"] = json!(c);
    }
    j
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn read_error_message(name: &str, doc: &Document, e: &ReadError) -> String {
    match e {
        ReadError::Decode(issues) => issues
            .iter()
            .map(|i| {
                let loc = locate(doc, &[], &i.field);
                format!("{}: error: {i}", location_prefix(name, loc))
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => format!(
            "{}: error: {other}",
            location_prefix(name, Some((doc.start.line, doc.start.column)))
        ),
    }
}

fn cmd_fmt(file: &std::path::Path, output: DocumentFormat, io: &mut Io<'_>) -> i32 {
    let loaded = match load(file, io) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut values = Vec::new();
    for mut doc in loaded.docs {
        let doc = &mut doc;
        match read_input_owned(std::mem::take(&mut doc.value)) {
            Ok((input, warnings)) => {
                for w in warnings {
                    let loc = locate(doc, &[], &w.field);
                    let _ = writeln!(
                        io.stderr,
                        "{}: warning: {}",
                        location_prefix(&loaded.name, loc),
                        w.message
                    );
                }
                values.push(input.to_value());
            }
            Err(e) => {
                let _ = writeln!(io.stderr, "{}", read_error_message(&loaded.name, doc, &e));
                return EXIT_UNPROCESSABLE;
            }
        }
    }
    let text = match output {
        DocumentFormat::Json => {
            let v = if let [one] = values.as_slice() {
                one.clone()
            } else {
                json!({"apiVersion": "v1", "kind": "List", "items": values})
            };
            format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
        }
        DocumentFormat::Yaml => {
            let mut s = String::new();
            for (i, v) in values.iter().enumerate() {
                if i > 0 || values.len() > 1 {
                    s.push_str("---\n");
                }
                s.push_str(&schema_core::model::yaml_writer::to_yaml(v));
            }
            s
        }
    };
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    EXIT_OK
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ObjectOp {
    Prune,
    Default,
}

/// The schema objects are processed with.
enum SchemaSource {
    /// A bare schema: objects are not resource roots.
    Bare {
        /// The schema as written.
        props: Box<JsonSchemaProps>,
        /// Its structural form.
        structural: Box<Structural>,
    },
    /// The CRDs of a file, by group.
    Crds(Vec<CustomResourceDefinition>),
}

fn load_schema_source(args: &SchemaArgs, io: &mut Io<'_>) -> Result<SchemaSource, String> {
    let file = args
        .schema
        .as_ref()
        .or(args.crd.as_ref())
        .ok_or("no schema given")?;
    let loaded = load(file, io)?;
    let mut crds = Vec::new();
    for mut doc in loaded.docs {
        let (input, _) = read_input_owned(std::mem::take(&mut doc.value))
            .map_err(|e| read_error_message(&loaded.name, &doc, &e))?;
        match input {
            Input::Schema(s) if args.schema.is_some() => {
                let st = Structural::from_props(&s)
                    .map_err(|e| format!("{}: the schema is not structural: {e}", loaded.name))?;
                return Ok(SchemaSource::Bare {
                    props: s,
                    structural: Box::new(st),
                });
            }
            Input::Schema(_) => {
                return Err(format!(
                    "{}: expected a CustomResourceDefinition",
                    loaded.name
                ));
            }
            other => {
                if args.schema.is_some() {
                    return Err(format!(
                        "{}: expected a bare schema, found a CustomResourceDefinition (use --crd)",
                        loaded.name
                    ));
                }
                if let Some(c) = other.crd() {
                    crds.push(c.clone());
                }
            }
        }
    }
    if crds.is_empty() {
        return Err(format!(
            "{}: no CustomResourceDefinition found",
            loaded.name
        ));
    }
    Ok(SchemaSource::Crds(crds))
}

/// The CRD and version an object belongs to: the CRD of its group and kind
/// (or the only CRD when `--version` is given), and `--version` or the
/// object's version (or the only version).
fn select_crd_version<'c>(
    crds: &'c [CustomResourceDefinition],
    version: Option<&str>,
    obj: &serde_json::Value,
) -> Result<(&'c CustomResourceDefinition, String), String> {
    let api_version = obj
        .get("apiVersion")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    let kind = obj
        .get("kind")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    let (group, obj_version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let crd = match crds {
        [one] if version.is_some() => Some(one),
        _ => crds.iter().find(|c| {
            let spec = c.spec.as_ref();
            spec.and_then(|s| s.group.as_deref()) == Some(group)
                && spec
                    .and_then(|s| s.names.as_ref())
                    .and_then(|n| n.kind.as_deref())
                    == Some(kind)
        }),
    }
    .ok_or_else(|| {
        format!("no CustomResourceDefinition for apiVersion {api_version:?}, kind {kind:?}")
    })?;
    let want = version.unwrap_or(obj_version);
    let versions = crd
        .spec
        .as_ref()
        .and_then(|s| s.versions.as_deref())
        .unwrap_or_default();
    let v = versions
        .iter()
        .find(|v| v.name.as_deref() == Some(want))
        .or(match versions {
            [one] if version.is_none() => Some(one),
            _ => None,
        })
        .ok_or_else(|| {
            format!(
                "the CustomResourceDefinition {:?} has no version {want:?}",
                crd.name().unwrap_or("")
            )
        })?;
    Ok((crd, v.name.clone().unwrap_or_default()))
}

/// The structural schema of the CRD version an object belongs to, and
/// whether the CRD preserves unknown fields.
fn crd_schema(
    crds: &[CustomResourceDefinition],
    version: Option<&str>,
    obj: &serde_json::Value,
) -> Result<(Option<Structural>, bool), String> {
    let (crd, want) = select_crd_version(crds, version, obj)?;
    let spec = crd.spec.as_ref();
    let versions = spec.and_then(|s| s.versions.as_deref()).unwrap_or_default();
    let schema = versions
        .iter()
        .find(|v| v.name.as_deref() == Some(want.as_str()))
        .and_then(|v| v.schema.as_ref())
        .and_then(|s| s.open_api_v3_schema.as_ref());
    let schema = match schema {
        Some(s) => Some(
            Structural::from_props(s)
                .map_err(|e| format!("the schema of version {want:?} is not structural: {e}"))?,
        ),
        None => None,
    };
    let preserve = spec.and_then(|s| s.preserve_unknown_fields) == Some(true);
    Ok((schema, preserve))
}

fn cmd_objects(
    args: &SchemaArgs,
    files: &[PathBuf],
    output: DocumentFormat,
    op: ObjectOp,
    io: &mut Io<'_>,
) -> i32 {
    let source = match load_schema_source(args, io) {
        Ok(s) => s,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut results = Vec::new();
    let mut exit = EXIT_OK;
    for f in files {
        let loaded = match load(f, io) {
            Ok(l) => l,
            Err(msg) => {
                let _ = writeln!(io.stderr, "error: {msg}");
                exit = EXIT_UNPROCESSABLE;
                continue;
            }
        };
        for doc in loaded.docs {
            let mut obj = doc.value;
            let (schema, is_root, preserve) = match &source {
                SchemaSource::Bare { structural, .. } => {
                    (Some(structural.as_ref().clone()), false, false)
                }
                SchemaSource::Crds(crds) => match crd_schema(crds, args.version.as_deref(), &obj) {
                    Ok((s, p)) => (s, true, p),
                    Err(msg) => {
                        let _ = writeln!(
                            io.stderr,
                            "{}: error: {msg}",
                            location_prefix(&loaded.name, Some((doc.start.line, doc.start.column)))
                        );
                        exit = EXIT_UNPROCESSABLE;
                        continue;
                    }
                },
            };
            let pruned = match op {
                ObjectOp::Prune if !preserve => {
                    let paths = prune(&mut obj, schema.as_ref(), is_root, true);
                    prune_non_nullable_nulls_without_defaults(&mut obj, schema.as_ref());
                    paths
                }
                ObjectOp::Prune => Vec::new(),
                ObjectOp::Default => {
                    default(&mut obj, schema.as_ref());
                    Vec::new()
                }
            };
            results.push((obj, pruned));
        }
    }
    let text = match output {
        DocumentFormat::Json => {
            let objects: Vec<serde_json::Value> = results
                .into_iter()
                .map(|(o, p)| match op {
                    ObjectOp::Prune => json_object([("object", o), ("pruned", p.into())]),
                    ObjectOp::Default => json_object([("object", o)]),
                })
                .collect();
            format!(
                "{}\n",
                serde_json::to_string_pretty(&json_object([("objects", objects.into())]))
                    .unwrap_or_default()
            )
        }
        DocumentFormat::Yaml => {
            let mut s = String::new();
            for (i, (o, _)) in results.iter().enumerate() {
                if i > 0 || results.len() > 1 {
                    s.push_str("---\n");
                }
                s.push_str(&schema_core::model::yaml_writer::to_yaml(o));
            }
            s
        }
    };
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    exit
}

fn cmd_validate(
    args: &SchemaArgs,
    files: &[PathBuf],
    old: Option<&std::path::Path>,
    output: DiagnosticsFormat,
    io: &mut Io<'_>,
) -> i32 {
    if let Some(o) = old
        && o.as_os_str() == "-"
        && files.iter().any(|f| f.as_os_str() == "-")
    {
        let _ = writeln!(
            io.stderr,
            "error: --old and the objects cannot both be read from stdin"
        );
        return EXIT_UNPROCESSABLE;
    }
    let source = match load_schema_source(args, io) {
        Ok(s) => s,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let bare = match &source {
        SchemaSource::Bare { props, .. } => match Admission::for_schema(props) {
            Ok(a) => Some(a),
            Err(e) => {
                let _ = writeln!(io.stderr, "error: {e}");
                return EXIT_UNPROCESSABLE;
            }
        },
        SchemaSource::Crds(_) => None,
    };
    // Admissions of CRD versions, built once each.
    let mut prepared: Vec<(usize, String, Admission)> = Vec::new();
    let mut exit = EXIT_OK;
    let mut json_objects = Vec::new();
    let mut all_loaded = Vec::new();
    for f in files {
        match load(f, io) {
            Ok(l) => all_loaded.push(l),
            Err(msg) => {
                let _ = writeln!(io.stderr, "error: {msg}");
                exit = EXIT_UNPROCESSABLE;
            }
        }
    }
    // Old objects, paired with the objects' documents by position.
    let mut olds = match old {
        None => None,
        Some(o) => {
            if exit != EXIT_OK {
                return exit;
            }
            let loaded = match load(o, io) {
                Ok(l) => l,
                Err(msg) => {
                    let _ = writeln!(io.stderr, "error: {msg}");
                    return EXIT_UNPROCESSABLE;
                }
            };
            let objects: usize = all_loaded.iter().map(|l| l.docs.len()).sum();
            if loaded.docs.len() != objects {
                let _ = writeln!(
                    io.stderr,
                    "error: {} has {} document{} but the objects have {objects}: --old pairs old and new objects by position",
                    loaded.name,
                    loaded.docs.len(),
                    plural(loaded.docs.len())
                );
                return EXIT_UNPROCESSABLE;
            }
            Some(loaded.docs.into_iter().map(|d| d.value))
        }
    };
    for loaded in &mut all_loaded {
        let name = loaded.name.as_str();
        for doc in &mut loaded.docs {
            let old_value = olds.as_mut().and_then(Iterator::next);
            let start = Some((doc.start.line, doc.start.column));
            let admission = match (&bare, &source) {
                (Some(a), _) => a,
                (None, SchemaSource::Crds(crds)) => {
                    let picked = select_crd_version(crds, args.version.as_deref(), &doc.value);
                    let (crd, version) = match picked {
                        Ok(x) => x,
                        Err(msg) => {
                            let _ = writeln!(
                                io.stderr,
                                "{}: error: {msg}",
                                location_prefix(name, start)
                            );
                            exit = EXIT_UNPROCESSABLE;
                            continue;
                        }
                    };
                    let idx = crds.iter().position(|c| std::ptr::eq(c, crd)).unwrap_or(0);
                    let found = prepared
                        .iter()
                        .position(|(i, v, _)| *i == idx && *v == version);
                    let at = match found {
                        Some(at) => at,
                        None => match Admission::for_crd(crd, &version) {
                            Ok(a) => {
                                prepared.push((idx, version, a));
                                prepared.len() - 1
                            }
                            Err(e) => {
                                let _ = writeln!(io.stderr, "error: {e}");
                                exit = EXIT_UNPROCESSABLE;
                                continue;
                            }
                        },
                    };
                    match prepared.get(at) {
                        Some((_, _, a)) => a,
                        None => continue,
                    }
                }
                (None, SchemaSource::Bare { .. }) => continue,
            };
            // The object is moved into admission: errors are located
            // with the document's source map alone.
            let describe = object_label(&doc.value);
            let value = std::mem::take(&mut doc.value);
            let admitted: Admitted = match old_value {
                Some(o) => admission.update(value, o),
                None => admission.create(value),
            };
            for p in &admitted.pruned {
                if output == DiagnosticsFormat::Text {
                    let loc = locate(doc, &[], &Path::parse(p)).or(start);
                    let _ = writeln!(
                        io.stderr,
                        "{}: warning: unknown field \"{p}\"",
                        location_prefix(name, loc)
                    );
                }
            }
            for w in &admitted.warnings {
                if output == DiagnosticsFormat::Text {
                    let _ = writeln!(io.stderr, "{}: warning: {w}", location_prefix(name, start));
                }
            }
            let mut errors = Vec::new();
            for e in &admitted.errors {
                let loc = locate(doc, &[], &e.field).or(start);
                let j = report_error(e, name, loc, output, io);
                errors.push(j);
            }
            if output == DiagnosticsFormat::Text {
                let verdict = if admitted.errors.is_empty() {
                    "valid".to_string()
                } else {
                    let n = admitted.errors.len();
                    format!("invalid ({n} error{})", plural(n))
                };
                let _ = writeln!(
                    io.stderr,
                    "{}: {describe}: {verdict}",
                    location_prefix(name, start)
                );
            }
            if !admitted.errors.is_empty() && exit == EXIT_OK {
                exit = EXIT_ERRORS;
            }
            if output == DiagnosticsFormat::Json {
                json_objects.push(json_object([
                    ("file", name.into()),
                    ("line", doc.start.line.into()),
                    ("object", admitted.object),
                    ("pruned", admitted.pruned.into()),
                    ("errors", errors.into()),
                    ("warnings", admitted.warnings.into()),
                ]));
            }
        }
    }
    if output == DiagnosticsFormat::Json {
        let doc = json_object([("objects", json_objects.into())]);
        let _ = writeln!(
            io.stdout,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        );
    }
    exit
}

/// A JSON object of `entries`, in their order, with the values moved in
/// (`json!` copies a value it is given, through serialization).
fn json_object<const N: usize>(entries: [(&str, serde_json::Value); N]) -> serde_json::Value {
    serde_json::Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// `Kind "name"` of an object, as the API server names it in messages.
fn object_label(obj: &serde_json::Value) -> String {
    let kind = obj
        .get("kind")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("object");
    match obj
        .pointer("/metadata/name")
        .and_then(serde_json::Value::as_str)
    {
        Some(name) => format!("{kind} {name:?}"),
        None => kind.to_string(),
    }
}

/// Merges `src`'s definitions (v2 `definitions`, v3 `components.schemas`)
/// into `dst`.
fn merge_definitions(dst: &mut serde_json::Value, src: serde_json::Value, v2: bool) {
    let pointer = if v2 {
        "/definitions"
    } else {
        "/components/schemas"
    };
    let incoming = src
        .pointer(pointer)
        .and_then(serde_json::Value::as_object)
        .cloned();
    if dst.is_null() {
        *dst = src;
        return;
    }
    if let (Some(incoming), Some(target)) = (
        incoming,
        dst.pointer_mut(pointer)
            .and_then(serde_json::Value::as_object_mut),
    ) {
        for (k, v) in incoming {
            target.entry(k).or_insert(v);
        }
    }
}

fn cmd_openapi(file: &std::path::Path, v2: bool, versions: &[String], io: &mut Io<'_>) -> i32 {
    let loaded = match load(file, io) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut v2_doc = serde_json::Value::Null;
    let mut v3_docs: std::collections::BTreeMap<String, serde_json::Value> = Default::default();
    let mut bare: Option<serde_json::Value> = None;
    for mut doc in loaded.docs {
        let input = match read_input_owned(std::mem::take(&mut doc.value)) {
            Ok((input, _)) => input,
            Err(e) => {
                let _ = writeln!(io.stderr, "{}", read_error_message(&loaded.name, &doc, &e));
                return EXIT_UNPROCESSABLE;
            }
        };
        let result = match &input {
            Input::Schema(s) => {
                let r = if v2 {
                    publish_schema_v2(s)
                } else {
                    publish_schema_v3(s)
                };
                r.map(|v| bare = Some(v))
            }
            other => {
                let Some(crd) = other.crd() else { continue };
                let mut crd = crd.clone();
                if !versions.is_empty() {
                    if let Some(vs) = crd.spec.as_mut().and_then(|s| s.versions.as_mut()) {
                        vs.retain(|v| v.name.as_ref().is_some_and(|n| versions.contains(n)));
                    }
                }
                if v2 {
                    publish_v2(&crd).map(|d| merge_definitions(&mut v2_doc, d, true))
                } else {
                    publish_v3(&crd).map(|docs| {
                        for (k, d) in docs {
                            merge_definitions(v3_docs.entry(k).or_default(), d, false);
                        }
                    })
                }
            }
        };
        if let Err(e) = result {
            let loc = location_prefix(&loaded.name, Some((doc.start.line, doc.start.column)));
            let _ = writeln!(io.stderr, "{loc}: error: {e}");
            return EXIT_ERRORS;
        }
    }
    let out = if let Some(b) = bare {
        b
    } else if v2 {
        v2_doc
    } else if v3_docs.len() == 1 {
        v3_docs.into_values().next().unwrap_or_default()
    } else {
        serde_json::Value::Object(v3_docs.into_iter().collect())
    };
    let text = format!(
        "{}\n",
        serde_json::to_string_pretty(&out).unwrap_or_default()
    );
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    EXIT_OK
}

fn cmd_lint(
    file: &std::path::Path,
    rule_set: RuleSet,
    output: DiagnosticsFormat,
    io: &mut Io<'_>,
) -> i32 {
    let root = display_name(file);
    let max = Limits::default().max_bytes as u64 + 1;
    let stdin = &mut *io.stdin;
    let mut loader = |name: &str| -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        let read = if name == "<stdin>" {
            stdin.take(max).read_to_end(&mut bytes)
        } else {
            std::fs::File::open(name).and_then(|f| f.take(max).read_to_end(&mut bytes))
        };
        read.map(|_| bytes).map_err(|e| e.to_string())
    };
    let findings = match lint::lint_with_rule_set(&root, &mut loader, rule_set) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(io.stderr, "error: {e}");
            if output == DiagnosticsFormat::Json {
                let doc =
                    json!({"file": root, "rule_set": rule_set.name(), "error": e.to_string()});
                let _ = writeln!(
                    io.stdout,
                    "{}",
                    serde_json::to_string_pretty(&doc).unwrap_or_default()
                );
            }
            return EXIT_UNPROCESSABLE;
        }
    };
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let recommendations = findings.len() - errors;
    match output {
        DiagnosticsFormat::Text => {
            let mut text = String::new();
            for f in &findings {
                let location = if f.location.is_empty() {
                    "\"\""
                } else {
                    f.location.as_str()
                };
                text.push_str(&format!(
                    "{} {} {} {}\n",
                    f.rule,
                    f.severity,
                    location,
                    f.message.replace('\n', " ")
                ));
            }
            if io.stdout.write_all(text.as_bytes()).is_err() {
                return EXIT_UNPROCESSABLE;
            }
            let _ = writeln!(
                io.stderr,
                "{root}: {errors} error{}, {recommendations} recommendation{} (rule set {})",
                plural(errors),
                plural(recommendations),
                rule_set.name()
            );
        }
        DiagnosticsFormat::Json => {
            let list: Vec<serde_json::Value> = findings
                .iter()
                .map(|f| {
                    json!({
                        "rule": f.rule.id(),
                        "severity": f.severity.name(),
                        "location": f.location,
                        "message": f.message,
                    })
                })
                .collect();
            let doc = json!({
                "file": root,
                "rule_set": rule_set.name(),
                "errors": errors,
                "recommendations": recommendations,
                "findings": list,
            });
            let _ = writeln!(
                io.stdout,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            );
        }
    }
    if errors > 0 { EXIT_ERRORS } else { EXIT_OK }
}

/// The message when `--to` is missing or unknown (ytt's, for its
/// `--output` flag).
pub const CONVERT_TARGET_REQUIRED: &str = "Data values schema export only supported in OpenAPI v3 format; specify format with --to=openapi-v3 flag (or --to=crd, --to=defaults)";

fn cmd_convert(source: ConvertSource, io: &mut Io<'_>) -> i32 {
    let ConvertSource::Ytt {
        file,
        to,
        group,
        kind,
        crd_version,
        output,
    } = source;
    let target = to.as_deref().unwrap_or("");
    if !matches!(target, "openapi-v3" | "crd" | "defaults") {
        let _ = writeln!(io.stderr, "error: {CONVERT_TARGET_REQUIRED}");
        return EXIT_UNPROCESSABLE;
    }
    let name = display_name(&file);
    let limits = Limits::default();
    let mut bytes = Vec::new();
    let read = if file.as_os_str() == "-" {
        io.stdin
            .take(limits.max_bytes as u64 + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(&file)
            .and_then(|f| f.take(limits.max_bytes as u64 + 1).read_to_end(&mut bytes))
    };
    if let Err(e) = read {
        let _ = writeln!(io.stderr, "error: {name}: cannot read: {e}");
        return EXIT_UNPROCESSABLE;
    }
    let schema = match ytt::parse(&name, &bytes) {
        Ok(s) => s,
        Err(e) => {
            let (f, line) = e.location();
            let at = if line > 0 { format!("{f}:{line}") } else { f };
            return match &e {
                YttError::Schema(se) => {
                    let _ = writeln!(io.stderr, "{at}: error: {}", se.summary);
                    let _ = write!(io.stderr, "{}", se.render());
                    EXIT_ERRORS
                }
                YttError::Annotation { .. } => {
                    let _ = writeln!(io.stderr, "error: {e}");
                    EXIT_ERRORS
                }
                _ => {
                    let _ = writeln!(io.stderr, "error: {e}");
                    EXIT_UNPROCESSABLE
                }
            };
        }
    };
    let json_text = |v: &serde_json::Value| {
        format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
    };
    let text = match (target, output) {
        ("openapi-v3", DocumentFormat::Yaml) => schema.openapi_yaml(),
        ("openapi-v3", DocumentFormat::Json) => json_text(&schema.openapi_document()),
        ("defaults", DocumentFormat::Yaml) => ytt::to_yaml(&schema.default_values()),
        ("defaults", DocumentFormat::Json) => json_text(&schema.default_values()),
        _ => {
            let names = ytt::CrdNames {
                group,
                kind,
                version: crd_version,
            };
            let crd = schema.crd(&names);
            // The CRD must be one the API server accepts.
            if let Ok((input, _)) = read_input_owned(crd.clone()) {
                let report = check(&input);
                if !report.errors.is_empty() {
                    for e in &report.errors {
                        let _ = writeln!(io.stderr, "{name}: error: the CRD is not valid: {e}");
                    }
                    return EXIT_ERRORS;
                }
            }
            match output {
                DocumentFormat::Yaml => schema_core::model::yaml_writer::to_yaml(&crd),
                DocumentFormat::Json => json_text(&crd),
            }
        }
    };
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    EXIT_OK
}
