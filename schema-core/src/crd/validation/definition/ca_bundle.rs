//! What `webhook.ValidateCABundle` asks of a conversion webhook's
//! `caBundle`: client-go's `transport.TLSConfigFor` with the bundle as CA
//! data, that is `x509.CertPool.AppendCertsFromPEM` (Go's `encoding/pem`
//! blocks, of which some `CERTIFICATE` block without headers must be a
//! certificate Go's `crypto/x509.ParseCertificate` accepts), and when it
//! fails, `createErrorParsingCAData`'s account of why.
//!
//! The certificate is parsed as Go 1.26's `x509` parser does (DER read as
//! `cryptobyte` reads it), with its error messages: the envelope (version,
//! serial number, signature algorithms, issuer and subject names and their
//! strings, validity times, the subject public key: RSA, ECDSA on P-224,
//! P-256, P-384 and P-521 with the point checked to lie on the curve,
//! Ed25519, DSA), the extensions (duplicates, and the contents of the ones
//! Go reads). Not reproduced: the name constraints extension's contents
//! and the domain check of URI subject alternative names (accepted here).
//! Nothing else of a certificate is checked (no signature, no chain, no
//! expiry), as upstream.

use crate::go::url;

/// `transport.TLSConfigFor` with `caData` (non-empty): `Err` with the
/// error it reports (`unable to load root certificates: …`).
pub(super) fn validate_ca_data(data: &[u8]) -> Result<(), String> {
    if append_certs_from_pem(data) {
        return Ok(());
    }
    Err(format!(
        "unable to load root certificates: {}",
        error_parsing_ca_data(data)
    ))
}

/// `CertPool.AppendCertsFromPEM`: whether some certificate block parses.
fn append_certs_from_pem(data: &[u8]) -> bool {
    let mut rest = data;
    let mut ok = false;
    while !rest.is_empty() {
        let Some((block, next)) = pem_decode(rest) else {
            break;
        };
        rest = next;
        if block.kind != b"CERTIFICATE" || block.has_headers {
            continue;
        }
        ok |= parse_certificate(&block.bytes).is_ok();
    }
    ok
}

/// `createErrorParsingCAData`: why no certificate was taken.
fn error_parsing_ca_data(data: &[u8]) -> String {
    let mut rest = data;
    while !rest.is_empty() {
        let Some((block, next)) = pem_decode(rest) else {
            return "unable to parse bytes as PEM block".into();
        };
        rest = next;
        if block.kind != b"CERTIFICATE" || block.has_headers {
            continue;
        }
        if let Err(e) = parse_certificate(&block.bytes) {
            return format!("failed to parse certificate: {e}");
        }
    }
    "no valid certificate authority data seen".into()
}

/// Go's `base64.StdEncoding.EncodeToString` (how `json.Marshal` writes a
/// `[]byte`).
pub(super) fn std_encode(b: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(b.len().div_ceil(3) * 4);
    for chunk in b.chunks(3) {
        let n = chunk.len();
        let v = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for i in 0..4 {
            if i <= n {
                let d = (v >> (18 - 6 * i)) & 63;
                out.push(char::from(DIGITS[d as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// encoding/pem
// ---------------------------------------------------------------------------

/// A decoded PEM block: what `ParseCertsPEM` looks at.
struct PemBlock<'a> {
    kind: &'a [u8],
    has_headers: bool,
    bytes: Vec<u8>,
}

/// `getLine`: the line without its end of line and trailing spaces or tabs,
/// the rest, and how many bytes were consumed.
fn get_line(data: &[u8]) -> (&[u8], &[u8], usize) {
    let (mut i, j) = match data.iter().position(|&b| b == b'\n') {
        None => (data.len(), data.len()),
        Some(i) => (i, i + 1),
    };
    if j != i && i > 0 && data[i - 1] == b'\r' {
        i -= 1;
    }
    let mut line = &data[..i];
    while let Some((&last, init)) = line.split_last() {
        if last == b' ' || last == b'\t' {
            line = init;
        } else {
            break;
        }
    }
    (line, &data[j..], j)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// `pem.Decode`: the next block and the rest, or `None` when there is none.
fn pem_decode(data: &[u8]) -> Option<(PemBlock<'_>, &[u8])> {
    const PEM_START: &[u8] = b"\n-----BEGIN ";
    const PEM_END: &[u8] = b"\n-----END ";
    const PEM_END_OF_LINE: &[u8] = b"-----";
    let mut rest = data;
    let mut end_trailer_index: isize = 0;
    loop {
        if end_trailer_index < 0 || end_trailer_index as usize > rest.len() {
            return None;
        }
        rest = &rest[end_trailer_index as usize..];
        let mut end_index = find(rest, PEM_END)? as isize;
        end_trailer_index = end_index + PEM_END.len() as isize;
        let begin_index = match rfind(&rest[..end_index as usize], &PEM_START[1..]) {
            Some(b) if b == 0 || rest[b - 1] == b'\n' => b,
            _ => continue,
        };
        let skip = begin_index + PEM_START.len() - 1;
        rest = &rest[skip..];
        end_index -= skip as isize;
        end_trailer_index -= skip as isize;
        let (type_line, after, consumed) = get_line(rest);
        rest = after;
        end_index -= consumed as isize;
        end_trailer_index -= consumed as isize;
        let Some(kind) = type_line.strip_suffix(PEM_END_OF_LINE) else {
            continue;
        };
        let mut has_headers = false;
        loop {
            if rest.is_empty() {
                return None;
            }
            let (line, next, consumed) = get_line(rest);
            if !line.contains(&b':') {
                break;
            }
            has_headers = true;
            rest = next;
            end_index -= consumed as isize;
            end_trailer_index -= consumed as isize;
        }
        if has_headers && end_index < 0 {
            continue;
        }
        if end_trailer_index < 0 || end_trailer_index as usize > rest.len() {
            // Go would slice out of range here only after `endIndex < 0`,
            // which the check above excludes with headers; without them the
            // indices are within the data.
            continue;
        }
        let end_trailer = &rest[end_trailer_index as usize..];
        let end_trailer_len = kind.len() + PEM_END_OF_LINE.len();
        if end_trailer.len() < end_trailer_len {
            continue;
        }
        let (trailer, rest_of_end_line) = end_trailer.split_at(end_trailer_len);
        if !trailer.starts_with(kind) || !trailer.ends_with(PEM_END_OF_LINE) {
            continue;
        }
        if !get_line(rest_of_end_line).0.is_empty() {
            continue;
        }
        let mut bytes = Vec::new();
        if end_index > 0 {
            let data: Vec<u8> = rest[..end_index as usize]
                .iter()
                .copied()
                .filter(|&b| b != b' ' && b != b'\t')
                .collect();
            match std::str::from_utf8(&data)
                .ok()
                .and_then(crate::go::base64::std_decode)
            {
                Some(b) => bytes = b,
                None => continue,
            }
        }
        // endIndex is at least -1 here (the type line ends at the latest
        // with the end marker's line feed).
        let tail_start = usize::try_from(end_index + PEM_END.len() as isize - 1).unwrap_or(0);
        let (_, rest_after, _) = get_line(rest.get(tail_start..).unwrap_or_default());
        return Some((
            PemBlock {
                kind,
                has_headers,
                bytes,
            },
            rest_after,
        ));
    }
}

// ---------------------------------------------------------------------------
// cryptobyte
// ---------------------------------------------------------------------------

const BOOLEAN: u8 = 1;
const INTEGER: u8 = 2;
const BIT_STRING: u8 = 3;
const OCTET_STRING: u8 = 4;
const OBJECT_IDENTIFIER: u8 = 6;
const UTF8_STRING: u8 = 12;
const NUMERIC_STRING: u8 = 18;
const PRINTABLE_STRING: u8 = 19;
const T61_STRING: u8 = 20;
const IA5_STRING: u8 = 22;
const UTC_TIME: u8 = 23;
const GENERALIZED_TIME: u8 = 24;
const BMP_STRING: u8 = 30;
const SEQUENCE: u8 = 0x30;
const SET: u8 = 0x31;

/// A context-specific tag (`Tag(n).ContextSpecific()`).
const fn context(n: u8) -> u8 {
    0x80 | n
}

/// A constructed context-specific tag.
const fn constructed_context(n: u8) -> u8 {
    0xa0 | n
}

/// `cryptobyte.String`: DER read front to back, each read failing (`None`)
/// on anything that is not minimal DER.
#[derive(Clone, Copy)]
struct Der<'a>(&'a [u8]);

impl<'a> Der<'a> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `readASN1`: the tag and the element (with its header unless
    /// `skip_header`).
    fn read_any(&mut self, skip_header: bool) -> Option<(u8, &'a [u8])> {
        let s = self.0;
        let (&tag, rest) = s.split_first()?;
        let &len_byte = rest.first()?;
        if tag & 0x1f == 0x1f {
            return None;
        }
        let (length, header_len) = if len_byte & 0x80 == 0 {
            (usize::from(len_byte) + 2, 2usize)
        } else {
            let len_len = usize::from(len_byte & 0x7f);
            if len_len == 0 || len_len > 4 || s.len() < 2 + len_len {
                return None;
            }
            let mut len32: u32 = 0;
            for &b in &s[2..2 + len_len] {
                len32 = (len32 << 8) | u32::from(b);
            }
            if len32 < 128 {
                return None;
            }
            if len32 >> ((len_len - 1) * 8) == 0 {
                return None;
            }
            let header_len = 2 + len_len;
            (header_len.checked_add(len32 as usize)?, header_len)
        };
        if s.len() < length {
            return None;
        }
        let (elem, rest) = s.split_at(length);
        self.0 = rest;
        Some((
            tag,
            if skip_header {
                &elem[header_len..]
            } else {
                elem
            },
        ))
    }

    /// `ReadASN1`: the contents of an element with `tag`.
    fn read(&mut self, tag: u8) -> Option<Der<'a>> {
        match self.read_any(true)? {
            (t, c) if t == tag => Some(Der(c)),
            _ => None,
        }
    }

    /// `ReadASN1Element`: an element with `tag`, header included.
    fn read_element(&mut self, tag: u8) -> Option<Der<'a>> {
        match self.read_any(false)? {
            (t, c) if t == tag => Some(Der(c)),
            _ => None,
        }
    }

    fn peek(&self, tag: u8) -> bool {
        self.0.first() == Some(&tag)
    }

    /// `ReadOptionalASN1`: `Some(None)` when absent.
    fn read_optional(&mut self, tag: u8) -> Option<Option<Der<'a>>> {
        if self.peek(tag) {
            self.read(tag).map(Some)
        } else {
            Some(None)
        }
    }

    /// `SkipOptionalASN1`.
    fn skip_optional(&mut self, tag: u8) -> bool {
        !self.peek(tag) || self.read(tag).is_some()
    }

    /// The bytes of an INTEGER that `checkASN1Integer` accepts.
    fn read_integer_bytes(&mut self, tag: u8) -> Option<&'a [u8]> {
        let b = self.read(tag)?.0;
        match b {
            [] => None,
            [_] => Some(b),
            [0, second, ..] if second & 0x80 == 0 => None,
            [0xff, second, ..] if second & 0x80 == 0x80 => None,
            _ => Some(b),
        }
    }

    /// An INTEGER into an `int64` (`readASN1Int64`).
    fn read_i64(&mut self, tag: u8) -> Option<i64> {
        let b = self.read_integer_bytes(tag)?;
        if b.len() > 8 {
            return None;
        }
        let mut v: i64 = 0;
        for &x in b {
            v = (v << 8) | i64::from(x);
        }
        let shift = 64 - 8 * b.len() as u32;
        Some(if shift == 64 {
            0
        } else {
            (v << shift) >> shift
        })
    }

    /// An INTEGER into a `uint64` (`readASN1Uint64`).
    fn read_u64(&mut self, tag: u8) -> Option<u64> {
        let b = self.read_integer_bytes(tag)?;
        if b.len() > 9 || (b.len() == 9 && b[0] != 0) || b[0] & 0x80 != 0 {
            return None;
        }
        let mut v: u64 = 0;
        for &x in b {
            v = (v << 8) | u64::from(x);
        }
        Some(v)
    }

    /// An INTEGER into a `big.Int`: its sign.
    fn read_big_sign(&mut self) -> Option<i8> {
        let b = self.read_integer_bytes(INTEGER)?;
        Some(if b[0] & 0x80 != 0 {
            -1
        } else if b.iter().all(|&x| x == 0) {
            0
        } else {
            1
        })
    }

    /// `ReadASN1Boolean`.
    fn read_bool(&mut self) -> Option<bool> {
        match self.read(BOOLEAN)?.0 {
            [0] => Some(false),
            [0xff] => Some(true),
            _ => None,
        }
    }

    /// `ReadASN1ObjectIdentifier`.
    fn read_oid(&mut self) -> Option<Vec<u32>> {
        let mut b = self.read(OBJECT_IDENTIFIER)?;
        if b.is_empty() {
            return None;
        }
        let first = b.read_base128()?;
        let mut out = if first < 80 {
            vec![first / 40, first % 40]
        } else {
            vec![2, first - 80]
        };
        while !b.is_empty() {
            out.push(b.read_base128()?);
        }
        Some(out)
    }

    /// `readBase128Int`.
    fn read_base128(&mut self) -> Option<u32> {
        let mut ret: u32 = 0;
        let mut i = 0;
        while let Some((&b, rest)) = self.0.split_first() {
            if i == 5 || ret >= 1 << (31 - 7) {
                return None;
            }
            ret <<= 7;
            self.0 = rest;
            if i == 0 && b == 0x80 {
                return None;
            }
            ret |= u32::from(b & 0x7f);
            if b & 0x80 == 0 {
                return Some(ret);
            }
            i += 1;
        }
        None
    }

    /// `ReadASN1BitString`: the bytes and the number of unused bits.
    fn read_bit_string(&mut self) -> Option<(&'a [u8], u8)> {
        let b = self.read(BIT_STRING)?.0;
        let (&padding, bytes) = b.split_first()?;
        if padding > 7
            || (bytes.is_empty() && padding != 0)
            || bytes
                .last()
                .is_some_and(|&l| l & ((1u8 << padding) - 1) != 0)
        {
            return None;
        }
        Some((bytes, padding))
    }
}

/// `BitString.RightAlign`: the bits shifted right over the unused ones.
fn right_align(bytes: &[u8], padding: u8) -> Vec<u8> {
    if padding == 0 || bytes.is_empty() {
        return bytes.to_vec();
    }
    let shift = u32::from(padding);
    let mut out = Vec::with_capacity(bytes.len());
    out.push(bytes[0] >> shift);
    for w in bytes.windows(2) {
        out.push((w[0] << (8 - shift)) | (w[1] >> shift));
    }
    out
}

/// An object identifier as `ObjectIdentifier.String()` prints it.
fn oid_string(oid: &[u32]) -> String {
    oid.iter().map(u32::to_string).collect::<Vec<_>>().join(".")
}

fn err<T>(msg: &str) -> Result<T, String> {
    Err(msg.to_string())
}

// ---------------------------------------------------------------------------
// crypto/x509
// ---------------------------------------------------------------------------

/// `x509.ParseCertificate`.
fn parse_certificate(der: &[u8]) -> Result<(), String> {
    let mut input = Der(der);
    let Some(raw) = input.read_element(SEQUENCE) else {
        return err("x509: malformed certificate");
    };
    let mut input = raw;
    let Some(mut input) = input.read(SEQUENCE) else {
        return err("x509: malformed certificate");
    };
    let Some(mut tbs) = input.read_element(SEQUENCE) else {
        return err("x509: malformed tbs certificate");
    };
    let Some(mut tbs) = tbs.read(SEQUENCE) else {
        return err("x509: malformed tbs certificate");
    };
    let version = match tbs.read_optional(constructed_context(0)) {
        None => return err("x509: malformed version"),
        Some(None) => 0,
        Some(Some(mut v)) => match v.read_i64(INTEGER) {
            Some(n) if v.is_empty() => n,
            _ => return err("x509: malformed version"),
        },
    };
    if version < 0 {
        return err("x509: malformed version");
    }
    let version = version + 1;
    if version > 3 {
        return err("x509: invalid version");
    }
    match tbs.read_big_sign() {
        None => return err("x509: malformed serial number"),
        Some(-1) => return err("x509: negative serial number"),
        Some(_) => {}
    }
    let Some(sig_ai) = tbs.read(SEQUENCE) else {
        return err("x509: malformed signature algorithm identifier");
    };
    let Some(outer_sig_ai) = input.read(SEQUENCE) else {
        return err("x509: malformed algorithm identifier");
    };
    if outer_sig_ai.0 != sig_ai.0 {
        return err("x509: inner and outer signature algorithm identifiers don't match");
    }
    parse_ai(sig_ai)?;
    let Some(issuer) = tbs.read_element(SEQUENCE) else {
        return err("x509: malformed issuer");
    };
    parse_name(issuer)?;
    let Some(validity) = tbs.read(SEQUENCE) else {
        return err("x509: malformed validity");
    };
    parse_validity(validity)?;
    let Some(subject) = tbs.read_element(SEQUENCE) else {
        return err("x509: malformed issuer");
    };
    parse_name(subject)?;
    let Some(mut spki) = tbs.read_element(SEQUENCE) else {
        return err("x509: malformed spki");
    };
    let Some(mut spki) = spki.read(SEQUENCE) else {
        return err("x509: malformed spki");
    };
    let Some(pk_ai) = spki.read(SEQUENCE) else {
        return err("x509: malformed public key algorithm identifier");
    };
    let (pk_oid, pk_params) = parse_ai(pk_ai)?;
    let Some((key, padding)) = spki.read_bit_string() else {
        return err("x509: malformed subjectPublicKey");
    };
    parse_public_key(&pk_oid, pk_params, &right_align(key, padding))?;
    if version > 1 {
        if !tbs.skip_optional(context(1)) {
            return err("x509: malformed issuerUniqueID");
        }
        if !tbs.skip_optional(context(2)) {
            return err("x509: malformed subjectUniqueID");
        }
        if version == 3 {
            match tbs.read_optional(constructed_context(3)) {
                None => return err("x509: malformed extensions"),
                Some(None) => {}
                Some(Some(mut exts)) => {
                    let Some(mut exts) = exts.read(SEQUENCE) else {
                        return err("x509: malformed extensions");
                    };
                    let mut parsed: Vec<Extension<'_>> = Vec::new();
                    while !exts.is_empty() {
                        let Some(ext) = exts.read(SEQUENCE) else {
                            return err("x509: malformed extension");
                        };
                        let ext = parse_extension(ext)?;
                        if parsed.iter().any(|e| e.id == ext.id) {
                            return Err(format!(
                                "x509: certificate contains duplicate extension with OID {}",
                                crate::go::fmt::go_quote(&oid_string(&ext.id))
                            ));
                        }
                        parsed.push(ext);
                    }
                    for ext in &parsed {
                        process_extension(ext)?;
                    }
                }
            }
        }
    }
    if input.read_bit_string().is_none() {
        return err("x509: malformed signature");
    }
    if raw.0.len() != der.len() {
        return err("x509: trailing data");
    }
    Ok(())
}

/// `parseAI`: the algorithm and the whole parameters element (empty when
/// absent).
fn parse_ai(mut der: Der<'_>) -> Result<(Vec<u32>, &[u8]), String> {
    let Some(oid) = der.read_oid() else {
        return err("x509: malformed OID");
    };
    if der.is_empty() {
        return Ok((oid, &[]));
    }
    match der.read_any(false) {
        Some((_, params)) => Ok((oid, params)),
        None => err("x509: malformed parameters"),
    }
}

/// `parseName`.
fn parse_name(mut raw: Der<'_>) -> Result<(), String> {
    let Some(mut raw) = raw.read(SEQUENCE) else {
        return err("x509: invalid RDNSequence");
    };
    while !raw.is_empty() {
        let Some(mut set) = raw.read(SET) else {
            return err("x509: invalid RDNSequence");
        };
        while !set.is_empty() {
            let Some(mut atav) = set.read(SEQUENCE) else {
                return err("x509: invalid RDNSequence: invalid attribute");
            };
            if atav.read_oid().is_none() {
                return err("x509: invalid RDNSequence: invalid attribute type");
            }
            let Some((tag, value)) = atav.read_any(true) else {
                return err("x509: invalid RDNSequence: invalid attribute value");
            };
            if let Err(e) = check_asn1_string(tag, value) {
                return Err(format!(
                    "x509: invalid RDNSequence: invalid attribute value: {e}"
                ));
            }
        }
    }
    Ok(())
}

/// `isPrintable`.
fn is_printable(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || (b'\''..=b')').contains(&b)
        || (b'+'..=b'/').contains(&b)
        || matches!(b, b' ' | b':' | b'=' | b'?' | b'*' | b'&')
}

/// `parseASN1String`'s checks.
fn check_asn1_string(tag: u8, value: &[u8]) -> Result<(), String> {
    match tag {
        T61_STRING => Ok(()),
        PRINTABLE_STRING if value.iter().all(|&b| is_printable(b)) => Ok(()),
        PRINTABLE_STRING => err("invalid PrintableString"),
        UTF8_STRING if std::str::from_utf8(value).is_ok() => Ok(()),
        UTF8_STRING => err("invalid UTF-8 string"),
        BMP_STRING => {
            if value.len() % 2 != 0 {
                return err("invalid BMPString");
            }
            let value = match value {
                [init @ .., 0, 0] => init,
                v => v,
            };
            for pair in value.chunks(2) {
                let point = (u16::from(pair[0]) << 8) | u16::from(pair[1]);
                if point == 0xfffe
                    || point == 0xffff
                    || (0xfdd0..=0xfdef).contains(&point)
                    || (0xd800..=0xdfff).contains(&point)
                {
                    return err("invalid BMPString");
                }
            }
            Ok(())
        }
        IA5_STRING if value.is_ascii() => Ok(()),
        IA5_STRING => err("invalid IA5String"),
        NUMERIC_STRING if value.iter().all(|&b| b.is_ascii_digit() || b == b' ') => Ok(()),
        NUMERIC_STRING => err("invalid NumericString"),
        other => Err(format!("unsupported string type: {other}")),
    }
}

/// `parseValidity`: two times, each a UTCTime or a GeneralizedTime.
fn parse_validity(mut der: Der<'_>) -> Result<(), String> {
    for _ in 0..2 {
        if der.peek(UTC_TIME) {
            match der.read(UTC_TIME) {
                Some(t) if utc_time_valid(t.0) => {}
                _ => return err("x509: malformed UTCTime"),
            }
        } else if der.peek(GENERALIZED_TIME) {
            match der.read(GENERALIZED_TIME) {
                Some(t) if generalized_time_valid(t.0) => {}
                _ => return err("x509: malformed GeneralizedTime"),
            }
        } else {
            return err("x509: unsupported time format");
        }
    }
    Ok(())
}

/// Two ASCII digits as a number.
fn two_digits(b: &[u8]) -> Option<u32> {
    match b {
        [a, c] if a.is_ascii_digit() && c.is_ascii_digit() => {
            Some(u32::from(a - b'0') * 10 + u32::from(c - b'0'))
        }
        _ => None,
    }
}

/// Whether `time.Parse(layout)` accepts a date and time (`year`, then
/// `MMDDhhmm[ss]` and a zone `Z0700`) and `Format` gives the same text
/// back: the digits in range, the zone `Z` or a non-zero `±hhmm` offset
/// (a zero offset formats as `Z`) with minutes below 60 and hours up to 24.
fn time_valid(year: i64, rest: &[u8], with_seconds: bool) -> bool {
    let digits = if with_seconds { 10 } else { 8 };
    if rest.len() < digits {
        return false;
    }
    let (date, zone) = rest.split_at(digits);
    let f = |i: usize| two_digits(&date[i..i + 2]);
    let (Some(month), Some(day), Some(hour), Some(minute)) = (f(0), f(2), f(4), f(6)) else {
        return false;
    };
    let second = if with_seconds { f(8) } else { Some(0) };
    let Some(second) = second else { return false };
    if !(1..=12).contains(&month)
        || day < 1
        || i64::from(day) > crate::go::time::days_in(i64::from(month), year)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return false;
    }
    match zone {
        b"Z" => true,
        [b'+' | b'-', h1, h2, m1, m2] => match (two_digits(&[*h1, *h2]), two_digits(&[*m1, *m2])) {
            (Some(h), Some(m)) => h <= 24 && m < 60 && (h, m) != (0, 0),
            _ => false,
        },
        _ => false,
    }
}

/// `ReadASN1UTCTime`: `YYMMDDhhmm[ss]` and a zone.
fn utc_time_valid(t: &[u8]) -> bool {
    let Some(yy) = t.get(..2).and_then(two_digits) else {
        return false;
    };
    let year = if yy >= 69 {
        1900 + i64::from(yy)
    } else {
        2000 + i64::from(yy)
    };
    let rest = &t[2..];
    time_valid(year, rest, true)
        || (rest.len() == 9 || rest.len() == 13) && time_valid(year, rest, false)
}

/// `ReadASN1GeneralizedTime`: `YYYYMMDDhhmmss` and a zone.
fn generalized_time_valid(t: &[u8]) -> bool {
    let (Some(hi), Some(lo)) = (
        t.get(..2).and_then(two_digits),
        t.get(2..4).and_then(two_digits),
    ) else {
        return false;
    };
    time_valid(i64::from(hi * 100 + lo), &t[4..], true)
}

const OID_RSA: &[u32] = &[1, 2, 840, 113_549, 1, 1, 1];
const OID_DSA: &[u32] = &[1, 2, 840, 10040, 4, 1];
const OID_ECDSA: &[u32] = &[1, 2, 840, 10045, 2, 1];
const OID_ED25519: &[u32] = &[1, 3, 101, 112];

/// `parsePublicKey`, for the algorithms `getPublicKeyAlgorithmFromOID`
/// knows (others are not parsed).
fn parse_public_key(oid: &[u32], params: &[u8], data: &[u8]) -> Result<(), String> {
    if oid == OID_RSA {
        if params != [0x05, 0x00] {
            return err("x509: RSA key missing NULL parameters");
        }
        let mut der = Der(data);
        let Some(mut der) = der.read(SEQUENCE) else {
            return err("x509: invalid RSA public key");
        };
        let Some(n) = der.read_big_sign() else {
            return err("x509: invalid RSA modulus");
        };
        let Some(e) = der.read_i64(INTEGER) else {
            return err("x509: invalid RSA public exponent");
        };
        if n <= 0 {
            return err("x509: RSA modulus is not a positive number");
        }
        if e <= 0 {
            return err("x509: RSA public exponent is not a positive number");
        }
        Ok(())
    } else if oid == OID_ECDSA {
        let Some(curve_oid) = Der(params).read_oid() else {
            return err("x509: invalid ECDSA parameters");
        };
        let Some(curve) = Curve::from_oid(&curve_oid) else {
            return err("x509: unsupported elliptic curve");
        };
        curve.check_uncompressed_point(data)
    } else if oid == OID_ED25519 {
        if !params.is_empty() {
            return err("x509: Ed25519 key encoded with illegal parameters");
        }
        if data.len() != 32 {
            return err("x509: wrong Ed25519 public key size");
        }
        Ok(())
    } else if oid == OID_DSA {
        let Some(y) = Der(data).read_big_sign() else {
            return err("x509: invalid DSA public key");
        };
        let mut p = Der(params);
        let signs = p
            .read(SEQUENCE)
            .and_then(|mut s| Some([s.read_big_sign()?, s.read_big_sign()?, s.read_big_sign()?]));
        let Some(signs) = signs else {
            return err("x509: invalid DSA parameters");
        };
        if y <= 0 || signs.iter().any(|&s| s <= 0) {
            return err("x509: zero or negative DSA parameter");
        }
        Ok(())
    } else {
        Ok(())
    }
}

/// A NIST curve `ecdsa.ParseUncompressedPublicKey` accepts.
struct Curve {
    name: &'static str,
    /// `fiat`'s element error (the assembly P-256 words it differently).
    element_error: &'static str,
    p: &'static str,
    b: &'static str,
}

impl Curve {
    fn from_oid(oid: &[u32]) -> Option<Curve> {
        Some(match oid {
            [1, 3, 132, 0, 33] => Curve {
                name: "P224",
                element_error: "invalid P224Element encoding",
                p: "ffffffffffffffffffffffffffffffff000000000000000000000001",
                b: "b4050a850c04b3abf54132565044b0b7d7bfd8ba270b39432355ffb4",
            },
            [1, 2, 840, 10045, 3, 1, 7] => Curve {
                name: "P256",
                element_error: "invalid P256 element encoding",
                p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
                b: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
            },
            [1, 3, 132, 0, 34] => Curve {
                name: "P384",
                element_error: "invalid P384Element encoding",
                p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
                b: "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
            },
            [1, 3, 132, 0, 35] => Curve {
                name: "P521",
                element_error: "invalid P521Element encoding",
                p: "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
                b: "0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00",
            },
            _ => return None,
        })
    }

    /// `ParseUncompressedPublicKey`: `04 || X || Y`, both coordinates
    /// below p, the point on `y² = x³ - 3x + b`.
    fn check_uncompressed_point(&self, data: &[u8]) -> Result<(), String> {
        if data.first() != Some(&4) {
            return err("ecdsa: invalid uncompressed public key");
        }
        let p = Big::from_hex(self.p);
        let len = self.p.len() / 2;
        if data.len() != 1 + 2 * len {
            return Err(format!("invalid {} point encoding", self.name));
        }
        let x = Big::from_be(&data[1..=len]);
        let y = Big::from_be(&data[1 + len..]);
        if x.cmp(&p).is_ge() || y.cmp(&p).is_ge() {
            return Err(self.element_error.to_string());
        }
        let b = Big::from_hex(self.b);
        // y² and x³ - 3x + b, mod p.
        let lhs = y.mul(&y).rem(&p);
        let x3 = x.mul(&x).rem(&p).mul(&x).rem(&p);
        let three_x = x.add(&x).add(&x).rem(&p);
        let rhs = x3.add(&p).sub(&three_x).add(&b).rem(&p);
        if lhs.cmp(&rhs).is_ne() {
            return Err(format!("{} point not on curve", self.name));
        }
        Ok(())
    }
}

/// A non-negative integer, little-endian 32-bit limbs without high zeros:
/// just what the on-curve check needs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_be(bytes: &[u8]) -> Big {
        let mut limbs = Vec::with_capacity(bytes.len() / 4 + 1);
        for chunk in bytes.rchunks(4) {
            let mut v = 0u32;
            for &b in chunk {
                v = (v << 8) | u32::from(b);
            }
            limbs.push(v);
        }
        Big(limbs).normalized()
    }

    fn from_hex(s: &str) -> Big {
        let bytes: Vec<u8> = s
            .as_bytes()
            .chunks(2)
            .map(|c| {
                let d = |x: u8| (x as char).to_digit(16).unwrap_or(0) as u8;
                (d(c[0]) << 4) | d(c.get(1).copied().unwrap_or(b'0'))
            })
            .collect();
        Big::from_be(&bytes)
    }

    fn normalized(mut self) -> Big {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    fn cmp(&self, o: &Big) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    fn add(&self, o: &Big) -> Big {
        let n = self.0.len().max(o.0.len());
        let mut out = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let s = u64::from(self.0.get(i).copied().unwrap_or(0))
                + u64::from(o.0.get(i).copied().unwrap_or(0))
                + carry;
            out.push(s as u32);
            carry = s >> 32;
        }
        out.push(carry as u32);
        Big(out).normalized()
    }

    /// `self - o`, for `self >= o`.
    fn sub(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut d = i64::from(self.0[i]) - i64::from(o.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            }
            out.push(d as u32);
        }
        Big(out).normalized()
    }

    fn mul(&self, o: &Big) -> Big {
        let mut out = vec![0u32; self.0.len() + o.0.len() + 1];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let t = u64::from(a) * u64::from(b) + u64::from(out[i + j]) + carry;
                out[i + j] = t as u32;
                carry = t >> 32;
            }
            let mut k = i + o.0.len();
            while carry != 0 {
                let t = u64::from(out[k]) + carry;
                out[k] = t as u32;
                carry = t >> 32;
                k += 1;
            }
        }
        Big(out).normalized()
    }

    /// `self mod m`, bit by bit.
    fn rem(&self, m: &Big) -> Big {
        let mut r = Big(Vec::new());
        for i in (0..self.0.len() * 32).rev() {
            r = r.add(&r);
            if (self.0[i / 32] >> (i % 32)) & 1 == 1 {
                r = r.add(&Big(vec![1]));
            }
            if r.cmp(m).is_ge() {
                r = r.sub(m);
            }
        }
        r
    }
}

/// A `pkix.Extension`.
struct Extension<'a> {
    id: Vec<u32>,
    critical: bool,
    value: &'a [u8],
}

/// `parseExtension`.
fn parse_extension(mut der: Der<'_>) -> Result<Extension<'_>, String> {
    let Some(id) = der.read_oid() else {
        return err("x509: malformed extension OID field");
    };
    let mut critical = false;
    if der.peek(BOOLEAN) {
        match der.read_bool() {
            Some(c) => critical = c,
            None => return err("x509: malformed extension critical field"),
        }
    }
    let Some(value) = der.read(OCTET_STRING) else {
        return err("x509: malformed extension value field");
    };
    Ok(Extension {
        id,
        critical,
        value: value.0,
    })
}

/// The checks of `processExtensions` on one extension's contents.
fn process_extension(e: &Extension<'_>) -> Result<(), String> {
    let val = Der(e.value);
    match e.id.as_slice() {
        // keyUsage
        [2, 5, 29, 15] => {
            let mut val = val;
            if val.read_bit_string().is_none() {
                return err("x509: invalid key usage");
            }
        }
        // basicConstraints
        [2, 5, 29, 19] => {
            let bad = || err("x509: invalid basic constraints");
            let mut val = val;
            let Some(mut seq) = val.read(SEQUENCE) else {
                return bad();
            };
            if seq.peek(BOOLEAN) && seq.read_bool().is_none() {
                return bad();
            }
            if seq.peek(INTEGER) {
                match seq.read_u64(INTEGER) {
                    Some(v) if v <= i64::MAX as u64 => {}
                    _ => return bad(),
                }
            }
        }
        // subjectAltName
        [2, 5, 29, 17] => check_san(val)?,
        // nameConstraints: not reproduced.
        [2, 5, 29, 30] => {}
        // cRLDistributionPoints
        [2, 5, 29, 31] => check_crl_distribution_points(val)?,
        // authorityKeyIdentifier
        [2, 5, 29, 35] => {
            if e.critical {
                return err("x509: authority key identifier incorrectly marked critical");
            }
            let mut val = val;
            let Some(mut akid) = val.read(SEQUENCE) else {
                return err("x509: invalid authority key identifier");
            };
            if akid.peek(context(0)) && akid.read(context(0)).is_none() {
                return err("x509: invalid authority key identifier");
            }
        }
        // policyConstraints
        [2, 5, 29, 36] => {
            let bad = || err("x509: invalid policy constraints extension");
            let mut val = val;
            let Some(mut seq) = val.read(SEQUENCE) else {
                return bad();
            };
            for tag in [context(0), context(1)] {
                if seq.peek(tag) && seq.read_i64(tag).is_none() {
                    return bad();
                }
            }
        }
        // extKeyUsage
        [2, 5, 29, 37] => {
            let mut val = val;
            let Some(mut seq) = val.read(SEQUENCE) else {
                return err("x509: invalid extended key usages");
            };
            while !seq.is_empty() {
                if seq.read_oid().is_none() {
                    return err("x509: invalid extended key usages");
                }
            }
        }
        // subjectKeyIdentifier
        [2, 5, 29, 14] => {
            if e.critical {
                return err("x509: subject key identifier incorrectly marked critical");
            }
            if Der(e.value).read(OCTET_STRING).is_none() {
                return err("x509: invalid subject key identifier");
            }
        }
        // certificatePolicies
        [2, 5, 29, 32] => check_certificate_policies(val)?,
        // policyMappings
        [2, 5, 29, 33] => {
            let bad = || err("x509: invalid policy mappings extension");
            let mut val = val;
            let Some(mut seq) = val.read(SEQUENCE) else {
                return bad();
            };
            while !seq.is_empty() {
                let ok = seq.read(SEQUENCE).is_some_and(|mut s| {
                    s.read(OBJECT_IDENTIFIER).is_some() && s.read(OBJECT_IDENTIFIER).is_some()
                });
                if !ok {
                    return bad();
                }
            }
        }
        // inhibitAnyPolicy (an `int`)
        [2, 5, 29, 54] => {
            let mut val = val;
            if val.read_i64(INTEGER).is_none() {
                return err("x509: invalid inhibit any policy extension");
            }
        }
        // authorityInfoAccess
        [1, 3, 6, 1, 5, 5, 7, 1, 1] => {
            if e.critical {
                return err("x509: authority info access incorrectly marked critical");
            }
            let bad = || err("x509: invalid authority info access");
            let mut val = val;
            let Some(mut seq) = val.read(SEQUENCE) else {
                return bad();
            };
            while !seq.is_empty() {
                let Some(mut aia) = seq.read(SEQUENCE) else {
                    return bad();
                };
                if aia.read_oid().is_none() {
                    return bad();
                }
                if aia.peek(context(6)) && aia.read(context(6)).is_none() {
                    return bad();
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// `parseSANExtension` (without the URI host's domain check).
fn check_san(mut val: Der<'_>) -> Result<(), String> {
    let Some(mut seq) = val.read(SEQUENCE) else {
        return err("x509: invalid subject alternative names");
    };
    while !seq.is_empty() {
        let Some((tag, data)) = seq.read_any(true) else {
            return err("x509: invalid subject alternative name");
        };
        match tag ^ 0x80 {
            1 if !data.is_ascii() => return err("x509: SAN rfc822Name is malformed"),
            2 if !data.is_ascii() => return err("x509: SAN dNSName is malformed"),
            6 => {
                if !data.is_ascii() {
                    return err("x509: SAN uniformResourceIdentifier is malformed");
                }
                let uri = String::from_utf8_lossy(data);
                if let Err(e) = url::parse(&uri) {
                    return Err(format!(
                        "x509: cannot parse URI {}: {e}",
                        crate::go::fmt::go_quote(&uri)
                    ));
                }
            }
            7 if data.len() != 4 && data.len() != 16 => {
                return Err(format!(
                    "x509: cannot parse IP address of length {}",
                    data.len()
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The CRL distribution points extension.
fn check_crl_distribution_points(mut val: Der<'_>) -> Result<(), String> {
    let Some(mut seq) = val.read(SEQUENCE) else {
        return err("x509: invalid CRL distribution points");
    };
    let bad = || err("x509: invalid CRL distribution point");
    while !seq.is_empty() {
        let Some(mut dp) = seq.read(SEQUENCE) else {
            return bad();
        };
        let name = match dp.read_optional(constructed_context(0)) {
            None => return bad(),
            Some(None) => continue,
            Some(Some(n)) => n,
        };
        let mut name = name;
        let Some(mut names) = name.read(constructed_context(0)) else {
            return bad();
        };
        while !names.is_empty() {
            if !names.peek(context(6)) {
                break;
            }
            if names.read(context(6)).is_none() {
                return bad();
            }
        }
    }
    Ok(())
}

/// `parseCertificatePoliciesExtension`.
fn check_certificate_policies(mut val: Der<'_>) -> Result<(), String> {
    let bad = || err("x509: invalid certificate policies");
    let Some(mut seq) = val.read(SEQUENCE) else {
        return bad();
    };
    let mut seen: Vec<&[u8]> = Vec::new();
    while !seq.is_empty() {
        let Some(oid) = seq
            .read(SEQUENCE)
            .and_then(|mut cp| cp.read(OBJECT_IDENTIFIER))
        else {
            return bad();
        };
        if seen.contains(&oid.0) {
            return bad();
        }
        seen.push(oid.0);
        if !oid_der_valid(oid.0) {
            return bad();
        }
    }
    Ok(())
}

/// `newOIDFromDER`: non-empty, and no component starts with `0x80` nor
/// ends the data unfinished.
fn oid_der_valid(der: &[u8]) -> bool {
    if der.is_empty() || der[der.len() - 1] & 0x80 != 0 {
        return false;
    }
    let mut start = true;
    for &b in der {
        if start && b == 0x80 {
            return false;
        }
        start = b & 0x80 == 0;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_constants_hold_their_generators() {
        // P-256's generator lies on the curve; a changed y does not.
        let gx = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
        let gy = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
        let curve = Curve::from_oid(&[1, 2, 840, 10045, 3, 1, 7]).expect("P-256");
        let mut point = vec![4u8];
        for h in [gx, gy] {
            point.extend(
                (0..h.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&h[i..i + 2], 16).expect("hex")),
            );
        }
        assert_eq!(curve.check_uncompressed_point(&point), Ok(()));
        point[64] ^= 1;
        assert_eq!(
            curve.check_uncompressed_point(&point),
            Err("P256 point not on curve".to_string())
        );
    }

    #[test]
    fn times_must_read_back_as_written() {
        assert!(utc_time_valid(b"700101000000Z"));
        assert!(utc_time_valid(b"7001010000Z"));
        assert!(utc_time_valid(b"200229000000+0130"));
        assert!(!utc_time_valid(b"210229000000Z"));
        assert!(!utc_time_valid(b"700101000000+0000"));
        assert!(!utc_time_valid(b"700101000060Z"));
        assert!(!utc_time_valid(b"700101000000.5Z"));
        assert!(generalized_time_valid(b"20840129160000Z"));
        assert!(!generalized_time_valid(b"20840129160000.0Z"));
    }

    #[test]
    fn ca_data_without_a_certificate_is_an_error() {
        let e = |data: &[u8]| validate_ca_data(data).err().unwrap_or_default();
        assert_eq!(
            e(b"Cg=="),
            "unable to load root certificates: unable to parse bytes as PEM block"
        );
        assert_eq!(
            e(b"-----BEGIN X-----\nAAAA\n-----END X-----\n"),
            "unable to load root certificates: no valid certificate authority data seen"
        );
        assert_eq!(
            e(b"-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n"),
            "unable to load root certificates: failed to parse certificate: x509: malformed tbs certificate"
        );
        assert_eq!(std_encode(b"Cg=="), "Q2c9PQ==");
        assert_eq!(std_encode(b"ab"), "YWI=");
    }
}
