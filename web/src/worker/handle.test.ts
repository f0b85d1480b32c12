// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { pageProps, site } from '../test/fixtures';
import { encodeAnswer, handleLine } from './handle';

describe('handleLine', () => {
  it('answers a render request with the page HTML and the same id', () => {
    const response = handleLine(
      JSON.stringify({ id: 7, type: 'render', template: 'NotFound', props: pageProps.NotFound }),
    );
    expect(response).toMatchObject({ id: 7, type: 'rendered' });
    expect(response?.type === 'rendered' && response.html).toContain('>Page Not Found</h1>');
  });

  it('answers a slices request with the header and footer', () => {
    const response = handleLine(JSON.stringify({ id: 8, type: 'slices', site }));
    expect(response).toMatchObject({ id: 8, type: 'slices' });
    if (response?.type !== 'slices') throw new Error('expected slices');
    expect(response.header).toMatch(/^<header/);
    expect(response.footer).toMatch(/^<footer/);
  });

  it('turns a throwing render into an error naming the template and page', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = handleLine(
      JSON.stringify({ id: 9, type: 'render', template: 'Article', props: { path: '/articles/broken' } }),
    );
    expect(response).toMatchObject({ id: 9, type: 'error' });
    expect(response?.type === 'error' && response.message).toMatch(/Article.*\/articles\/broken/);
  });

  it('reports an unknown template and a line that is not JSON', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(handleLine('{"id":3,"type":"render","template":"Nope","props":{}}')).toMatchObject({
      id: 3,
      type: 'error',
    });
    expect(handleLine('not json')).toMatchObject({ id: -1, type: 'error' });
    expect(handleLine('{"id":4,"type":"frobnicate"}')).toMatchObject({ id: 4, type: 'error' });
  });

  it('ignores blank lines', () => {
    expect(handleLine('   ')).toBeNull();
  });
});

describe('encodeAnswer', () => {
  it('writes a rendered page as a line announcing its UTF-8 bytes, then the HTML unescaped', () => {
    const html = '<p class="x">Calm 🧘 —\n"quiet"</p>';
    const written = encodeAnswer({ id: 5, type: 'rendered', html }).toString('utf8');
    const lineEnd = written.indexOf('\n');
    expect(JSON.parse(written.slice(0, lineEnd))).toEqual({ id: 5, type: 'rendered', bytes: 38 });
    expect(written.slice(lineEnd + 1)).toBe(html);
    expect(Buffer.byteLength(html)).toBe(38);
  });

  it('writes pages of any size, each as its own bytes', () => {
    const large = `<p>${'calm 🧘 — “quiet” '.repeat(40_000)}</p>`;
    const written = [large, '<p>é</p>', large.slice(0, 1000)].map((html, id) => {
      const bytes = encodeAnswer({ id, type: 'rendered', html });
      const lineEnd = bytes.indexOf(10);
      const line = JSON.parse(bytes.subarray(0, lineEnd).toString('utf8'));
      return { line, html: bytes.subarray(lineEnd + 1).toString('utf8') };
    });
    expect(written.map((w) => w.html)).toEqual([large, '<p>é</p>', large.slice(0, 1000)]);
    expect(written.map((w) => w.line.bytes)).toEqual(written.map((w) => Buffer.byteLength(w.html)));
  });

  it('writes any other answer as one JSON line', () => {
    const error = { id: 2, type: 'error', message: 'a\nb' } as const;
    expect(encodeAnswer(error).toString('utf8')).toBe(`${JSON.stringify(error)}\n`);
  });
});
