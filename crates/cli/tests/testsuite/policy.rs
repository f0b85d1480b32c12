//! One security policy everywhere: the header `serve` sends is the policy build.json holds, and
//! every built page carries the same policy (without the header-only `frame-ancestors`) in its
//! `<meta http-equiv>`, so a bucket behind a CDN enforces what `serve` does.

use crate::serve::{get, start, stop};
use crate::util::SiteTest;

fn meta_policy(html: &str) -> String {
    let tag = "<meta http-equiv=\"Content-Security-Policy\" content=\"";
    let at = html.find(tag).unwrap_or_else(|| panic!("no policy meta in:\n{html}")) + tag.len();
    let raw = &html[at..at + html[at..].find('"').unwrap()];
    raw.replace("&#39;", "'").replace("&#x27;", "'").replace("&amp;", "&")
}

#[test]
fn serve_and_the_built_pages_carry_the_same_policy() {
    let t = SiteTest::from_fixture("minimal");
    let out = t.build();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let info: serde_json::Value = serde_json::from_str(&t.read(".stillpoint/build.json")).unwrap();
    let policy = info["csp"].as_str().expect("build.json has the policy").to_string();
    assert!(policy.contains("frame-ancestors 'none'") && policy.contains("media-src 'self'"));

    let page = t.read("index.html");
    let meta = meta_policy(&page);
    assert_eq!(meta, policy.replace("; frame-ancestors 'none'", ""), "{page}");

    let server = start(&t.out(), &[]);
    let answer = get(&server.addr, "/");
    let header = answer
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-security-policy").then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no CSP header:\n{answer}"));
    assert_eq!(header, policy);
    assert_eq!(meta_policy(&answer), meta);
    stop(server);
}
