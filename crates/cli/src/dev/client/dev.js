// The `stillpoint dev` client, added to every page by the dev server (never to built files).
// It listens to /__stillpoint/events and:
// - on `rebuilt`: goes to an article's new URL when its slug changed (`moved`); reloads the page when the web bundle or a static file changed, else, when the page on screen is
//   among the changed pages, asks the runtime to refresh it in place (the `stillpoint:refresh`
//   window event: page data fetched again, rendered without moving the scroll position); a page
//   without the runtime to handle it is reloaded;
// - on `error`: shows the content errors in an overlay (the last good site stays on screen);
// - on `ok`: removes the overlay.
// It also removes any service worker and cache a production build left on this origin, and marks
// the document (`data-stillpoint-dev`) so the runtime does not register its own worker.
(() => {
  const root = document.documentElement;
  if (root.dataset.stillpointDev !== undefined) return;
  root.dataset.stillpointDev = 'connecting';

  const RELOAD_GUARD = 'stillpoint-dev:worker-reload';
  async function removeLeftovers() {
    const controlled = Boolean(navigator.serviceWorker?.controller);
    if ('serviceWorker' in navigator) {
      const registrations = await navigator.serviceWorker.getRegistrations();
      await Promise.all(registrations.map((r) => r.unregister()));
    }
    if ('caches' in window) {
      await Promise.all((await caches.keys()).map((key) => caches.delete(key)));
    }
    // This document came through a leftover worker, which keeps filling its caches as long as it
    // controls the page: load the page again, past it (once per session, never in a loop).
    if (controlled && sessionStorage.getItem(RELOAD_GUARD) === null) {
      sessionStorage.setItem(RELOAD_GUARD, '1');
      window.location.reload();
    }
  }
  removeLeftovers().catch(() => {});

  const pageKey = (path) => path.replace(/\/+$/, '') || '/';

  function refresh() {
    const event = new CustomEvent('stillpoint:refresh', { cancelable: true });
    // The runtime cancels the event to say it refreshes the page; nobody did: reload.
    if (window.dispatchEvent(event)) window.location.reload();
  }

  function shows(pages) {
    const here = [pageKey(window.location.pathname)];
    if (document.body?.dataset.path) here.push(pageKey(document.body.dataset.path));
    return pages.some((page) => here.includes(pageKey(page)));
  }

  // The overlay.
  let overlay = null;
  let focusBefore = null;

  function element(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function ensureStylesheet() {
    if (document.getElementById('stillpoint-dev-css')) return;
    const link = element('link');
    link.id = 'stillpoint-dev-css';
    link.rel = 'stylesheet';
    link.href = '/__stillpoint/dev.css';
    document.head.append(link);
  }

  function location(problem) {
    if (!problem.file) return 'build';
    return problem.line > 0 ? `${problem.file}:${problem.line}:${problem.column}` : problem.file;
  }

  function describe(problem) {
    const item = element('li', 'sp-dev-problem');
    const where = element('p', 'sp-dev-location');
    where.append(element('code', '', location(problem)));
    item.append(where, element('p', 'sp-dev-message', problem.message));
    if (problem.source != null && problem.line > 0) {
      const num = String(problem.line);
      const pad = ' '.repeat(num.length);
      const caret = `${' '.repeat(Math.max(problem.column - 1, 0))}^`;
      item.append(element('pre', 'sp-dev-source', `${num} | ${problem.source}\n${pad} | ${caret}`));
    }
    if (problem.hint) item.append(element('p', 'sp-dev-hint', `hint: ${problem.hint}`));
    return item;
  }

  function showOverlay(problems) {
    hideOverlay(false);
    ensureStylesheet();
    focusBefore = document.activeElement;
    overlay = element('div', 'sp-dev-overlay');
    overlay.id = 'stillpoint-dev-overlay';
    overlay.setAttribute('role', 'alertdialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-labelledby', 'sp-dev-title');
    overlay.setAttribute('aria-describedby', 'sp-dev-list');
    const panel = element('div', 'sp-dev-panel');
    const n = problems.length;
    const content = problems.some((p) => p.file);
    const title = content
      ? `${n} content error${n === 1 ? '' : 's'}: the page shows the last good build`
      : 'The build failed: the page shows the last good build';
    const heading = element('h2', 'sp-dev-title', title);
    heading.id = 'sp-dev-title';
    const list = element('ol', 'sp-dev-list');
    list.id = 'sp-dev-list';
    list.append(...problems.map(describe));
    const dismiss = element('button', 'sp-dev-dismiss', 'Dismiss');
    dismiss.type = 'button';
    dismiss.addEventListener('click', () => hideOverlay(true));
    panel.append(heading, list, dismiss);
    overlay.append(panel);
    overlay.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') hideOverlay(true);
    });
    document.body.append(overlay);
    dismiss.focus({ preventScroll: true });
  }

  function hideOverlay(restoreFocus) {
    if (!overlay) return;
    overlay.remove();
    overlay = null;
    if (restoreFocus !== false && focusBefore instanceof HTMLElement && focusBefore.isConnected) {
      focusBefore.focus({ preventScroll: true });
    }
    focusBefore = null;
  }

  // The events.
  let server = null;
  let build = null;

  function handle(event) {
    switch (event.type) {
      case 'hello': {
        // A restarted dev server: start afresh.
        if (server !== null && server !== event.server) return window.location.reload();
        const missed = build !== null && event.build !== build;
        server = event.server;
        build = event.build;
        root.dataset.stillpointDev = 'connected';
        hideOverlay();
        if (missed) refresh();
        return;
      }
      case 'rebuilt':
        build = event.build;
        hideOverlay();
        root.dataset.stillpointDevBuild = String(event.build);
        // The article on screen has a new slug: go to its new URL.
        for (const { from, to } of event.moved ?? []) {
          if (pageKey(window.location.pathname) === pageKey(from)) {
            return window.location.replace(to + window.location.search + window.location.hash);
          }
        }
        if (event.bundle || event.staticFiles) return window.location.reload();
        if (shows(event.pages)) refresh();
        return;
      case 'error':
        build = event.build;
        showOverlay(event.problems);
        return;
      case 'ok':
        build = event.build;
        hideOverlay();
        return;
    }
  }

  const source = new EventSource('/__stillpoint/events');
  source.addEventListener('message', (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    handle(event);
  });
  source.addEventListener('error', () => {
    root.dataset.stillpointDev = 'disconnected';
  });
})();
