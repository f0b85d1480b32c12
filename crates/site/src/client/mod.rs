//! What the builder emits for the browser runtime (`web/src/runtime/`): each page's head as data
//! (client-side navigation updates the document head from it), the service worker with this
//! build's settings baked in, and the URLs of the site's third-party scripts (through the
//! server's proxy when its allow-list covers them).

mod head;
mod scripts;
mod sw;

pub(crate) use scripts::covered_by_proxy;
pub use scripts::script_srcs;
pub use sw::{SW_FILE, ServiceWorker, SwSettings};
