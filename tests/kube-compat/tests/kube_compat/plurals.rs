//! The default plural (no `plural` written) of each of a list of awkward
//! kind names: kube-derive's is the rule below; ours must be kube-derive's,
//! kind by kind, or the CRD's name and API path change under a user.

/// kube's rule on the lower-cased kind: `-es` after `s`, `x`, `z`, `ch` or
/// `sh`; `-ies` for a `y` after a consonant; `-s` otherwise.
fn kubes_rule(kind: &str) -> String {
    let word = kind.to_ascii_lowercase();
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| word.ends_with(end))
    {
        return format!("{word}es");
    }
    let mut chars = word.chars().rev();
    if let (Some('y'), Some(before)) = (chars.next(), chars.next())
        && !"aeiou".contains(before)
    {
        return format!("{}ies", &word[..word.len() - 1]);
    }
    format!("{word}s")
}

#[test]
fn kube_derives_plurals_follow_kubes_rule() {
    let plurals = kube_compat_tests::kube_derive::plural_kinds::plurals();
    assert!(plurals.len() >= 60, "{} kinds", plurals.len());
    let wrong: Vec<String> = plurals
        .iter()
        .filter(|(kind, plural)| *plural != kubes_rule(kind))
        .map(|(kind, plural)| format!("{kind}: {plural}, the rule says {}", kubes_rule(kind)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_rule_gives_the_plurals_the_kinds_are_known_by() {
    for (kind, plural) in [
        ("Redis", "redises"),
        ("Mongo", "mongos"),
        ("Index", "indexes"),
        ("Metrics", "metricses"),
        ("Policy", "policies"),
        ("Day", "days"),
        ("Batch", "batches"),
        ("Person", "persons"),
        ("DNSRecord", "dnsrecords"),
    ] {
        assert_eq!(kubes_rule(kind), plural, "{kind}");
    }
}

#[test]
fn ours_picks_kube_derives_plural_for_every_kind() {
    let theirs = kube_compat_tests::kube_derive::plural_kinds::plurals();
    let ours = kube_compat_tests::ours::plural_kinds::plurals();
    assert_eq!(theirs.len(), ours.len());
    let differing: Vec<String> = theirs
        .iter()
        .zip(&ours)
        .filter(|(t, o)| t != o)
        .map(|((kind, t), (_, o))| format!("{kind}: kube-derive {t}, ours {o}"))
        .collect();
    assert!(
        differing.is_empty(),
        "{} of {} kinds differ:\n{}",
        differing.len(),
        theirs.len(),
        differing.join("\n")
    );
}
