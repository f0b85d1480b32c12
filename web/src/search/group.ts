import type { Link } from '../protocol';
import type { SearchHit } from './client';

export type HitGroup = {
  /** Stable key: the two hrefs of the heading ('' for hits filed nowhere). */
  readonly key: string;
  /** `Category → Subcategory`, or null for hits without a topic. */
  readonly heading: { readonly category: Link; readonly subcategory: Link } | null;
  readonly hits: readonly SearchHit[];
};

/**
 * Groups hits under their first `Category → Subcategory` pair (their primary topic), groups in
 * order of first appearance. A hit is listed once, so each option in the listbox is unique.
 */
export function groupHits(hits: readonly SearchHit[]): HitGroup[] {
  const groups = new Map<string, { heading: HitGroup['heading']; hits: SearchHit[] }>();
  for (const hit of hits) {
    const heading = hit.groups[0] ?? null;
    const key = heading ? `${heading.category.href} ${heading.subcategory.href}` : '';
    const group = groups.get(key);
    if (group) group.hits.push(hit);
    else groups.set(key, { heading, hits: [hit] });
  }
  return [...groups].map(([key, group]) => ({ key, ...group }));
}
