/**
 * Up to two initials for an author's monogram: the first letters of the first and last words of the
 * name ("Amara Nwachukwu-Price" → "AN"). Letters outside the basic plane (emoji) are kept whole.
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first) return '';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const letter = (word: string) => (Array.from(word)[0] ?? '').toLocaleUpperCase();
  return letter(first) + (last ? letter(last) : '');
}
