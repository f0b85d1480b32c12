import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { MAX_SUGGESTIONS, shouldSuggest } from '../../search/suggest';
import { Icon } from '../Icon/Icon';
import styles from './SearchBox.module.css';
import { loadSearchEngine, NO_OPTIONS, type Suggestions, useSearch } from './useSearch';

type Props = {
  /** SiteData.searchManifest. */
  readonly manifestUrl: string;
  /** SiteData.searchEmptyImage; null uses the built-in illustration. */
  readonly emptyImage: string | null;
};

/** Article search: a WAI-ARIA combobox whose listbox groups titles by topic. */
export function SearchBox({ manifestUrl, emptyImage }: Props): ReactNode {
  const id = useId();
  const [text, setText] = useState('');
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(-1);

  const results = useSearch(manifestUrl, text);
  const options = results?.options ?? NO_OPTIONS;
  const popupOpen = expanded && shouldSuggest(text) && results !== null;
  const listboxOpen = popupOpen && options.count > 0;
  const listboxId = `${id}-listbox`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const activeId = listboxOpen && active >= 0 ? optionId(active) : undefined;

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const close = () => {
    setExpanded(false);
    setActive(-1);
  };

  const move = (step: 1 | -1) => {
    if (options.count === 0) return;
    if (!listboxOpen) {
      setExpanded(true);
      setActive(step === 1 ? 0 : options.count - 1);
      return;
    }
    setActive((current) => {
      if (step === 1) return current + 1 >= options.count ? 0 : current + 1;
      return current <= 0 ? options.count - 1 : current - 1;
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && activeId) {
      event.preventDefault();
      // The option is a real link: clicking it opens the article (in a new tab) or the topic page.
      document.getElementById(activeId)?.click();
    } else if (event.key === 'Escape') {
      if (popupOpen) close();
      else setText('');
    }
  };

  return (
    <search className={styles.search}>
      <label htmlFor={`${id}-input`} className="visually-hidden">
        Search articles
      </label>
      <SearchIcon />
      <input
        id={`${id}-input`}
        className={styles.input}
        // A text input with the combobox role (WAI-ARIA APG): `type="search"` may not take that role.
        type="text"
        role="combobox"
        inputMode="search"
        enterKeyHint="search"
        placeholder="Search"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={listboxOpen}
        aria-controls={listboxOpen ? listboxId : undefined}
        aria-activedescendant={activeId}
        value={text}
        onFocus={() => void loadSearchEngine().catch(() => undefined)}
        onBlur={close}
        onChange={(event) => {
          setText(event.target.value);
          setExpanded(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
      />
      {popupOpen && (
        <div className={styles.popup}>
          {!results.ui ? (
            <p className={styles.note}>Search is unavailable right now. Please try again later.</p>
          ) : listboxOpen ? (
            <results.ui.SearchResults
              id={listboxId}
              groups={options.groups}
              active={active}
              optionId={optionId}
              onChoose={close}
            />
          ) : (
            <results.ui.SearchEmpty text={results.text} image={emptyImage} />
          )}
          {results.total > MAX_SUGGESTIONS && (
            <p
              className={styles.note}
            >{`Showing the first ${MAX_SUGGESTIONS} matches. Add a word to narrow them down.`}</p>
          )}
        </div>
      )}
      <p role="status" className="visually-hidden">
        {popupOpen ? statusText(results) : ''}
      </p>
    </search>
  );
}

function statusText({ total, ui }: Suggestions): string {
  if (!ui) return 'Search is unavailable.';
  if (total === 0) return 'No articles match.';
  if (total > MAX_SUGGESTIONS) return `More than ${MAX_SUGGESTIONS} articles found.`;
  return total === 1 ? '1 article found.' : `${total} articles found.`;
}

function SearchIcon(): ReactNode {
  return <Icon name="search" className={styles.icon} />;
}
