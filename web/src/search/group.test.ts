import { describe, expect, it } from 'vitest';
import type { SearchHit } from './client';
import { groupHits } from './group';
import { shouldSuggest } from './suggest';

const sleep = {
  category: { label: 'Sleep', href: '/sleep' },
  subcategory: { label: 'Scripts', href: '/sleep/scripts' },
};
const focus = { category: { label: 'Focus', href: '/focus' }, subcategory: { label: 'Work', href: '/focus/work' } };

function hit(title: string, groups: SearchHit['groups']): SearchHit {
  return { title, href: `/articles/${title.toLowerCase()}`, groups };
}

describe('shouldSuggest', () => {
  it.each([
    ['', false],
    ['ab', false],
    ['  ab  ', false],
    ['abc', true],
    ['a b', true],
  ])('%j → %s', (text, expected) => {
    expect(shouldSuggest(text)).toBe(expected);
  });
});

describe('groupHits', () => {
  it('groups hits under their first topic, in order of first appearance', () => {
    const groups = groupHits([hit('A', [sleep]), hit('B', [focus, sleep]), hit('C', [sleep])]);
    expect(groups.map((g) => [g.heading?.category.label, g.hits.map((h) => h.title)])).toEqual([
      ['Sleep', ['A', 'C']],
      ['Focus', ['B']],
    ]);
  });

  it('lists each hit once even when it has several topics', () => {
    const groups = groupHits([hit('B', [focus, sleep])]);
    expect(groups).toHaveLength(1);
  });

  it('puts hits without a topic in a group without heading', () => {
    const groups = groupHits([hit('Loose', [])]);
    expect(groups).toEqual([{ key: '', heading: null, hits: [hit('Loose', [])] }]);
  });

  it('returns no groups for no hits', () => {
    expect(groupHits([])).toEqual([]);
  });
});
