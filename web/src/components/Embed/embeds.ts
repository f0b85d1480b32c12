// Click-to-load embeds. The builder writes each `::youtube`, `::vimeo` directive of the Markdown as
// a facade in the article body: a `<button class="embed-play" data-embed-src data-embed-title>`
// (the poster, if any, and a play icon) in a `<figure class="embed embed-video">`, with a caption
// linking to the video on its site. Nothing is requested from the video host until the visitor
// asks: the click (or Enter/Space on the button) puts the player's iframe in the button's place,
// in the same 16:9 box, and moves focus to it. Without JavaScript the caption's link still works.

/** The class of a facade's play button. */
export const EMBED_PLAY = 'embed-play';

/** The facade's button an event happened in, if any. */
function facadeOf(event: Event): Element | null {
  const target = event.target;
  return target instanceof Element ? target.closest(`.${EMBED_PLAY}`) : null;
}

/**
 * The player's code is loaded on the first click (it is needed by few pages, and only then): the
 * button has no default action to prevent, and focus moves to the player once it is in place.
 */
function activate(facade: Element): void {
  import('./activate').then(
    (module) => module.activateEmbed(facade),
    (error: unknown) => console.error('The video player failed to load', error),
  );
}

function onClick(event: MouseEvent): void {
  const facade = facadeOf(event);
  if (facade) activate(facade);
}

/** A real `<button>` turns Enter and Space into a click; any other element gets them here. */
function onKeyDown(event: KeyboardEvent): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  const facade = facadeOf(event);
  if (!facade || facade.tagName === 'BUTTON') return;
  event.preventDefault();
  activate(facade);
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
