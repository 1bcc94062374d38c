//! What the command-line tests share: running the real binary with
//! arguments and optional stdin, and reading its output.

#![allow(dead_code, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `schema-gen` binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_schema-gen")
}

/// The repository's `examples` folder.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// Runs `schema-gen` with `args`, feeding `stdin` (if any) from a thread so
/// large inputs cannot deadlock against the output pipes.
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn schema-gen");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.map(<[u8]>::to_vec);
    let writer = std::thread::spawn(move || {
        if let Some(d) = data {
            let _ = input.write_all(&d);
        }
    });
    let out = child.wait_with_output().expect("wait");
    let _ = writer.join();
    out
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// [`text`] with the wall time of `validate`'s summary line (`(0.01 s)`)
/// written as `(T s)`, the one part of the output that changes between
/// runs.
pub fn untimed(b: &[u8]) -> String {
    let mut out = String::new();
    for line in text(b).split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(l) => (l, "\n"),
            None => (line, ""),
        };
        match body.rsplit_once(" (") {
            Some((head, time))
                if time.ends_with(" s)")
                    && time
                        .trim_end_matches(" s)")
                        .chars()
                        .all(|c| c.is_ascii_digit() || c == '.') =>
            {
                out.push_str(head);
                out.push_str(" (T s)");
            }
            _ => out.push_str(body),
        }
        out.push_str(nl);
    }
    out
}
