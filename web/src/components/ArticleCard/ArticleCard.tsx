import type { ReactNode } from 'react';
import { dateLabel } from '../../lib/dateLabel';
import type { ArticleCard as Card } from '../../protocol';
import styles from './ArticleCard.module.css';

type Props = {
  readonly card: Card;
  /** h2 directly under the page's h1, h3 inside a titled section. */
  readonly headingLevel?: 2 | 3;
  /** `featured` is larger; `compact` drops the image and description. Styled by the list's `data-variant`. */
  readonly variant?: 'default' | 'featured' | 'compact';
  /** Load the cover at once (cards above the fold); others load lazily. */
  readonly eager?: boolean;
  /** The page's likely largest image (its first card above the fold): fetched before the others. */
  readonly priority?: boolean;
};

/**
 * A teaser: topic eyebrow, title link, description, author, date and reading time.
 *
 * Tens of thousands of cards are written per site (24 a listing page, 4 under each article), so the
 * markup is lean: one class on the card, its parts styled by position (ArticleCard.module.css),
 * the variant read from the list, and the " · " between date and reading time drawn by CSS.
 */
export function ArticleCard({
  card,
  headingLevel = 3,
  variant = 'default',
  eager = false,
  priority = false,
}: Props): ReactNode {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const full = variant !== 'compact';
  return (
    <article className={styles.card}>
      {card.image && full && (
        <img
          src={card.image}
          alt=""
          width={640}
          height={360}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          decoding="async"
        />
      )}
      <div>
        {card.topic && <a href={card.topic.href}>{card.topic.label}</a>}
        <Heading>
          <a href={card.href}>{card.title}</a>
        </Heading>
        {card.description && full && <p>{card.description}</p>}
        {/* The author on one line, date and reading time on the next. */}
        <p>
          {card.author && (
            <>
              <a href={card.author.href}>{card.author.label}</a>{' '}
            </>
          )}
          <span>
            <time dateTime={card.date}>{dateLabel(card.date)}</time> {`${card.readingMinutes} min read`}
          </span>
        </p>
      </div>
    </article>
  );
}
