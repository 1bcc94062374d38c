//! `schema-gen explain`: `kubectl explain` on CRD files, offline: the
//! resource or field a user names, explained from the OpenAPI v3 document
//! the API server publishes for its group-version, with what kubectl does
//! not show on marked lines.

use std::path::{Path, PathBuf};

use schema_core::check;
use schema_core::crd::publish::publish_v3;
use schema_core::docs::explain::{self, ExplainError, ExplainFailure, Options};
use schema_core::model::wire::CustomResourceDefinition;
use schema_core::model::wire::input::Input;

use super::args::ExplainFormat;
use super::crds::read_crds;
use super::reports::json_text;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// What `explain` was asked.
pub(super) struct Request<'a> {
    /// Files and directories, then optionally `RESOURCE[.FIELD...]`.
    pub args: &'a [String],
    /// `--api-version`.
    pub api_version: Option<&'a str>,
    /// `--recursive` and `--max-depth`.
    pub recursive: bool,
    /// `--max-depth`.
    pub max_depth: usize,
    /// `-o`.
    pub format: ExplainFormat,
    /// The options of the entry points (`--kube-version`).
    pub options: schema_core::Options,
}

/// Splits the arguments into input paths and the resource request: every
/// argument that is `-` or names an existing file or directory is an
/// input; the last argument may instead be the request.
fn split_args(args: &[String]) -> Result<(Vec<PathBuf>, Option<&str>), String> {
    let is_input = |a: &str| a == "-" || Path::new(a).exists();
    let (last, rest) = match args.split_last() {
        Some((last, rest)) if !is_input(last) => (Some(last.as_str()), rest),
        _ => (None, args),
    };
    let mut files = Vec::new();
    for a in rest {
        if !is_input(a) {
            return Err(format!(
                "{a}: no such file or directory (only the last argument can name a resource)"
            ));
        }
        files.push(PathBuf::from(a));
    }
    if files.is_empty() {
        return Err("no CRD file given: schema-gen explain FILE... [RESOURCE[.FIELD...]]".into());
    }
    Ok((files, last))
}

/// The kinds of `crds`, for a message: `plural.group` each.
fn kinds(crds: &[CustomResourceDefinition]) -> String {
    let mut names: Vec<String> = crds
        .iter()
        .filter_map(|c| {
            let s = c.spec.as_ref()?;
            Some(format!(
                "{}.{}",
                s.names.as_ref()?.plural.as_deref()?,
                s.group.as_deref()?
            ))
        })
        .collect();
    names.sort();
    names.dedup();
    names.join(", ")
}

/// Runs `explain`.
pub(super) fn run(req: &Request<'_>, io: &mut Io<'_>) -> i32 {
    let (files, request) = match split_args(req.args) {
        Ok(split) => split,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let (crds, _) = match read_crds(&files, io) {
        Ok(read) => read,
        Err(code) => return code,
    };
    // Without a resource, the one kind of the input.
    let request = match request {
        Some(r) => r.to_string(),
        None if crds.len() == 1 => {
            let names = crds[0].spec.as_ref().and_then(|s| s.names.as_ref());
            names.and_then(|n| n.plural.clone()).unwrap_or_default()
        }
        None => {
            let _ = writeln!(
                io.stderr,
                "error: the input defines several resources ({}): name one, as in `schema-gen explain FILE... RESOURCE[.FIELD...]`",
                kinds(&crds)
            );
            return EXIT_UNPROCESSABLE;
        }
    };
    let target = match explain::resolve(&crds, &request, req.api_version) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(io.stderr, "error: {e}");
            return EXIT_ERRORS;
        }
    };
    // A CRD the API server rejects is never served; if it were, a
    // schema that is not structural is published as an empty object.
    let errors = check(&Input::CrdV1(Box::new(target.crd.clone())), &req.options)
        .errors
        .len();
    if errors > 0 {
        let _ = writeln!(
            io.stderr,
            "warning: the API server rejects this CRD ({errors} error{}; `schema-gen check` lists them): what it would publish for it is explained",
            if errors == 1 { "" } else { "s" }
        );
    }
    let docs = match publish_v3(target.crd, &req.options) {
        Ok(d) => d,
        Err(e) => {
            let _ = writeln!(io.stderr, "error: {}: {e}", target.resource);
            return EXIT_ERRORS;
        }
    };
    let key = format!("apis/{}/{}", target.gvk.group, target.gvk.version);
    let Some(doc) = docs.get(&key) else {
        let _ = writeln!(io.stderr, "error: internal error: no document {key}");
        return EXIT_ERRORS;
    };
    let options = Options {
        recursive: req.recursive,
        max_depth: req.max_depth,
        extras: req.format == ExplainFormat::Plaintext,
    };
    let result = match req.format {
        ExplainFormat::Json => {
            explain::explain_json(doc, &target.gvk, &target.fields, options).map(|v| json_text(&v))
        }
        ExplainFormat::Plaintext | ExplainFormat::Kubectl => {
            explain::explain(doc, &target.gvk, &target.fields, options)
        }
    };
    match result {
        Ok(text) => {
            if io.stdout.write_all(text.as_bytes()).is_err() {
                return EXIT_UNPROCESSABLE;
            }
            EXIT_OK
        }
        Err(ExplainFailure { printed, error }) => {
            // As kubectl: the header is out before the field is looked up.
            if req.format != ExplainFormat::Json {
                let _ = io.stdout.write_all(printed.as_bytes());
            }
            let _ = writeln!(io.stderr, "error: {error}");
            if let ExplainError::FieldNotFound {
                missing: Some((at, name, suggestion)),
                ..
            } = &error
            {
                let mut parent = vec![target.resource.clone()];
                parent.extend(target.fields[..*at].iter().cloned());
                let parent = parent.join(".");
                let _ = write!(io.stderr, "  {parent} has no field \"{name}\"");
                match suggestion {
                    Some(s) => {
                        let _ = writeln!(io.stderr, "; did you mean \"{parent}.{s}\"?");
                    }
                    None => {
                        let _ = writeln!(
                            io.stderr,
                            "; `schema-gen explain ... {parent}` lists its fields"
                        );
                    }
                }
            }
            EXIT_ERRORS
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_argument_may_be_the_resource() {
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
        let two = args(&["-", "widgets.spec"]);
        let (files, r) = split_args(&two).unwrap();
        assert_eq!((files.len(), r), (1, Some("widgets.spec")));
        let one = args(&["-"]);
        let (files, r) = split_args(&one).unwrap();
        assert_eq!((files.len(), r), (1, None));
        assert!(split_args(&args(&["nope.yaml", "-", "widgets"])).is_err());
        assert!(split_args(&args(&["widgets"])).is_err());
    }
}
