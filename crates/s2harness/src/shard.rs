//! Splitting a job list over N workers: `K/N` (1-based K) takes every N-th job starting at the
//! K-th, as `cargo nextest run --partition count:K/N` does, so shards differ by at most one job
//! and the split depends only on the list's order, never on timing or thread count.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Shard `k` of `n` (1 ≤ k ≤ n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// The whole list.
    pub const ALL: Shard = Shard { k: 1, n: 1 };

    /// Does job `index` (0-based, in the unsharded list) belong to this shard?
    pub fn contains(&self, index: u64) -> bool {
        index % self.n == self.k - 1
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::ALL
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{s}': expected K/N with 1 <= K <= N, e.g. 2/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { k: 2, n: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_partition_the_list_round_robin() {
        // nextest count:K/N: the i-th test (0-based) goes to shard (i mod N) + 1.
        let n = 3;
        let shards: Vec<Vec<u64>> = (1..=n)
            .map(|k| (0..10).filter(|&i| Shard { k, n }.contains(i)).collect())
            .collect();
        assert_eq!(shards, vec![vec![0, 3, 6, 9], vec![1, 4, 7], vec![2, 5, 8]]);
    }
}
