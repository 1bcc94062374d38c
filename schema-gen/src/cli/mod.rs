//! The `schema-gen` command line: argument parsing, reading inputs, and
//! printing diagnostics. [`run`] is the whole program minus the process
//! boundary, so tests drive it in-process.
//!
//! The command does no Kubernetes work of its own: each subcommand's file
//! reads its inputs (`input`), calls `schema_core` or this crate's
//! generators, and prints what they return, as text (`diagnostics`) or as
//! the JSON reports of `reports`.

mod args;
mod check;
mod colors;
mod convert;
mod crds;
mod diagnostics;
mod diff;
mod docs;
mod explain;
mod fmt;
mod git;
mod input;
mod lint;
mod objects;
mod openapi;
mod reports;
mod rust;
mod sarif;
mod validate;

use std::io::{Read, Write};

use clap::Parser;

pub use args::{
    Cli, Command, ConvertSource, DiagnosticsFormat, DiffFormat, DocsFormat, DocumentFormat,
    ExplainFormat, LintRuleSet, ObjectsArgs, SchemaArgs,
};
pub use convert::CONVERT_TARGET_REQUIRED;

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: the input was processed and has errors.
pub const EXIT_ERRORS: i32 = 1;
/// Exit code: the input could not be processed.
pub const EXIT_UNPROCESSABLE: i32 = 2;

/// The stack of a thread that expands or validates schemas: their
/// recursion is bounded by the decoder's depth limit, and this leaves
/// ample room for it (it is address space, taken as used).
pub const WORKER_STACK_SIZE: usize = 256 * 1024 * 1024;

/// The streams a command reads and writes.
struct Io<'a> {
    stdin: &'a mut dyn Read,
    stdout: &'a mut dyn Write,
    stderr: &'a mut dyn Write,
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
            // `--help` and `--version` are "errors" printed on stdout.
            let rendered = e.render().to_string();
            return if e.use_stderr() {
                let _ = stderr.write_all(rendered.as_bytes());
                EXIT_UNPROCESSABLE
            } else {
                let _ = stdout.write_all(rendered.as_bytes());
                EXIT_OK
            };
        }
    };
    let mut io = Io {
        stdin,
        stdout,
        stderr,
    };
    match cli.command {
        Command::Check {
            files,
            output,
            kube,
        } => check::run(&files, output, &kube.options(), &mut io),
        Command::Fmt { file, output } => fmt::run(&file, output, &mut io),
        Command::Openapi {
            file,
            v2,
            v3: _,
            version,
            kube,
        } => openapi::run(&file, v2, &version, &kube.options(), &mut io),
        Command::Prune { input } => objects::run(&input, objects::Operation::Prune, &mut io),
        Command::Default { input } => objects::run(&input, objects::Operation::Default, &mut io),
        Command::Validate {
            schema,
            objects,
            old,
            skip,
            ignore_missing,
            strict,
            exclude,
            output,
            jobs,
            color,
            kube,
        } => validate::run(
            &schema,
            &kube.options(),
            &objects,
            old.as_deref(),
            validate::Options {
                skip: &skip,
                ignore_missing,
                version: schema.version.as_deref(),
                strict,
                exclude: &exclude,
            },
            validate::Output {
                format: output,
                colors: colors::Colors::for_choice(color),
                jobs: jobs.map_or_else(
                    || std::thread::available_parallelism().map_or(1, usize::from),
                    usize::from,
                ),
            },
            &mut io,
        ),
        Command::Lint {
            file,
            rule_set,
            output,
        } => lint::run(&file, rule_set.rule_set(), output, &mut io),
        Command::Convert { source } => convert::run(source, &mut io),
        Command::Explain {
            args,
            api_version,
            recursive,
            max_depth,
            output,
            kube,
        } => explain::run(
            &explain::Request {
                args: &args,
                api_version: api_version.as_deref(),
                recursive,
                max_depth,
                format: output,
                options: kube.options(),
            },
            &mut io,
        ),
        Command::Diff {
            old,
            new,
            output,
            fail_on,
            stored_versions,
            objects,
        } => diff::run(
            &diff::Request {
                old: &old,
                new: &new,
                format: output,
                fail_on,
                stored_versions,
                objects: &objects,
            },
            &mut io,
        ),
        Command::Docs { files, format, out } => docs::run(&files, format, &out, &mut io),
        Command::Completions { shell } => {
            let mut command = <args::Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "schema-gen", &mut io.stdout);
            EXIT_OK
        }
        Command::Rust {
            file,
            version,
            out,
            derive,
            no_docs,
            no_k8s_openapi,
            short_names,
            kube_version,
        } => {
            let mut config = crate::rustgen::Config::new();
            if let Some(k) = kube_version {
                config.kube_version(k);
            }
            for v in version {
                config.version(v);
            }
            for d in derive {
                config.derive(d);
            }
            config
                .docs(!no_docs)
                .k8s_openapi(!no_k8s_openapi)
                .short_names(short_names);
            rust::run(&config, &file, out.as_deref(), &mut io)
        }
    }
}
