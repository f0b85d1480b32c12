import type { ReactNode, Ref } from 'react';
import type { ArticleCard as Card } from '../../protocol';
import { ArticleCard } from '../ArticleCard/ArticleCard';
import styles from './CardGrid.module.css';

type Props = {
  readonly cards: readonly Card[];
  readonly headingLevel?: 2 | 3;
  readonly variant?: 'default' | 'featured' | 'compact';
  /** `dense` fits four cards a row on wide screens (for counts of 4, 8, 12…); `roomy` three. */
  readonly density?: 'roomy' | 'dense';
  /** Cover images of the first `eager` cards load at once. */
  readonly eager?: number;
  readonly id?: string;
  readonly listRef?: Ref<HTMLUListElement>;
};

/** Cards as a responsive list: one column on phones, up to three (or four when dense) on wide screens. */
export function CardGrid({
  cards,
  headingLevel = 3,
  variant = 'default',
  density = 'roomy',
  eager = 0,
  id,
  listRef,
}: Props): ReactNode {
  return (
    <ul className={styles.grid} data-variant={variant} data-density={density} id={id} ref={listRef}>
      {cards.map((card, index) => (
        <li key={card.href}>
          <ArticleCard
            card={card}
            headingLevel={headingLevel}
            variant={variant}
            density={density}
            eager={index < eager}
            priority={index === 0 && eager > 0}
          />
        </li>
      ))}
    </ul>
  );
}
