// Click-to-load embeds. The builder writes each `::youtube`, `::vimeo` directive of the Markdown as
// a facade in the article body: a `<button class="embed-play" data-embed-src data-embed-title>`
// (the poster, if any, and a play icon) in a `<figure class="embed embed-video">`, with a caption
// linking to the video on its site. Nothing is requested from the video host until the visitor
// asks: the click (or Enter/Space on the button) puts the player's iframe in the button's place,
// in the same 16:9 box, and moves focus to it. Without JavaScript the caption's link still works.

/** What the player may do: autoplay (the visitor just asked for it), DRM, PiP, fullscreen. */
export const EMBED_ALLOW = 'autoplay; encrypted-media; picture-in-picture; fullscreen';

/** The class of a facade's play button. */
export const EMBED_PLAY = 'embed-play';

/** `value` when it is an absolute https URL, else null. */
function httpsUrl(value: string | null): string | null {
  try {
    return value && new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Replaces the facade `button` with its player (`data-embed-src`, titled `data-embed-title`) and
 * focuses it. Nothing happens (null) when the button has no https source.
 */
export function activateEmbed(button: Element): HTMLIFrameElement | null {
  const src = httpsUrl(button.getAttribute('data-embed-src'));
  if (!src) return null;
  const doc = button.ownerDocument;
  const iframe = doc.createElement('iframe');
  iframe.src = src;
  iframe.title = button.getAttribute('data-embed-title') ?? '';
  iframe.setAttribute('allow', EMBED_ALLOW);
  iframe.setAttribute('allowfullscreen', '');
  const frame = doc.createElement('div');
  frame.className = 'embed-frame';
  frame.append(iframe);
  button.replaceWith(frame);
  iframe.focus();
  return iframe;
}

/** The facade's button an event happened in, if any. */
function facadeOf(event: Event): Element | null {
  const target = event.target;
  return target instanceof Element ? target.closest(`.${EMBED_PLAY}`) : null;
}

function onClick(event: MouseEvent): void {
  const button = facadeOf(event);
  if (button && activateEmbed(button)) event.preventDefault();
}

/** A real `<button>` turns Enter and Space into a click; any other element gets them here. */
function onKeyDown(event: KeyboardEvent): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  const facade = facadeOf(event);
  if (!facade || facade.tagName === 'BUTTON') return;
  if (activateEmbed(facade)) event.preventDefault();
}

/**
 * Makes the facades under `root` live, with one listener for all of them (event delegation: the
 * body's HTML can be replaced, as a client-side navigation does, without wiring anything again).
 * Returns the function that removes the listeners.
 */
export function liveEmbeds(root: HTMLElement): () => void {
  root.addEventListener('click', onClick);
  root.addEventListener('keydown', onKeyDown);
  return () => {
    root.removeEventListener('click', onClick);
    root.removeEventListener('keydown', onKeyDown);
  };
}
