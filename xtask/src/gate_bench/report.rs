//! The report of `bench-gate`: the timings and their ratio, how many valid
//! objects each tool accepts, and per invalid object what each says.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use super::repo::{CrdFile, Object};
use super::tools::Timing;
use super::verdicts::{Verdict, Verdicts};
use crate::bench_repo::cases::CASES;
use crate::bench_repo::convert::{SCHEMA_TEMPLATE, property_named_properties};
use crate::bench_repo::kubeconform::{KUBECONFORM_MODULE, Kubeconform};
use crate::measure::{self, Stats, stats};

/// What the report is made of.
pub(super) struct Report<'a> {
    /// `--runs`.
    pub(super) runs: usize,
    /// `--objects`: valid objects per CRD version.
    pub(super) per_version: usize,
    /// `--jobs`.
    pub(super) jobs: usize,
    pub(super) files: &'a [CrdFile],
    pub(super) objects: &'a [Object],
    pub(super) total_bytes: u64,
    pub(super) kubeconform: Option<&'a Kubeconform>,
    pub(super) ours: &'a Verdicts,
    pub(super) theirs: Option<&'a Verdicts>,
    pub(super) ours_runs: &'a [Timing],
    pub(super) theirs_runs: &'a [Timing],
    pub(super) notes: &'a [String],
}

/// At most this many characters of a message in a table cell.
const CELL: usize = 150;

/// Table cell text: the first two messages, shortened, `|` escaped.
fn cell(v: Option<&Verdict>) -> String {
    let Some(v) = v else {
        return "(no result)".to_string();
    };
    let lines = if v.errors.is_empty() {
        &v.notes
    } else {
        &v.errors
    };
    let mut parts: Vec<String> = lines
        .iter()
        .take(2)
        .map(|l| {
            let mut s: String = l.chars().take(CELL).collect();
            if l.chars().count() > CELL {
                s.push('…');
            }
            s
        })
        .collect();
    if lines.len() > 2 {
        parts.push(format!("(+{} more)", lines.len() - 2));
    }
    let verdict = if v.failed {
        "**error**"
    } else if v.rejects() {
        "**rejects**"
    } else {
        "accepts"
    };
    let text = if parts.is_empty() {
        verdict.to_string()
    } else {
        format!("{verdict}: {}", parts.join("; "))
    };
    text.replace('|', "\\|").replace('\n', " ")
}

impl Report<'_> {
    pub(super) fn render(&self) -> String {
        let mut out = String::new();
        let kc = self.kubeconform;
        let _ = writeln!(out, "\n# bench-gate: schema-gen validate vs kubeconform\n");
        let versions: usize = self.files.iter().map(|f| f.versions.len()).sum();
        let valid = self.objects.iter().filter(|o| o.case.is_none()).count();
        let _ = writeln!(
            out,
            "Repository `target/bench-gate/repo`: {} CRD files, {versions} CRD versions; {} \
             objects in {} files, {} KB ({valid} valid: {} per version, built from the schema; \
             {} invalid: the cases below).",
            self.files.len(),
            self.objects.len(),
            self.files.iter().map(|f| f.objects.len()).sum::<usize>(),
            self.total_bytes / 1024,
            self.per_version,
            self.objects.len() - valid,
        );
        for n in self.notes {
            let _ = writeln!(out, "- {n}");
        }
        match kc {
            Some(k) => {
                let _ = writeln!(
                    out,
                    "- kubeconform {} ({KUBECONFORM_MODULE}, built with {}), schemas converted \
                     to JSON Schema under `target/bench-gate/schemas/`",
                    k.version, k.go
                );
            }
            None => {
                let _ = writeln!(out, "- kubeconform: not run (no Go on PATH)");
            }
        }
        self.unloadable_schemas(&mut out);

        let _ = writeln!(out, "\n## Time\n");
        let _ = writeln!(
            out,
            "Median of {} runs [min-max], wall clock; CPU: user+system time of the processes. \
             schema-gen: one `schema-gen validate --crd CRD OBJ...` per CRD file ({} \
             invocations, {} at a time); kubeconform: one `kubeconform -schema-location '{}' \
             -strict -summary -output json repo/objects` (its default 4 goroutines).\n",
            self.runs,
            self.files.len(),
            self.jobs,
            SCHEMA_TEMPLATE
        );
        let _ = writeln!(
            out,
            "| tool | wall s | CPU s | objects/s |\n| --- | --- | --- | --- |"
        );
        let n = self.objects.len() as f64;
        let row = |out: &mut String, name: &str, runs: &[Timing]| -> Option<(Stats, Option<f64>)> {
            if runs.is_empty() {
                return None;
            }
            let wall = stats(runs.iter().map(|t| t.secs));
            let cpu = runs
                .iter()
                .map(|t| t.cpu)
                .collect::<Option<Vec<_>>>()
                .map(|c| stats(c.into_iter()).median);
            let _ = writeln!(
                out,
                "| {name} | {:.3} [{:.3}-{:.3}] | {} | {:.0} |",
                wall.median,
                wall.min,
                wall.max,
                measure::or_dash(cpu, 2),
                n / wall.median
            );
            Some((wall, cpu))
        };
        let ours = row(&mut out, "schema-gen validate", self.ours_runs);
        let theirs = row(&mut out, "kubeconform", self.theirs_runs);
        if let (Some((a, a_cpu)), Some((b, b_cpu))) = (&ours, &theirs) {
            let (ratio, faster) = if a.median <= b.median {
                (b.median / a.median, "schema-gen")
            } else {
                (a.median / b.median, "kubeconform")
            };
            let cpu = a_cpu
                .zip(*b_cpu)
                .map(|(a, b)| format!("; CPU time: {:.2}", b / a))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "\nkubeconform / schema-gen: wall time {:.2} ({faster} is {ratio:.2}x faster){cpu}",
                b.median / a.median
            );
        }

        let Some(theirs) = self.theirs else {
            self.invalid_table(&mut out, None);
            return out;
        };
        self.valid_section(&mut out, theirs);
        self.invalid_table(&mut out, Some(theirs));
        out
    }

    /// The CRD versions whose converted schema kubeconform cannot load, and
    /// why when the cause is the conversion's known one.
    fn unloadable_schemas(&self, out: &mut String) {
        let Some(theirs) = self.theirs else { return };
        let mut seen = HashSet::new();
        for o in self.objects {
            let key = (o.file.clone(), o.name.clone());
            if theirs.get(&key).is_some_and(|v| v.failed) && seen.insert(o.crd) {
                let v = &self.files[o.crd.0].versions[o.crd.1];
                let why = if property_named_properties(&v.schema) {
                    ": the schema has a property named `properties`, and the conversion gives \
                     that properties map `additionalProperties: false` as if it were a schema, \
                     which is not valid JSON Schema, so kubeconform reports every object of the \
                     version as `could not find schema`"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "- kubeconform cannot load the converted schema of {}{why}",
                    v.label()
                );
            }
        }
    }

    fn verdicts(
        &self,
        o: &Object,
        theirs: Option<&Verdicts>,
    ) -> (Option<Verdict>, Option<Verdict>) {
        let key = (o.file.clone(), o.name.clone());
        (
            self.ours.get(&key).cloned(),
            theirs.and_then(|t| t.get(&key).cloned()),
        )
    }

    fn label(&self, o: &Object) -> String {
        self.files[o.crd.0].versions[o.crd.1].label()
    }

    fn valid_section(&self, out: &mut String, theirs: &Verdicts) {
        let valid: Vec<&Object> = self.objects.iter().filter(|o| o.case.is_none()).collect();
        let (mut ours_ok, mut theirs_ok, mut theirs_failed) = (0, 0, 0);
        let mut differ = Vec::new();
        for o in &valid {
            let (a, b) = self.verdicts(o, Some(theirs));
            let a_ok = a.as_ref().is_some_and(|v| v.errors.is_empty());
            let b_ok = b.as_ref().is_some_and(|v| v.errors.is_empty());
            ours_ok += usize::from(a_ok);
            theirs_ok += usize::from(b_ok);
            theirs_failed += usize::from(b.as_ref().is_some_and(|v| v.failed));
            if a_ok != b_ok {
                differ.push((*o, a, b));
            }
        }
        let _ = writeln!(out, "\n## Objects built to be valid\n");
        let _ = writeln!(
            out,
            "schema-gen admits {ours_ok} of {}; kubeconform accepts {theirs_ok} and cannot \
             validate {theirs_failed} (no schema it can load); they disagree on {}. The generator \
             fills the required fields and a random choice of optional ones from the schema and \
             guesses at common CEL rules (the first `has()` of a rule, `self in [...]`, \
             `duration(self)`), but does not solve them: a rejection here can be the generator's \
             miss as well as a difference between the tools.",
            valid.len(),
            differ.len()
        );
        if !differ.is_empty() {
            // One example per CRD version.
            let mut seen = HashSet::new();
            let _ = writeln!(
                out,
                "\n| CRD version | object | schema-gen | kubeconform |\n| --- | --- | --- | --- |"
            );
            for (o, a, b) in &differ {
                if seen.insert(o.crd) {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} |",
                        self.label(o),
                        o.name,
                        cell(a.as_ref()),
                        cell(b.as_ref())
                    );
                }
            }
            let _ = writeln!(
                out,
                "\n(the first object of each CRD version; {} disagreements in all)",
                differ.len()
            );
        }
    }

    fn invalid_table(&self, out: &mut String, theirs: Option<&Verdicts>) {
        let _ = writeln!(out, "\n## Invalid objects\n");
        let _ = writeln!(
            out,
            "Each case once per CRD version whose schema has a place for it (the first such \
             field, breadth first), in an object with only the required fields otherwise. \
             \"rejects\": errors, exit status 1. schema-gen prunes unknown fields with a warning, \
             as the API server does without strict field validation (`warns`). kubeconform \
             \"error\": it could not validate the object (no schema it can load).\n"
        );
        let _ = writeln!(
            out,
            "| case | what | objects | schema-gen rejects (warns) | kubeconform rejects (error) | only schema-gen | only kubeconform | neither |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- |"
        );
        // objects, ours, ours warns, theirs, theirs failed, only ours, only theirs, neither
        let mut rows: BTreeMap<usize, [usize; 8]> = BTreeMap::new();
        for o in self.objects {
            let Some(ci) = o.case else { continue };
            let (a, b) = self.verdicts(o, theirs);
            let warns = a
                .as_ref()
                .is_some_and(|v| !v.rejects() && !v.notes.is_empty());
            let a = a.is_some_and(|v| v.rejects());
            let failed = b.as_ref().is_some_and(|v| v.failed);
            let b = b.is_some_and(|v| v.rejects());
            let r = rows.entry(ci).or_default();
            for (i, x) in [
                true,
                a,
                warns,
                b,
                failed,
                a && !b,
                b && !a,
                !a && !b && !failed,
            ]
            .into_iter()
            .enumerate()
            {
                r[i] += usize::from(x);
            }
        }
        for (ci, r) in &rows {
            let (case, what) = CASES[*ci];
            let k = |x: String| if theirs.is_some() { x } else { "-".to_string() };
            let _ = writeln!(
                out,
                "| {case} | {what} | {} | {} ({}) | {} | {} | {} | {} |",
                r[0],
                r[1],
                r[2],
                k(format!("{} ({})", r[3], r[4])),
                k(r[5].to_string()),
                k(r[6].to_string()),
                k(r[7].to_string()),
            );
        }
        let _ = writeln!(
            out,
            "\n### Per object\n\n| CRD version | case | field | schema-gen | kubeconform |\n\
             | --- | --- | --- | --- | --- |"
        );
        for o in self.objects {
            let Some(ci) = o.case else { continue };
            let (a, b) = self.verdicts(o, theirs);
            let _ = writeln!(
                out,
                "| {} | {} | `{}` | {} | {} |",
                self.label(o),
                CASES[ci].0,
                o.field,
                cell(a.as_ref()),
                if theirs.is_some() {
                    cell(b.as_ref())
                } else {
                    "-".to_string()
                }
            );
        }
    }
}
