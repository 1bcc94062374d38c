//! Go's `encoding/base64` with the standard encoding, as the API server's
//! decoders use it (`[]byte` fields, YAML `!!binary`, the `byte` format's
//! CEL conversion).

/// Go's `base64.StdEncoding.DecodeString`: the standard alphabet with
/// padding; `\r` and `\n` are ignored. `None` when it fails.
pub fn std_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let mut quad = [0u8; 4];
    let mut n = 0;
    let mut padding = 0;
    for c in s.bytes() {
        let v = match c {
            b'\r' | b'\n' => continue,
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                padding += 1;
                0
            }
            _ => return None,
        };
        if padding > 0 && c != b'=' {
            return None;
        }
        *quad.get_mut(n)? = v;
        n += 1;
        if n == 4 {
            let [a, b, c, d] = quad;
            let bytes = [(a << 2) | (b >> 4), (b << 4) | (c >> 2), (c << 6) | d];
            let keep = 3usize.checked_sub(padding)?;
            if padding > 2 {
                return None;
            }
            out.extend_from_slice(bytes.get(..keep)?);
            n = 0;
            if padding > 0 {
                padding = 3; // nothing may follow the padded group
            }
        }
    }
    (n == 0).then_some(out)
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
}
