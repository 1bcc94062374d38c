//! The report of `bench-validate-scale`: throughput against the parse
//! floor and kubeconform, the ratios and their targets, peak memory, what
//! each tool flags, and the CRD versions used.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::repo::{Object, Repo};
use super::runs::{JOBS, RETRIES, Run};
use super::select::Chosen;
use super::verdicts::{Said, Verdicts};
use crate::bench_repo::convert::SCHEMA_TEMPLATE;
use crate::bench_repo::corpus::CorpusCrdFile;
use crate::bench_repo::kubeconform::Kubeconform;
use crate::measure::{self, Stats, stats};

/// The targets: validate on one job at most this many times the parse
/// floor, and two jobs at least this many times faster than one.
const PARSE_TARGET: f64 = 1.5;

const SPEEDUP_TARGET: f64 = 1.8;

/// What the report is made of.
pub(super) struct Report<'a> {
    /// `--runs`.
    pub(super) runs: usize,
    pub(super) accepted: &'a [CorpusCrdFile],
    pub(super) crd_files: usize,
    pub(super) chosen: &'a [Chosen],
    pub(super) repo: &'a Repo,
    pub(super) repo2: Option<&'a Repo>,
    pub(super) schemas: usize,
    pub(super) kubeconform: Option<&'a Kubeconform>,
    pub(super) floor: Stats,
    /// The parse floor of the CRD files.
    pub(super) crd_floor: Stats,
    /// The size of the CRD files.
    pub(super) crd_bytes: u64,
    pub(super) floor_in_process: bool,
    pub(super) timed: &'a BTreeMap<(&'a str, usize), Vec<Run>>,
    pub(super) double: &'a [Run],
    pub(super) verdicts: &'a [(&'a str, Verdicts)],
    pub(super) load: (String, String),
    /// Timed runs repeated, and kept disturbed ([`Calm`]).
    pub(super) calm: (usize, usize),
    pub(super) notes: &'a [String],
}

/// Median wall time, its range, CPU time and peak RSS (MB) of some runs.
struct Summary {
    wall: Stats,
    cpu: Option<f64>,
    rss_mb: Option<f64>,
    /// The median CPU time of other processes during a run.
    others: Option<f64>,
}

fn summarize(runs: &[Run]) -> Option<Summary> {
    if runs.is_empty() {
        return None;
    }
    let cpu: Option<Vec<f64>> = runs.iter().map(|r| r.m.cpu_secs).collect();
    let others: Option<Vec<f64>> = runs.iter().map(|r| r.others).collect();
    let samples: Vec<measure::Sample> = runs.iter().map(|r| r.m.sample).collect();
    Some(Summary {
        wall: stats(runs.iter().map(|r| r.m.sample.secs)),
        cpu: cpu.map(|c| stats(c.into_iter()).median),
        rss_mb: measure::median_rss_mb(&samples),
        others: others.map(|c| stats(c.into_iter()).median),
    })
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "**missed**" }
}

impl Report<'_> {
    fn get(&self, tool: &str, jobs: usize) -> Option<Summary> {
        self.timed.get(&(tool, jobs)).and_then(|r| summarize(r))
    }

    pub(super) fn render(&self) -> String {
        let mut out = String::new();
        let repo = self.repo;
        let n = repo.objects.len() as f64;
        let mb = repo.bytes as f64 / 1e6;
        let builtin = repo.objects.iter().filter(|o| o.builtin).count();
        let invalid = repo.objects.iter().filter(|o| o.case.is_some()).count();
        let _ = writeln!(
            out,
            "\n# bench-validate-scale: schema-gen validate at scale\n"
        );
        let _ = writeln!(
            out,
            "Repository `target/bench-validate-scale/repo`: {} objects ({builtin} of {} \
             built-in kinds, {} of {} CRD versions from {} CRD files; {invalid} deliberately \
             invalid) in {} files ({} with one object, the others multi-document) in {} \
             folders, {mb:.2} MB.\n",
            repo.objects.len(),
            repo.kinds.len(),
            repo.objects.len() - builtin,
            self.chosen.len(),
            self.crd_files,
            repo.files,
            repo.single,
            repo.dirs,
        );
        let cores = std::thread::available_parallelism().map_or(0, usize::from);
        let _ = writeln!(
            out,
            "- machine: {cores} cores; load average (1, 5, 15 min) before the timed runs {}, \
             after {}; {} timed runs repeated because other processes used more than a tenth \
             of a core during them, {} kept so after {RETRIES} more tries (the least disturbed \
             try)",
            self.load.0, self.load.1, self.calm.0, self.calm.1
        );
        let _ = writeln!(
            out,
            "- schema-gen (release): `schema-gen validate --crd crds --jobs J repo` (text \
             output), in `target/bench-validate-scale/`"
        );
        match self.kubeconform {
            Some(k) => {
                let _ = writeln!(
                    out,
                    "- kubeconform {} (built with {}): `kubeconform -schema-location '{}' \
                     -strict -summary -n J repo`; {} JSON schemas under `schemas/` (the CRD \
                     versions' and the built-in kinds' from `builtin_kinds()`, converted as \
                     bench-gate converts CRDs)",
                    k.version, k.go, SCHEMA_TEMPLATE, self.schemas
                );
            }
            None => {
                let _ = writeln!(out, "- kubeconform: not run");
            }
        }
        let _ = writeln!(
            out,
            "- parse floor: every file read and parsed with \
             `schema_core::model::source::parse_documents` (source maps, default limits), one \
             thread, mimalloc, {}",
            if self.floor_in_process {
                "in this process (a release build)"
            } else {
                "in a release build of xtask (`cargo xtask` is a debug build)"
            }
        );
        let _ = writeln!(
            out,
            "- CPU time (user + system) and peak memory (max RSS of the process): GNU time \
             (`/usr/bin/time -f '%U %S %M'`)"
        );
        for note in self.notes {
            let _ = writeln!(out, "- {note}");
        }

        let _ = writeln!(out, "\n## Throughput\n");
        let _ = writeln!(
            out,
            "Median of {} runs [min-max]; MB = 10^6 bytes of YAML read; other CPU: the CPU \
             time other processes used during a run (median), which competes for the cores.\n",
            self.runs
        );
        let _ = writeln!(
            out,
            "| what | jobs | wall s | CPU s | objects/s | MB/s | max RSS MB | other CPU s |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- |"
        );
        let _ = writeln!(
            out,
            "| parse floor: `repo/` | 1 | {:.3} [{:.3}-{:.3}] | - | {:.0} | {:.1} | - | - |",
            self.floor.median,
            self.floor.min,
            self.floor.max,
            n / self.floor.median,
            mb / self.floor.median
        );
        let _ = writeln!(
            out,
            "| parse floor: `crds/` (the {} CRD files, {:.2} MB, which validate reads too) | 1 \
             | {:.3} [{:.3}-{:.3}] | - | - | {:.1} | - | - |",
            self.crd_files,
            self.crd_bytes as f64 / 1e6,
            self.crd_floor.median,
            self.crd_floor.min,
            self.crd_floor.max,
            self.crd_bytes as f64 / 1e6 / self.crd_floor.median,
        );
        let row = |out: &mut String, label: &str, jobs: usize, s: &Summary, rate: bool| {
            let (per_s, mb_s) = if rate {
                (
                    format!("{:.0}", n / s.wall.median),
                    format!("{:.1}", mb / s.wall.median),
                )
            } else {
                ("-".to_string(), "-".to_string())
            };
            let _ = writeln!(
                out,
                "| {label} | {jobs} | {:.3} [{:.3}-{:.3}] | {} | {per_s} | {mb_s} | {} | {} |",
                s.wall.median,
                s.wall.min,
                s.wall.max,
                measure::or_dash(s.cpu, 2),
                measure::or_dash(s.rss_mb, 1),
                measure::or_dash(s.others, 2),
            );
        };
        for (tool, label) in [
            ("schema-gen", "schema-gen validate"),
            ("kubeconform", "kubeconform -strict"),
        ] {
            for jobs in JOBS {
                if let Some(s) = self.get(tool, jobs) {
                    row(&mut out, label, jobs, &s, true);
                }
            }
        }
        let probe = self.get("probe", 1);
        if let Some(s) = self.get("load", 1) {
            row(
                &mut out,
                "schema-gen, reading the CRDs only: `probe/load.yaml` (one ConfigMap)",
                1,
                &s,
                false,
            );
        }
        if let Some(s) = &probe {
            let label = format!(
                "schema-gen fixed cost: `probe/probe.yaml` (one object of each of the {} types)",
                repo.kinds.len() + self.chosen.len()
            );
            row(&mut out, &label, 1, s, false);
        }

        let _ = writeln!(out, "\n## Ratios\n");
        let _ = writeln!(
            out,
            "Of the medians, and of the best of the {} runs (the least disturbed).\n",
            self.runs
        );
        let _ = writeln!(
            out,
            "| ratio | medians | best runs | target |\n| --- | --- | --- | --- |"
        );
        let one = self.get("schema-gen", 1);
        let two = self.get("schema-gen", 2);
        let ratio = |out: &mut String, what: &str, median: f64, best: f64, target: String| {
            let _ = writeln!(out, "| {what} | {median:.2} | {best:.2} | {target} |");
        };
        if let Some(one) = &one {
            let (m, b) = (
                one.wall.median / self.floor.median,
                one.wall.min / self.floor.min,
            );
            let target = format!("≤ {PARSE_TARGET}: {}", verdict(m <= PARSE_TARGET));
            ratio(
                &mut out,
                "validate, 1 job / parse floor (wall)",
                m,
                b,
                target,
            );
            ratio(
                &mut out,
                "validate, 1 job / parse floor of `repo/` and `crds/`",
                one.wall.median / (self.floor.median + self.crd_floor.median),
                one.wall.min / (self.floor.min + self.crd_floor.min),
                "(for reading)".to_string(),
            );
            if let Some(p) = &probe {
                ratio(
                    &mut out,
                    "(validate, 1 job − fixed cost) / parse floor",
                    (one.wall.median - p.wall.median) / self.floor.median,
                    (one.wall.min - p.wall.min) / self.floor.min,
                    "(for reading: the cost per object)".to_string(),
                );
            }
        }
        if let (Some(one), Some(two)) = (&one, &two) {
            let (m, b) = (
                one.wall.median / two.wall.median,
                one.wall.min / two.wall.min,
            );
            let target = format!("≥ {SPEEDUP_TARGET}: {}", verdict(m >= SPEEDUP_TARGET));
            ratio(
                &mut out,
                "validate speedup, 1 → 2 jobs (wall)",
                m,
                b,
                target,
            );
            if let (Some(a), Some(b)) = (one.cpu, two.cpu) {
                let _ = writeln!(
                    out,
                    "| validate CPU time, 2 jobs / 1 job | {:.2} | - | (for reading: 1.0 is no \
                     overhead) |",
                    b / a
                );
            }
            if let Some(p) = &probe {
                ratio(
                    &mut out,
                    "validate speedup 1 → 2 jobs, fixed cost taken off both",
                    (one.wall.median - p.wall.median) / (two.wall.median - p.wall.median),
                    (one.wall.min - p.wall.min) / (two.wall.min - p.wall.min),
                    "(for reading)".to_string(),
                );
            }
        }
        for jobs in JOBS {
            if let (Some(a), Some(b)) =
                (self.get("schema-gen", jobs), self.get("kubeconform", jobs))
            {
                let r = b.wall.median / a.wall.median;
                ratio(
                    &mut out,
                    &format!(
                        "kubeconform / schema-gen wall, {jobs} job{}",
                        if jobs == 1 { "" } else { "s" }
                    ),
                    r,
                    b.wall.min / a.wall.min,
                    format!(
                        "(medians: {} is {:.2}x faster)",
                        if r >= 1.0 {
                            "schema-gen"
                        } else {
                            "kubeconform"
                        },
                        if r >= 1.0 { r } else { 1.0 / r }
                    ),
                );
            }
        }
        if let (Some(a), Some(b)) = (self.get("kubeconform", 1), self.get("kubeconform", 2)) {
            ratio(
                &mut out,
                "kubeconform speedup, 1 → 2 goroutines (wall)",
                a.wall.median / b.wall.median,
                a.wall.min / b.wall.min,
                "(for reading)".to_string(),
            );
        }

        let _ = writeln!(out, "\n## Peak memory (max RSS of schema-gen validate)\n");
        let _ = writeln!(
            out,
            "| repository | objects | MB | 1 job | 2 jobs |\n| --- | --- | --- | --- | --- |"
        );
        let rss = |s: Option<&Summary>| {
            s.and_then(|s| s.rss_mb)
                .map_or("-".to_string(), |m| format!("{m:.1} MB"))
        };
        let _ = writeln!(
            out,
            "| `repo` (median of {}) | {} | {mb:.2} | {} | {} |",
            self.runs,
            repo.objects.len(),
            rss(one.as_ref()),
            rss(two.as_ref())
        );
        if let Some(r2) = self.repo2 {
            let cell = |i: usize| {
                self.double
                    .get(i)
                    .map(|r| {
                        format!(
                            "{} MB ({:.2} s)",
                            measure::or_dash(r.m.sample.rss_kb.map(|k| k as f64 / 1024.0), 1),
                            r.m.sample.secs
                        )
                    })
                    .unwrap_or_else(|| "-".to_string())
            };
            let _ = writeln!(
                out,
                "| `repo-2x` (one run) | {} | {:.2} | {} | {} |",
                r2.objects.len(),
                r2.bytes as f64 / 1e6,
                cell(0),
                cell(1)
            );
        }
        let load = self.get("load", 1).and_then(|s| s.rss_mb);
        if let (Some(l), Some(p)) = (load, probe.as_ref().and_then(|p| p.rss_mb)) {
            let _ = writeln!(
                out,
                "\nschema-gen with the CRDs read only (`probe/load.yaml`): {l:.1} MB; with one \
                 object of each type (`probe/probe.yaml`, every admission built): {p:.1} MB."
            );
        }
        if let (Some(k1), Some(k2)) = (
            self.get("kubeconform", 1).and_then(|s| s.rss_mb),
            self.get("kubeconform", 2).and_then(|s| s.rss_mb),
        ) {
            let _ = writeln!(
                out,
                "kubeconform on `repo`: {k1:.1} MB (1 goroutine), {k2:.1} MB (2)."
            );
        }

        self.verdict_table(&mut out);
        self.crd_table(&mut out);
        out
    }

    fn verdict_table(&self, out: &mut String) {
        let _ = writeln!(out, "\n## What each tool flags\n");
        let _ = writeln!(
            out,
            "Objects flagged invalid (+ not validated at all), by how they were built. The \
             CRD objects built to be valid come from bench-gate's generator, which fills \
             required fields and guesses at CEL rules but does not solve them: a few can be \
             invalid. schema-gen without `--strict` prunes unknown fields with a warning, as \
             the API server does; kubeconform checks no `metadata`.\n"
        );
        let mut header = "| objects | count |".to_string();
        let mut rule = "| --- | --- |".to_string();
        for (tool, _) in self.verdicts {
            let _ = write!(header, " {tool} |");
            rule.push_str(" --- |");
        }
        let _ = writeln!(out, "{header}\n{rule}");
        // Row label -> objects.
        let mut rows: BTreeMap<String, Vec<&Object>> = BTreeMap::new();
        for o in &self.repo.objects {
            let label = match (o.case, o.builtin) {
                (None, true) => "0 valid: built-in kinds".to_string(),
                (None, false) => "1 valid: CRD objects".to_string(),
                (Some(c), true) => format!("2 invalid ({c}): built-in kinds"),
                (Some(c), false) => format!("3 invalid ({c}): CRD objects"),
            };
            rows.entry(label).or_default().push(o);
        }
        for (label, objects) in &rows {
            let _ = write!(out, "| {} | {} |", &label[2..], objects.len());
            for (_, v) in self.verdicts {
                let (mut bad, mut failed, mut missing) = (0, 0, 0);
                for o in objects {
                    match v
                        .by_object
                        .get(&(o.file.clone(), o.kind.clone(), o.name.clone()))
                    {
                        Some(Said::Invalid) => bad += 1,
                        Some(Said::Failed) => failed += 1,
                        Some(Said::Valid) => {}
                        None => missing += 1,
                    }
                }
                let mut cell = bad.to_string();
                if failed > 0 {
                    let _ = write!(cell, " (+{failed})");
                }
                if missing > 0 {
                    let _ = write!(cell, " ({missing} no result)");
                }
                let _ = write!(out, " {cell} |");
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out);
        // The kinds with the most objects built to be valid that a tool
        // flags.
        for (tool, v) in self.verdicts {
            let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
            for o in self.repo.objects.iter().filter(|o| o.case.is_none()) {
                let key = (o.file.clone(), o.kind.clone(), o.name.clone());
                if v.by_object.get(&key) == Some(&Said::Invalid) {
                    *by_kind.entry(o.kind.as_str()).or_default() += 1;
                }
            }
            let mut kinds: Vec<(&str, usize)> = by_kind.into_iter().collect();
            kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            if !kinds.is_empty() {
                let top: Vec<String> = kinds
                    .iter()
                    .take(6)
                    .map(|(k, n)| format!("{k} {n}"))
                    .collect();
                let _ = writeln!(
                    out,
                    "- {tool} flags objects built to be valid most in: {}",
                    top.join(", ")
                );
            }
        }
        for (tool, v) in self.verdicts {
            let extra = if v.unmatched > 0 {
                format!(" ({} results without an object name)", v.unmatched)
            } else {
                String::new()
            };
            let _ = writeln!(out, "- {tool}: {}{extra}", v.summary);
        }
    }

    fn crd_table(&self, out: &mut String) {
        let _ = writeln!(out, "\n## CRD versions\n");
        let _ = writeln!(
            out,
            "| CRD version | file | file KB | objects |\n| --- | --- | --- | --- |"
        );
        for (c, count) in self.chosen.iter().zip(&self.repo.per_crd) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {count} |",
                c.version.label(),
                self.accepted[c.file].rel.display(),
                c.bytes / 1024
            );
        }
        let _ = writeln!(out, "\nBuilt-in kinds: {}", {
            let kinds: Vec<String> = self
                .repo
                .kinds
                .iter()
                .map(|((api, kind), n)| format!("{api} {kind} ({n})"))
                .collect();
            kinds.join(", ")
        });
    }
}
