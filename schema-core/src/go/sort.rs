//! Go's `sort.Slice`: pattern-defeating quicksort (`pdqsort_func`), which
//! is not stable. Elements that compare equal come out in the order this
//! exact algorithm leaves them, so a port, not any sort, gives Go's order.

/// `sort.Slice(x, less)` over the positions `0..n`: the permutation Go
/// leaves, `less(i, j)` comparing the elements originally at `i` and `j`.
pub(crate) fn sort_slice(n: usize, less: impl FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut s = Sorter {
        perm: (0..n).collect(),
        less,
    };
    let limit = usize::BITS - n.leading_zeros();
    s.pdqsort(0, n, limit);
    s.perm
}

/// `pdqsort_func`'s `sortedHint`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct Sorter<F> {
    perm: Vec<usize>,
    less: F,
}

impl<F: FnMut(usize, usize) -> bool> Sorter<F> {
    fn less(&mut self, i: usize, j: usize) -> bool {
        let (a, b) = (self.perm[i], self.perm[j]);
        (self.less)(a, b)
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.perm.swap(i, j);
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: usize, b: usize) {
        let first = a;
        let hi = b - a;
        for i in (0..=(hi.saturating_sub(1)) / 2).rev() {
            if hi > 0 {
                self.sift_down(i, hi, first);
            }
        }
        for i in (0..hi).rev() {
            self.swap(first, first + i);
            self.sift_down(0, i, first);
        }
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: u32) {
        const MAX_INSERTION: usize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced
                && was_partitioned
                && hint == Hint::Increasing
                && self.partial_insertion_sort(a, b)
            {
                return;
            }
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already) = self.partition(a, b, pivot);
            was_partitioned = already;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.swap(a, pivot);
        // i and j are inclusive; j may step below a + 1 (to a).
        let (mut i, mut j) = (a + 1, b as isize - 1);
        while i as isize <= j && self.less(i, a) {
            i += 1;
        }
        while i as isize <= j && !self.less(j as usize, a) {
            j -= 1;
        }
        if i as isize > j {
            self.swap(j as usize, a);
            return (j as usize, true);
        }
        self.swap(i, j as usize);
        i += 1;
        j -= 1;
        loop {
            while i as isize <= j && self.less(i, a) {
                i += 1;
            }
            while i as isize <= j && !self.less(j as usize, a) {
                j -= 1;
            }
            if i as isize > j {
                break;
            }
            self.swap(i, j as usize);
            i += 1;
            j -= 1;
        }
        self.swap(j as usize, a);
        (j as usize, false)
    }

    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b as isize - 1);
        loop {
            while i as isize <= j && !self.less(a, i) {
                i += 1;
            }
            while i as isize <= j && self.less(a, j as usize) {
                j -= 1;
            }
            if i as isize > j {
                break;
            }
            self.swap(i, j as usize);
            i += 1;
            j -= 1;
        }
        i
    }

    fn partial_insertion_sort(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                for j in i + 1..b {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                }
            }
        }
        false
    }

    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length >= 8 {
            let mut random = length as u64;
            let modulus = 1usize << (usize::BITS - length.leading_zeros());
            let mid = a + (length / 4) * 2;
            for idx in mid - 1..=mid + 1 {
                random ^= random << 13;
                random ^= random >> 7;
                random ^= random << 17;
                let mut other = (random as usize) & (modulus - 1);
                if other >= length {
                    other -= length;
                }
                self.swap(idx, a + other);
            }
        }
    }

    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, Hint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    fn order2(&mut self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    fn median(&mut self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, c) = self.order2(b, c, swaps);
        let _ = c;
        let (_, b) = self.order2(a, b, swaps);
        b
    }

    fn reverse_range(&mut self, a: usize, b: usize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sort_slice;

    #[test]
    fn sorts_like_any_sort_on_distinct_keys() {
        let keys: Vec<i64> = (0..500).map(|i| (i * 7919) % 503).collect();
        let perm = sort_slice(keys.len(), |a, b| keys[a] < keys[b]);
        let sorted: Vec<i64> = perm.iter().map(|&i| keys[i]).collect();
        let mut want = keys.clone();
        want.sort_unstable();
        assert_eq!(sorted, want);
        // Descending, ascending, all equal, and tiny inputs.
        for keys in [
            (0..300).rev().collect::<Vec<i64>>(),
            (0..300).collect(),
            vec![1; 300],
            vec![],
            vec![3],
        ] {
            let perm = sort_slice(keys.len(), |a, b| keys[a] < keys[b]);
            let mut seen = perm.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..keys.len()).collect::<Vec<_>>());
            assert!(perm.windows(2).all(|w| keys[w[0]] <= keys[w[1]]));
        }
    }

    #[test]
    fn equal_keys_keep_go_order() {
        // The permutations Go's sort.Slice leaves (go1.26).
        let go = |keys: Vec<i64>, want: &[usize]| {
            assert_eq!(sort_slice(keys.len(), |a, b| keys[a] < keys[b]), want);
        };
        go(
            (0..20).map(|i| i % 3).collect(),
            &[
                9, 18, 15, 3, 12, 0, 6, 10, 7, 4, 13, 16, 1, 19, 8, 5, 11, 14, 2, 17,
            ],
        );
        go(
            (0..60).map(|i| i * 37 % 7).collect(),
            &[
                0, 28, 42, 56, 21, 35, 14, 7, 49, 18, 46, 11, 53, 25, 4, 39, 32, 36, 15, 29, 43,
                50, 22, 57, 1, 8, 47, 26, 40, 19, 12, 54, 5, 33, 30, 9, 58, 37, 2, 51, 16, 44, 23,
                55, 41, 20, 6, 27, 48, 13, 34, 52, 10, 24, 17, 45, 3, 38, 31, 59,
            ],
        );
        go(
            (0..100).map(|i| (100 - i) * 13 % 5).collect(),
            &[
                20, 25, 95, 45, 35, 5, 90, 50, 0, 85, 10, 30, 80, 55, 70, 15, 75, 60, 40, 65, 78,
                13, 18, 23, 63, 98, 73, 58, 28, 68, 83, 53, 8, 33, 88, 93, 48, 3, 38, 43, 51, 26,
                1, 96, 91, 6, 46, 86, 36, 11, 81, 76, 16, 31, 71, 41, 56, 21, 66, 61, 69, 79, 99,
                24, 64, 39, 94, 4, 44, 29, 19, 54, 89, 9, 74, 84, 49, 34, 14, 59, 37, 77, 82, 32,
                52, 17, 47, 87, 72, 7, 92, 57, 12, 67, 27, 2, 22, 97, 42, 62,
            ],
        );
        go(
            (0..64).map(|i| (64 - i) / 4).collect(),
            &[
                63, 62, 61, 60, 59, 58, 57, 53, 56, 55, 54, 50, 51, 52, 49, 45, 48, 47, 46, 44, 43,
                42, 41, 40, 39, 38, 37, 33, 36, 35, 34, 31, 29, 32, 30, 26, 28, 27, 25, 24, 23, 22,
                21, 17, 20, 19, 18, 16, 15, 14, 13, 9, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2, 1, 0,
            ],
        );
    }
}
