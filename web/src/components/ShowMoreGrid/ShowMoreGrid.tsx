import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { ArticleCard } from '../../protocol';
import { CardGrid } from '../CardGrid/CardGrid';
import styles from './ShowMoreGrid.module.css';

/** Cards shown at first, and revealed by each "Show more" (DESIGN.md: 8, then 12 per click). */
export const SHOW_MORE_INITIAL = 8;
export const SHOW_MORE_STEP = 12;

type Props = { readonly cards: readonly ArticleCard[] };

/**
 * A card grid that starts with a few cards and reveals more on request. Focus moves to the first
 * revealed card, so keyboard and screen-reader users land on the new content.
 */
export function ShowMoreGrid({ cards }: Props): ReactNode {
  const id = useId();
  const [shown, setShown] = useState(SHOW_MORE_INITIAL);
  const [focusFrom, setFocusFrom] = useState<number | null>(null);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (focusFrom === null) return;
    list.current?.children[focusFrom]?.querySelector<HTMLElement>('h2 a, h3 a')?.focus();
  }, [focusFrom]);

  const remaining = cards.length - shown;
  return (
    <div className={styles.wrapper}>
      <CardGrid cards={cards.slice(0, shown)} density="dense" id={`${id}-cards`} listRef={list} />
      {remaining > 0 && (
        <button
          type="button"
          className={styles.button}
          aria-controls={`${id}-cards`}
          onClick={() => {
            setFocusFrom(shown);
            setShown(shown + SHOW_MORE_STEP);
          }}
        >
          Show more
        </button>
      )}
    </div>
  );
}
