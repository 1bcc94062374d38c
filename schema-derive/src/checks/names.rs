//! The names of a custom resource: the plural controller-gen gives a kind
//! (`flect.Pluralize(strings.ToLower(kind))`, gobuffalo/flect v1), the
//! plural kube-derive gives it ([`kube_plural`]), and the API server's checks of group, version and names (apimachinery's
//! `IsDNS1123Subdomain` and `IsDNS1035Label`, with their messages).

/// Words whose plural flect knows by heart (`flect.Dictionary`):
/// (singular, plural, exact). An exact word only matches whole; the others
/// also end compound words (`superman` -> `supermen`).
const DICTIONARY: &[(&str, &str, bool)] = &[
    ("aircraft", "aircraft", false),
    ("beef", "beef", false),
    ("bison", "bison", false),
    ("blues", "blues", false),
    ("chassis", "chassis", false),
    ("deer", "deer", false),
    ("fish", "fish", false),
    ("moose", "moose", false),
    ("police", "police", false),
    ("salmon", "salmon", false),
    ("series", "series", false),
    ("sheep", "sheep", false),
    ("shrimp", "shrimp", false),
    ("species", "species", false),
    ("swine", "swine", false),
    ("trout", "trout", false),
    ("tuna", "tuna", false),
    ("you", "you", false),
    ("child", "children", false),
    ("ox", "oxen", true),
    ("foot", "feet", false),
    ("goose", "geese", false),
    ("man", "men", false),
    ("human", "humans", false),
    ("louse", "lice", true),
    ("mouse", "mice", false),
    ("tooth", "teeth", false),
    ("woman", "women", false),
    ("die", "dice", true),
    ("person", "people", false),
    ("adieu", "adieux", false),
    ("fabliau", "fabliaux", false),
    ("bureau", "bureaus", false),
    ("criterion", "criteria", false),
    ("ganglion", "ganglia", false),
    ("lexicon", "lexica", false),
    ("mitochondrion", "mitochondria", false),
    ("noumenon", "noumena", false),
    ("phenomenon", "phenomena", false),
    ("taxon", "taxa", false),
    ("media", "media", false),
    ("medium", "media", false),
    ("stadium", "stadiums", false),
    ("aquarium", "aquaria", false),
    ("auditorium", "auditoria", false),
    ("symposium", "symposia", false),
    ("curriculum", "curriculums", false),
    ("quota", "quotas", false),
    ("alumnus", "alumni", false),
    ("bacillus", "bacilli", false),
    ("cactus", "cacti", false),
    ("coccus", "cocci", false),
    ("focus", "foci", false),
    ("locus", "loci", false),
    ("nucleus", "nuclei", false),
    ("octopus", "octupuses", false),
    ("radius", "radii", false),
    ("syllabus", "syllabi", false),
    ("corpus", "corpora", false),
    ("genus", "genera", false),
    ("alumna", "alumnae", false),
    ("vertebra", "vertebrae", false),
    ("differentia", "differentiae", false),
    ("minutia", "minutiae", false),
    ("vita", "vitae", false),
    ("larva", "larvae", false),
    ("postcava", "postcavae", false),
    ("praecava", "praecavae", false),
    ("uva", "uvae", false),
    ("apex", "apices", false),
    ("codex", "codices", false),
    ("index", "indices", false),
    ("latex", "latices", false),
    ("vertex", "vertices", false),
    ("vortex", "vortices", false),
    ("appendix", "appendices", false),
    ("radix", "radices", false),
    ("helix", "helices", false),
    ("axis", "axes", true),
    ("crisis", "crises", false),
    ("ellipsis", "ellipses", false),
    ("genesis", "geneses", false),
    ("oasis", "oases", false),
    ("thesis", "theses", false),
    ("testis", "testes", false),
    ("base", "bases", false),
    ("basis", "bases", false),
    ("alias", "aliases", true),
    ("vedalia", "vedalias", false),
    ("use", "uses", true),
    ("abuse", "abuses", false),
    ("cause", "causes", false),
    ("clause", "clauses", false),
    ("cruse", "cruses", false),
    ("excuse", "excuses", false),
    ("fuse", "fuses", false),
    ("house", "houses", false),
    ("misuse", "misuses", false),
    ("muse", "muses", false),
    ("pause", "pauses", false),
    ("ache", "aches", false),
    ("topaz", "topazes", false),
    ("buffalo", "buffaloes", false),
    ("potato", "potatoes", false),
    ("tomato", "tomatoes", false),
    ("equipment", "equipment", false),
    ("information", "information", false),
    ("jeans", "jeans", false),
    ("money", "money", false),
    ("news", "news", false),
    ("rice", "rice", false),
    ("dwarf", "dwarfs", false),
    ("hoof", "hoofs", false),
    ("thief", "thieves", false),
    ("chive", "chives", false),
    ("hive", "hives", false),
    ("move", "moves", false),
    ("movie", "movies", false),
    ("cookie", "cookies", false),
    ("pretorium", "pretoriums", false),
    ("agenda", "agendas", false),
    ("formula", "formulas", false),
    ("shoe", "shoes", false),
    ("toe", "toes", true),
    ("graffiti", "graffiti", false),
    ("ID", "IDs", true),
];

/// Plurals flect reads back as singulars besides the dictionary's
/// (`Alternative` forms); a word equal to one of them is left alone.
const ALTERNATIVES: &[&str] = &[
    "beefs",
    "fishes",
    "salmons",
    "shrimps",
    "swines",
    "trouts",
    "tunas",
    "adieus",
    "bureaux",
    "ganglions",
    "lexicons",
    "mitochondrions",
    "stadia",
    "aquariums",
    "auditoriums",
    "symposiums",
    "curricula",
    "alumnuses",
    "cactuses",
    "focuses",
    "locuses",
    "nucleuses",
    "octopi",
    "radiuses",
    "corpuses",
    "apexes",
    "codexes",
    "indexes",
    "latexes",
    "vertexes",
    "vortexes",
    "appendixes",
    "radixes",
    "helixes",
    "buffalos",
    "dwarves",
    "hooves",
    "formulae",
];

/// Words of the dictionary that flect does not read back
/// (`Unidirectional`): their plural is not taken as a known plural.
const UNIDIRECTIONAL: &[&str] = &["blues", "medium", "ellipsis", "basis"];

/// `singularToPluralSuffixList`, in priority order.
const SUFFIXES: &[(&str, &str)] = &[
    ("tive", "tives"),
    ("eaf", "eaves"),
    ("oaf", "oaves"),
    ("afe", "aves"),
    ("arf", "arves"),
    ("rfe", "rves"),
    ("rf", "rves"),
    ("lf", "lves"),
    ("fe", "ves"),
    ("ay", "ays"),
    ("ey", "eys"),
    ("oy", "oys"),
    ("quy", "quies"),
    ("uy", "uys"),
    ("y", "ies"),
    ("eau", "eaux"),
    ("bula", "bulae"),
    ("dula", "bulae"),
    ("lula", "bulae"),
    ("nula", "bulae"),
    ("vula", "bulae"),
    ("hedron", "hedra"),
    ("ium", "ia"),
    ("seum", "seums"),
    ("eum", "ea"),
    ("oum", "oa"),
    ("stracum", "straca"),
    ("dum", "da"),
    ("elum", "ela"),
    ("ilum", "ila"),
    ("olum", "ola"),
    ("ulum", "ula"),
    ("llum", "lla"),
    ("ylum", "yla"),
    ("imum", "ima"),
    ("ernum", "erna"),
    ("gnum", "gna"),
    ("brum", "bra"),
    ("crum", "cra"),
    ("terum", "tera"),
    ("serum", "sera"),
    ("trum", "tra"),
    ("antum", "anta"),
    ("atum", "ata"),
    ("entum", "enta"),
    ("etum", "eta"),
    ("itum", "ita"),
    ("otum", "ota"),
    ("utum", "uta"),
    ("ctum", "cta"),
    ("ovum", "ova"),
    ("trix", "trices"),
    ("iasis", "iases"),
    ("mesis", "meses"),
    ("kinesis", "kineses"),
    ("resis", "reses"),
    ("gnosis", "gnoses"),
    ("opsis", "opses"),
    ("ysis", "yses"),
    ("ouse", "ouses"),
    ("lause", "lauses"),
    ("us", "uses"),
    ("ch", "ches"),
    ("io", "ios"),
    ("sh", "shes"),
    ("ss", "sses"),
    ("ez", "ezzes"),
    ("iz", "izzes"),
    ("tz", "tzes"),
    ("zz", "zzes"),
    ("ano", "anos"),
    ("lo", "los"),
    ("to", "tos"),
    ("oo", "oos"),
    ("o", "oes"),
    ("x", "xes"),
    ("S", "Ses"),
];

/// The plural controller-gen gives a kind: flect's `Pluralize` of the
/// lower-cased kind. Known words (`person` -> `people`, `index` ->
/// `indices`), then suffix rules in flect's order (a word that already
/// ends like a plural is kept: `status` -> `statuses` but `statuses` stays),
/// then `s` is added unless the word ends in `s`.
pub fn plural(kind: &str) -> String {
    let word = kind.to_lowercase();
    if word.is_empty() {
        return word;
    }
    if let Some((_, p, _)) = DICTIONARY.iter().find(|(s, _, _)| *s == word) {
        return (*p).to_string();
    }
    let known_plural = DICTIONARY
        .iter()
        .filter(|(s, _, _)| !UNIDIRECTIONAL.contains(s))
        .any(|(_, p, _)| *p == word)
        || ALTERNATIVES.contains(&word.as_str());
    if known_plural {
        return word;
    }
    // The compound rules of the dictionary (the last entry first), then the
    // suffix rules; each is preceded by a rule keeping words that already
    // end in the plural.
    let compound = DICTIONARY
        .iter()
        .rev()
        .filter(|(_, _, exact)| !exact)
        .map(|(s, p, _)| (*s, *p));
    for (singular, plural) in compound.chain(SUFFIXES.iter().copied()) {
        if word.ends_with(plural) {
            return word;
        }
        if let Some(stem) = word.strip_suffix(singular) {
            return format!("{stem}{plural}");
        }
    }
    if word.ends_with('s') {
        return word;
    }
    word + "s"
}

/// The plural kube-derive 5 gives the singular name of a kind (the
/// lower-cased kind unless `singular` is written): `es` after `s`, `x`,
/// `z`, `ch` and `sh`; `y` after a consonant becomes `ies`; else `s` is
/// added. No irregular words (`person` -> `persons`, `index` ->
/// `indexes`). As kube-derive, the letter before the `y` is looked up by
/// its byte offset among the characters.
pub fn kube_plural(word: &str) -> String {
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| word.ends_with(e))
    {
        return format!("{word}es");
    }
    if let Some(stem) = word.strip_suffix('y') {
        let before = word.len().checked_sub(2).and_then(|i| word.chars().nth(i));
        if before.is_some_and(|c| !matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')) {
            return format!("{stem}ies");
        }
    }
    format!("{word}s")
}

const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL_ERR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

fn label_matches(s: &str, first: fn(u8) -> bool) -> bool {
    let b = s.as_bytes();
    let inner = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-';
    let last = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match b {
        [] => false,
        [only] => first(*only) && last(*only),
        [f, middle @ .., l] => first(*f) && middle.iter().all(|c| inner(*c)) && last(*l),
    }
}

/// `validation.IsDNS1123Subdomain`.
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push("must be no more than 253 characters".to_string());
    }
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    if !value.split('.').all(|l| label_matches(l, alnum)) {
        errs.push(DNS1123_SUBDOMAIN_ERR.to_string());
    }
    errs
}

/// `validation.IsDNS1035Label`.
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    if !label_matches(value, |c| c.is_ascii_lowercase()) {
        errs.push(DNS1035_LABEL_ERR.to_string());
    }
    errs
}

/// The API server's check of `spec.group`.
pub fn group_errors(group: &str) -> Vec<String> {
    let errs = dns1123_subdomain(group);
    if errs.is_empty() && group.split('.').count() < 2 {
        return vec!["should be a domain with at least one dot".to_string()];
    }
    errs
}

/// The API server's check of `spec.names.kind` and `listKind`.
pub fn kind_errors(kind: &str) -> Vec<String> {
    let errs = dns1035_label(&kind.to_lowercase());
    if errs.is_empty() {
        return errs;
    }
    vec![format!(
        "may have mixed case, but should otherwise match: {}",
        errs.join(",")
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        for (kind, want) in [
            ("Policy", "policies"),
            ("Ingress", "ingresses"),
            ("Proxy", "proxies"),
            ("Key", "keys"),
            ("Status", "statuses"),
            ("Person", "people"),
            ("Child", "children"),
            ("Index", "indices"),
            ("Certificate", "certificates"),
            ("HTTPRoute", "httproutes"),
            ("Prometheus", "prometheuses"),
            ("Alertmanager", "alertmanagers"),
            ("Gateway", "gateways"),
            ("Box", "boxes"),
            ("Batch", "batches"),
            ("Mesh", "meshes"),
            ("Class", "classes"),
            ("Leaf", "leaves"),
            ("Half", "halves"),
            ("Knife", "knives"),
            ("Matrix", "matrices"),
            ("Schema", "schemas"),
            ("Criterion", "criteria"),
            ("Analysis", "analyses"),
            ("Datum", "data"),
            ("Medium", "media"),
            ("Bus", "buses"),
            ("Quiz", "quizzes"),
            ("Echo", "echoes"),
            ("Photo", "photos"),
            ("Radio", "radios"),
            ("Series", "series"),
            ("News", "news"),
            ("Data", "data"),
            ("People", "people"),
            ("Statuses", "statuses"),
            ("Endpoints", "endpoints"),
            ("Superman", "supermen"),
            ("Human", "humans"),
            ("Foo", "foos"),
            ("Database", "databases"),
            ("Directive", "directives"),
            ("Axis", "axes"),
            ("", ""),
        ] {
            assert_eq!(plural(kind), want, "plural of {kind:?}");
        }
    }

    #[test]
    fn kube_plurals() {
        for (kind, want) in [
            ("Redis", "redises"),
            ("Mongo", "mongos"),
            ("Index", "indexes"),
            ("Metrics", "metricses"),
            ("Settings", "settingses"),
            ("Credentials", "credentialses"),
            ("Rules", "ruleses"),
            ("Secrets", "secretses"),
            ("Data", "datas"),
            ("Dns", "dnses"),
            ("Endpoints", "endpointses"),
            ("Series", "serieses"),
            ("Person", "persons"),
            ("Child", "childs"),
            ("Policy", "policies"),
            ("Box", "boxes"),
            ("Batch", "batches"),
            ("Mesh", "meshes"),
            ("Quiz", "quizes"),
            ("Day", "days"),
            ("Key", "keys"),
            ("Toy", "toys"),
            ("Guy", "guys"),
            ("Proxy", "proxies"),
            ("Status", "statuses"),
            ("Foo", "foos"),
            ("Document", "documents"),
            ("Y", "ys"),
            ("", "s"),
        ] {
            assert_eq!(
                kube_plural(&kind.to_ascii_lowercase()),
                want,
                "kube's plural of {kind:?}"
            );
        }
    }

    #[test]
    fn name_checks() {
        assert!(group_errors("example.com").is_empty());
        assert_eq!(
            group_errors("example"),
            ["should be a domain with at least one dot"]
        );
        assert_eq!(group_errors("Example.com"), [DNS1123_SUBDOMAIN_ERR]);
        assert!(dns1035_label("v1alpha1").is_empty());
        assert_eq!(dns1035_label("1v"), [DNS1035_LABEL_ERR]);
        assert_eq!(dns1035_label("V1"), [DNS1035_LABEL_ERR]);
        assert!(kind_errors("FooBar").is_empty());
        assert_eq!(kind_errors("Foo_Bar").len(), 1);
        assert!(kind_errors("Foo_Bar")[0].starts_with("may have mixed case"));
    }
}
