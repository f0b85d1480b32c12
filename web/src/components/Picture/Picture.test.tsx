import { render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { picture, svgPicture } from '../../test/fixtures';
import { Picture, srcsetOf } from './Picture';
import { CARD_SIZES, SLOT_SIZES, sizesFor } from './sizes';

const photo = picture('lake', 1680, 1050, 'A still lake at dawn');

describe('Picture', () => {
  it('offers AVIF, then WebP, with the same sizes, then the original format as one file', () => {
    const { container } = render(<Picture picture={photo} slot="cover" />);
    const sources = [...container.querySelectorAll('picture > source')];
    expect(sources.map((s) => s.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
    expect(sources[0]?.getAttribute('srcset')).toBe(
      '/media/lake000000000000-320.avif 320w,/media/lake000000000000-640.avif 640w,/media/lake000000000000-768.avif 768w,/media/lake000000000000-960.avif 960w,/media/lake000000000000-1280.avif 1280w',
    );
    expect(sources[1]?.getAttribute('srcset')).toBe(
      srcsetOf({ stem: '/media/lake000000000000', widths: [320, 640, 768, 960, 1280] }, 'webp'),
    );
    for (const source of sources) expect(source.getAttribute('sizes')).toBe(SLOT_SIZES.cover);
    const img = container.querySelector('picture > img');
    expect(img?.getAttribute('src')).toBe(photo.src);
    expect(img?.hasAttribute('srcset')).toBe(false);
    expect(img?.hasAttribute('sizes')).toBe(false);
  });

  it("writes the same image in each slot with that slot's sizes, however often it is shown", () => {
    for (let round = 0; round < 2; round++) {
      for (const [slot, sizes] of [
        ['card', CARD_SIZES.roomy],
        ['cover', SLOT_SIZES.cover],
        ['card', CARD_SIZES.roomy],
      ] as const) {
        const { container } = render(<Picture picture={photo} slot={slot} />);
        for (const source of container.querySelectorAll('source')) expect(source.getAttribute('sizes')).toBe(sizes);
        expect(container.querySelector('source')?.getAttribute('srcset')).toContain('/media/lake000000000000-320.avif');
      }
    }
  });

  it('offers only the widths the source allows', () => {
    const small = picture('pond', 700, 400);
    const source = render(<Picture picture={small} slot="cover" />).container.querySelector('source');
    expect(source?.getAttribute('srcset')).toBe(
      '/media/pond000000000000-320.avif 320w,/media/pond000000000000-640.avif 640w',
    );
  });

  it('always gives the intrinsic width and height, and the alt text', () => {
    const { container } = render(<Picture picture={photo} slot="cover" />);
    const img = container.querySelector('img');
    expect([img?.getAttribute('width'), img?.getAttribute('height')]).toEqual(['1680', '1050']);
    expect(img?.getAttribute('alt')).toBe('A still lake at dawn');
    expect(img?.getAttribute('decoding')).toBe('async');
  });

  it('loads lazily unless told otherwise', () => {
    const img = render(<Picture picture={photo} slot="card" />).container.querySelector('img');
    expect(img?.getAttribute('loading')).toBe('lazy');
    expect(img?.hasAttribute('fetchpriority')).toBe(false);
  });

  it('fetches the LCP image first and never lazily', () => {
    const img = render(<Picture picture={photo} slot="cover" priority />).container.querySelector('img');
    expect(img?.hasAttribute('loading')).toBe(false);
    expect(img?.getAttribute('fetchpriority')).toBe('high');
  });

  it('loads an eager image at once, at the normal priority', () => {
    const img = render(<Picture picture={photo} slot="card" eager />).container.querySelector('img');
    expect(img?.hasAttribute('loading')).toBe(false);
    expect(img?.hasAttribute('fetchpriority')).toBe(false);
  });

  it('shows the dominant colour and the blurred preview under the image, and crops at the focal point', () => {
    const focused = { ...photo, position: '30% 60%' };
    const img = render(<Picture picture={focused} slot="card" />).container.querySelector('img') as HTMLImageElement;
    expect(img.style.backgroundColor).toBe('rgb(122, 143, 134)');
    expect(img.style.backgroundImage).toContain('data:image/webp;base64,');
    expect(img.style.objectPosition).toBe('30% 60%');
  });

  it('writes no style at all when there is nothing to show under the image', () => {
    const html = renderToString(<Picture picture={svgPicture('/images/covers/calm.svg')} slot="card" />);
    expect(html).not.toContain('style=');
  });

  it('renders an SVG or a remote image as its img alone, with its size and no srcset or sizes', () => {
    for (const pic of [svgPicture('/images/covers/calm.svg', 'Calm'), svgPicture('https://cdn.example/x.jpg', 'X')]) {
      const { container } = render(<Picture picture={pic} slot="cover" />);
      expect(container.querySelectorAll('picture > *').length).toBe(1);
      const img = container.querySelector('picture > img');
      expect(img?.getAttribute('src')).toBe(pic.src);
      expect([img?.getAttribute('width'), img?.getAttribute('height')]).toEqual(['1200', '675']);
      expect(img?.hasAttribute('srcset')).toBe(false);
      expect(img?.hasAttribute('sizes')).toBe(false);
    }
  });

  it('escapes every value it writes', () => {
    const odd = { ...photo, alt: 'A "quoted" <b>lake</b> & sky', src: '/media/a"b.jpg' };
    const { container } = render(<Picture picture={odd} slot="cover" className='x" onload="y' />);
    const img = container.querySelector('img');
    expect(img?.getAttribute('alt')).toBe('A "quoted" <b>lake</b> & sky');
    expect(img?.getAttribute('src')).toBe('/media/a"b.jpg');
    expect(img?.getAttribute('class')).toBe('x" onload="y');
    expect(img?.hasAttribute('onload')).toBe(false);
    expect(container.querySelectorAll('b').length).toBe(0);
  });

  it('writes the markup React would, so the server and the browser agree', () => {
    const html = renderToString(<Picture picture={photo} slot="card" priority className="c" />);
    expect(html).toMatch(/^<picture><source type="image\/avif" srcset="[^"]+" sizes="[^"]+">/);
    expect(html).toContain(
      '<img class="c" src="/media/lake000000000000-1280.jpg" width="1680" height="1050" alt="A still lake at dawn" fetchpriority="high" decoding="async" style="background-color:',
    );
    expect(html.endsWith('></picture>')).toBe(true);
  });

  it('leaves the alt text empty when decorative', () => {
    const img = render(<Picture picture={photo} slot="card" decorative />).container.querySelector('img');
    expect(img?.getAttribute('alt')).toBe('');
  });
});

describe('sizesFor', () => {
  it('gives each slot the width its CSS draws it at', () => {
    expect(sizesFor('cover')).toBe('(min-width:854px) 800px,96vw');
    expect(sizesFor('avatar')).toBe('48px');
    expect(sizesFor('author')).toMatch(/80px/);
    expect(sizesFor('card', 'featured')).toBe(CARD_SIZES.featured);
    expect(sizesFor('card')).toBe(CARD_SIZES.roomy);
  });

  it('gives default cards the phone thumbnail width, and featured ones the full column', () => {
    expect(CARD_SIZES.roomy.startsWith('(max-width:576px) 104px,')).toBe(true);
    expect(CARD_SIZES.dense.startsWith('(max-width:576px) 104px,')).toBe(true);
    expect(CARD_SIZES.featured).not.toContain('104px');
    for (const sizes of Object.values(CARD_SIZES)) expect(sizes.endsWith(',96vw')).toBe(true);
  });
});
