import { describe, expect, it } from 'vitest';
import type { PageData } from '../protocol';
import { bodyIn, bodyInHtml, mayNeedBody, needsBody, withBody } from './body';

const article = (pageContext: object) =>
  ({ componentChunkName: 'Article', path: '/articles/a', result: { pageContext, head: {} } }) as unknown as PageData;

describe('an article body', () => {
  it('is needed by an article page-data without one, and only then', () => {
    expect(needsBody(article({ title: 'A' }))).toBe(true);
    expect(needsBody(article({ bodyHtml: '' }))).toBe(false);
    expect(needsBody({ ...article({}), componentChunkName: 'Info' })).toBe(false);
  });

  it('is looked for on article routes only', () => {
    expect(mayNeedBody('/articles/a')).toBe(true);
    expect(mayNeedBody('/terms')).toBe(false);
    expect(mayNeedBody('/')).toBe(false);
  });

  it('is read from the page root, not from elsewhere in the document', () => {
    document.body.innerHTML =
      '<div id="sp-header"><p data-body="">header</p></div><div id="sp-page"><div data-body=""><p>Calm &amp; <b>still</b></p></div></div>';
    expect(bodyIn(document)).toBe('<p>Calm &amp; <b>still</b></p>');
    document.body.innerHTML = '<div id="sp-page"><p>no body</p></div>';
    expect(bodyIn(document)).toBeNull();
  });

  it('is read from fetched HTML and put into the props', () => {
    const body = bodyInHtml('<!doctype html><div id="sp-page"><div data-body=""><h2 id="x">X</h2></div></div>');
    expect(body).toBe('<h2 id="x">X</h2>');
    const data = withBody(article({ title: 'A' }), body ?? '');
    expect(data.result.pageContext).toEqual({ title: 'A', bodyHtml: '<h2 id="x">X</h2>' });
    expect(needsBody(data)).toBe(false);
  });
});
