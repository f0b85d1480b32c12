import type { ReactNode } from 'react';
import type { Link } from '../../protocol';
import styles from './LinkPills.module.css';

type Props = { readonly links: readonly Link[] };

/** Links shown as rounded pills: child topics of a listing, tags of an article. */
export function LinkPills({ links }: Props): ReactNode {
  return (
    <ul className={styles.pills}>
      {links.map((link) => (
        <li key={link.href}>
          <a className={styles.pill} href={link.href}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
