// Inline icons for the three social networks: no requests to another origin, and they follow
// the text colour. Decorative: the link text names the network.
import type { ReactNode } from 'react';

const common = {
  width: 18,
  height: 18,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinejoin: 'round',
} as const;

export function VideoIcon(): ReactNode {
  return (
    <svg {...common} aria-hidden="true" focusable="false">
      <rect x="2.5" y="5" width="19" height="14" rx="4" />
      <path d="M10 9.2v5.6l4.8-2.8z" fill="currentColor" />
    </svg>
  );
}

export function SocialFeedIcon(): ReactNode {
  return (
    <svg {...common} aria-hidden="true" focusable="false">
      <path d="M4 5h16v11H9l-5 4z" />
      <path d="M8 9h8M8 12.5h5" strokeLinecap="round" />
    </svg>
  );
}

export function PhotoIcon(): ReactNode {
  return (
    <svg {...common} aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.2" cy="6.8" r="1" fill="currentColor" />
    </svg>
  );
}
