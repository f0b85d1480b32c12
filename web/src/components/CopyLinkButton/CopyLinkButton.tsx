import { type ReactNode, useEffect, useRef, useState } from 'react';
import styles from './CopyLinkButton.module.css';

/** How long "Copied!" stays on the button (spec: 3 seconds). */
export const COPIED_FOR_MS = 3000;

type State = 'idle' | 'copied' | 'failed';

const LABELS: Record<State, string> = { idle: 'Copy link', copied: 'Copied!', failed: 'Copy failed' };

type Props = { readonly url: string };

/**
 * Copies the article's canonical URL. The server HTML holds the button invisible (its space kept,
 * so nothing shifts); it becomes visible once hydrated in a browser with the Clipboard API.
 * Visibility is a class rule, not a style attribute: the site's CSP allows no inline styles.
 */
export function CopyLinkButton({ url }: Props): ReactNode {
  const [supported, setSupported] = useState(false);
  const [state, setState] = useState<State>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    setSupported(typeof navigator.clipboard?.writeText === 'function');
    return () => clearTimeout(timer.current);
  }, []);

  const show = (next: State) => {
    setState(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPIED_FOR_MS);
  };

  const copy = () => {
    navigator.clipboard.writeText(url).then(
      () => show('copied'),
      () => show('failed'),
    );
  };

  return (
    <button
      type="button"
      className={styles.button}
      data-state={state}
      onClick={copy}
      disabled={!supported}
      data-supported={supported}
    >
      <LinkIcon />
      <span aria-live="polite">{LABELS[state]}</span>
    </button>
  );
}

function LinkIcon(): ReactNode {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path
        d="M6.5 9.5l3-3M7 4.5l1-1a2.8 2.8 0 014 4l-1 1M9 11.5l-1 1a2.8 2.8 0 01-4-4l1-1"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
    </svg>
  );
}
