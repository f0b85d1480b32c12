import { describe, expect, it } from 'vitest';
import type { PageData } from '../protocol';
import { bodyIn, completeFrom, mayNeedDocument, needsDocument, parseHtml } from './fromDocument';

const article = (pageContext: object, head?: object) =>
  ({
    componentChunkName: 'Article',
    path: '/articles/a',
    result: head ? { pageContext, head } : { pageContext },
  }) as unknown as PageData;

const HTML = `<!doctype html><html><head><title>A | S</title><meta name="description" content="About A.">
<link rel="canonical" href="https://s.example/articles/a"><meta property="og:type" content="article"></head>
<body><div id="sp-page"><div data-body=""><h2 id="x">X</h2><p>Calm &amp; still</p></div></div></body></html>`;

describe("what an article's page-data leaves to its HTML", () => {
  it('is needed by an article page-data without a body, and only then', () => {
    expect(needsDocument(article({ title: 'A' }))).toBe(true);
    expect(needsDocument(article({ bodyHtml: '' }))).toBe(false);
    expect(needsDocument({ ...article({}), componentChunkName: 'Info' })).toBe(false);
  });

  it('is looked for on article routes only', () => {
    expect(mayNeedDocument('/articles/a')).toBe(true);
    expect(mayNeedDocument('/terms')).toBe(false);
    expect(mayNeedDocument('/')).toBe(false);
  });

  it('is read from the page root, not from elsewhere in the document', () => {
    document.body.innerHTML =
      '<div id="sp-header"><p data-body="">header</p></div><div id="sp-page"><div data-body=""><p>Calm &amp; <b>still</b></p></div></div>';
    expect(bodyIn(document)).toBe('<p>Calm &amp; <b>still</b></p>');
    document.body.innerHTML = '<div id="sp-page"><p>no body</p></div>';
    expect(bodyIn(document)).toBeNull();
  });

  it('puts the body and head of fetched HTML into the page-data', () => {
    const data = completeFrom(article({ title: 'A' }), parseHtml(HTML));
    expect(data?.result.pageContext).toEqual({ title: 'A', bodyHtml: '<h2 id="x">X</h2><p>Calm &amp; still</p>' });
    expect(data?.result.head).toMatchObject({
      title: 'A | S',
      description: 'About A.',
      canonical: 'https://s.example/articles/a',
      ogType: 'article',
    });
    expect(data && needsDocument(data)).toBe(false);
  });

  it('keeps a head page-data has, and gives nothing for HTML without a body', () => {
    const head = { title: 'Kept' };
    expect(completeFrom(article({}, head), parseHtml(HTML))?.result.head).toBe(head);
    expect(completeFrom(article({}), parseHtml('<p>moved</p>'))).toBeNull();
  });
});
