// The site's decorative icons, drawn by CSS rather than written into every page: each is an empty
// `<i data-icon>` whose shape is a mask over the text colour (Icon.module.css, one small SVG per
// icon, inlined into the site stylesheet). With no content and no role they are not announced:
// the text beside them names what they stand for.
import type { ReactNode } from 'react';
import styles from './Icon.module.css';

/** The networks of `[site.social]` with an icon of their own (crates/content/src/social.rs). */
export const NETWORK_ICONS = [
  'youtube',
  'instagram',
  'x',
  'facebook',
  'tiktok',
  'spotify',
  'apple_podcasts',
  'rss',
  'newsletter',
  'video',
  'feed',
  'photo',
] as const;

export type NetworkIcon = (typeof NETWORK_ICONS)[number];

/** The icons in ./icons/. */
export type IconName = 'menu' | 'search' | 'link' | NetworkIcon;

/** The icon of a network: its own when it has one, else the generic link. */
export function iconName(network: string): IconName {
  return (NETWORK_ICONS as readonly string[]).includes(network) ? (network as NetworkIcon) : 'link';
}

/** 1rem square; a `className` may size or place it. */
type Props = { readonly name: IconName; readonly className?: string };

export function Icon({ name, className }: Props): ReactNode {
  return <i className={className ? `${styles.icon} ${className}` : styles.icon} data-icon={name} />;
}
