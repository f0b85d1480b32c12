//! The owner's pages and links: any `pages/NAME.md` is a page at `/info/NAME` or its `route:`,
//! the footer and header links, titles and copyright come from `[footer]` and `[header]`, and
//! `[site.social]` is an open, ordered list of networks.

use crate::util::{SiteTest, between, edit, stderr};

const SOCIAL: &str = "[site.social]
video = \"https://video.example/@calm\"
feed = \"https://feed.example/calm\"
photo = \"https://photo.example/calm\"
";

const OWNER_CONFIG: &str = "[site.social]
spotify = \"https://open.spotify.com/show/calm\"
video = \"https://video.example/@calm\"
mastodon = { url = \"https://mastodon.example/@calm\", label = \"Mastodon\" }

[footer]
copyright = \"{brand}, since {year}\"
links = [
  { label = \"Contact\", href = \"/info/contact\" },
  { label = \"Podcast\", href = \"/podcast#episodes\" },
]

[footer.titles]
info = \"Read more\"
contacts = \"Follow us\"

[header]
links = [{ label = \"Podcast\", href = \"/podcast\" }]
";

fn owner_site() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    edit(&t, "stillpoint.toml", SOCIAL, OWNER_CONFIG);
    let write = |rel: &str, text: &str| std::fs::write(t.site().join(rel), text).unwrap();
    write("pages/contact.md", "Write to us. Or listen to [the podcast](/podcast).\n");
    write(
        "pages/podcast.md",
        "---\ntitle: The Calm Podcast\nroute: /podcast\n---\nNew episodes every week.\n",
    );
    t
}

/// The site's footer in a built page (the last `<footer>`: an article has one of its own).
fn footer(html: &str) -> &str {
    let start = html.rfind("<footer").expect("a footer");
    between(&html[start..], "<footer", "</footer>").expect("a closed footer")
}

#[test]
fn builds_owner_pages_and_links() {
    let t = owner_site();
    t.build();

    let contact = t.read("info/contact.html");
    assert!(contact.contains("<title>Contact | Calm Test</title>"), "{contact}");
    assert!(contact.contains("Write to us."), "{contact}");
    let podcast = t.read("podcast.html");
    assert!(podcast.contains("<title>The Calm Podcast | Calm Test</title>"), "{podcast}");
    assert!(
        podcast.contains("content=\"New episodes every week.\""),
        "the body is the description"
    );
    // The spec's pages are where they were.
    for f in ["info/about-us.html", "privacy-policy.html", "terms.html"] {
        assert!(t.out().join(f).is_file(), "{f}");
    }

    let sitemap = t.read("sitemap.xml");
    for url in ["https://calm.example/info/contact<", "https://calm.example/podcast<"] {
        assert!(sitemap.contains(url), "{url} in sitemap.xml");
    }
    let html_sitemap = t.read("sitemap.html");
    assert!(html_sitemap.contains("href=\"/info/contact\">Contact</a>"), "{html_sitemap}");
    assert!(html_sitemap.contains("href=\"/podcast\">The Calm Podcast</a>"), "{html_sitemap}");

    let home = t.read("index.html");
    let f = footer(&home);
    for text in [">Categories<", ">Read more<", ">Follow us<", ">Mail<", ">Calm Test, since 2026<"]
    {
        assert!(f.contains(text), "{text} in {f}");
    }
    assert!(f.contains("href=\"/info/contact\">Contact</a>"), "{f}");
    assert!(f.contains("href=\"/podcast#episodes\">Podcast</a>"), "{f}");
    assert!(!f.contains("/privacy-policy"), "the configured links replace the default ones: {f}");
    // The networks in file order, each with its icon; no `photo` any more.
    let spotify = f.find("data-icon=\"spotify\"></i>Spotify</a>").expect("spotify");
    let video = f.find("data-icon=\"video\"></i>Video</a>").expect("video");
    let mastodon = f.find("data-icon=\"link\"></i>Mastodon</a>").expect("generic icon");
    assert!(spotify < video && video < mastodon, "{f}");
    assert!(f.contains("href=\"https://mastodon.example/@calm\""), "{f}");
    assert!(!f.contains("Photos"), "{f}");

    let header = between(&home, "<header", "</header>").expect("a header");
    assert!(header.contains("aria-label=\"Site\""), "{header}");
    assert!(header.contains("href=\"/podcast\">Podcast</a>"), "{header}");
}

#[test]
fn no_networks_leave_out_the_contacts_column() {
    let t = SiteTest::from_fixture("minimal");
    edit(&t, "stillpoint.toml", SOCIAL, "");
    t.build();
    let home = t.read("index.html");
    let f = footer(&home);
    assert!(!f.contains(">Contacts<") && f.contains(">Info<"), "{f}");
    assert!(!home.contains("aria-label=\"Site\""), "no header links by default");
}

#[test]
fn taken_routes_bad_names_and_broken_config_links_are_errors() {
    let t = owner_site();
    let write = |rel: &str, text: &str| std::fs::write(t.site().join(rel), text).unwrap();
    write("pages/people.md", "---\nroute: /authors\n---\nUs.\n");
    write("pages/again.md", "---\ntitle: Again\nroute: /podcast\n---\nAgain.\n");
    write("pages/sleep.md", "---\nroute: /enhance-sleep-guided-meditation/more\n---\nZz.\n");
    write("pages/Bad_Name.md", "Hi.\n");
    edit(&t, "stillpoint.toml", "href = \"/info/contact\"", "href = \"/info/contakt\"");
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // (The pages are taken in order: again.md comes before podcast.md.)
    for (at, message) in [
        ("pages/people.md:2:8", "the route `/authors` is taken: it is the authors page"),
        ("pages/podcast.md:3:8", "the route `/podcast` is taken: pages/again.md has it"),
        (
            "pages/sleep.md:2:8",
            "the route `/enhance-sleep-guided-meditation/more` is taken: the category",
        ),
        ("pages/Bad_Name.md:1:1", "`Bad_Name` is not a slug"),
        ("stillpoint.toml:18:31", "link to `/info/contakt`, which is not a page of this site"),
    ] {
        let shown = err.split("error: ").any(|e| e.contains(message) && e.contains(at));
        assert!(shown, "{at}: {message}\n{err}");
    }
    assert!(err.contains("did you mean `/info/contact`?"), "{err}");
    assert!(err.contains("see docs/content.md#pages"), "{err}");
}

#[test]
fn editing_the_footer_rebuilds_every_page_that_shows_it() {
    let t = owner_site();
    t.build();
    edit(&t, "stillpoint.toml", "contacts = \"Follow us\"", "contacts = \"Find us\"");
    edit(
        &t,
        "stillpoint.toml",
        "label = \"Podcast\", href = \"/podcast\" }]",
        "label = \"Listen\", href = \"/podcast\" }]",
    );
    let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
    let err = stderr(&out);
    assert!(out.status.success() && err.contains("Verified"), "{err}");
    for page in ["index.html", "podcast.html", "articles/body-scan.html"] {
        let html = t.read(page);
        assert!(footer(&html).contains(">Find us<"), "{page}");
        assert!(html.contains("href=\"/podcast\">Listen</a>"), "{page}");
    }
}
