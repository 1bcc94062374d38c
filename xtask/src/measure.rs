//! What the benchmarks share: throwaway crates with their own target
//! directory, commands timed by wall clock with the peak resident set of
//! their largest process, validators' exit statuses, clock ticks, and order
//! statistics.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Instant, SystemTime};

use anyhow::{Context, Result, bail};

/// GNU time, which gives the peak RSS of the largest process of a command.
const TIME: &str = "/usr/bin/time";

/// Dependency lines shared by the benchmark crates: serde with its derive.
pub const SERDE_DEP: &str = "serde = { version = \"1\", features = [\"derive\"] }\n";
/// serde_json.
pub const SERDE_JSON_DEP: &str = "serde_json = \"1\"\n";
/// schemars.
pub const SCHEMARS_DEP: &str = "schemars = \"1\"\n";
/// k8s-openapi with its latest Kubernetes version.
pub const K8S_OPENAPI_DEP: &str =
    "k8s-openapi = { version = \"0.29.0\", features = [\"latest\"] }\n";
/// The same, with k8s-openapi's `JsonSchema` impls (schemars).
pub const K8S_OPENAPI_SCHEMARS_DEP: &str =
    "k8s-openapi = { version = \"0.29.0\", features = [\"latest\", \"schemars\"] }\n";
/// kube with `CustomResource` (the major that uses k8s-openapi 0.29).
pub const KUBE_DEP: &str =
    "kube = { version = \"5.0.0\", default-features = false, features = [\"derive\"] }\n";

/// How many jobs cargo runs, for the report's header.
pub fn jobs() -> String {
    std::env::var("CARGO_BUILD_JOBS")
        .map(|j| format!("{j} (CARGO_BUILD_JOBS)"))
        .unwrap_or_else(|_| "cargo's default".to_string())
}

/// Where peak RSS is written, when GNU time is installed.
pub fn rss_file(bench: &Path) -> Option<PathBuf> {
    Path::new(TIME).exists().then(|| bench.join("rss.txt"))
}

/// For the report's header: how peak RSS is measured.
pub fn rss_method(rss: Option<&Path>) -> &'static str {
    if rss.is_some() { TIME } else { "not measured" }
}

/// One timed command.
#[derive(Clone, Copy)]
pub struct Sample {
    /// Wall clock.
    pub secs: f64,
    /// Peak resident set of the largest process, when measured.
    pub rss_kb: Option<u64>,
}

/// Runs `cmd` to completion, its standard output to `stdout`, and times it
/// (wall clock). With `rss`, GNU time wraps the command and writes the peak
/// RSS of its largest process there. A failure carries the command's
/// standard error.
pub fn time_command(cmd: &Command, stdout: Stdio, rss: Option<&Path>) -> Result<Sample> {
    let run = run_measured(cmd, stdout, rss)?;
    if !run.status.success() {
        bail!(
            "{} failed:\n{}",
            command_line(cmd),
            String::from_utf8_lossy(&run.stderr)
        );
    }
    Ok(run.sample)
}

/// What [`run_measured`] saw of one command.
pub struct Measured {
    /// Wall clock and peak RSS.
    pub sample: Sample,
    /// User plus system CPU time of the command, with GNU time.
    pub cpu_secs: Option<f64>,
    /// Its exit status.
    pub status: std::process::ExitStatus,
    /// Its standard error.
    pub stderr: Vec<u8>,
}

/// The program and arguments of `cmd`, for messages.
fn command_line(cmd: &Command) -> String {
    format!(
        "{} {}",
        Path::new(cmd.get_program()).display(),
        cmd.get_args()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// Runs `cmd` to completion, its standard output to `stdout`, whatever its
/// exit status, and times it (wall clock).
/// With `rss`, GNU time wraps the command and writes the CPU time and peak
/// RSS of its largest process there (GNU time puts a line before them when
/// the status is not 0: only the last line is read).
pub fn run_measured(cmd: &Command, stdout: Stdio, rss: Option<&Path>) -> Result<Measured> {
    let name = command_line(cmd);
    let mut run = match rss {
        Some(file) => {
            let mut run = Command::new(TIME);
            run.arg("-f")
                .arg("%U %S %M")
                .arg("-o")
                .arg(file)
                .arg(cmd.get_program());
            run
        }
        None => Command::new(cmd.get_program()),
    };
    run.args(cmd.get_args());
    if let Some(dir) = cmd.get_current_dir() {
        run.current_dir(dir);
    }
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => run.env(k, v),
            None => run.env_remove(k),
        };
    }
    let start = Instant::now();
    let out = run
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("running {name}"))?;
    let secs = start.elapsed().as_secs_f64();
    let (mut cpu_secs, mut rss_kb) = (None, None);
    if let Some(file) = rss {
        let text = fs::read_to_string(file)?;
        let fields: Vec<&str> = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        if let [user, system, kb] = fields[..] {
            cpu_secs = user
                .parse::<f64>()
                .ok()
                .zip(system.parse::<f64>().ok())
                .map(|(u, s)| u + s);
            rss_kb = kb.parse().ok();
        }
    }
    Ok(Measured {
        sample: Sample { secs, rss_kb },
        cpu_secs,
        status: out.status,
        stderr: out.stderr,
    })
}

/// A throwaway crate, outside the workspace, with its own target directory.
pub struct BenchCrate {
    /// The package's name.
    pub package: String,
    /// Its directory.
    pub dir: PathBuf,
    /// Its target directory.
    pub target: PathBuf,
}

impl BenchCrate {
    /// The crate `<bench>/<name>`, its target directory
    /// `<bench>/target-<name>`.
    pub fn new(bench: &Path, prefix: &str, name: &str) -> Self {
        BenchCrate {
            package: format!("{prefix}-{name}"),
            dir: bench.join(name),
            target: bench.join(format!("target-{name}")),
        }
    }

    /// Writes `Cargo.toml` (with an empty `[workspace]` table) and
    /// `src/lib.rs`.
    pub fn write(&self, task: &str, dependencies: &str, lib: &str) -> Result<()> {
        fs::create_dir_all(self.dir.join("src"))?;
        let manifest = format!(
            "# Generated by `cargo xtask {task}`.\n\
             [package]\nname = \"{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\n{dependencies}\n\
             # Not a member of the schema-gen workspace.\n[workspace]\n",
            self.package,
        );
        fs::write(self.dir.join("Cargo.toml"), manifest)?;
        self.write_lib(lib)
    }

    /// Replaces `src/lib.rs`.
    pub fn write_lib(&self, lib: &str) -> Result<()> {
        fs::write(self.dir.join("src/lib.rs"), lib)
            .with_context(|| format!("writing {}", self.dir.join("src/lib.rs").display()))
    }

    /// Removes the target directory, for a cold build.
    pub fn clean(&self) -> Result<()> {
        if self.target.exists() {
            fs::remove_dir_all(&self.target)
                .with_context(|| format!("removing {}", self.target.display()))?;
        }
        Ok(())
    }

    /// `cargo ARGS` in the crate, with `env` and nothing inherited that
    /// changes how it compiles.
    pub fn command(&self, args: &[&str], env: &[(&str, &str)]) -> Command {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.current_dir(&self.dir)
            .args(args)
            .env("CARGO_TARGET_DIR", &self.target)
            .env_remove("CARGO_INCREMENTAL")
            .env_remove("RUSTFLAGS")
            .envs(env.iter().copied());
        cmd
    }

    /// Runs cargo, its output shown.
    pub fn cargo(&self, args: &[&str], env: &[(&str, &str)]) -> Result<()> {
        let status = self
            .command(args, env)
            .status()
            .with_context(|| format!("running cargo {}", args.join(" ")))?;
        if !status.success() {
            bail!("cargo {} failed in {}", args.join(" "), self.dir.display());
        }
        Ok(())
    }

    /// Touches `src/lib.rs`, then times cargo (see [`time_command`]).
    pub fn timed(&self, args: &[&str], env: &[(&str, &str)], rss: Option<&Path>) -> Result<Sample> {
        fs::File::options()
            .append(true)
            .open(self.dir.join("src/lib.rs"))?
            .set_modified(SystemTime::now())?;
        time_command(&self.command(args, env), Stdio::null(), rss)
            .with_context(|| format!("in {}", self.dir.display()))
    }

    /// The size of the crate's debug rlib, in KiB.
    pub fn rlib_kb(&self) -> Option<u64> {
        let rlib = format!("lib{}.rlib", self.package.replace('-', "_"));
        fs::metadata(self.target.join("debug").join(rlib))
            .ok()
            .map(|m| m.len() / 1024)
    }
}

/// Median, minimum and maximum.
pub struct Stats {
    /// The median (the mean of the middle two of an even count).
    pub median: f64,
    /// The smallest.
    pub min: f64,
    /// The largest.
    pub max: f64,
}

/// The statistics of a non-empty series.
pub fn stats(xs: impl Iterator<Item = f64>) -> Stats {
    let mut v: Vec<f64> = xs.collect();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Stats {
        median,
        min: v[0],
        max: v[n - 1],
    }
}

/// The median wall time of the samples.
pub fn median_secs(samples: &[Sample]) -> f64 {
    stats(samples.iter().map(|s| s.secs)).median
}

/// The median peak RSS of the samples, in MiB, if measured.
pub fn median_rss_mb(samples: &[Sample]) -> Option<f64> {
    let rss: Vec<f64> = samples
        .iter()
        .filter_map(|s| s.rss_kb)
        .map(|kb| kb as f64 / 1024.0)
        .collect();
    (!rss.is_empty()).then(|| stats(rss.into_iter()).median)
}

/// A table's header line, underlined.
pub fn write_header(out: &mut String, header: &str) {
    out.push_str(header);
    out.push('\n');
    out.push_str(&"-".repeat(header.len()));
    out.push('\n');
}

/// `{x:.prec}`, or `-` for none.
pub fn or_dash(x: Option<f64>, prec: usize) -> String {
    x.map(|x| format!("{x:.prec$}"))
        .unwrap_or_else(|| "-".to_string())
}

/// Fails unless a validator (`what`) exited with status 0 (every object
/// valid) or 1 (invalid objects): the error carries its standard error.
pub fn expect_validated(what: &str, status: ExitStatus, stderr: &[u8]) -> Result<()> {
    if !matches!(status.code(), Some(0 | 1)) {
        bail!(
            "{what} failed ({status}):\n{}",
            String::from_utf8_lossy(stderr)
        );
    }
    Ok(())
}

/// Clock ticks per second (`getconf CLK_TCK`, else 100).
pub fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0)
}

/// Makes `bench` the benchmark's directory, with none of the `fresh` folders
/// of an earlier run in it.
pub fn fresh_bench_dir(bench: &Path, fresh: &[&str]) -> Result<()> {
    for dir in fresh {
        let dir = bench.join(dir);
        if dir.exists() {
            fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
        }
    }
    fs::create_dir_all(bench)?;
    Ok(())
}

/// Prints a benchmark's `report` and writes it into `bench/file`.
pub fn publish_report(bench: &Path, file: &str, report: &str) -> Result<()> {
    print!("{report}");
    let path = bench.join(file);
    fs::write(&path, report).with_context(|| format!("writing {}", path.display()))?;
    println!("(written to {})", path.display());
    Ok(())
}
