//! The `schema-gen` command line: argument parsing, reading inputs, and
//! printing diagnostics. [`run`] is the whole program minus the process
//! boundary, so tests drive it in-process.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use schema_core::check::{CheckReport, Input, ReadError, Warning, check, read_input_owned};
use schema_core::field::{Path, PathElement};
use schema_core::source::{self, Document, Limits, PathSegment};
use schema_core::validation::crd::submitted_location;

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
            PathElement::Child(name) => {
                out.extend(name.split('.').map(|s| PathSegment::Key(s.to_string())));
            }
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
                if output == DiagnosticsFormat::Text {
                    let _ = writeln!(
                        io.stdout,
                        "{}: error: {e}",
                        location_prefix(&loaded.name, loc)
                    );
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
                s.push_str(&schema_core::yaml_out::to_yaml(v));
            }
            s
        }
    };
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    EXIT_OK
}
