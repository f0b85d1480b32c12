import type { ReactNode } from 'react';
import { dateLabel } from '../../lib/dateLabel';
import type { ArticleCard as Card } from '../../protocol';
import styles from './ArticleCard.module.css';

type Props = {
  readonly card: Card;
  /** h2 directly under the page's h1, h3 inside a titled section. */
  readonly headingLevel?: 2 | 3;
  /** `featured` is larger; `compact` drops the image and description. */
  readonly variant?: 'default' | 'featured' | 'compact';
  /** Load the cover at once (cards above the fold); others load lazily. */
  readonly eager?: boolean;
  /** The page's likely largest image (its first card above the fold): fetched before the others. */
  readonly priority?: boolean;
};

/** A teaser: topic eyebrow, title link, description, author, date and reading time. */
export function ArticleCard({
  card,
  headingLevel = 3,
  variant = 'default',
  eager = false,
  priority = false,
}: Props): ReactNode {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className={styles.card} data-variant={variant}>
      {card.image && variant !== 'compact' && (
        <img
          className={styles.cover}
          src={card.image}
          alt=""
          width={640}
          height={360}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          decoding="async"
        />
      )}
      <div className={styles.body}>
        {card.topic && (
          <a className={styles.eyebrow} href={card.topic.href}>
            {card.topic.label}
          </a>
        )}
        <Heading className={styles.title}>
          <a href={card.href}>{card.title}</a>
        </Heading>
        {card.description && variant !== 'compact' && <p className={styles.description}>{card.description}</p>}
        {/* The author on one line, date and reading time on the next. */}
        <p className={styles.meta}>
          {card.author && (
            <>
              <a href={card.author.href}>{card.author.label}</a>{' '}
            </>
          )}
          <span className={styles.details}>
            <time dateTime={card.date}>{dateLabel(card.date)}</time>
            <span aria-hidden="true"> · </span>
            {`${card.readingMinutes} min read`}
          </span>
        </p>
      </div>
    </article>
  );
}
