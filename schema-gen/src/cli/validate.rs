//! `schema-gen validate`: objects admitted as the API server admits a
//! create (or, with `--old`, an update), every error located in its file.

use std::path::{Path, PathBuf};

use serde_json::Value;

use schema_core::KubeVersion;
use schema_core::crd::catalog::CrdCatalog;
use schema_core::model::field::Path as FieldPath;
use schema_core::model::locate::locate_field;
use schema_core::model::source::Document;
use schema_core::object::admission::{Admission, Admitted};

use super::args::{DiagnosticsFormat, SchemaArgs};
use super::diagnostics::{at, plural};
use super::input::{Loaded, is_stdin, load};
use super::objects::{SchemaSource, load_schema_source};
use super::reports::{FieldErrorReport, ValidateReport, ValidatedObject, json_text};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// Runs `validate` on the objects of `files`, as updates of the objects of
/// `old` when given.
pub(super) fn run(
    args: &SchemaArgs,
    kube: KubeVersion,
    files: &[PathBuf],
    old: Option<&Path>,
    output: DiagnosticsFormat,
    io: &mut Io<'_>,
) -> i32 {
    if old.is_some_and(is_stdin) && files.iter().any(|f| is_stdin(f)) {
        let _ = writeln!(
            io.stderr,
            "error: --old and the objects cannot both be read from stdin"
        );
        return EXIT_UNPROCESSABLE;
    }
    let source = match load_schema_source(args, kube, io) {
        Ok(s) => s,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let admissions = match &source {
        SchemaSource::Bare { props, .. } => match Admission::for_schema_at(props, kube) {
            Ok(a) => Admissions::Bare(Box::new(a)),
            Err(e) => {
                let _ = writeln!(io.stderr, "error: {e}");
                return EXIT_UNPROCESSABLE;
            }
        },
        SchemaSource::Crds(catalog) => Admissions::Crds(catalog),
    };
    let mut exit = EXIT_OK;
    let mut all_loaded = Vec::new();
    for file in files {
        match load(file, io) {
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
        Some(_) if exit != EXIT_OK => return exit,
        Some(old) => match load_old(old, &all_loaded, io) {
            Ok(olds) => Some(olds.into_iter()),
            Err(code) => return code,
        },
    };
    let mut report = ValidateReport {
        objects: Vec::new(),
    };
    for loaded in &mut all_loaded {
        let name = loaded.name.as_str();
        for doc in &mut loaded.docs {
            let old_value = olds.as_mut().and_then(Iterator::next);
            let admission = match &admissions {
                Admissions::Bare(a) => a,
                Admissions::Crds(catalog) => {
                    match crd_admission(catalog, args.version.as_deref(), name, doc, io) {
                        Some(a) => a,
                        None => {
                            exit = EXIT_UNPROCESSABLE;
                            continue;
                        }
                    }
                }
            };
            // The object is moved into admission: errors are located
            // with the document's source map alone.
            let label = object_label(&doc.value);
            let value = std::mem::take(&mut doc.value);
            let admitted = match old_value {
                Some(o) => update_as_applied(admission, value, o),
                None => admission.create(value),
            };
            if (!admitted.errors.is_empty() || admitted.rejected.is_some()) && exit == EXIT_OK {
                exit = EXIT_ERRORS;
            }
            let validated = print_admitted(name, doc, &label, admitted, output, io);
            if output == DiagnosticsFormat::Json {
                report.objects.push(validated);
            }
        }
    }
    if output == DiagnosticsFormat::Json {
        let _ = io.stdout.write_all(json_text(&report).as_bytes());
    }
    exit
}

/// Where objects get their admission.
enum Admissions<'s> {
    /// One for every object, against a bare schema.
    Bare(Box<Admission>),
    /// That of the CRD version each object belongs to.
    Crds(&'s CrdCatalog),
}

/// The admission of the CRD version the object of `doc` belongs to, or
/// `None` after saying why there is none.
fn crd_admission<'c>(
    catalog: &'c CrdCatalog,
    version: Option<&str>,
    name: &str,
    doc: &Document,
    io: &mut Io<'_>,
) -> Option<&'c Admission> {
    let selection = match catalog.select(&doc.value, version) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(io.stderr, "{}: error: {e}", at(name, doc.start));
            return None;
        }
    };
    match selection.admission() {
        Ok(a) => Some(a),
        Err(e) => {
            let _ = writeln!(io.stderr, "error: {e}");
            None
        }
    }
}

/// Prints what admission did to the object of document `doc` of the file
/// `name` (text output: warnings and a verdict on stderr, errors on
/// stdout), and returns it as reported in JSON.
fn print_admitted(
    name: &str,
    doc: &Document,
    label: &str,
    admitted: Admitted,
    output: DiagnosticsFormat,
    io: &mut Io<'_>,
) -> ValidatedObject {
    let text = output == DiagnosticsFormat::Text;
    if text {
        for p in &admitted.pruned {
            let location = locate_field(doc, &[], &FieldPath::parse(p));
            let _ = writeln!(
                io.stderr,
                "{}: warning: unknown field \"{p}\"",
                at(name, location)
            );
        }
        for w in &admitted.warnings {
            let _ = writeln!(io.stderr, "{}: warning: {w}", at(name, doc.start));
        }
    }
    let mut ratcheted = Vec::new();
    for e in &admitted.ratcheted {
        let location = locate_field(doc, &[], &e.field);
        if text {
            let _ = writeln!(
                io.stderr,
                "{}: warning: {e} (unchanged by the update: ratcheted)",
                at(name, location)
            );
        }
        ratcheted.push(FieldErrorReport::new(e, location, None));
    }
    let mut errors = Vec::new();
    for e in &admitted.errors {
        let location = locate_field(doc, &[], &e.field);
        if text {
            let _ = writeln!(io.stdout, "{}: error: {e}", at(name, location));
        }
        errors.push(FieldErrorReport::new(e, location, None));
    }
    if text {
        if let Some(r) = &admitted.rejected {
            let _ = writeln!(io.stdout, "{}: error: {r}", at(name, doc.start));
        }
        let verdict = match (admitted.errors.len(), &admitted.rejected) {
            (_, Some(_)) => "rejected".to_string(),
            (0, None) => "valid".to_string(),
            (n, None) => format!("invalid ({n} error{})", plural(n)),
        };
        let _ = writeln!(io.stderr, "{}: {label}: {verdict}", at(name, doc.start));
    }
    ValidatedObject {
        file: name.to_string(),
        line: doc.start.line,
        object: admitted.object,
        pruned: admitted.pruned,
        errors,
        ratcheted,
        warnings: admitted.warnings,
        rejected: admitted.rejected,
    }
}

/// The old objects of `old`, one for each document of `objects`, or the
/// exit code after saying why there are not.
fn load_old(old: &Path, objects: &[Loaded], io: &mut Io<'_>) -> Result<Vec<Value>, i32> {
    let loaded = match load(old, io) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return Err(EXIT_UNPROCESSABLE);
        }
    };
    let wanted: usize = objects.iter().map(|l| l.docs.len()).sum();
    let found = loaded.docs.len();
    if found != wanted {
        let _ = writeln!(
            io.stderr,
            "error: {} has {found} document{} but the objects have {wanted}: --old pairs old and new objects by position",
            loaded.name,
            plural(found)
        );
        return Err(EXIT_UNPROCESSABLE);
    }
    Ok(loaded.docs.into_iter().map(|d| d.value).collect())
}

/// `Kind "name"` of an object, as the API server names it in messages.
fn object_label(obj: &Value) -> String {
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("object");
    match obj.pointer("/metadata/name").and_then(Value::as_str) {
        Some(name) => format!("{kind} {name:?}"),
        None => kind.to_string(),
    }
}

/// An update as `kubectl apply` makes it reach the server: the manifest
/// is patched onto the stored object, so when it names no
/// `metadata.resourceVersion` it carries the stored one (the server rejects
/// a custom resource update without one). A stored object always has a
/// resource version; when the old manifest names none, both get the same
/// stand-in, which is left out of the printed object.
fn update_as_applied(admission: &Admission, mut new: Value, mut old: Value) -> Admitted {
    const STAND_IN: &str = "1";
    let rv = |v: &Value| {
        v.pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    if rv(&new).is_some() {
        return admission.update(new, old);
    }
    let (stored, stand_in) = match rv(&old) {
        Some(r) => (r, false),
        None => (STAND_IN.to_string(), true),
    };
    let set = |v: &mut Value, r: &str| {
        if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.insert("resourceVersion".to_string(), Value::from(r));
        }
    };
    set(&mut new, &stored);
    if stand_in {
        set(&mut old, &stored);
    }
    let mut admitted = admission.update(new, old);
    if stand_in
        && let Some(meta) = admitted
            .object
            .get_mut("metadata")
            .and_then(Value::as_object_mut)
    {
        meta.shift_remove("resourceVersion");
    }
    admitted
}
