//! apimachinery's name checks, with its messages: the RFC 1123 and
//! RFC 1035 names of `util/validation` (`IsDNS1123Label`,
//! `IsDNS1123Subdomain`, `IsDNS1035Label`), label keys (`IsQualifiedName`)
//! and values (`IsValidLabelValue`), the `ValidateNameFunc`s of
//! `api/validation` (`NameIsDNSSubdomain`, with `maskTrailingDash` for a
//! `generateName` prefix) and `path.ValidatePathSegmentName`, the name
//! generator of `generateName` (`names.SimpleNameGenerator`), and
//! `schema.ParseGroupVersion`.
//!
//! Each check returns the list of what is wrong (empty when the value is
//! valid), as upstream does. The texts are those of the API server
//! generation this crate targets: a length error says `must be no more
//! than 63 characters` (the newest apimachinery says `bytes`).

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// The longest DNS label (and label key name part, and label value).
const DNS1123_LABEL_MAX_LEN: usize = 63;
/// The longest DNS subdomain.
const DNS1123_SUBDOMAIN_MAX_LEN: usize = 253;

/// `validation.MaxLenError`.
fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `validation.RegexError`.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(e);
        s.push_str("', ");
    }
    s.push_str("regex used for validation is '");
    s.push_str(fmt);
    s.push_str("')");
    s
}

/// Whether `s` matches `^F(M*L)?$` for the byte classes `first`, `middle`
/// and `last`.
fn matches_label(
    b: &[u8],
    first: fn(u8) -> bool,
    middle: fn(u8) -> bool,
    last: fn(u8) -> bool,
) -> bool {
    match b.split_first() {
        None => false,
        Some((f, rest)) => {
            first(*f)
                && match rest.split_last() {
                    None => true,
                    Some((l, mid)) => last(*l) && mid.iter().all(|c| middle(*c)),
                }
        }
    }
}

fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

fn lower_alnum_dash(c: u8) -> bool {
    lower_alnum(c) || c == b'-'
}

fn lower_alpha(c: u8) -> bool {
    c.is_ascii_lowercase()
}

fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

fn label_key_middle(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')
}

fn dns1123_label_match(b: &[u8]) -> bool {
    matches_label(b, lower_alnum, lower_alnum_dash, lower_alnum)
}

fn dns1123_subdomain_match(b: &[u8]) -> bool {
    b.split(|c| *c == b'.').all(dns1123_label_match)
}

fn dns1123_subdomain_fmt() -> String {
    format!("{DNS1123_LABEL_FMT}(\\.{DNS1123_LABEL_FMT})*")
}

/// `validation.IsDNS1123Label`.
pub(crate) fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LEN {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LEN));
    }
    if !dns1123_label_match(value.as_bytes()) {
        if dns1123_subdomain_match(value.as_bytes()) {
            errs.push("must not contain dots".into());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_ERR,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `validation.IsDNS1123Subdomain`.
pub(crate) fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    dns1123_subdomain_errors(value.as_bytes())
}

/// [`is_dns1123_subdomain`] of a Go string, which may hold any bytes (a
/// masked prefix can end in half a character).
fn dns1123_subdomain_errors(value: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LEN {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LEN));
    }
    if !dns1123_subdomain_match(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            &dns1123_subdomain_fmt(),
            &["example.com"],
        ));
    }
    errs
}

/// `validation.IsDNS1035Label`.
pub(crate) fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LEN {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LEN));
    }
    if !matches_label(value.as_bytes(), lower_alpha, lower_alnum_dash, lower_alnum) {
        errs.push(regex_error(
            DNS1035_LABEL_ERR,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `validation.IsQualifiedName` (a label key: an optional DNS subdomain
/// prefix and `/`, then a name of at most 63 characters).
pub(crate) fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let name = match value.split_once('/') {
        None => value,
        Some((_, suffix)) if suffix.contains('/') => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
        Some((prefix, suffix)) => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".into());
            } else {
                errs.extend(
                    is_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            suffix
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".into());
    } else if name.len() > DNS1123_LABEL_MAX_LEN {
        errs.push(format!(
            "name part {}",
            max_len_error(DNS1123_LABEL_MAX_LEN)
        ));
    }
    if !matches_label(name.as_bytes(), alnum, label_key_middle, alnum) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_ERR,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `validation.IsValidLabelValue`.
pub(crate) fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LEN {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LEN));
    }
    if !value.is_empty() && !matches_label(value.as_bytes(), alnum, label_key_middle, alnum) {
        errs.push(regex_error(
            LABEL_VALUE_ERR,
            &format!("({LABEL_KEY_FMT})?"),
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `maskTrailingDash`: a name longer than one byte that ends in `-` has its
/// last **two** bytes replaced by `a` (upstream cuts `name[:len(name)-2]`),
/// so that a `generateName` prefix may end in a dash. A lone `-` stays as
/// it is (and is not a valid prefix). The cut is in bytes, as Go's, and
/// may split a character.
fn mask_trailing_dash(name: &str) -> Vec<u8> {
    let b = name.as_bytes();
    match b.split_last() {
        Some((b'-', head)) if !head.is_empty() => {
            let mut masked = head.get(..head.len() - 1).unwrap_or_default().to_vec();
            masked.push(b'a');
            masked
        }
        _ => b.to_vec(),
    }
}

/// `NameIsDNSSubdomain`, the `ValidateNameFunc` of names that must be a DNS
/// subdomain (custom resources, CRDs): `prefix` says `name` is a
/// `generateName`, whose trailing dash is masked first.
pub(crate) fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return dns1123_subdomain_errors(&mask_trailing_dash(name));
    }
    is_dns1123_subdomain(name)
}

/// `path.ValidatePathSegmentName(name, prefix)`: a name that is a path
/// segment may not be `.` or `..` (unless it is a prefix) and may not
/// contain `/` or `%`.
pub(crate) fn validate_path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        for illegal in [".", ".."] {
            if name == illegal {
                return vec![format!("may not be '{illegal}'")];
            }
        }
    }
    let mut errs = Vec::new();
    for illegal in ["/", "%"] {
        if name.contains(illegal) {
            errs.push(format!("may not contain '{illegal}'"));
        }
    }
    errs
}

/// `names.maxGeneratedNameLength`: the longest base a generated name keeps.
const MAX_GENERATED_NAME_BASE_LEN: usize = 63 - 5;

/// `names.SimpleNameGenerator.GenerateName(base)`, the name `BeforeCreate`
/// gives an object that has a `generateName` and no `name`: the base cut to
/// 58 bytes plus five random characters. The server's suffix is random;
/// `xxxxx` (one of its possible values) keeps the result deterministic.
pub(crate) fn generated_name(base: &str) -> String {
    let mut cut = base.len().min(MAX_GENERATED_NAME_BASE_LEN);
    while !base.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}xxxxx", base.get(..cut).unwrap_or(base))
}

/// `schema.ParseGroupVersion`: `Ok((group, version))`; the empty string
/// and `/` give empty parts, a single word is a version of the core group,
/// and more than one `/` is an error.
pub(crate) fn parse_group_version(gv: &str) -> Result<(&str, &str), String> {
    if gv.is_empty() || gv == "/" {
        return Ok(("", ""));
    }
    match gv.matches('/').count() {
        0 => Ok(("", gv)),
        1 => Ok(gv.split_once('/').unwrap_or(("", ""))),
        _ => Err(format!("unexpected GroupVersion string: {gv}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const NAME_PART_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

    #[test]
    fn dns_names_have_apimachinery_messages() {
        assert_eq!(is_dns1035_label("abc-123"), Vec::<String>::new());
        assert_eq!(
            is_dns1035_label(&"a".repeat(64)),
            ["must be no more than 63 characters"]
        );
        assert_eq!(is_dns1123_label("a.b"), ["must not contain dots"]);
        assert_eq!(is_dns1123_subdomain("a.b-c.d"), Vec::<String>::new());
        assert_eq!(is_dns1123_subdomain("a..b"), [SUBDOMAIN_MSG]);
        assert_eq!(
            is_dns1123_subdomain(&"a".repeat(254)),
            ["must be no more than 253 characters"]
        );
    }

    #[test]
    fn label_keys_and_values() {
        assert_eq!(
            is_qualified_name("example.com/MyName"),
            Vec::<String>::new()
        );
        assert_eq!(
            is_qualified_name("Example.com/x"),
            [format!("prefix part {SUBDOMAIN_MSG}")]
        );
        assert_eq!(is_qualified_name("/x"), ["prefix part must be non-empty"]);
        assert_eq!(
            is_qualified_name("x/"),
            [
                "name part must be non-empty".to_string(),
                NAME_PART_MSG.to_string()
            ]
        );
        assert_eq!(
            is_qualified_name("a/b/c"),
            [
                "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            ]
        );
        assert_eq!(is_valid_label_value(""), Vec::<String>::new());
        assert_eq!(
            is_valid_label_value(&"a".repeat(64)),
            ["must be no more than 63 characters"]
        );
    }

    #[test]
    fn generate_name_prefixes_mask_a_trailing_dash() {
        assert_eq!(name_is_dns_subdomain("abc-", true), Vec::<String>::new());
        assert_eq!(name_is_dns_subdomain("abc-", false), [SUBDOMAIN_MSG]);
        // A lone dash is left alone, so it is not a valid prefix.
        assert_eq!(name_is_dns_subdomain("-", true), [SUBDOMAIN_MSG]);
        // Two bytes are cut: 254 bytes ending in a dash are checked as 253.
        let long = format!("{}-", "a".repeat(253));
        assert_eq!(name_is_dns_subdomain(&long, true), Vec::<String>::new());
        let longer = format!("{}-", "a".repeat(254));
        assert_eq!(
            name_is_dns_subdomain(&longer, true),
            ["must be no more than 253 characters"]
        );
        // "a.-" masks to "aa"; ".-" to "a".
        assert_eq!(name_is_dns_subdomain("a.-", true), Vec::<String>::new());
        assert_eq!(name_is_dns_subdomain(".-", true), Vec::<String>::new());
        // The cut may split a character: 251 + 1 + 1 bytes remain, not 255.
        let split = format!("{}é-", "a".repeat(251));
        assert_eq!(name_is_dns_subdomain(&split, true), [SUBDOMAIN_MSG]);
    }

    #[test]
    fn generated_names_cut_the_base_to_58_bytes() {
        assert_eq!(generated_name("worker-"), "worker-xxxxx");
        let long = "a".repeat(300);
        assert_eq!(generated_name(&long), format!("{}xxxxx", "a".repeat(58)));
        // The cut never splits a character.
        let wide = format!("{}é", "a".repeat(57));
        assert_eq!(generated_name(&wide), format!("{}xxxxx", "a".repeat(57)));
    }

    #[test]
    fn path_segment_names_and_group_versions() {
        assert_eq!(validate_path_segment_name("..", false), ["may not be '..'"]);
        assert!(validate_path_segment_name("..", true).is_empty());
        assert_eq!(
            validate_path_segment_name("a/b%", true),
            ["may not contain '/'", "may not contain '%'"]
        );
        assert_eq!(parse_group_version(""), Ok(("", "")));
        assert_eq!(parse_group_version("/"), Ok(("", "")));
        assert_eq!(parse_group_version("v1"), Ok(("", "v1")));
        assert_eq!(parse_group_version("apps/v1"), Ok(("apps", "v1")));
        assert_eq!(
            parse_group_version("a/b/c"),
            Err("unexpected GroupVersion string: a/b/c".to_string())
        );
    }
}
