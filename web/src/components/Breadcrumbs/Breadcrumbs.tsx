import type { ReactNode } from 'react';
import type { Link } from '../../protocol';
import styles from './Breadcrumbs.module.css';

type Props = {
  /** Home → … → the parent of this page (the page props' `breadcrumbs`). */
  readonly items: readonly Link[];
  /** This page. */
  readonly current: Link;
};

/** The WAI-ARIA breadcrumb pattern; absent on pages without ancestors. */
export function Breadcrumbs({ items, current }: Props): ReactNode {
  if (items.length === 0) return null;
  return (
    <nav className={styles.nav} aria-label="Breadcrumb">
      <ol className={styles.list}>
        {items.map((item) => (
          <li key={item.href}>
            <a href={item.href}>{item.label}</a>
          </li>
        ))}
        <li>
          <a href={current.href} aria-current="page">
            {current.label}
          </a>
        </li>
      </ol>
    </nav>
  );
}
