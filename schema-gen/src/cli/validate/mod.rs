//! `schema-gen validate`: objects admitted as the API server admits a
//! create (or, with `--old`, an update), every finding located in its
//! file. Files are validated on several threads; what they hold is printed
//! in the order given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use serde_json::Value;

use schema_core::crd::catalog::{Catalog, Wait};
use schema_core::object::admission::Admission;

use super::args::{SchemaArgs, ValidateFormat};
use super::crds::{SchemaSource, load_schema_source};
use super::diagnostics::{at, plural};
use super::input::{
    InputPath, Loaded, display_name, exclusions, expand_inputs_excluding, is_stdin, read_bytes,
    read_limited,
};
use super::reports::{ValidateReport, json_text};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io, WORKER_STACK_SIZE};

mod admit;
mod junit;
mod record;
mod sarif;
mod text;

use super::colors::Colors;
use admit::{Admitter, WHOLE_FILE, count_objects, unreadable, values_of};
use record::{FileRecord, Finding, ObjectJson, Severity, Tally};

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

/// How the run reports.
#[derive(Clone, Copy)]
pub(super) struct Output {
    /// The format.
    pub(super) format: ValidateFormat,
    /// The styling of text output.
    pub(super) colors: Colors,
    /// Files validated at once (at least 1).
    pub(super) jobs: usize,
}

/// Where objects get their admission.
pub(super) enum Admissions {
    /// One for every object, against a bare schema.
    Bare(Box<Admission>),
    /// That of the built-in kind or CRD version each object belongs to.
    Catalog(Box<Catalog>),
}

/// Runs `validate` on the objects of `files` (files, directories, `-`), as
/// updates of the objects of `old` when given. Exit 1 when an object is
/// invalid, a document cannot be validated or a file cannot be read; 2
/// when the schemas cannot be read or no object could be.
pub(super) fn run(
    args: &SchemaArgs,
    core_options: &schema_core::Options,
    files: &[PathBuf],
    old: Option<&Path>,
    options: Options<'_>,
    output: Output,
    io: &mut Io<'_>,
) -> i32 {
    if old.is_some_and(is_stdin) && files.iter().any(|f| is_stdin(f)) {
        let _ = writeln!(
            io.stderr,
            "error: --old and the objects cannot both be read from stdin"
        );
        return EXIT_UNPROCESSABLE;
    }
    let admissions = match load_schema_source(args, core_options, true, io) {
        Ok(SchemaSource::Bare { props, .. }) => match Admission::for_schema(&props, core_options) {
            Ok(a) => Admissions::Bare(Box::new(a)),
            Err(e) => {
                let _ = writeln!(io.stderr, "error: {e}");
                return EXIT_UNPROCESSABLE;
            }
        },
        Ok(SchemaSource::Crds(crds)) => Admissions::Catalog(Box::new(with_builtin_kinds(crds))),
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
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
    let inputs = match exclusions(options.exclude).and_then(|x| expand_inputs_excluding(files, &x))
    {
        Ok(i) => i,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let admitter = Admitter {
        admissions: &admissions,
        options,
        keep_json: output.format == ValidateFormat::Json,
    };
    // Text is printed file by file as the files are done; the other
    // formats need every record.
    let mut records = Vec::new();
    let mut sink = |record: FileRecord| {
        if output.format == ValidateFormat::Text {
            text::print_file(&record, output.colors, io.stdout, io.stderr);
        }
        records.push(record);
    };
    let code = match old {
        Some(old) => match updates(&admitter, &inputs, old, io.stdin) {
            Ok(files) => {
                files.into_iter().for_each(&mut sink);
                None
            }
            Err(msg) => Some(msg),
        },
        None => {
            let stdin = if inputs.iter().any(|i| is_stdin(&i.path)) {
                Some(read_limited(&mut *io.stdin))
            } else {
                None
            };
            let whole_file = |name: String, message: String| {
                unreadable(
                    name,
                    Finding {
                        severity: Severity::Error,
                        rule: "Unreadable",
                        field: None,
                        location: WHOLE_FILE,
                        message,
                    },
                )
            };
            in_order(
                inputs.len(),
                output.jobs,
                &mut sink,
                |i, wait| {
                    let path = &inputs[i].path;
                    let name = display_name(path);
                    let bytes = match (&stdin, is_stdin(path)) {
                        (Some(Ok(bytes)), true) => Ok(bytes.clone()),
                        (Some(Err(e)), true) => Err(e.to_string()),
                        _ => read_bytes(path, &mut std::io::empty()).map_err(|e| e.to_string()),
                    };
                    match bytes {
                        Ok(bytes) => admitter.file(name, &bytes, wait),
                        Err(e) => Some(whole_file(name, format!("cannot read: {e}"))),
                    }
                },
                |i| {
                    whole_file(
                        display_name(&inputs[i].path),
                        "internal error: the file was not validated".to_string(),
                    )
                },
            );
            None
        }
    };
    if let Some(msg) = code {
        let _ = writeln!(io.stderr, "error: {msg}");
        return EXIT_UNPROCESSABLE;
    }
    let tally = Tally::of(&records);
    let summary = tally.summary(started.elapsed().as_secs_f64());
    match output.format {
        ValidateFormat::Text => {
            let _ = writeln!(io.stderr, "{}", summary.line());
        }
        ValidateFormat::Json => {
            let mut report = ValidateReport {
                objects: Vec::new(),
                unprocessed: Vec::new(),
                summary: Some(summary),
            };
            for file in records {
                if let Some(f) = file.unreadable {
                    report.unprocessed.push(super::reports::Unprocessed {
                        file: file.name.clone(),
                        line: f.location.line,
                        column: f.location.column,
                        message: f.message,
                        skipped: false,
                    });
                }
                for o in file.objects {
                    match o.json {
                        Some(ObjectJson::Validated(v)) => report.objects.push(*v),
                        Some(ObjectJson::Unprocessed(u)) => report.unprocessed.push(u),
                        None => {}
                    }
                }
            }
            let _ = io.stdout.write_all(json_text(&report).as_bytes());
        }
        ValidateFormat::Junit => {
            let _ = io
                .stdout
                .write_all(junit::render(&records, &summary).as_bytes());
        }
        ValidateFormat::Sarif => {
            let _ = io.stdout.write_all(sarif::render(&records).as_bytes());
        }
    }
    exit_code(&tally)
}

/// 0 when every object is valid or skipped; 2 when nothing could be read
/// (no object, and a file that cannot be); else 1 when anything is
/// invalid or failed.
fn exit_code(tally: &Tally) -> i32 {
    if tally.unreadable > 0 && tally.objects() == 0 {
        EXIT_UNPROCESSABLE
    } else if tally.errors + tally.invalid + tally.unreadable > 0 {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

/// Calls `work` for each of `0..count` on `jobs` threads, and `sink` with
/// the results in index order as they become available. A thread first
/// asks `work` not to wait for an admission another thread is preparing
/// ([`Wait::No`]); what it put off that way it does last, waiting.
/// Waiting, `work` always answers; should it not, `unanswered` stands in.
fn in_order<W, U>(
    count: usize,
    jobs: usize,
    sink: &mut dyn FnMut(FileRecord),
    work: W,
    unanswered: U,
) where
    W: Fn(usize, Wait) -> Option<FileRecord> + Sync,
    U: Fn(usize) -> FileRecord + Sync,
{
    let done = |i: usize| work(i, Wait::Yes).unwrap_or_else(|| unanswered(i));
    let jobs = jobs.clamp(1, count.max(1));
    if jobs == 1 {
        (0..count).for_each(|i| sink(done(i)));
        return;
    }
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let send = send.clone();
            let (next, work, done) = (&next, &work, &done);
            let spawned = std::thread::Builder::new()
                .stack_size(WORKER_STACK_SIZE)
                .spawn_scoped(scope, move || {
                    let mut put_off = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count {
                            break;
                        }
                        match work(i, Wait::No) {
                            Some(record) => {
                                if send.send((i, record)).is_err() {
                                    return;
                                }
                            }
                            None => put_off.push(i),
                        }
                    }
                    for i in put_off {
                        if send.send((i, done(i))).is_err() {
                            return;
                        }
                    }
                });
            if spawned.is_err() {
                // No thread: the others (or this one, below) do the work.
                break;
            }
        }
        drop(send);
        let mut pending = BTreeMap::new();
        let mut due = 0;
        for (i, record) in receive.iter() {
            pending.insert(i, record);
            while let Some(record) = pending.remove(&due) {
                sink(record);
                due += 1;
            }
        }
        // Whatever no thread took (none could be spawned).
        while due < count {
            match pending.remove(&due) {
                Some(record) => sink(record),
                None => sink(done(due)),
            }
            due += 1;
        }
    });
}

/// The records of `inputs` validated as updates of the objects of `old`,
/// paired by position across the files; or why they cannot be.
fn updates(
    admitter: &Admitter<'_>,
    inputs: &[InputPath],
    old: &Path,
    stdin: &mut dyn std::io::Read,
) -> Result<Vec<FileRecord>, String> {
    let mut io_stdin = stdin;
    let mut loaded: Vec<Result<Loaded, FileRecord>> = Vec::new();
    for input in inputs {
        let name = display_name(&input.path);
        let bytes = read_bytes(&input.path, &mut io_stdin)
            .map_err(|e| format!("{name}: cannot read: {e}"))?;
        loaded.push(match admit::parse(&name, &bytes) {
            Ok(docs) => Ok(Loaded { name, docs }),
            Err(f) => Err(unreadable(name, f)),
        });
    }
    let old_bytes = read_bytes(old, &mut io_stdin)
        .map_err(|e| format!("{}: cannot read: {e}", display_name(old)))?;
    let old_name = display_name(old);
    let mut old_docs = admit::parse(&old_name, &old_bytes)
        .map_err(|f| format!("{}: {}", at(&old_name, f.location), f.message))?;
    let wanted: usize = loaded
        .iter()
        .filter_map(|l| l.as_ref().ok())
        .map(|l| count_objects(&l.docs))
        .sum();
    let found = count_objects(&old_docs);
    if found != wanted {
        return Err(format!(
            "{old_name} has {found} object{} but the objects have {wanted}: --old pairs old and \
             new objects by position",
            plural(found)
        ));
    }
    let mut olds = values_of(&mut old_docs).into_iter();
    Ok(loaded
        .into_iter()
        .map(|l| match l {
            Ok(mut l) => {
                // Waiting, the admitter always answers.
                let objects = admitter
                    .documents(&l.name, &mut l.docs, Some(&mut olds), Wait::Yes)
                    .unwrap_or_default();
                FileRecord {
                    name: l.name,
                    unreadable: None,
                    objects,
                }
            }
            Err(record) => record,
        })
        .collect())
}

/// `crds` with the built-in kinds this build knows (none without the
/// `builtin-kinds` feature).
fn with_builtin_kinds(crds: Catalog) -> Catalog {
    #[cfg(feature = "builtin-kinds")]
    let crds = crds.with_builtin_kinds(schema_core::rust::k8s::builtin_kind_schemas());
    crds
}
