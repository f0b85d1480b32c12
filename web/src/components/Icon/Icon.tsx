// The site's decorative icons, drawn from one cached sprite (icons.svg, a hashed asset) rather than
// repeated inline in every page: each use is a short `<use>` reference. They follow the text
// colour (`currentColor`) and are hidden from assistive technology: the text beside them names
// what they stand for.
import type { ReactNode } from 'react';
import sprite from './icons.svg?no-inline';

/** The symbols in icons.svg. */
export type IconName = 'menu' | 'search' | 'link' | 'video' | 'feed' | 'photo';

type Props = { readonly name: IconName; readonly size: number; readonly className?: string };

export function Icon({ name, size, className }: Props): ReactNode {
  return (
    <svg className={className} width={size} height={size} aria-hidden="true" focusable="false">
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
