// When the search box suggests, and how much. Tiny on purpose: it ships with the page, while the
// index client and the result list load on first focus of the box.

/** Suggestions appear only when the typed text is longer than this many characters (spec §9). */
export const SUGGEST_AFTER_CHARS = 2;

/** At most this many articles are listed; a longer list asks the visitor to refine the text. */
export const MAX_SUGGESTIONS = 20;

export function shouldSuggest(text: string): boolean {
  return text.trim().length > SUGGEST_AFTER_CHARS;
}
