//! `schema-gen validate`: objects admitted as the API server admits a
//! create (or, with `--old`, an update), every error located in its file.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

use schema_core::KubeVersion;
use schema_core::model::field::Path as FieldPath;
use schema_core::model::locate::locate_field;
use schema_core::model::source::{Document, Location, PathSegment};
use schema_core::object::admission::{Admission, Admitted};

use super::args::{DiagnosticsFormat, SchemaArgs};
use super::catalog::{Catalog, RouteError};
use super::diagnostics::{at, plural};
use super::input::{Loaded, exclusions, expand_inputs_excluding, is_stdin, load};
use super::objects::{SchemaSource, load_schema_source};
use super::reports::{
    FieldErrorReport, Summary, Unprocessed, ValidateReport, ValidatedObject, json_text,
};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// Runs `validate` on the objects of `files` (files, directories, `-`), as
/// updates of the objects of `old` when given.
pub(super) fn run(
    args: &SchemaArgs,
    kube: KubeVersion,
    files: &[PathBuf],
    old: Option<&Path>,
    options: Options<'_>,
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
    let source = match load_schema_source(args, kube, true, io) {
        Ok(s) => s,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let admissions = match source {
        SchemaSource::Bare { props, .. } => match Admission::for_schema_at(&props, kube) {
            Ok(a) => Admissions::Bare(Box::new(a)),
            Err(e) => {
                let _ = writeln!(io.stderr, "error: {e}");
                return EXIT_UNPROCESSABLE;
            }
        },
        SchemaSource::Crds(crds) => Admissions::Catalog(Box::new(Catalog::new(crds, kube))),
    };
    if let Admissions::Catalog(catalog) = &admissions {
        for (crd, group_kind) in catalog.shadowed() {
            let _ = writeln!(
                io.stderr,
                "warning: the CustomResourceDefinition {crd:?} defines {group_kind}, a built-in \
                 kind: its objects are validated as the built-in kind, which the API server \
                 serves instead"
            );
        }
    }
    let started = Instant::now();
    let mut exit = EXIT_OK;
    let mut tally = Tally::default();
    let inputs = match exclusions(options.exclude).and_then(|x| expand_inputs_excluding(files, &x))
    {
        Ok(i) => i,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut all_loaded = Vec::new();
    for input in &inputs {
        match load(&input.path, io) {
            Ok(l) => all_loaded.push(l),
            Err(msg) => {
                let _ = writeln!(io.stderr, "error: {msg}");
                tally.errors += 1;
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
        unprocessed: Vec::new(),
        summary: None,
    };
    for loaded in &mut all_loaded {
        let name = loaded.name.as_str();
        for doc in &mut loaded.docs {
            for unit in objects_of(doc) {
                let old_value = olds.as_mut().and_then(Iterator::next);
                let outcome =
                    validate_one(&admissions, options, name, doc, unit, old_value, output, io);
                match outcome {
                    Outcome::Validated(validated) => {
                        let invalid = !validated.errors.is_empty() || validated.rejected.is_some();
                        if invalid {
                            tally.invalid += 1;
                            if exit == EXIT_OK {
                                exit = EXIT_ERRORS;
                            }
                        } else {
                            tally.valid += 1;
                        }
                        if output == DiagnosticsFormat::Json {
                            report.objects.push(*validated);
                        }
                    }
                    Outcome::Skipped(u) => {
                        tally.skipped += 1;
                        report.unprocessed.push(u);
                    }
                    Outcome::Unprocessable(u) => {
                        tally.errors += 1;
                        exit = EXIT_UNPROCESSABLE;
                        report.unprocessed.push(u);
                    }
                }
            }
        }
    }
    let summary = tally.summary(started.elapsed().as_secs_f64());
    match output {
        DiagnosticsFormat::Json => {
            report.summary = Some(summary);
            let _ = io.stdout.write_all(json_text(&report).as_bytes());
        }
        DiagnosticsFormat::Text => {
            let _ = writeln!(io.stderr, "{}", summary.line());
        }
    }
    exit
}

/// What became of one object.
enum Outcome {
    /// Admitted, valid or not.
    Validated(Box<ValidatedObject>),
    /// Left out: `--skip`, or no CRD with `--ignore-missing`.
    Skipped(Unprocessed),
    /// Not validated: it has no CRD version, or that version's admission
    /// cannot be prepared.
    Unprocessable(Unprocessed),
}

/// How objects are validated, and which are left out.
#[derive(Clone, Copy)]
pub(super) struct Options<'a> {
    /// `--skip`: kinds (`Deployment`) or `apiVersion/kind`s
    /// (`apps/v1/Deployment`).
    pub(super) skip: &'a [String],
    /// `--ignore-missing`: an object of a kind no CRD defines is skipped.
    pub(super) ignore_missing: bool,
    /// `--version`: the CRD version every object is validated as.
    pub(super) version: Option<&'a str>,
    /// `--strict`: an unknown (pruned) field is an error, as with the API
    /// server's strict field validation (`kubectl --validate=strict`).
    pub(super) strict: bool,
    /// `--exclude`: globs of object files left out of directories.
    pub(super) exclude: &'a [String],
}

impl Options<'_> {
    /// Whether `--skip` names the object.
    fn skips(&self, object: &Value) -> bool {
        let field = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
        let (api_version, kind) = (field("apiVersion"), field("kind"));
        self.skip
            .iter()
            .any(|s| s == kind || *s == format!("{api_version}/{kind}"))
    }
}

/// Validates one object of `doc` (the document itself or an item of a
/// `List`), printing what text output shows.
#[allow(clippy::too_many_arguments)]
fn validate_one(
    admissions: &Admissions,
    options: Options<'_>,
    name: &str,
    doc: &Document,
    unit: ObjectUnit,
    old_value: Option<Value>,
    output: DiagnosticsFormat,
    io: &mut Io<'_>,
) -> Outcome {
    let text = output == DiagnosticsFormat::Text;
    let unprocessed = |message: String, skipped: bool| Unprocessed {
        file: name.to_string(),
        line: unit.start.line,
        column: unit.start.column,
        message,
        skipped,
    };
    let label = object_label(&unit.value);
    if options.skips(&unit.value) {
        if text {
            let _ = writeln!(io.stderr, "{}: {label}: skipped", at(name, unit.start));
        }
        return Outcome::Skipped(unprocessed(format!("{label}: skipped (--skip)"), true));
    }
    let admission = match admissions {
        Admissions::Bare(a) => a.as_ref(),
        Admissions::Catalog(catalog) => match catalog.admission(&unit.value, options.version) {
            Ok(a) => a,
            Err(RouteError::Admission(e)) => {
                let _ = writeln!(io.stderr, "{}: error: {e}", at(name, unit.start));
                return Outcome::Unprocessable(unprocessed(e, false));
            }
            Err(RouteError::Select { message, missing }) => {
                let message = select_message(&unit.value, message);
                let missing = missing && has_type_meta(&unit.value);
                if missing && options.ignore_missing {
                    if text {
                        let _ = writeln!(
                            io.stderr,
                            "{}: {label}: skipped: {message}",
                            at(name, unit.start)
                        );
                    }
                    return Outcome::Skipped(unprocessed(message, true));
                }
                let _ = writeln!(io.stderr, "{}: error: {message}", at(name, unit.start));
                return Outcome::Unprocessable(unprocessed(message, false));
            }
        },
    };
    let admitted = match old_value {
        Some(o) => update_as_applied(admission, unit.value, o),
        None => admission.create(unit.value),
    };
    Outcome::Validated(Box::new(print_admitted(
        name,
        doc,
        &unit.base,
        unit.start,
        &label,
        admitted,
        options.strict,
        output,
        io,
    )))
}

/// Whether the object names its `apiVersion` and `kind`.
fn has_type_meta(object: &Value) -> bool {
    ["apiVersion", "kind"].iter().all(|k| {
        object
            .get(k)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
    })
}

/// Why an object has no CRD version, for a person: a document without
/// `apiVersion` and `kind` is not a Kubernetes object at all.
fn select_message(object: &Value, message: String) -> String {
    if has_type_meta(object) {
        return message;
    }
    let missing: Vec<&str> = ["apiVersion", "kind"]
        .into_iter()
        .filter(|k| {
            object
                .get(*k)
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
        })
        .collect();
    format!(
        "not a Kubernetes object: it has no {}",
        missing.join(" and no ")
    )
}

/// One object of a document: the document itself, or an item of a `List`
/// (`kind: List`, or any `…List` kind with `items`).
struct ObjectUnit {
    /// The object.
    value: Value,
    /// Where it is in the document (empty for the document itself).
    base: Vec<PathSegment>,
    /// Where it starts.
    start: Location,
}

/// The objects of `doc`, its value moved out: a `List`'s items, nothing
/// for an empty document (a stray `---`), else the document.
fn objects_of(doc: &mut Document) -> Vec<ObjectUnit> {
    let value = std::mem::take(&mut doc.value);
    match value {
        Value::Null => Vec::new(),
        Value::Object(mut map) if is_list(&map) => {
            let Some(Value::Array(items)) = map.remove("items") else {
                return Vec::new();
            };
            items
                .into_iter()
                .enumerate()
                .map(|(i, value)| {
                    let base = vec![PathSegment::Key("items".into()), PathSegment::Index(i)];
                    let start = doc.locate(&base).unwrap_or(doc.start);
                    ObjectUnit { value, base, start }
                })
                .collect()
        }
        value => vec![ObjectUnit {
            value,
            base: Vec::new(),
            start: doc.start,
        }],
    }
}

/// Whether an object is a list of objects to validate one by one.
fn is_list(map: &serde_json::Map<String, Value>) -> bool {
    map.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"))
        && matches!(map.get("items"), Some(Value::Array(_)))
}

/// The count of each outcome.
#[derive(Default)]
struct Tally {
    valid: usize,
    invalid: usize,
    skipped: usize,
    errors: usize,
}

impl Tally {
    fn summary(&self, seconds: f64) -> Summary {
        Summary {
            objects: self.valid + self.invalid + self.skipped + self.errors,
            valid: self.valid,
            invalid: self.invalid,
            skipped: self.skipped,
            errors: self.errors,
            seconds,
        }
    }
}

/// Where objects get their admission.
enum Admissions {
    /// One for every object, against a bare schema.
    Bare(Box<Admission>),
    /// That of the built-in kind or CRD version each object belongs to.
    Catalog(Box<Catalog>),
}

/// Prints what admission did to the object of document `doc` of the file
/// `name` (text output: warnings and a verdict on stderr, errors on
/// stdout), and returns it as reported in JSON.
#[allow(clippy::too_many_arguments)]
fn print_admitted(
    name: &str,
    doc: &Document,
    base: &[PathSegment],
    start: Location,
    label: &str,
    admitted: Admitted,
    strict: bool,
    output: DiagnosticsFormat,
    io: &mut Io<'_>,
) -> ValidatedObject {
    let text = output == DiagnosticsFormat::Text;
    let mut errors = Vec::new();
    for p in &admitted.pruned {
        let location = locate_field(doc, base, &FieldPath::parse(p));
        // The server's strict field validation rejects what its default
        // (warn) mode reports and prunes.
        if strict {
            if text {
                let _ = writeln!(
                    io.stdout,
                    "{}: error: unknown field \"{p}\"",
                    at(name, location)
                );
            }
            errors.push(FieldErrorReport::unknown_field(p, location));
        } else if text {
            let _ = writeln!(
                io.stderr,
                "{}: warning: unknown field \"{p}\"",
                at(name, location)
            );
        }
    }
    if text {
        for w in &admitted.warnings {
            let _ = writeln!(io.stderr, "{}: warning: {w}", at(name, start));
        }
    }
    let mut ratcheted = Vec::new();
    for e in &admitted.ratcheted {
        let location = locate_field(doc, base, &e.field);
        if text {
            let _ = writeln!(
                io.stderr,
                "{}: warning: {e} (unchanged by the update: ratcheted)",
                at(name, location)
            );
        }
        ratcheted.push(FieldErrorReport::new(e, location, None));
    }
    for e in &admitted.errors {
        let location = locate_field(doc, base, &e.field);
        if text {
            let _ = writeln!(io.stdout, "{}: error: {e}", at(name, location));
        }
        errors.push(FieldErrorReport::new(e, location, None));
    }
    if text {
        if let Some(r) = &admitted.rejected {
            let _ = writeln!(io.stdout, "{}: error: {r}", at(name, start));
        }
        let verdict = match (errors.len(), &admitted.rejected) {
            (_, Some(_)) => "rejected".to_string(),
            (0, None) => "valid".to_string(),
            (n, None) => format!("invalid ({n} error{})", plural(n)),
        };
        let _ = writeln!(io.stderr, "{}: {label}: {verdict}", at(name, start));
    }
    ValidatedObject {
        file: name.to_string(),
        line: start.line,
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
    let count = |docs: &[Document]| {
        docs.iter()
            .map(|d| match &d.value {
                Value::Null => 0,
                Value::Object(m) if is_list(m) => m["items"].as_array().map_or(0, Vec::len),
                _ => 1,
            })
            .sum::<usize>()
    };
    let wanted: usize = objects.iter().map(|l| count(&l.docs)).sum();
    let found = count(&loaded.docs);
    if found != wanted {
        let _ = writeln!(
            io.stderr,
            "error: {} has {found} object{} but the objects have {wanted}: --old pairs old and new objects by position",
            loaded.name,
            plural(found)
        );
        return Err(EXIT_UNPROCESSABLE);
    }
    let mut docs = loaded.docs;
    Ok(docs
        .iter_mut()
        .flat_map(objects_of)
        .map(|u| u.value)
        .collect())
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
