//! The flags of the `bench-*` commands: each command lists its flags, bound
//! to the fields they set (which hold the defaults), and [`parse`] reads
//! them all the same way.

use anyhow::{Context, Result, bail};

/// One flag of a benchmark command.
pub enum Flag<'o> {
    /// `--name N`: a count, at least 1.
    Count(&'static str, &'o mut usize),
    /// `--name`: sets the field to the value given.
    Switch(&'static str, &'o mut bool, bool),
    /// `--name a,b,c`: a comma-separated list; the text says what is
    /// missing when no value follows.
    List(&'static str, &'o mut Option<Vec<String>>, &'static str),
}

impl Flag<'_> {
    fn name(&self) -> &'static str {
        match self {
            Flag::Count(name, _) | Flag::Switch(name, ..) | Flag::List(name, ..) => name,
        }
    }
}

/// Reads `args` into the fields of `flags`; anything else is an error that
/// ends with `usage`.
pub fn parse(args: &[String], usage: &str, flags: &mut [Flag<'_>]) -> Result<()> {
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let Some(flag) = flags.iter_mut().find(|f| f.name() == arg) else {
            bail!("unknown option {arg:?}\n{usage}");
        };
        match flag {
            Flag::Count(name, slot) => {
                let n = it
                    .next()
                    .with_context(|| format!("{name} needs a number"))?;
                **slot = n
                    .parse()
                    .with_context(|| format!("{name} needs a number"))?;
                if **slot == 0 {
                    bail!("{name} must be at least 1");
                }
            }
            Flag::Switch(_, slot, value) => **slot = *value,
            Flag::List(_, slot, missing) => {
                let list = it.next().context(*missing)?;
                **slot = Some(list.split(',').map(str::to_string).collect());
            }
        }
    }
    Ok(())
}

/// The options the compile-time benchmarks (`bench-derive`, `bench-gen`)
/// share.
pub struct BuildOptions {
    /// `--runs N` (5 by default): timed runs of each command.
    pub runs: usize,
    /// Not `--no-cold`: time a build from an empty target directory.
    pub cold: bool,
    /// `--generate-only`: write the crates, measure nothing.
    pub generate_only: bool,
}

impl BuildOptions {
    /// Parses `args`: the shared flags and the command's `extra` ones.
    pub fn parse(args: &[String], usage: &str, extra: Vec<Flag<'_>>) -> Result<Self> {
        let mut o = BuildOptions {
            runs: 5,
            cold: true,
            generate_only: false,
        };
        let shared = [
            Flag::Count("--runs", &mut o.runs),
            Flag::Switch("--no-cold", &mut o.cold, false),
            Flag::Switch("--generate-only", &mut o.generate_only, true),
        ];
        parse_with(args, usage, shared, extra)?;
        Ok(o)
    }
}

/// The options the benchmarks over a generated repository of manifests
/// (`bench-gate`, `bench-validate-scale`) share.
pub struct RepoOptions {
    /// `--runs N` (5 by default): timed runs of each command.
    pub runs: usize,
    /// `--objects N`: how many objects the repository has.
    pub objects: usize,
    /// `--generate-only`: write the repository, run nothing.
    pub generate_only: bool,
}

impl RepoOptions {
    /// Parses `args`: the shared flags (`objects` by default) and the
    /// command's `extra` ones.
    pub fn parse(
        args: &[String],
        usage: &str,
        objects: usize,
        extra: Vec<Flag<'_>>,
    ) -> Result<Self> {
        let mut o = RepoOptions {
            runs: 5,
            objects,
            generate_only: false,
        };
        let shared = [
            Flag::Count("--runs", &mut o.runs),
            Flag::Count("--objects", &mut o.objects),
            Flag::Switch("--generate-only", &mut o.generate_only, true),
        ];
        parse_with(args, usage, shared, extra)?;
        Ok(o)
    }
}

/// [`parse`] with a command's `shared` flags and its `extra` ones.
fn parse_with<'o>(
    args: &[String],
    usage: &str,
    shared: [Flag<'o>; 3],
    extra: Vec<Flag<'o>>,
) -> Result<()> {
    let mut flags: Vec<Flag<'o>> = shared.into_iter().chain(extra).collect();
    parse(args, usage, &mut flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn flags_set_their_fields() {
        let (mut runs, mut double, mut only) = (5, false, None);
        parse(
            &args("--runs 3 --double --only a,b"),
            "usage",
            &mut [
                Flag::Count("--runs", &mut runs),
                Flag::Switch("--double", &mut double, true),
                Flag::List("--only", &mut only, "--only needs names"),
            ],
        )
        .expect("valid flags");
        assert_eq!((runs, double), (3, true));
        assert_eq!(only, Some(vec!["a".to_string(), "b".to_string()]));
    }

    #[test]
    fn errors_name_the_flag() {
        let mut runs = 5;
        let mut error = |line: &str| {
            parse(
                &args(line),
                "usage",
                &mut [Flag::Count("--runs", &mut runs)],
            )
            .map_err(|e| format!("{e:#}"))
            .expect_err("invalid flags")
        };
        assert_eq!(error("--runs 0"), "--runs must be at least 1");
        assert!(error("--runs x").starts_with("--runs needs a number"));
        assert_eq!(error("--runs"), "--runs needs a number");
        assert_eq!(error("--jobs 2"), "unknown option \"--jobs\"\nusage");
    }
}
