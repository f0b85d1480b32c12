// Where the templates show media: the article's cover (its LCP image) and recording, the first
// featured card on home, author photos with the initials as the fallback.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SLOT_SIZES } from '../components/Picture/sizes';
import { pageProps, svgPicture } from '../test/fixtures';
import Article from './Article';
import Author from './Author';
import Authors from './Authors';
import Home from './Home';

describe('Article', () => {
  it('shows its cover as the LCP image: responsive, high priority, never lazy, cropped at its focal point', () => {
    const props = pageProps.Article;
    const { container } = render(<Article {...props} />);
    const img = container.querySelector('article > picture > img') as HTMLImageElement;
    expect(img.getAttribute('alt')).toBe(props.image?.alt);
    expect(img.getAttribute('fetchpriority')).toBe('high');
    expect(img.hasAttribute('loading')).toBe(false);
    expect(img.previousElementSibling?.getAttribute('sizes')).toBe(SLOT_SIZES.cover);
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['2400', '1600']);
    expect(img.style.objectPosition).toBe('50% 40%');
    // The only high-priority image of the page: related cards load lazily.
    expect(container.querySelectorAll('[fetchpriority="high"]').length).toBe(1);
  });

  it('shows an SVG cover as its img alone, and no cover without an image', () => {
    const { container, unmount } = render(
      <Article {...pageProps.Article} image={svgPicture('/images/cover.svg', 'A')} />,
    );
    const page = container.querySelector('article') as HTMLElement;
    expect(page.querySelector(':scope > picture > source')).toBeNull();
    expect(page.querySelector(':scope > picture > img')?.getAttribute('fetchpriority')).toBe('high');
    unmount();
    const none = render(<Article {...pageProps.Article} image={null} />).container;
    expect(none.querySelector('article')?.querySelector(':scope > picture, :scope > img')).toBeNull();
  });

  it('puts the recording under the byline, and none without audio', () => {
    const { container, unmount } = render(<Article {...pageProps.Article} />);
    const player = container.querySelector('header figure audio');
    expect(player?.getAttribute('src')).toBe(pageProps.Article.audio?.src);
    unmount();
    render(<Article {...pageProps.Article} audio={null} />);
    expect(document.querySelector('audio')).toBeNull();
  });
});

describe('Home', () => {
  it('fetches the first featured cover first and loads the other featured covers at once', () => {
    const props = {
      ...pageProps.Home,
      featured: pageProps.Home.featured.map((c, i) => ({ ...c, image: pageProps.Home.more[i * 2 + 1]?.image ?? null })),
    };
    const { container } = render(<Home {...props} />);
    const featured = [...container.querySelectorAll('[data-variant="featured"] img')];
    expect(featured.length).toBe(4);
    expect(featured.map((img) => img.getAttribute('fetchpriority'))).toEqual(['high', null, null, null]);
    expect(featured.every((img) => !img.hasAttribute('loading'))).toBe(true);
    const below = [...container.querySelectorAll('[data-variant="default"] img')];
    expect(below.length).toBeGreaterThan(0);
    expect(below.every((img) => img.getAttribute('loading') === 'lazy')).toBe(true);
  });
});

describe('author photos', () => {
  it('show on the author page in place of the initials', () => {
    const { container, unmount } = render(<Author {...pageProps.Author} />);
    const img = container.querySelector('header img') as HTMLImageElement;
    expect(img.getAttribute('alt')).toBe('Maya Lindqvist');
    expect(img.previousElementSibling?.getAttribute('sizes')).toBe(SLOT_SIZES.author);
    expect(img.style.objectPosition).toBe('50% 30%');
    expect(screen.queryByText('ML')).toBeNull();
    unmount();
    render(<Author {...pageProps.Author} photo={null} />);
    expect(screen.getByText('ML')).toBeTruthy();
  });

  it('show on the authors list, decorative beside the name; initials for an author without one', () => {
    const { container } = render(<Authors {...pageProps.Authors} />);
    const items = [...container.querySelectorAll('li:has(h2)')];
    const photo = items[0]?.querySelector('img');
    expect(photo?.getAttribute('alt')).toBe('');
    expect(photo?.previousElementSibling?.getAttribute('sizes')).toBe(SLOT_SIZES.avatar);
    expect(photo?.getAttribute('loading')).toBe('lazy');
    expect(items[1]?.querySelector('img')).toBeNull();
    expect(items[1]?.textContent).toContain('SO');
  });
});
