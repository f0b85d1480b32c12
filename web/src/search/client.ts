// TEMPORARY search client, to be replaced by the real index format and client (owned elsewhere).
// The interface (`SearchHit`, `search`) is what the SearchBox codes against; keep it when replacing.
// This version fetches one manifest holding every title:
//   {"docs": [[title, slug, [[catLabel, catHref, subLabel, subHref], ...]], ...]}
import type { Link } from '../protocol';

export type SearchHit = {
  title: string;
  href: string;
  groups: { category: Link; subcategory: Link }[];
};

type ManifestDoc = [title: string, slug: string, groups: [string, string, string, string][]];
type Manifest = { docs: ManifestDoc[] };

/**
 * The matching rule: the text is split on whitespace and every word must occur in the title,
 * case-insensitive, as plain text (`(` or `.` are ordinary characters, never a pattern).
 */
export function matches(title: string, text: string): boolean {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return false;
  const haystack = title.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

const manifests = new Map<string, Promise<Manifest>>();

function loadManifest(url: string): Promise<Manifest> {
  let pending = manifests.get(url);
  if (!pending) {
    pending = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`search manifest ${url} answered ${response.status}`);
      return (await response.json()) as Manifest;
    });
    // A failed load is forgotten, so the next keystroke tries again.
    pending.catch(() => manifests.delete(url));
    manifests.set(url, pending);
  }
  return pending;
}

function toHit([title, slug, groups]: ManifestDoc): SearchHit {
  return {
    title,
    href: `/articles/${slug}`,
    groups: groups.map(([catLabel, catHref, subLabel, subHref]) => ({
      category: { label: catLabel, href: catHref },
      subcategory: { label: subLabel, href: subHref },
    })),
  };
}

/** Every article whose title matches `text`, in manifest order. */
export async function search(manifestUrl: string, text: string): Promise<SearchHit[]> {
  const manifest = await loadManifest(manifestUrl);
  return manifest.docs.filter(([title]) => matches(title, text)).map(toHit);
}
