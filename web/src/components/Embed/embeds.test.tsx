import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The activation is a chunk of its own, imported on the first click: on a busy machine that takes a while.
const LOADED = { timeout: 5000 };

import Article from '../../templates/Article';
import { pageProps } from '../../test/fixtures';
import { activateEmbed, EMBED_ALLOW } from './activate';
import { liveEmbeds } from './embeds';

/** The facade the builder writes for `::youtube[Evening wind-down]{id=abc123 poster=…}`. */
const YOUTUBE =
  '<figure class="embed embed-video" data-embed="youtube">' +
  '<button type="button" class="embed-play" data-embed-src="https://www.youtube-nocookie.com/embed/abc123?autoplay=1" data-embed-title="Evening wind-down" aria-label="Play video: Evening wind-down">' +
  '<picture><source type="image/avif" srcset="/media/0123456789abcdef-640.avif 640w"><img src="/media/0123456789abcdef-640.jpg" width="640" height="360" alt="" loading="lazy"></picture>' +
  '<span class="embed-icon" aria-hidden="true"></span></button>' +
  '<figcaption>Evening wind-down · <a href="https://www.youtube.com/watch?v=abc123">Watch on YouTube</a></figcaption>' +
  '</figure>';

const VIMEO =
  '<figure class="embed embed-video" data-embed="vimeo">' +
  '<button type="button" class="embed-play" data-embed-src="https://player.vimeo.com/video/123456?dnt=1&amp;autoplay=1" data-embed-title="Body scan" aria-label="Play video: Body scan">' +
  '<span class="embed-icon" aria-hidden="true"></span></button>' +
  '<figcaption>Body scan · <a href="https://vimeo.com/123456">Watch on Vimeo</a></figcaption></figure>';

function body(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('activateEmbed', () => {
  it('puts the player in the button’s place, titled, allowed to play, and focuses it', () => {
    const root = body(YOUTUBE);
    const iframe = activateEmbed(root.querySelector('.embed-play') as Element);
    expect(root.querySelector('.embed-play')).toBeNull();
    expect(iframe?.parentElement?.className).toBe('embed-frame');
    expect(iframe?.parentElement?.parentElement?.tagName).toBe('FIGURE');
    expect(iframe?.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/abc123?autoplay=1');
    expect(iframe?.getAttribute('title')).toBe('Evening wind-down');
    expect(iframe?.getAttribute('allow')).toBe(EMBED_ALLOW);
    expect(iframe?.hasAttribute('allowfullscreen')).toBe(true);
    expect(document.activeElement).toBe(iframe);
    // The caption's link to the video's own page stays.
    expect(root.querySelector('figcaption a')?.getAttribute('href')).toBe('https://www.youtube.com/watch?v=abc123');
  });

  it('does nothing for a button already replaced (a second click before the first was answered)', () => {
    const root = body(YOUTUBE);
    const button = root.querySelector('.embed-play') as Element;
    expect(activateEmbed(button)).not.toBeNull();
    expect(activateEmbed(button)).toBeNull();
    expect(root.querySelectorAll('iframe').length).toBe(1);
  });

  it('does nothing for a source that is not https', () => {
    for (const src of ['javascript:alert(1)', 'http://www.youtube-nocookie.com/embed/x', 'not a url', '']) {
      const root = body(`<button class="embed-play" data-embed-src="${src}" data-embed-title="x">Play</button>`);
      expect(activateEmbed(root.querySelector('button') as Element)).toBeNull();
      expect(root.querySelector('iframe')).toBeNull();
      root.remove();
    }
  });
});

describe('liveEmbeds', () => {
  it('requests nothing from the video host before the click', () => {
    const root = body(YOUTUBE + VIMEO);
    liveEmbeds(root);
    expect(root.querySelector('iframe')).toBeNull();
    const urls = [...root.querySelectorAll('[src], [srcset]')].flatMap((e) => [
      e.getAttribute('src') ?? '',
      e.getAttribute('srcset') ?? '',
    ]);
    expect(urls.filter((u) => /youtube|vimeo/.test(u))).toEqual([]);
  });

  it('loads one player per click, by delegation, and stops when removed', async () => {
    const user = userEvent.setup();
    const root = body(YOUTUBE + VIMEO);
    const stop = liveEmbeds(root);
    await user.click(screen.getByRole('button', { name: 'Play video: Body scan' }));
    await vi.waitFor(
      () => expect([...root.querySelectorAll('iframe')].map((f) => f.title)).toEqual(['Body scan']),
      LOADED,
    );
    // The body replaced (a client-side navigation): the same listener serves the new facades.
    root.innerHTML = YOUTUBE;
    await user.click(screen.getByRole('button', { name: 'Play video: Evening wind-down' }));
    await vi.waitFor(() => expect(root.querySelectorAll('iframe').length).toBe(1), LOADED);
    stop();
    root.innerHTML = YOUTUBE;
    await user.click(screen.getByRole('button', { name: 'Play video: Evening wind-down' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(root.querySelector('iframe')).toBeNull();
  });

  it('loads the player from the keyboard (Enter and Space) and moves focus to it', async () => {
    const user = userEvent.setup();
    const root = body(YOUTUBE + VIMEO);
    liveEmbeds(root);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Play video: Evening wind-down' }));
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(document.activeElement?.tagName).toBe('IFRAME'), LOADED);
    screen.getByRole('button', { name: 'Play video: Body scan' }).focus();
    await user.keyboard(' ');
    await vi.waitFor(() => expect((document.activeElement as HTMLIFrameElement).title).toBe('Body scan'), LOADED);
  });

  it('activates a facade that is not a button with Enter', async () => {
    const user = userEvent.setup();
    const root = body(
      '<div class="embed-play" role="button" tabindex="0" data-embed-src="https://player.vimeo.com/video/1" data-embed-title="T">Play</div>',
    );
    liveEmbeds(root);
    (root.firstElementChild as HTMLElement).focus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(root.querySelector('iframe')?.title).toBe('T'), LOADED);
  });
});

describe('the article', () => {
  it('makes the facades of its body live', async () => {
    const user = userEvent.setup();
    const { container } = render(<Article {...pageProps.Article} bodyHtml={`<p>Watch this.</p>${VIMEO}`} />);
    await user.click(screen.getByRole('button', { name: 'Play video: Body scan' }));
    const iframe = await vi.waitFor(() => {
      const found = container.querySelector('[data-body] .embed-frame > iframe');
      if (!found) throw new Error('no player yet');
      return found;
    }, LOADED);
    expect(iframe.getAttribute('src')).toBe('https://player.vimeo.com/video/123456?dnt=1&autoplay=1');
  });
});
