import type { ReactNode } from 'react';
import type { Sponsored } from '../../protocol';
import styles from './SponsoredLinks.module.css';

type Props = { readonly sponsored: Sponsored };

/** The paid-links block under the header; nothing at all when the page has none. */
export function SponsoredLinks({ sponsored }: Props): ReactNode {
  if (!sponsored || sponsored.items.length === 0) return null;
  return (
    <aside className={styles.block} aria-label={sponsored.label}>
      <div className={styles.inner}>
        <h2 className={styles.label}>{sponsored.label}</h2>
        <ul className={styles.items}>
          {sponsored.items.map((html, index) => (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the Rust builder (links and inline text only).
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered; items may repeat.
            <li key={index} dangerouslySetInnerHTML={{ __html: html }} />
          ))}
        </ul>
      </div>
    </aside>
  );
}
