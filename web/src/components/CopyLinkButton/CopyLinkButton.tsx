import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Icon } from '../Icon/Icon';
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
      <Icon name="link" />
      <span aria-live="polite">{LABELS[state]}</span>
    </button>
  );
}
