// Puts a facade's player in its place (./embeds.ts listens for the click and loads this).

/**
 * What the player may do: autoplay (the visitor just asked for it), DRM, picture-in-picture; and
 * fullscreen by `allowfullscreen`, which every browser reads (Chromium warns in the console when
 * `allow` names fullscreen as well).
 */
export const EMBED_ALLOW = 'autoplay; encrypted-media; picture-in-picture';

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
 * focuses it. Nothing happens (null) when the button has no https source or is no longer in the page.
 */
export function activateEmbed(button: Element): HTMLIFrameElement | null {
  const src = httpsUrl(button.getAttribute('data-embed-src'));
  // A second click before the first was answered finds the button already replaced.
  if (!src || !button.isConnected) return null;
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
