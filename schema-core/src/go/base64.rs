//! Go's `encoding/base64` with the standard encoding, as the API server's
//! decoders use it (`[]byte` fields, YAML `!!binary`, the `byte` format's
//! CEL conversion).

/// Go's `base64.StdEncoding.DecodeString`: the standard alphabet with
/// padding; `\r` and `\n` are ignored. `None` when it fails.
pub fn std_decode(s: &str) -> Option<Vec<u8>> {
    std_decode_at(s).ok()
}

/// [`std_decode_at`] with Go's `base64.URLEncoding` alphabet (`-` and `_`
/// for `+` and `/`, padded): what strfmt's `Base64.UnmarshalText` decodes
/// a `byte`-format string with.
///
/// # Errors
///
/// The offset Go reports.
pub fn url_decode_at(s: &str) -> Result<Vec<u8>, usize> {
    decode_at(s, b'-', b'_')
}

/// [`std_decode`] with Go's error: the input byte offset of a
/// `CorruptInputError` (`illegal base64 data at input byte N`).
///
/// # Errors
///
/// The offset Go reports.
pub fn std_decode_at(s: &str) -> Result<Vec<u8>, usize> {
    decode_at(s, b'+', b'/')
}

/// Padded base64 with `c62` and `c63` as the last two digits, as Go's
/// `decodeQuantum` reads it.
fn decode_at(s: &str, c62: u8, c63: u8) -> Result<Vec<u8>, usize> {
    let src = s.as_bytes();
    let value = |c: u8| -> Option<u8> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            _ if c == c62 => 62,
            _ if c == c63 => 63,
            _ => return None,
        })
    };
    let newline = |c: u8| c == b'\n' || c == b'\r';
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0usize;
    // One quantum at a time, as Go's decodeQuantum.
    loop {
        let mut dbuf = [0u8; 4];
        let mut dlen = 4usize;
        let mut j = 0usize;
        let mut ended = false;
        while j < 4 {
            let Some(&c) = src.get(si) else {
                match j {
                    0 => return Ok(out),
                    _ => return Err(si - j),
                }
            };
            si += 1;
            if let Some(v) = value(c) {
                dbuf[j] = v;
                j += 1;
                continue;
            }
            if newline(c) {
                continue;
            }
            if c != b'=' {
                return Err(si - 1);
            }
            // Padding: only after two or three characters.
            match j {
                0 | 1 => return Err(si - 1),
                2 => {
                    while src.get(si).is_some_and(|&c| newline(c)) {
                        si += 1;
                    }
                    match src.get(si) {
                        None => return Err(src.len()),
                        Some(&b'=') => si += 1,
                        Some(_) => return Err(si - 1),
                    }
                }
                _ => {}
            }
            while src.get(si).is_some_and(|&c| newline(c)) {
                si += 1;
            }
            if si < src.len() {
                return Err(si);
            }
            dlen = j;
            ended = true;
            break;
        }
        let [a, b, c, d] = dbuf;
        let bytes = [(a << 2) | (b >> 4), (b << 4) | (c >> 2), (c << 6) | d];
        out.extend_from_slice(bytes.get(..dlen.saturating_sub(1)).unwrap_or_default());
        if ended {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_as_go_std_encoding() {
        assert_eq!(std_decode("aGVsbG8="), Some(b"hello".to_vec()));
        assert_eq!(std_decode("aGVs\r\nbG8="), Some(b"hello".to_vec()));
        assert_eq!(std_decode(""), Some(Vec::new()));
        assert_eq!(std_decode("aGVsbG8"), None);
        assert_eq!(std_decode("aGVsbG8=aGVs"), None);
    }

    #[test]
    fn reports_go_offsets() {
        assert_eq!(std_decode_at("a@b.c"), Err(1));
        assert_eq!(std_decode_at("@"), Err(0));
        assert_eq!(std_decode_at("aGVsbG8"), Err(4));
        assert_eq!(std_decode_at("aGVsbG8=aGVs"), Err(8));
        assert_eq!(std_decode_at("aG=="), Ok(b"h".to_vec()));
        assert_eq!(std_decode_at("a==="), Err(1));
        assert_eq!(std_decode_at("aG="), Err(3));
        assert_eq!(url_decode_at("2024-01-01T00:00:00Z"), Err(13));
        assert_eq!(url_decode_at("a+b/"), Err(1));
        assert_eq!(url_decode_at("-_-_"), Ok(vec![0xfb, 0xff, 0xbf]));
    }
}
