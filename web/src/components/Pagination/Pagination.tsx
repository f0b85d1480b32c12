import type { ReactNode } from 'react';
import type { Pagination as PaginationData } from '../../protocol';
import styles from './Pagination.module.css';

type Props = {
  readonly pagination: PaginationData;
  readonly label?: string;
};

/** The href of page `n` of a listing whose first page is `first` (the builder's routes). */
export function pageHref(first: string, n: number): string {
  return n <= 1 ? first : `${first}/page/${n}`;
}

/** Page numbers to show: the first, the last, and the current page with its neighbours. */
export function pageWindow(page: number, pages: number): (number | 'gap')[] {
  const shown = [...new Set([1, page - 1, page, page + 1, pages])].filter((n) => n >= 1 && n <= pages);
  shown.sort((a, b) => a - b);
  const items: (number | 'gap')[] = [];
  for (const n of shown) {
    const previous = items.at(-1);
    if (typeof previous === 'number' && n - previous === 2) items.push(n - 1);
    else if (typeof previous === 'number' && n - previous > 2) items.push('gap');
    items.push(n);
  }
  return items;
}

/** Links between the pages of a listing; absent when there is only one page. */
export function Pagination({ pagination, label = 'Pagination' }: Props): ReactNode {
  const { page, pages, prev, next, first } = pagination;
  if (pages <= 1) return null;
  return (
    <nav className={styles.nav} aria-label={label}>
      <ul className={styles.list}>
        <li>
          {prev && (
            <a className={styles.step} href={prev} rel="prev">
              ← Previous<span className="visually-hidden"> page</span>
            </a>
          )}
        </li>
        {pageWindow(page, pages).map((item, index) =>
          item === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity; their position is stable.
            <li key={`gap-${index}`} className={styles.gap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <a
                className={styles.number}
                href={pageHref(first, item)}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
              >
                {item}
              </a>
            </li>
          ),
        )}
        <li>
          {next && (
            <a className={styles.step} href={next} rel="next">
              Next<span className="visually-hidden"> page</span> →
            </a>
          )}
        </li>
      </ul>
    </nav>
  );
}
