// How a date reads on the page (`March 2, 2025`), from the ISO date page-data carries: computed
// where it is shown rather than shipped beside every date. No `Intl`: the server render and the
// browser must write the same text whatever their locale and time zone.
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** `2025-03-02` → `March 2, 2025`; anything that is not `YYYY-MM-DD` is returned as it is. */
export function dateLabel(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || month === undefined) return iso;
  return `${month} ${Number(m[3])}, ${m[1]}`;
}
