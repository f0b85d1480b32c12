import type { HitGroup } from '../../search/group';

/** One entry of the listbox: a heading link (category or subcategory page) or an article. */
export type SearchOption = {
  /** Position in keyboard order, 0-based. */
  readonly index: number;
  readonly label: string;
  readonly href: string;
  /** Articles open in a new tab (spec); topic pages in the same one. */
  readonly newTab: boolean;
};

export type OptionGroup = {
  readonly key: string;
  /** The `Category → Subcategory` heading; both parts are options too, so the keyboard reaches them. */
  readonly heading: { readonly category: SearchOption; readonly subcategory: SearchOption } | null;
  readonly hits: readonly SearchOption[];
};

export type LaidOutOptions = { readonly groups: readonly OptionGroup[]; readonly count: number };

/** Lays the groups out in display order, numbering every option for the arrow keys. */
export function layoutOptions(groups: readonly HitGroup[]): LaidOutOptions {
  let index = 0;
  const option = (label: string, href: string, newTab: boolean): SearchOption => ({
    index: index++,
    label,
    href,
    newTab,
  });
  const laidOut = groups.map((group) => ({
    key: group.key,
    heading: group.heading
      ? {
          category: option(group.heading.category.label, group.heading.category.href, false),
          subcategory: option(group.heading.subcategory.label, group.heading.subcategory.href, false),
        }
      : null,
    hits: group.hits.map((hit) => option(hit.title, hit.href, true)),
  }));
  return { groups: laidOut, count: index };
}
