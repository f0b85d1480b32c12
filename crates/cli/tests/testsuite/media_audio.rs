//! Audio and embeds end to end: an article bundle with a recording and a video, built by the
//! binary; a missing recording fails `check` with its line.

use crate::util::{SiteTest, stderr};

const ARTICLE: &str = r#"---
title: "Evening Wind-Down"
slug: evening-wind-down
date: 2025-06-01
author: "Rosa Villaseñor"
audio: evening.m4a
entities:
  - category: sleepEnhancement
---
A guided practice for the end of the day.

::youtube[Rain on the lake]{id=dQw4w9WgXcQ poster=rain.png}

::audio[The short version]{src=/audio/short.opus}

<audio controls src="/audio/short.opus" autoplay onplay="steal()"></audio>
"#;

fn fixture(name: &str) -> Vec<u8> {
    let path = crate::util::workspace().join("crates/content/tests/audio").join(name);
    std::fs::read(path).unwrap()
}

fn site() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let bundle = t.site().join("articles/evening");
    std::fs::create_dir_all(&bundle).unwrap();
    std::fs::write(bundle.join("index.md"), ARTICLE).unwrap();
    std::fs::write(bundle.join("evening.m4a"), fixture("speech.m4a")).unwrap();
    std::fs::write(bundle.join("rain.png"), crate::util::png(64, 36)).unwrap();
    std::fs::create_dir_all(t.site().join("static/audio")).unwrap();
    std::fs::write(t.site().join("static/audio/short.opus"), fixture("speech.opus")).unwrap();
    t
}

/// The one file under `dist/media/` whose name ends with `suffix`.
fn media(t: &SiteTest, suffix: &str) -> String {
    let names: Vec<String> = std::fs::read_dir(t.out().join("media"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(suffix))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    names[0].clone()
}

#[test]
fn a_recording_and_embeds_are_built_into_the_article() {
    let t = site();
    t.build();
    let recording = media(&t, "-evening.m4a");
    assert_eq!(
        std::fs::read(t.out().join("media").join(&recording)).unwrap(),
        fixture("speech.m4a")
    );
    let short = media(&t, "-short.opus");

    let data = t.read("page-data/articles/evening-wind-down/page-data.json");
    assert!(
        data.contains(&format!(
            r#""audio":{{"src":"/media/{recording}","type":"audio/mp4","seconds":2}}"#
        )),
        "{data}"
    );
    let html = t.read("articles/evening-wind-down.html");
    assert!(
        html.contains(r#""@type":"AudioObject""#) && html.contains(r#""duration":"PT2S""#),
        "{html}"
    );
    assert!(html.contains(&format!(
        r#"<figure class="embed embed-audio"><audio controls preload="none" src="/media/{short}"></audio><figcaption>The short version</figcaption></figure>"#
    )));
    assert!(html.contains(
        r#"data-embed-src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1""#
    ));
    // The poster is the image pipeline's picture, loaded lazily.
    let facade = html.split("class=\"embed-play\"").nth(1).unwrap();
    let facade = facade.split("</button>").next().unwrap();
    assert!(
        facade.contains("<picture") && facade.contains("image/avif") && facade.contains("lazy"),
        "{facade}"
    );
    assert!(!html.contains("<iframe"), "no third-party frame before the click");
    // The raw <audio> of the site's own file is kept, without autoplay or its handler.
    assert!(html.contains(r#"<audio controls="" src="/audio/short.opus"></audio>"#), "{html}");
    assert!(!html.contains("steal()") && !html.contains("autoplay=\"\""));

    // Cards say how long the recording is.
    let home = t.read("page-data/index/page-data.json");
    assert!(home.contains(r#""audioMinutes":1"#), "{home}");
    let rss = t.read("rss.xml");
    assert!(rss.contains(&format!(
        r#"<enclosure url="https://calm.example/media/{recording}" length="8009" type="audio/mp4"/>"#
    )) || rss.contains(&format!("/media/{recording}\" length=\"8009\" type=\"audio/mp4\"/>")), "{rss}");
}

#[test]
fn a_missing_recording_fails_check_with_its_line() {
    let t = site();
    std::fs::remove_file(t.site().join("articles/evening/evening.m4a")).unwrap();
    std::fs::write(t.site().join("articles/evening/evenin.m4a"), fixture("speech.m4a")).unwrap();
    let out = t.run(&["check", "site"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("articles/evening/index.md:6:8"), "{err}");
    assert!(err.contains("did you mean `articles/evening/evenin.m4a`?"), "{err}");
}
