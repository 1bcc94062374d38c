//! What the command-line tests share: running the real binary with
//! arguments and optional stdin, and reading its output.

#![allow(dead_code, clippy::expect_used, clippy::panic)]

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

/// The output of `command` (no stdin), killed and reported when it is not
/// done within `deadline` (a hang, which would otherwise hold CI until its
/// time-out); or why it cannot be started.
pub fn finish_within(
    command: &mut Command,
    deadline: std::time::Duration,
) -> Result<Output, String> {
    use std::io::Read;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{:?}: cannot run: {e}", command.get_program()))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not finish within {deadline:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    Ok(Output {
        status,
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    })
}
