//! What the dev server tells open tabs, and the hub that fans it out. Each event is one JSON
//! object (`type` says which) sent as a Server-Sent Event on `/__stillpoint/events`. A tab
//! that connects first gets `hello` and, while the site has errors, the current `error`.

use std::sync::{Arc, Mutex};

use serde::Serialize;
use tokio::sync::broadcast;

/// The path open tabs subscribe to the events on.
pub const EVENTS_PATH: &str = "/__stillpoint/events";

/// One problem shown in the browser's overlay (and printed in the terminal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Relative to the site directory; none for a build failure that is not about a file.
    pub file: Option<String>,
    /// 1-based; 0 when the problem is about the whole file.
    pub line: u32,
    pub column: u32,
    pub message: String,
    pub hint: Option<String>,
    /// The source line the problem is on.
    pub source: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum DevEvent {
    /// First event of every connection. `server` changes when the dev server restarts.
    Hello { server: String, build: u64 },
    /// Build `build` succeeded. `pages`: routes whose page data changed; `bundle`: the web
    /// bundle's build hash changed (the page must load in full); `css`/`js`: its files did;
    /// `static_files`: a file of `static/` changed (images are not in the page data: reload).
    Rebuilt {
        build: u64,
        sources: Vec<String>,
        pages: Vec<String>,
        build_hash: Option<String>,
        bundle: bool,
        css: bool,
        js: bool,
        static_files: bool,
        seconds: f64,
        /// Articles whose slug changed: a tab on `from` goes to `to`.
        moved: Vec<Moved>,
    },
    /// Build `build` failed; the last good site is still served.
    Error { build: u64, problems: Vec<Problem> },
    /// The errors of an earlier build are gone.
    Ok { build: u64 },
}

/// An article's old and new URL, after its slug changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Moved {
    pub from: String,
    pub to: String,
}

impl DevEvent {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("events serialise")
    }
}

/// Fans events out to every connected tab; remembers the current error for new tabs.
pub struct Hub {
    server: String,
    tx: broadcast::Sender<Arc<str>>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    build: u64,
    error: Option<Arc<str>>,
}

impl Hub {
    pub fn new() -> Self {
        let (tx, _) = broadcast::channel(64);
        let server = format!("{:x}", std::process::id() as u64 ^ now_nanos());
        Self { server, tx, state: Mutex::default() }
    }

    /// Sends `event` to every tab and updates what new tabs are told.
    pub fn publish(&self, event: &DevEvent) {
        let json: Arc<str> = event.to_json().into();
        let mut state = self.state.lock().expect("hub lock");
        match event {
            DevEvent::Rebuilt { build, .. } | DevEvent::Ok { build } => {
                state.build = *build;
                state.error = None;
            }
            DevEvent::Error { build, .. } => {
                state.build = *build;
                state.error = Some(json.clone());
            }
            DevEvent::Hello { .. } => {}
        }
        // No receiver (no tab open) is not an error.
        let _ = self.tx.send(json);
    }

    /// What a new tab is told first, and the events after it (none lost in between).
    pub fn subscribe(&self) -> (Vec<Arc<str>>, broadcast::Receiver<Arc<str>>) {
        let state = self.state.lock().expect("hub lock");
        let hello = DevEvent::Hello { server: self.server.clone(), build: state.build };
        let mut first: Vec<Arc<str>> = vec![hello.to_json().into()];
        first.extend(state.error.clone());
        (first, self.tx.subscribe())
    }

    /// Whether the last build failed.
    pub fn has_error(&self) -> bool {
        self.state.lock().expect("hub lock").error.is_some()
    }
}

fn now_nanos() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem() -> Problem {
        Problem {
            file: Some("articles/a.md".into()),
            line: 2,
            column: 8,
            message: "malformed front matter: x".into(),
            hint: Some("h".into()),
            source: Some("title: [".into()),
        }
    }

    #[test]
    fn events_are_tagged_camel_case_json() {
        let e = DevEvent::Rebuilt {
            build: 3,
            sources: vec!["articles/a.md".into()],
            pages: vec!["/articles/a".into()],
            build_hash: Some("abc".into()),
            bundle: false,
            css: false,
            js: true,
            static_files: false,
            seconds: 0.5,
            moved: vec![Moved { from: "/articles/a".into(), to: "/articles/b".into() }],
        };
        let v: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(v["type"], "rebuilt");
        assert_eq!(v["buildHash"], "abc");
        assert_eq!(v["staticFiles"], false);
        assert_eq!(v["pages"][0], "/articles/a");
        assert_eq!(v["moved"][0]["to"], "/articles/b");
        let e = DevEvent::Error { build: 4, problems: vec![problem()] };
        let v: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(v["type"], "error");
        assert_eq!(v["problems"][0]["column"], 8);
    }

    #[test]
    fn a_new_tab_is_told_the_current_error_until_it_is_fixed() {
        let hub = Hub::new();
        let (first, _) = hub.subscribe();
        assert_eq!(first.len(), 1);
        assert!(first[0].contains("\"type\":\"hello\""));
        hub.publish(&DevEvent::Error { build: 2, problems: vec![problem()] });
        let (first, _) = hub.subscribe();
        assert_eq!(first.len(), 2);
        assert!(first[0].contains("\"build\":2"));
        assert!(first[1].contains("\"type\":\"error\""));
        assert!(hub.has_error());
        let (_, mut rx) = hub.subscribe();
        hub.publish(&DevEvent::Ok { build: 3 });
        assert!(rx.try_recv().unwrap().contains("\"type\":\"ok\""));
        assert_eq!(hub.subscribe().0.len(), 1);
        assert!(!hub.has_error());
    }
}
