import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether `query` matches now. The server (and hydration) see `false`, so the first client render
 * matches the server HTML; React re-renders with the real value right after hydrating.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
