/** `m:ss`, or `h:mm:ss` from an hour: a position or a length in a recording. */
export function clock(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The same, as words a screen reader reads well: "1 minute 5 seconds". */
export function spokenDuration(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const parts: string[] = [];
  const unit = (n: number, name: string) => {
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  };
  unit(Math.floor(total / 3600), 'hour');
  unit(Math.floor((total % 3600) / 60), 'minute');
  unit(total % 60, 'second');
  return parts.length > 0 ? parts.join(' ') : '0 seconds';
}
