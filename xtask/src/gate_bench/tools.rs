//! Running the two tools over the repository: one `schema-gen validate` per
//! CRD file (a few processes at a time) and one kubeconform over all
//! objects, timed by wall clock and by the CPU time of the child processes.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use super::repo::CrdFile;
use crate::bench_repo::kubeconform;
use crate::measure;

/// `kubeconform -schema-location T -strict -summary -output json [-verbose]
/// repo/objects` in the bench directory; its standard output. Exit status 1
/// (invalid objects) is expected.
pub(super) fn run_kubeconform(kubeconform: &Path, bench: &Path, verbose: bool) -> Result<Vec<u8>> {
    let mut cmd = kubeconform::command(kubeconform, bench);
    cmd.args(["-output", "json"]);
    if verbose {
        cmd.arg("-verbose");
    }
    cmd.arg("repo/objects");
    let out = cmd
        .stderr(Stdio::piped())
        .stdout(if verbose {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .output()
        .context("running kubeconform")?;
    measure::expect_validated("kubeconform", out.status, &out.stderr)?;
    Ok(out.stdout)
}

/// `schema-gen validate --crd CRD OBJ...` for one CRD file, in the bench
/// directory, with `extra` arguments; its standard output (or nothing).
pub(super) fn validate_command(
    schema_gen: &Path,
    file: &CrdFile,
    bench: &Path,
    extra: &[&str],
) -> Command {
    let mut cmd = Command::new(schema_gen);
    cmd.current_dir(bench)
        .arg("validate")
        .arg("--crd")
        .arg(&file.path)
        .args(&file.objects)
        .args(extra);
    cmd
}

/// Runs `cmd`, expecting exit status 0 or 1; its standard output when
/// `capture`.
pub(super) fn run_checked(mut cmd: Command, capture: bool) -> Result<Vec<u8>> {
    let out = cmd
        .stdout(if capture {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("running {}", cmd.get_program().to_string_lossy()))?;
    let what = format!(
        "{} {}",
        cmd.get_program().to_string_lossy(),
        cmd.get_args()
            .take(4)
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    measure::expect_validated(&what, out.status, &out.stderr)?;
    Ok(out.stdout)
}

/// The timed side of schema-gen: every CRD file's invocation, `jobs` at a
/// time.
pub(super) fn run_ours(
    schema_gen: &Path,
    files: &[CrdFile],
    bench: &Path,
    jobs: usize,
) -> Result<()> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs.min(files.len()).max(1))
            .map(|_| {
                s.spawn(|| -> Result<()> {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(file) = files.get(i) else {
                            return Ok(());
                        };
                        run_checked(validate_command(schema_gen, file, bench, &[]), false)?;
                    }
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| match w.join() {
            Ok(r) => r,
            Err(_) => bail!("a schema-gen worker thread panicked"),
        })
    })
}

/// One timed run: wall time and the CPU time of the child processes.
pub(super) struct Timing {
    pub(super) secs: f64,
    pub(super) cpu: Option<f64>,
}

/// User and system time of this process's waited-for children, in ticks
/// (`cutime` and `cstime` of `/proc/self/stat`).
fn children_ticks() -> Option<u64> {
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Field 16 (cutime) and 17 (cstime); `rest` starts at field 3.
    let cutime: u64 = fields.get(13)?.parse().ok()?;
    let cstime: u64 = fields.get(14)?.parse().ok()?;
    Some(cutime + cstime)
}

/// Runs `f`: its wall time and the CPU time of the processes it waited for.
pub(super) fn timed(ticks: f64, f: impl FnOnce() -> Result<()>) -> Result<Timing> {
    let before = children_ticks();
    let start = Instant::now();
    f()?;
    let secs = start.elapsed().as_secs_f64();
    let cpu = before
        .zip(children_ticks())
        .map(|(a, b)| b.saturating_sub(a) as f64 / ticks);
    Ok(Timing { secs, cpu })
}
