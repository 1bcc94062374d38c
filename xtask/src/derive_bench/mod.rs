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

use anyhow::{Result, bail};

use crate::flags::{BuildOptions, Flag};
use crate::measure::{self, BenchCrate, Sample, or_dash, stats};
use crate::workspace;
use emit::Flavor;

/// Options of `cargo xtask bench-derive`.
pub const USAGE: &str = "\
  bench-derive [--runs N] [--no-cold] [--only a,b] [--generate-only]
         compile time added by #[derive(StructuralSchema)] vs schemars' JsonSchema
         on the same 200 generated types, each minus a serde-only baseline; also
         with the 20 spec roots made custom resources (our crd(...) vs kube's
         CustomResource). Crates (baseline, ours, ours-roots, peer, peer-roots)
         and results.txt under target/derive-bench/";

/// The common options, and `--only`.
fn parse(args: &[String]) -> Result<(BuildOptions, Option<Vec<String>>)> {
    let mut only = None;
    let only_flag = Flag::List("--only", &mut only, "--only needs crate names");
    let o = BuildOptions::parse(args, USAGE, vec![only_flag])?;
    Ok((o, only))
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
    krate: BenchCrate,
    lib: String,
    cold: Option<f64>,
    samples: Vec<Vec<Sample>>,
}

/// Runs the benchmark with the arguments after `bench-derive`.
pub fn run(args: &[String]) -> Result<()> {
    let (o, only) = parse(args)?;
    let root = workspace::root()?;
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
    if let Some(only) = &only {
        flavors.retain(|f| only.iter().any(|n| n == f.name()));
        if flavors.is_empty() {
            bail!("--only matches none of baseline, ours, ours-roots, peer, peer-roots");
        }
    }

    let mut crates = Vec::new();
    for flavor in flavors {
        let c = Crate {
            flavor,
            krate: BenchCrate::new(&bench, "bench", flavor.name()),
            lib: emit::lib_rs(&model, flavor),
            cold: None,
            samples: vec![Vec::new(); MODES.len()],
        };
        let deps = flavor.dependencies(&schema_core.to_string_lossy());
        c.krate.write("bench-derive", &deps, &c.lib)?;
        fs::create_dir_all(c.krate.dir.join("tests"))?;
        fs::write(
            c.krate.dir.join("tests/schemas.rs"),
            emit::schemas_test(&model, flavor),
        )?;
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

    let rss = measure::rss_file(&bench);
    let rss = rss.as_deref();
    println!(
        "derive bench: {} types, {} runs, jobs: {}, peak RSS: {}",
        model.types.len(),
        o.runs,
        measure::jobs(),
        measure::rss_method(rss)
    );

    // The dependency closure, with a placeholder library.
    for c in &mut crates {
        let k = &c.krate;
        k.write_lib("//! Placeholder: the dependency closure alone.\n")?;
        k.cargo(&["fetch", "--quiet"], &[])?;
        if o.cold {
            k.clean()?;
            println!("{}: cold build of the dependencies", c.flavor.name());
            let s = k.timed(&["build", "--quiet"], &[], None)?;
            c.cold = Some(s.secs);
        } else {
            k.cargo(&["build", "--quiet"], &[])?;
        }
    }
    // The types, built once in every mode, and every root's schema built.
    for c in &crates {
        let k = &c.krate;
        k.write_lib(&c.lib)?;
        println!("{}: warm-up and schema check", c.flavor.name());
        k.cargo(&["build", "--quiet"], &[])?;
        k.cargo(&["check", "--quiet"], &[])?;
        k.cargo(&["build", "--quiet"], &[("CARGO_INCREMENTAL", "0")])?;
        k.cargo(&["test", "--quiet", "--test", "schemas"], &[])?;
        k.cargo(&["build", "--quiet"], &[])?;
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
                let s = c.krate.timed(args, env, rss)?;
                c.samples[m].push(s);
            }
        }
    }

    measure::publish_report(&bench, "results.txt", &report(&crates, &o))
}

fn report(crates: &[Crate], o: &BuildOptions) -> String {
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
    measure::write_header(&mut out, &header);
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
        let rss = or_dash(measure::median_rss_mb(&c.samples[0]), 0);
        let rlib = c
            .krate
            .rlib_kb()
            .map(|kb| kb.to_string())
            .unwrap_or_else(|| "-".to_string());
        let cold = or_dash(c.cold, 1);
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
    c.samples.iter().map(|s| measure::median_secs(s)).collect()
}
