// The result list of the search box. Loaded with the search client on first focus of the box,
// not with the page: only someone who searches needs it.
import type { ReactNode } from 'react';
import type { SearchHit } from '../../search/client';
import { groupHits } from '../../search/group';
import { MAX_SUGGESTIONS } from '../../search/suggest';
import { type LaidOutOptions, layoutOptions, type OptionGroup, type SearchOption } from './options';
import styles from './SearchBox.module.css';

/** The options to list for these hits: the first few, grouped by topic, in keyboard order. */
export function suggestionsFor(hits: readonly SearchHit[]): LaidOutOptions {
  return layoutOptions(groupHits(hits.slice(0, MAX_SUGGESTIONS)));
}

type Props = {
  readonly id: string;
  readonly groups: readonly OptionGroup[];
  readonly active: number;
  readonly optionId: (index: number) => string;
  readonly onChoose: () => void;
};

/** The listbox: one group per `Category → Subcategory`, whose two parts link to their pages. */
export function SearchResults({ id, groups, active, optionId, onChoose }: Props): ReactNode {
  const renderOption = (option: SearchOption, className: string | undefined) => (
    <a
      key={option.index}
      id={optionId(option.index)}
      role="option"
      aria-selected={option.index === active}
      tabIndex={-1}
      className={className}
      href={option.href}
      {...(option.newTab ? { target: '_blank', rel: 'noopener' } : {})}
      onClick={onChoose}
    >
      {option.label}
    </a>
  );

  return (
    <div
      id={id}
      role="listbox"
      aria-label="Search suggestions"
      className={styles.listbox}
      // Focus stays in the input (aria-activedescendant); a click still activates the link.
      onMouseDown={(event) => event.preventDefault()}
    >
      {groups.map((group) => (
        // biome-ignore lint/a11y/useSemanticElements: an ARIA group of options inside a listbox, not a form fieldset.
        <div
          key={group.key}
          role="group"
          className={styles.group}
          aria-label={
            group.heading ? `${group.heading.category.label} → ${group.heading.subcategory.label}` : 'Other articles'
          }
        >
          {group.heading && (
            <div role="presentation" className={styles.groupHeading}>
              {renderOption(group.heading.category, styles.headingLink)}
              <span aria-hidden="true"> → </span>
              {renderOption(group.heading.subcategory, styles.headingLink)}
            </div>
          )}
          {group.hits.map((hit) => renderOption(hit, styles.hit))}
        </div>
      ))}
    </div>
  );
}

type EmptyProps = { readonly text: string; readonly image: string | null };

/** No match: the site's empty-state image (or the built-in one) and a sentence. */
export function SearchEmpty({ text, image }: EmptyProps): ReactNode {
  return (
    <div className={styles.empty}>
      {image ? <img src={image} alt="" width={96} height={72} /> : <EmptyIllustration />}
      <p>{`No articles match “${text.trim()}”. Try fewer or different words.`}</p>
    </div>
  );
}

function EmptyIllustration(): ReactNode {
  return (
    <svg width="96" height="72" viewBox="0 0 96 72" aria-hidden="true" focusable="false" className={styles.emptyArt}>
      <ellipse cx="48" cy="62" rx="34" ry="6" fill="currentColor" opacity="0.12" />
      <path d="M30 52c0-11 8-20 18-20s18 9 18 20" fill="none" stroke="currentColor" strokeWidth="3" />
      <circle cx="48" cy="22" r="8" fill="none" stroke="currentColor" strokeWidth="3" />
      <path d="M20 30c4-3 8-3 12 0M64 30c4-3 8-3 12 0" fill="none" stroke="currentColor" strokeWidth="2.5" />
    </svg>
  );
}
