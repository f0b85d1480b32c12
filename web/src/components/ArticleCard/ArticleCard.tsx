import type { ReactNode } from 'react';
import { dateLabel } from '../../lib/dateLabel';
import type { ArticleCard as Card } from '../../protocol';
import { Picture } from '../Picture/Picture';
import type { CardLayout } from '../Picture/sizes';
import styles from './ArticleCard.module.css';

type Props = {
  readonly card: Card;
  /** h2 directly under the page's h1, h3 inside a titled section. */
  readonly headingLevel?: 2 | 3;
  /** `featured` is larger; `compact` drops the image and description. Styled by the list's `data-variant`. */
  readonly variant?: 'default' | 'featured' | 'compact';
  /** The grid's density (CardGrid): with the variant, how wide the cover is drawn (its `sizes`). */
  readonly density?: 'roomy' | 'dense';
  /** Load the cover at once (cards above the fold); others load lazily. */
  readonly eager?: boolean;
  /** The page's likely largest image (its first card above the fold): fetched before the others. */
  readonly priority?: boolean;
};

/** The width the cover is drawn at follows the grid: see Picture/sizes.ts. */
function layoutOf(variant: Props['variant'], density: Props['density']): CardLayout {
  return variant === 'featured' ? 'featured' : (density ?? 'roomy');
}

/**
 * A teaser: topic eyebrow, title link, description, author, date and reading time (and the length
 * of its guided-meditation recording, when it has one).
 *
 * Tens of thousands of cards are written per site (24 a listing page, 4 under each article), so the
 * markup is lean: one class on the card, its parts styled by position (ArticleCard.module.css),
 * the variant read from the list, and the " · " between date and reading time drawn by CSS.
 */
export function ArticleCard({
  card,
  headingLevel = 3,
  variant = 'default',
  density = 'roomy',
  eager = false,
  priority = false,
}: Props): ReactNode {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const full = variant !== 'compact';
  return (
    <article className={styles.card}>
      {card.image && full && (
        <Picture
          picture={card.image}
          slot="card"
          layout={layoutOf(variant, density)}
          eager={eager}
          priority={priority}
          decorative
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
            <time dateTime={card.date}>{dateLabel(card.date)}</time> {minutesLabel(card)}
          </span>
        </p>
      </div>
    </article>
  );
}

/**
 * An article with a recording is a guided meditation: its card gives the listening time, which
 * is what a visitor choosing one wants to know; the others give the reading time. The longer
 * label is held together (no-break spaces): on a narrow card it moves whole to the next line.
 */
export function minutesLabel({ readingMinutes, audioMinutes }: Pick<Card, 'readingMinutes' | 'audioMinutes'>): string {
  return audioMinutes === null ? `${readingMinutes} min read` : `${audioMinutes}\u00a0min\u00a0guided\u00a0meditation`;
}
