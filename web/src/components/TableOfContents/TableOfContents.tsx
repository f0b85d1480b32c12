import { type ReactNode, useId } from 'react';
import type { TocEntry } from '../../protocol';
import styles from './TableOfContents.module.css';

/** Articles with at least this many headings get a table of contents. */
export const TOC_MIN_ENTRIES = 4;

type Section = { readonly entry: TocEntry; readonly children: TocEntry[] };

/** h3 entries nest under the h2 before them; an h3 before any h2 stands on its own. */
export function nestToc(entries: readonly TocEntry[]): Section[] {
  const sections: Section[] = [];
  for (const entry of entries) {
    const last = sections.at(-1);
    if (entry.level === 3 && last && last.entry.level === 2) last.children.push(entry);
    else sections.push({ entry, children: [] });
  }
  return sections;
}

type Props = { readonly entries: readonly TocEntry[] };

export function TableOfContents({ entries }: Props): ReactNode {
  const titleId = useId();
  if (entries.length < TOC_MIN_ENTRIES) return null;
  return (
    <nav className={styles.toc} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        On this page
      </h2>
      <ol className={styles.list}>
        {nestToc(entries).map(({ entry, children }) => (
          <li key={entry.id}>
            <a href={`#${entry.id}`}>{entry.text}</a>
            {children.length > 0 && (
              <ol className={styles.list}>
                {children.map((child) => (
                  <li key={child.id}>
                    <a href={`#${child.id}`}>{child.text}</a>
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
