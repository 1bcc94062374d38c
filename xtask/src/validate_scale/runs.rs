//! The timed runs of `bench-validate-scale`: the command lines of both
//! tools, each run under GNU time, and tried again when other processes
//! competed for the cores.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result};

use crate::bench_repo::kubeconform;
use crate::measure::{self, Measured};

/// The thread counts measured.
pub(super) const JOBS: [usize; 2] = [1, 2];

/// `schema-gen validate --crd crds --jobs J DIR` in the bench directory.
pub(super) fn ours_command(schema_gen: &Path, bench: &Path, dir: &str, jobs: usize) -> Command {
    let mut cmd = Command::new(schema_gen);
    cmd.current_dir(bench)
        .args(["validate", "--crd", "crds", "--jobs"])
        .arg(jobs.to_string())
        .arg(dir);
    cmd
}

/// `kubeconform -schema-location T -strict -summary -n J [-output json
/// -verbose] repo` in the bench directory.
pub(super) fn kubeconform_command(
    kubeconform: &Path,
    bench: &Path,
    jobs: usize,
    verbose: bool,
) -> Command {
    let mut cmd = kubeconform::command(kubeconform, bench);
    cmd.arg("-n").arg(jobs.to_string());
    if verbose {
        cmd.args(["-output", "json", "-verbose"]);
    }
    cmd.arg("repo");
    cmd
}

/// One timed run.
pub(super) struct Run {
    pub(super) m: Measured,
    /// The CPU time the rest of the machine used meanwhile (the busy time
    /// of `/proc/stat` less the command's own): what competed with it.
    pub(super) others: Option<f64>,
}

/// Runs `cmd` under GNU time (CPU time and peak RSS into `rss`), its
/// standard output discarded; exit status 0 or 1 (invalid objects)
/// expected.
fn measured(cmd: &Command, rss: &Path) -> Result<Run> {
    let before = busy_ticks();
    let m = measure::run_measured(cmd, Stdio::null(), Some(rss))?;
    let after = busy_ticks();
    measure::expect_validated(&cmd.get_program().to_string_lossy(), m.status, &m.stderr)?;
    let others = before
        .zip(after)
        .zip(m.cpu_secs)
        .map(|((a, b), own)| (b.saturating_sub(a) as f64 / measure::clock_ticks() - own).max(0.0));
    Ok(Run { m, others })
}

/// How often a disturbed run is tried again.
pub(super) const RETRIES: usize = 3;

/// Timed runs that are tried again when other processes competed for the
/// cores: when they used more than a tenth of a core on average during
/// the run, it is run again (after a second), up to [`RETRIES`] times,
/// and the least disturbed try kept.
pub(super) struct Calm<'a> {
    /// Where GNU time writes.
    pub(super) rss: &'a Path,
    /// Runs tried again.
    pub(super) repeated: usize,
    /// Runs kept disturbed, after every try.
    pub(super) disturbed: usize,
}

impl Calm<'_> {
    pub(super) fn run(&mut self, cmd: &Command) -> Result<Run> {
        let mut best: Option<Run> = None;
        for attempt in 0..=RETRIES {
            if attempt > 0 {
                self.repeated += 1;
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
            let run = measured(cmd, self.rss)?;
            let others = run.others.unwrap_or(0.0);
            if others <= 0.02 + 0.1 * run.m.sample.secs {
                return Ok(run);
            }
            if best
                .as_ref()
                .is_none_or(|b| others < b.others.unwrap_or(0.0))
            {
                best = Some(run);
            }
        }
        self.disturbed += 1;
        best.context("a run was made")
    }
}

/// The machine's busy time so far, in clock ticks: all but idle and
/// iowait of the `cpu` line of `/proc/stat`.
fn busy_ticks() -> Option<u64> {
    let stat = fs::read_to_string("/proc/stat").ok()?;
    let fields: Vec<u64> = stat
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    Some(
        fields
            .iter()
            .enumerate()
            .filter(|(i, _)| !matches!(i, 3 | 4))
            .map(|(_, t)| t)
            .sum(),
    )
}

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`).
pub(super) fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".to_string())
}
