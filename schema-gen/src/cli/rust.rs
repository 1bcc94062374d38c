//! `schema-gen rust`: Rust types generated from CRDs or a bare schema,
//! written to stdout or to a file.

use std::path::Path;

use crate::rustgen::{Config, InputFile, write_if_changed};

use super::input::read_named;
use super::{EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// Runs `rust` on `file` with `config`, writing to `out` if given.
pub(super) fn run(config: &Config, file: &Path, out: Option<&Path>, io: &mut Io<'_>) -> i32 {
    let (name, bytes) = match read_named(file, io) {
        Ok(read) => read,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let generated = InputFile::parse(&name, &bytes)
        .and_then(|input| config.generate(std::slice::from_ref(&input)));
    let source = match generated {
        Ok(g) => {
            for w in &g.warnings {
                let _ = writeln!(io.stderr, "warning: {w}");
            }
            g.files.into_values().next().unwrap_or_default()
        }
        Err(e) => {
            let _ = writeln!(io.stderr, "error: {}", e.locate(&bytes));
            return EXIT_UNPROCESSABLE;
        }
    };
    match out {
        Some(p) => match write_if_changed(p, &source) {
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
