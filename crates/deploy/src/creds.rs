//! Credentials and region from the standard AWS sources: environment variables first, then the
//! shared files (`~/.aws/credentials`, `~/.aws/config`, profile `AWS_PROFILE` or `default`).

use std::collections::HashMap;
use std::path::PathBuf;

/// Settings read from the shared files, as `aws_*` config keys of object_store.
pub fn from_profile() -> Vec<(&'static str, String)> {
    let profile = env("AWS_PROFILE").unwrap_or_else(|| "default".into());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let creds_file = env("AWS_SHARED_CREDENTIALS_FILE")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".aws/credentials")));
    let config_file = env("AWS_CONFIG_FILE")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".aws/config")));
    let creds = creds_file.and_then(|f| std::fs::read_to_string(f).ok());
    let config = config_file.and_then(|f| std::fs::read_to_string(f).ok());
    let mut out = Vec::new();
    let from_creds = creds.map(|t| section(&t, &profile)).unwrap_or_default();
    let config_name =
        if profile == "default" { "default".to_string() } else { format!("profile {profile}") };
    let from_config = config.map(|t| section(&t, &config_name)).unwrap_or_default();
    for (key, var) in [
        ("aws_access_key_id", "AWS_ACCESS_KEY_ID"),
        ("aws_secret_access_key", "AWS_SECRET_ACCESS_KEY"),
        ("aws_session_token", "AWS_SESSION_TOKEN"),
    ] {
        if env(var).is_none()
            && let Some(v) = from_creds.get(key).or_else(|| from_config.get(key))
        {
            out.push((key, v.clone()));
        }
    }
    if env("AWS_REGION").is_none()
        && env("AWS_DEFAULT_REGION").is_none()
        && let Some(v) = from_config.get("region")
    {
        out.push(("aws_region", v.clone()));
    }
    if env("AWS_ENDPOINT_URL").is_none()
        && env("AWS_ENDPOINT").is_none()
        && let Some(v) = from_config.get("endpoint_url")
    {
        out.push(("aws_endpoint", v.clone()));
    }
    out
}

/// `true` when some credential source is configured, so object_store is not left probing the
/// instance-metadata endpoint of a machine that has none.
pub fn available(profile: &[(&str, String)]) -> bool {
    let has = |v: &str| env(v).is_some();
    (has("AWS_ACCESS_KEY_ID") && has("AWS_SECRET_ACCESS_KEY"))
        || profile.iter().any(|(k, _)| *k == "aws_access_key_id")
        || has("AWS_WEB_IDENTITY_TOKEN_FILE")
        || has("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
        || has("AWS_CONTAINER_CREDENTIALS_FULL_URI")
        || has("AWS_METADATA_ENDPOINT")
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The `key = value` lines of `[name]` in an INI-style AWS file.
fn section(text: &str, name: &str) -> HashMap<String, String> {
    let mut inside = false;
    let mut out = HashMap::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.starts_with(';') || line.is_empty() {
            continue;
        }
        if let Some(h) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = h.trim() == name;
        } else if inside && let Some((k, v)) = line.split_once('=') {
            out.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::section;

    #[test]
    fn reads_one_profile() {
        let t = "[default]\naws_access_key_id = A\n# c\n[profile x]\nregion=eu-west-1\n[y]\nregion = z\n";
        assert_eq!(section(t, "default")["aws_access_key_id"], "A");
        assert_eq!(section(t, "profile x")["region"], "eu-west-1");
        assert!(!section(t, "profile x").contains_key("aws_access_key_id"));
        assert_eq!(section(t, "y")["region"], "z");
    }
}
