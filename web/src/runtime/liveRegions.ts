// What a navigation tells the visitor: a visible, polite loading notice when it takes longer than
// a second, and an announcement of the new page for screen readers ("Navigated to {h1}"). Both
// regions stay in the document from the start, empty when idle, so assistive technology notices
// when text appears in them.

/** How long a navigation may take before the loading notice shows. */
export const NOTICE_DELAY_MS = 1000;

export const LOADING_TEXT = 'Loading page…';

export type LiveRegions = {
  /** A navigation started: shows the notice if it is still pending after a second. */
  pending(): void;
  /** The navigation ended (rendered, or left to a full load): hides the notice. */
  settled(): void;
  /** Announces the page that was rendered. */
  announce(text: string): void;
};

export function createLiveRegions(doc: Document = document): LiveRegions {
  const notice = doc.createElement('div');
  notice.className = 'sp-nav-notice';
  notice.setAttribute('role', 'status');
  notice.setAttribute('aria-live', 'polite');
  notice.dataset.state = 'idle';

  const announcer = doc.createElement('div');
  announcer.className = 'visually-hidden';
  announcer.setAttribute('aria-live', 'polite');
  announcer.setAttribute('aria-atomic', 'true');
  announcer.dataset.navAnnouncer = '';

  doc.body.append(notice, announcer);
  let timer: ReturnType<typeof setTimeout> | undefined;

  return {
    pending() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        notice.dataset.state = 'loading';
        notice.textContent = LOADING_TEXT;
      }, NOTICE_DELAY_MS);
    },
    settled() {
      clearTimeout(timer);
      notice.dataset.state = 'idle';
      notice.textContent = '';
    },
    announce(text) {
      // Emptied first, so the same title twice in a row is still announced.
      announcer.textContent = '';
      requestAnimationFrame(() => {
        announcer.textContent = `Navigated to ${text}`;
      });
    },
  };
}
