//! A shard of a build split in N (`build --shard i/N`): which shard writes an article's pages,
//! by a rule stable across builds, machines and engine versions (docs/scale.md).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Shard `index` of `count` (0 ≤ index < count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The shard that owns the article `slug` among `count` shards.
    pub fn of_slug(slug: &str, count: u32) -> u32 {
        let digest = Sha256::digest(slug.as_bytes());
        let h = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
        (h % u64::from(count)) as u32
    }

    /// Whether this shard writes the pages and files shared by the whole site.
    pub fn is_shared(&self) -> bool {
        self.index == 0
    }

    /// The default cache directory's name for this shard (inside `SITE/.stillpoint`), so a
    /// shard build and a whole build never share one cache.
    pub fn cache_dir_name(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `i/N`, e.g. `0/4`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (i, n) = s.split_once('/').ok_or_else(|| format!("`{s}` is not i/N (e.g. 0/4)"))?;
        let count: u32 =
            n.trim().parse().map_err(|_| format!("`{n}` in `{s}` is not a shard count"))?;
        let index: u32 =
            i.trim().parse().map_err(|_| format!("`{i}` in `{s}` is not a shard index"))?;
        if count == 0 {
            return Err(format!("`{s}`: the shard count must be at least 1"));
        }
        if index >= count {
            return Err(format!(
                "`{s}`: the shard index must be below {count} (0 to {})",
                count - 1
            ));
        }
        Ok(Self { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn parses_i_of_n_and_refuses_the_rest() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard { index: 0, count: 1 }));
        for bad in ["3/2", "2/2", "x/2", "0/0", "1", "1/", "/2", "-1/2", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(Shard { index: 1, count: 4 }.to_string(), "1/4");
    }

    #[test]
    fn the_owner_of_a_slug_is_stable_and_spread() {
        // SHA-256("abc") starts ba7816bf8f01cfea: the owner is that number mod N, for good.
        assert_eq!(Shard::of_slug("abc", 7), (0xba78_16bf_8f01_cfea_u64 % 7) as u32);
        assert_eq!(Shard::of_slug("abc", 1000), 74);
        assert_eq!(Shard::of_slug("a", 1), 0);
        let mut counts = [0usize; 4];
        for i in 0..4000 {
            counts[Shard::of_slug(&format!("article-{i}"), 4) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (800..1200).contains(&c)), "{counts:?}");
    }
}
