//! Go's `net` address parsers as the format checks use them:
//! `k8s.io/utils/net.ParseIPSloppy` / `ParseCIDRSloppy` (Go 1.16's `net`
//! parsers, tolerating leading zeros), the current `net.ParseIP`
//! (`netip`-strict), and `net.ParseMAC`.

const BIG: u32 = 0xFF_FFFF;

/// Go 1.16 `dtoi`: decimal prefix, `(value, consumed, ok)`.
fn dtoi(s: &[u8]) -> (u32, usize, bool) {
    let mut n: u32 = 0;
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        if !c.is_ascii_digit() {
            break;
        }
        n = n * 10 + u32::from(c - b'0');
        if n >= BIG {
            return (BIG, i, false);
        }
        i += 1;
    }
    if i == 0 {
        return (0, 0, false);
    }
    (n, i, true)
}

/// Go 1.16 `xtoi`: hexadecimal prefix, `(value, consumed, ok)`.
fn xtoi(s: &[u8]) -> (u32, usize, bool) {
    let mut n: u32 = 0;
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        n = n * 16 + u32::from(d);
        if n >= BIG {
            return (0, i, false);
        }
        i += 1;
    }
    if i == 0 {
        return (0, i, false);
    }
    (n, i, true)
}

/// Go 1.16 `parseIPv4` (leading zeros allowed).
fn sloppy_v4(mut s: &[u8]) -> Option<[u8; 4]> {
    let mut p = [0u8; 4];
    for (i, slot) in p.iter_mut().enumerate() {
        if s.is_empty() {
            return None;
        }
        if i > 0 {
            if s.first() != Some(&b'.') {
                return None;
            }
            s = s.get(1..)?;
        }
        let (n, c, ok) = dtoi(s);
        if !ok || n > 0xFF {
            return None;
        }
        s = s.get(c..)?;
        *slot = u8::try_from(n).ok()?;
    }
    s.is_empty().then_some(p)
}

/// Go 1.16 `parseIPv6` (no zone).
fn sloppy_v6(mut s: &[u8]) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.len() >= 2 && s.first() == Some(&b':') && s.get(1) == Some(&b':') {
        ellipsis = Some(0);
        s = s.get(2..)?;
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0usize;
    while i < 16 {
        let (n, c, ok) = xtoi(s);
        if !ok || n > 0xFFFF {
            return None;
        }
        if s.get(c) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                return None;
            }
            if i + 4 > 16 {
                return None;
            }
            let v4 = sloppy_v4(s)?;
            ip.get_mut(i..i + 4)?.copy_from_slice(&v4);
            s = &[];
            i += 4;
            break;
        }
        *ip.get_mut(i)? = (n >> 8) as u8;
        *ip.get_mut(i + 1)? = n as u8;
        i += 2;
        s = s.get(c..)?;
        if s.is_empty() {
            break;
        }
        if s.first() != Some(&b':') || s.len() == 1 {
            return None;
        }
        s = s.get(1..)?;
        if s.first() == Some(&b':') {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = s.get(1..)?;
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    expand(ip, i, ellipsis)
}

fn expand(mut ip: [u8; 16], i: usize, ellipsis: Option<usize>) -> Option<[u8; 16]> {
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        ip.copy_within(e..i, e + n);
        ip.get_mut(e..e + n)?.fill(0);
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

/// `netutils.ParseIPSloppy(s) != nil` (Go 1.16 `net.ParseIP`).
pub(crate) fn parse_ip_sloppy(s: &str) -> bool {
    let b = s.as_bytes();
    for &c in b {
        match c {
            b'.' => return sloppy_v4(b).is_some(),
            b':' => return sloppy_v6(b).is_some(),
            _ => {}
        }
    }
    false
}

/// `netutils.ParseCIDRSloppy(s)` succeeds (Go 1.16 `net.ParseCIDR`).
pub(crate) fn parse_cidr_sloppy(s: &str) -> bool {
    let Some((addr, mask)) = s.split_once('/') else {
        return false;
    };
    let iplen = if sloppy_v4(addr.as_bytes()).is_some() {
        4
    } else if sloppy_v6(addr.as_bytes()).is_some() {
        16
    } else {
        return false;
    };
    let (n, i, ok) = dtoi(mask.as_bytes());
    ok && i == mask.len() && n <= 8 * iplen
}

/// `netip` `parseIPv4Fields` (strict: no leading zeros).
fn strict_v4(s: &[u8]) -> bool {
    let mut val: u32 = 0;
    let mut pos = 0;
    let mut dig_len = 0;
    for (i, &c) in s.iter().enumerate() {
        if c.is_ascii_digit() {
            if dig_len == 1 && val == 0 {
                return false;
            }
            val = val * 10 + u32::from(c - b'0');
            dig_len += 1;
            if val > 255 {
                return false;
            }
        } else if c == b'.' {
            if i == 0 || i == s.len() - 1 || s.get(i - 1) == Some(&b'.') {
                return false;
            }
            if pos == 3 {
                return false;
            }
            pos += 1;
            val = 0;
            dig_len = 0;
        } else {
            return false;
        }
    }
    pos >= 3
}

/// `netip` `parseIPv6` without a zone.
fn strict_v6(mut s: &[u8]) -> bool {
    let mut ellipsis: Option<usize> = None;
    if s.len() >= 2 && s.first() == Some(&b':') && s.get(1) == Some(&b':') {
        ellipsis = Some(0);
        s = s.get(2..).unwrap_or_default();
        if s.is_empty() {
            return true;
        }
    }
    let mut i = 0usize;
    while i < 16 {
        let mut off = 0;
        let mut acc: u32 = 0;
        while let Some(&c) = s.get(off) {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => break,
            };
            acc = (acc << 4) + u32::from(d);
            if off > 3 || acc > 0xFFFF {
                return false;
            }
            off += 1;
        }
        if off == 0 {
            return false;
        }
        if s.get(off) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                return false;
            }
            if i + 4 > 16 {
                return false;
            }
            if !strict_v4(s) {
                return false;
            }
            s = &[];
            i += 4;
            break;
        }
        i += 2;
        s = s.get(off..).unwrap_or_default();
        if s.is_empty() {
            break;
        }
        if s.first() != Some(&b':') || s.len() == 1 {
            return false;
        }
        s = s.get(1..).unwrap_or_default();
        if s.first() == Some(&b':') {
            if ellipsis.is_some() {
                return false;
            }
            ellipsis = Some(i);
            s = s.get(1..).unwrap_or_default();
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return false;
    }
    if i < 16 {
        ellipsis.is_some()
    } else {
        ellipsis.is_none()
    }
}

/// `net.ParseIP(s) != nil` of current Go (strict, zones rejected).
pub(crate) fn parse_ip_strict(s: &str) -> bool {
    let b = s.as_bytes();
    for &c in b {
        match c {
            b'.' => return strict_v4(b),
            b':' => return !s.contains('%') && strict_v6(b),
            b'%' => return false,
            _ => {}
        }
    }
    false
}

/// `net.ParseMAC(s)` succeeds.
pub(crate) fn parse_mac(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 14 {
        return false;
    }
    // Two hex digits at `s[x..]`; a third byte, if any, must be `sep`.
    let xtoi2 = |x: usize, sep: Option<u8>| -> bool {
        if let Some(sep) = sep {
            if let Some(&c) = b.get(x + 2) {
                if c != sep {
                    return false;
                }
            }
        }
        let Some(two) = b.get(x..x + 2) else {
            return false;
        };
        two.iter().all(u8::is_ascii_hexdigit)
    };
    match (b.get(2), b.get(4)) {
        (Some(&sep), _) if sep == b':' || sep == b'-' => {
            if (b.len() + 1) % 3 != 0 {
                return false;
            }
            let n = (b.len() + 1) / 3;
            if n != 6 && n != 8 && n != 20 {
                return false;
            }
            (0..n).all(|i| xtoi2(i * 3, Some(sep)))
        }
        (_, Some(&b'.')) => {
            if (b.len() + 1) % 5 != 0 {
                return false;
            }
            let n = 2 * (b.len() + 1) / 5;
            if n != 6 && n != 8 && n != 20 {
                return false;
            }
            (0..n / 2).all(|k| {
                let x = k * 5;
                // The first pair is read from a 2-byte slice: no separator check.
                b.get(x..x + 2)
                    .is_some_and(|t| t.iter().all(u8::is_ascii_hexdigit))
                    && xtoi2(x + 2, Some(b'.'))
            })
        }
        _ => false,
    }
}
