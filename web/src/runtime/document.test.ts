import { describe, expect, it } from 'vitest';
import { readPageAttributes } from './document';

function body(attributes: Record<string, string>): HTMLElement {
  const element = document.createElement('body');
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

describe('readPageAttributes', () => {
  it('reads what the builder writes on <body>', () => {
    const attributes = body({
      'data-template': 'Article',
      'data-path': '/articles/x',
      'data-build': 'b1',
      'data-site': 's1',
    });
    expect(readPageAttributes(attributes)).toEqual({
      template: 'Article',
      path: '/articles/x',
      build: 'b1',
      site: 's1',
    });
  });

  it('is null for a document the builder did not write', () => {
    expect(readPageAttributes(body({ 'data-path': '/' }))).toBeNull();
  });
});
