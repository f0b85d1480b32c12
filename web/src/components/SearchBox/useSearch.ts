import { useEffect, useState } from 'react';
import type { search } from '../../search/client';
import { shouldSuggest } from '../../search/suggest';
import type { LaidOutOptions } from './options';

type SearchUi = typeof import('./SearchResults');
type Engine = { readonly search: typeof search; readonly ui: SearchUi };

let engine: Promise<Engine> | null = null;

/**
 * Loads the search client (with its index) and the result list. Called on first focus of the box,
 * so neither ships with the page; a failed load is forgotten and retried on the next call.
 */
export function loadSearchEngine(): Promise<Engine> {
  engine ??= Promise.all([import('../../search/client'), import('./SearchResults')]).then(
    ([client, ui]) => ({ search: client.search, ui }),
    (error: unknown) => {
      engine = null;
      throw error;
    },
  );
  return engine;
}

export type Suggestions = {
  readonly text: string;
  /** Number of matching articles, before the list is cut at MAX_SUGGESTIONS. */
  readonly total: number;
  readonly options: LaidOutOptions;
  /** The result-list components; null when the search could not run. */
  readonly ui: SearchUi | null;
};

export const NO_OPTIONS: LaidOutOptions = { groups: [], count: 0 };

/**
 * The latest results for `text` (those of an earlier text until the new ones arrive; null before
 * the first search). Searches only when the text is long enough to suggest.
 */
export function useSearch(manifestUrl: string, text: string): Suggestions | null {
  const [results, setResults] = useState<Suggestions | null>(null);

  useEffect(() => {
    if (!shouldSuggest(text)) return;
    let current = true;
    loadSearchEngine()
      .then(async ({ search, ui }) => {
        const hits = await search(manifestUrl, text);
        return { text, total: hits.length, options: ui.suggestionsFor(hits), ui };
      })
      .then(
        (found) => current && setResults(found),
        (error: unknown) => {
          console.error('search failed', error);
          if (current) setResults({ text, total: 0, options: NO_OPTIONS, ui: null });
        },
      );
    return () => {
      current = false;
    };
  }, [text, manifestUrl]);

  return results;
}
