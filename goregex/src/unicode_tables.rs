//! The Unicode classes `\p{…}` can name: Go 1.25's category, alias and script
//! tables, its name canonicalisation, and the code points of each class, taken from
//! `regex-syntax` (see the crate docs for the Unicode version differences).

use regex_syntax::hir::{Class, HirKind};

use crate::char_class::{MAX_RUNE, SURROGATE_HI, SURROGATE_LO, clean_class};

/// `canonicalName`: a leading uppercase letter then lowercase letters, with `_`,
/// `-` and spaces removed (so `upper case-let ter` is `Uppercaseletter`).
pub(crate) fn canonical_name(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len());
    let mut first = true;
    for &c in name {
        match c {
            b'_' | b'-' | b' ' => {}
            _ if first => {
                out.push(c.to_ascii_uppercase());
                first = false;
            }
            _ => out.push(c.to_ascii_lowercase()),
        }
    }
    out
}

/// The keys of Go's `unicode.Categories` (Go 1.25).
const GO_CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn",
    "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm",
    "So", "Z", "Zl", "Zp", "Zs",
];

/// Go's `unicode.CategoryAliases` (Go 1.25, from `PropertyValueAliases.txt`).
const GO_CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Other", "C"),
    ("Control", "Cc"),
    ("cntrl", "Cc"),
    ("Format", "Cf"),
    ("Unassigned", "Cn"),
    ("Private_Use", "Co"),
    ("Surrogate", "Cs"),
    ("Letter", "L"),
    ("Cased_Letter", "LC"),
    ("Lowercase_Letter", "Ll"),
    ("Modifier_Letter", "Lm"),
    ("Other_Letter", "Lo"),
    ("Titlecase_Letter", "Lt"),
    ("Uppercase_Letter", "Lu"),
    ("Mark", "M"),
    ("Combining_Mark", "M"),
    ("Spacing_Mark", "Mc"),
    ("Enclosing_Mark", "Me"),
    ("Nonspacing_Mark", "Mn"),
    ("Number", "N"),
    ("Decimal_Number", "Nd"),
    ("digit", "Nd"),
    ("Letter_Number", "Nl"),
    ("Other_Number", "No"),
    ("Punctuation", "P"),
    ("punct", "P"),
    ("Connector_Punctuation", "Pc"),
    ("Dash_Punctuation", "Pd"),
    ("Close_Punctuation", "Pe"),
    ("Final_Punctuation", "Pf"),
    ("Initial_Punctuation", "Pi"),
    ("Other_Punctuation", "Po"),
    ("Open_Punctuation", "Ps"),
    ("Symbol", "S"),
    ("Currency_Symbol", "Sc"),
    ("Modifier_Symbol", "Sk"),
    ("Math_Symbol", "Sm"),
    ("Other_Symbol", "So"),
    ("Separator", "Z"),
    ("Line_Separator", "Zl"),
    ("Paragraph_Separator", "Zp"),
    ("Space_Separator", "Zs"),
];

/// The keys of Go's `unicode.Scripts` (Unicode 15.0, Go 1.21–1.25).
const GO_SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Toto",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];

/// Resolves a canonical `\p` name the way Go 1.25's `unicodeTable` does.
pub(crate) fn lookup_unicode_table(canon: &[u8]) -> Option<(Vec<i32>, i32)> {
    match canon {
        b"Any" => return Some((vec![0, MAX_RUNE], 1)),
        b"Assigned" => return Some((category("Cn")?, -1)),
        b"Ascii" => return Some((vec![0, 0x7f], 1)),
        b"Lc" => return Some((category("LC")?, 1)),
        _ => {}
    }
    if let Some(gc) = GO_CATEGORIES.iter().find(|k| k.as_bytes() == canon) {
        return Some((category(gc)?, 1));
    }
    if let Some(sc) = GO_SCRIPTS
        .iter()
        .find(|k| canonical_name(k.as_bytes()) == canon)
    {
        return Some((unicode_query(&format!(r"\p{{Script={sc}}}"))?, 1));
    }
    if let Some((_, gc)) = GO_CATEGORY_ALIASES
        .iter()
        .find(|(alias, _)| canonical_name(alias.as_bytes()) == canon)
    {
        return Some((category(gc)?, 1));
    }
    None
}

/// A general category as Go's tables define it.
fn category(gc: &str) -> Option<Vec<i32>> {
    match gc {
        // Surrogate code points cannot be put in a regex-syntax class.
        "Cs" => Some(vec![SURROGATE_LO, SURROGATE_HI]),
        // Go's C is Cc|Cf|Co|Cs.
        "C" => {
            let mut all = Vec::new();
            for part in ["Cc", "Cf", "Co", "Cs"] {
                all.extend(category(part)?);
            }
            Some(clean_class(&all))
        }
        _ => unicode_query(&format!(r"\p{{gc={gc}}}")),
    }
}

/// The code points of a `regex-syntax` Unicode class expression.
fn unicode_query(query: &str) -> Option<Vec<i32>> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(query)
        .ok()?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => Some(
            class
                .iter()
                .flat_map(|r| [r.start() as i32, r.end() as i32])
                .collect(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{go_result, re};

    #[test]
    fn go_1_25_unicode_class_names() {
        for pattern in [
            r"\p{Letter}",
            r"\p{greek}",
            r"\p{ascii}",
            r"\p{ASCII}",
            r"\p{Assigned}",
            r"\p{^Assigned}",
            r"\p{LC}",
            r"\p{Cn}",
            r"\p{Uppercase_Letter}",
            r"\p{upper case-let ter}",
            r"\p{__upper case-let ter}",
            r"\p{Canadian_Aboriginal}",
            r"\pl",
        ] {
            assert_eq!(go_result(pattern), "OK", "pattern {pattern:?}");
        }
        assert!(re(r"^\p{Letter}+$").is_match("héllo"));
        assert!(re(r"^\p{ascii}+$").is_match("abc\u{7f}"));
        assert!(!re(r"^\p{ascii}+$").is_match("é"));
        assert!(re(r"^(?i)\p{ascii}$").is_match("\u{212A}"));
        assert!(re(r"^\p{Uppercase_Letter}$").is_match("É"));
        assert!(!re(r"^\p{Uppercase_Letter}$").is_match("é"));
        assert!(re(r"^\p{Any}$").is_match("\n"));
        assert!(!re(r"\p{^Any}").is_match("abc"));
    }
}
