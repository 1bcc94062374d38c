//! `cargo xtask bench-derive`: the compile time `#[derive(StructuralSchema)]`
//! adds, side by side with schemars (+ kube's `CustomResource`) on the same
//! 200 generated operator types.
//!
//! Each flavour is a throwaway crate under `target/derive-bench/<name>` with
//! its own target directory. The dependency closure is built first (timed
//! from cold unless `--no-cold`), then the types crate alone is rebuilt
//! after touching `src/lib.rs`: `cargo build` (incremental, as in an edit
//! loop), `cargo check`, and `cargo build` with `CARGO_INCREMENTAL=0` (the
//! whole crate compiled, codegen included). Runs interleave the crates so
//! that load on a shared machine spreads over all of them. The cost a derive
//! adds is its crate's median minus the serde-only baseline's.

mod emit;
mod model;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime};

use anyhow::{Context, Result, bail};

use emit::Flavor;

/// Options of `cargo xtask bench-derive`.
pub const USAGE: &str = "\
  bench-derive [--runs N] [--no-cold] [--only a,b] [--generate-only]
         compile time added by #[derive(StructuralSchema)] vs schemars' JsonSchema
         on the same 200 generated types, each minus a serde-only baseline; also
         with the 20 spec roots made custom resources (our crd(...) vs kube's
         CustomResource). Crates (baseline, ours, ours-roots, peer, peer-roots)
         and results.txt under target/derive-bench/";

struct Options {
    runs: usize,
    cold: bool,
    only: Option<Vec<String>>,
    generate_only: bool,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options {
        runs: 5,
        cold: true,
        only: None,
        generate_only: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => {
                let n = it.next().context("--runs needs a number")?;
                o.runs = n.parse().context("--runs needs a number")?;
                if o.runs == 0 {
                    bail!("--runs must be at least 1");
                }
            }
            "--no-cold" => o.cold = false,
            "--only" => {
                let names = it.next().context("--only needs crate names")?;
                o.only = Some(names.split(',').map(str::to_string).collect());
            }
            "--generate-only" => o.generate_only = true,
            _ => bail!("unknown option {a:?}\n{USAGE}"),
        }
    }
    Ok(o)
}

/// One build to time.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `cargo build`, incremental (the dev profile's default).
    Build,
    /// `cargo check`.
    Check,
    /// `cargo build` with `CARGO_INCREMENTAL=0`.
    Full,
}

const MODES: [Mode; 3] = [Mode::Build, Mode::Check, Mode::Full];

impl Mode {
    fn label(self) -> &'static str {
        match self {
            Mode::Build => "build",
            Mode::Check => "check",
            Mode::Full => "build (non-incr.)",
        }
    }
}

struct Crate {
    flavor: Flavor,
    dir: PathBuf,
    target: PathBuf,
    lib: String,
    cold: Option<f64>,
    samples: Vec<Vec<Sample>>,
}

#[derive(Clone, Copy)]
struct Sample {
    secs: f64,
    rss_kb: Option<u64>,
}

/// Runs the benchmark with the arguments after `bench-derive`.
pub fn run(args: &[String]) -> Result<()> {
    let o = parse(args)?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .context("xtask has a parent directory")?
        .to_path_buf();
    let bench = root.join("target").join("derive-bench");
    let schema_core = root.join("schema-core");
    let model = model::generate();

    let mut flavors = vec![
        Flavor::Baseline,
        Flavor::Ours { roots: false },
        Flavor::Ours { roots: true },
        Flavor::Peer { roots: false },
        Flavor::Peer { roots: true },
    ];
    if let Some(only) = &o.only {
        flavors.retain(|f| only.iter().any(|n| n == f.name()));
        if flavors.is_empty() {
            bail!("--only matches none of baseline, ours, ours-roots, peer, peer-roots");
        }
    }

    let mut crates = Vec::new();
    for flavor in flavors {
        let dir = bench.join(flavor.name());
        let c = Crate {
            flavor,
            target: bench.join(format!("target-{}", flavor.name())),
            lib: emit::lib_rs(&model, flavor),
            cold: None,
            samples: vec![Vec::new(); MODES.len()],
            dir,
        };
        write_crate(&c, &model, &schema_core.to_string_lossy())?;
        crates.push(c);
    }
    if o.generate_only {
        println!(
            "generated {} crates under {}",
            crates.len(),
            bench.display()
        );
        return Ok(());
    }

    let rss = Path::new("/usr/bin/time").exists();
    println!(
        "derive bench: {} types, {} runs, jobs: {}, peak RSS: {}",
        model.types.len(),
        o.runs,
        std::env::var("CARGO_BUILD_JOBS")
            .map(|j| format!("{j} (CARGO_BUILD_JOBS)"))
            .unwrap_or_else(|_| "cargo's default".to_string()),
        if rss { "/usr/bin/time" } else { "not measured" }
    );

    // The dependency closure, with a placeholder library.
    for c in &mut crates {
        fs::write(
            c.dir.join("src/lib.rs"),
            "//! Placeholder: the dependency closure alone.\n",
        )?;
        cargo(c, &["fetch", "--quiet"], &[])?;
        if o.cold {
            if c.target.exists() {
                fs::remove_dir_all(&c.target)
                    .with_context(|| format!("removing {}", c.target.display()))?;
            }
            println!("{}: cold build of the dependencies", c.flavor.name());
            let s = timed(c, &["build", "--quiet"], &[], false, &bench)?;
            c.cold = Some(s.secs);
        } else {
            cargo(c, &["build", "--quiet"], &[])?;
        }
    }
    // The types, built once in every mode, and every root's schema built.
    for c in &crates {
        fs::write(c.dir.join("src/lib.rs"), &c.lib)?;
        println!("{}: warm-up and schema check", c.flavor.name());
        cargo(c, &["build", "--quiet"], &[])?;
        cargo(c, &["check", "--quiet"], &[])?;
        cargo(c, &["build", "--quiet"], &[("CARGO_INCREMENTAL", "0")])?;
        cargo(c, &["test", "--quiet", "--test", "schemas"], &[])?;
        cargo(c, &["build", "--quiet"], &[])?;
    }
    for run in 0..o.runs {
        println!("run {}/{}", run + 1, o.runs);
        for (m, mode) in MODES.iter().enumerate() {
            for c in &mut crates {
                let (args, env): (&[&str], &[(&str, &str)]) = match mode {
                    Mode::Build => (&["build", "--quiet"], &[]),
                    Mode::Check => (&["check", "--quiet"], &[]),
                    Mode::Full => (&["build", "--quiet"], &[("CARGO_INCREMENTAL", "0")]),
                };
                let s = timed(c, args, env, rss, &bench)?;
                c.samples[m].push(s);
            }
        }
    }

    let report = report(&crates, &o);
    print!("{report}");
    fs::write(bench.join("results.txt"), &report)?;
    println!("(written to {})", bench.join("results.txt").display());
    Ok(())
}

fn write_crate(c: &Crate, model: &model::Model, schema_core: &str) -> Result<()> {
    fs::create_dir_all(c.dir.join("src"))?;
    fs::create_dir_all(c.dir.join("tests"))?;
    let manifest = format!(
        "# Generated by `cargo xtask bench-derive`.\n\
         [package]\nname = \"bench-{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{}\n\
         # Not a member of the schema-gen workspace.\n[workspace]\n",
        c.flavor.name(),
        c.flavor.dependencies(schema_core)
    );
    fs::write(c.dir.join("Cargo.toml"), manifest)?;
    fs::write(c.dir.join("src/lib.rs"), &c.lib)?;
    fs::write(
        c.dir.join("tests/schemas.rs"),
        emit::schemas_test(model, c.flavor),
    )?;
    Ok(())
}

fn command(c: &Crate, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(&c.dir)
        .args(args)
        .env("CARGO_TARGET_DIR", &c.target)
        .env_remove("CARGO_INCREMENTAL")
        .env_remove("RUSTFLAGS")
        .envs(env.iter().copied());
    cmd
}

fn cargo(c: &Crate, args: &[&str], env: &[(&str, &str)]) -> Result<()> {
    let status = command(c, args, env)
        .status()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !status.success() {
        bail!("cargo {} failed in {}", args.join(" "), c.dir.display());
    }
    Ok(())
}

/// Touches `src/lib.rs`, then times the cargo command (wall clock), with the
/// peak RSS of its largest process (rustc) when `/usr/bin/time` is there.
fn timed(
    c: &Crate,
    args: &[&str],
    env: &[(&str, &str)],
    rss: bool,
    bench: &Path,
) -> Result<Sample> {
    let lib = c.dir.join("src/lib.rs");
    fs::File::options()
        .append(true)
        .open(&lib)?
        .set_modified(SystemTime::now())?;
    let rss_file = bench.join("rss.txt");
    let mut cmd = if rss {
        let inner = command(c, args, env);
        let mut cmd = Command::new("/usr/bin/time");
        cmd.arg("-f")
            .arg("%M")
            .arg("-o")
            .arg(&rss_file)
            .arg(inner.get_program())
            .args(inner.get_args())
            .current_dir(&c.dir);
        for (k, v) in inner.get_envs() {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        cmd
    } else {
        command(c, args, env)
    };
    let start = Instant::now();
    let out = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    let secs = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!(
            "cargo {} failed in {}:\n{}",
            args.join(" "),
            c.dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let rss_kb = if rss {
        fs::read_to_string(&rss_file)?.trim().parse().ok()
    } else {
        None
    };
    Ok(Sample { secs, rss_kb })
}

struct Stats {
    median: f64,
    min: f64,
    max: f64,
}

fn stats(xs: impl Iterator<Item = f64>) -> Stats {
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

fn report(crates: &[Crate], o: &Options) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n200 types; median wall time of {} rebuilds of the types crate after touching src/lib.rs \
         [min-max], seconds; +base = median minus the serde-only baseline's",
        o.runs
    );
    let mut header = format!("{:<11} {:<54}", "crate", "derives");
    for m in MODES {
        let _ = write!(header, " | {:<19} {:>6}", m.label(), "+base");
    }
    let _ = write!(
        header,
        " | {:>7} {:>8} {:>8}",
        "RSS MB", "rlib KB", "cold s"
    );
    let _ = writeln!(out, "{header}");
    let _ = writeln!(out, "{}", "-".repeat(header.len()));
    let base = crates
        .iter()
        .find(|c| c.flavor == Flavor::Baseline)
        .map(medians);
    for c in crates {
        let _ = write!(out, "{:<11} {:<54}", c.flavor.name(), c.flavor.describe());
        for (m, samples) in c.samples.iter().enumerate() {
            let s = stats(samples.iter().map(|s| s.secs));
            let added = base
                .as_ref()
                .map(|b| format!("{:+.2}", s.median - b[m]))
                .unwrap_or_default();
            let _ = write!(
                out,
                " | {:>5.2} [{:.2}-{:.2}] {:>6}",
                s.median, s.min, s.max, added
            );
        }
        let rss: Vec<f64> = c.samples[0]
            .iter()
            .filter_map(|s| s.rss_kb)
            .map(|kb| kb as f64 / 1024.0)
            .collect();
        let rss = if rss.is_empty() {
            "-".to_string()
        } else {
            format!("{:.0}", stats(rss.into_iter()).median)
        };
        let rlib = fs::metadata(c.target.join("debug").join(format!(
            "libbench_{}.rlib",
            c.flavor.name().replace('-', "_")
        )))
        .map(|m| format!("{}", m.len() / 1024))
        .unwrap_or_else(|_| "-".to_string());
        let cold = c
            .cold
            .map(|s| format!("{s:.1}"))
            .unwrap_or_else(|| "-".to_string());
        let _ = writeln!(out, " | {rss:>7} {rlib:>8} {cold:>8}");
    }
    // Added time, ours over peer, for each pair present.
    if let Some(b) = &base {
        let added = |f: Flavor| {
            crates.iter().find(|c| c.flavor == f).map(|c| {
                medians(c)
                    .iter()
                    .zip(b)
                    .map(|(x, y)| x - y)
                    .collect::<Vec<_>>()
            })
        };
        let pairs = [
            (Flavor::Ours { roots: false }, Flavor::Peer { roots: false }),
            (Flavor::Ours { roots: true }, Flavor::Peer { roots: true }),
        ];
        for (ours, peer) in pairs {
            if let (Some(a), Some(p)) = (added(ours), added(peer)) {
                let _ = write!(out, "added time {} / {}:", ours.name(), peer.name());
                for (m, mode) in MODES.iter().enumerate() {
                    let _ = write!(out, "  {} {:.2}", mode.label(), a[m] / p[m]);
                }
                out.push('\n');
            }
        }
    }
    let _ = writeln!(
        out,
        "RSS: median peak resident set of the largest process of `cargo build`; rlib: the types \
         crate's debug rlib; cold: `cargo build` of the dependency closure from an empty target \
         directory (one run)"
    );
    out
}

fn medians(c: &Crate) -> Vec<f64> {
    c.samples
        .iter()
        .map(|s| stats(s.iter().map(|s| s.secs)).median)
        .collect()
}
