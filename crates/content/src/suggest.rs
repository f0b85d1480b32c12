//! "Did you mean …?": the closest of a list of known names to a misspelt one.

/// The candidate closest to `word`, when it is close enough to be a likely typo or a shortened
/// form: a small edit distance for its length, or one of them a prefix of the other
/// (`sleepHygiene` for `sleepHygienePractices`). Case is ignored when comparing.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    if lower.is_empty() {
        return None;
    }
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        let cl = c.to_lowercase();
        if cl == lower {
            return Some(c);
        }
        let distance = strsim::osa_distance(&lower, &cl);
        let allowed = (lower.chars().count().max(cl.chars().count()) / 3).max(1);
        let prefix = lower.len() >= 4 && (cl.starts_with(&lower) || lower.starts_with(&cl));
        // A prefix match ranks after any real typo, and among prefixes the shortest wins.
        let score = if distance <= allowed {
            distance
        } else if prefix {
            1000 + distance
        } else {
            continue;
        };
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

/// ` (did you mean `x`?)`-style text, or nothing.
pub fn did_you_mean_text<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    did_you_mean(word, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_case_and_prefixes() {
        let keys = ["sleepHygienePractices", "guidedMeditationForSleep", "other"];
        assert_eq!(did_you_mean("sleepHygiene", keys), Some("sleepHygienePractices"));
        assert_eq!(did_you_mean("guidedMeditationForSlep", keys), Some("guidedMeditationForSleep"));
        assert_eq!(did_you_mean("Other", keys), Some("other"));
        assert_eq!(did_you_mean("breathwork", keys), None);
        assert_eq!(did_you_mean("", keys), None);
    }

    #[test]
    fn short_words_need_a_close_match() {
        let fields = ["title", "slug", "date", "author", "description", "image", "entities"];
        assert_eq!(did_you_mean("titel", fields), Some("title"));
        assert_eq!(did_you_mean("autor", fields), Some("author"));
        assert_eq!(did_you_mean("tags", fields), None);
        assert_eq!(did_you_mean("draft", fields), None);
    }

    #[test]
    fn the_closest_wins() {
        assert_eq!(did_you_mean("calmm", ["calm", "calmer"]), Some("calm"));
        assert_eq!(did_you_mean_text("calmm", ["calm"]).unwrap(), "did you mean `calm`?");
    }
}
