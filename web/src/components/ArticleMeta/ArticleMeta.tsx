import type { ReactNode } from 'react';
import { roleAfterName } from '../../lib/authorRole';
import { dateLabel } from '../../lib/dateLabel';
import type { ArticleProps } from '../../protocol';
import styles from './ArticleMeta.module.css';

type Props = Pick<ArticleProps, 'author' | 'date' | 'updated' | 'readingMinutes'> & {
  /** Extra actions at the end of the line (the copy-link button). */
  readonly children?: ReactNode;
};

/** The byline under an article title: author (linked) with role, date, updated date, reading time. */
export function ArticleMeta({ author, date, updated, readingMinutes, children }: Props): ReactNode {
  return (
    <div className={styles.meta}>
      <p className={styles.byline}>
        {author && (
          <>
            By{' '}
            <a className={styles.author} href={author.href} rel="author">
              {author.label}
            </a>
            {author.role && <span>{`, ${roleAfterName(author.label, author.role)}`}</span>}
            <span aria-hidden="true"> · </span>
          </>
        )}
        <time dateTime={date}>{dateLabel(date)}</time>
        {updated && (
          <>
            <span aria-hidden="true"> · </span>
            Updated <time dateTime={updated}>{dateLabel(updated)}</time>
          </>
        )}
        <span aria-hidden="true"> · </span>
        {`${readingMinutes} min read`}
      </p>
      {children}
    </div>
  );
}
