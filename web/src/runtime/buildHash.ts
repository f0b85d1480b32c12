// The first-load build-hash check. A document from an older deploy (a cached page, a tab restored
// after a deploy) runs a bundle that no longer matches the site's data: `/page-data/app-data.json`
// names the deployed build, and on a mismatch the page reloads, once per browser session
// (a sessionStorage guard), so a deploy can never put a visitor in a reload loop.
import type { AppData } from '../protocol';
import { APP_DATA_URL, delay } from './pageData';

/** Set before the one reload; never cleared, so the session reloads at most once. */
export const RELOAD_GUARD = 'stillpoint:build-reload';

/** Extra attempts after the first fetch of app-data fails (any non-200 answer). */
const APP_DATA_RETRIES = 3;

/** The deployed build hash, or null when app-data could not be read after the retries. */
export async function fetchDeployedBuild(retryDelay = 200): Promise<string | null> {
  for (let attempt = 0; attempt <= APP_DATA_RETRIES; attempt++) {
    if (attempt > 0) await delay(retryDelay * attempt);
    try {
      const response = await fetch(APP_DATA_URL, { cache: 'no-cache' });
      if (response.status === 200) {
        const data = (await response.json()) as Partial<AppData>;
        if (typeof data.webpackCompilationHash === 'string') return data.webpackCompilationHash;
      }
    } catch {
      // Offline or refused: the next attempt decides.
    }
  }
  return null;
}

export type BuildCheck = 'current' | 'unknown' | 'reloading' | 'stale';

type Reload = () => void;

/**
 * Compares the deployed build with `running` (the body's `data-build`). On a mismatch, reloads
 * unless this session already did; `stale` means the reload was spent and the page stays.
 */
export async function checkBuildHash(
  running: string,
  reload: Reload = () => window.location.reload(),
  storage: Pick<Storage, 'getItem' | 'setItem'> | null = sessionStorageOrNull(),
): Promise<BuildCheck> {
  const deployed = await fetchDeployedBuild();
  if (deployed === null) return 'unknown';
  if (deployed === running) return 'current';
  // Without a working guard a reload could repeat forever: stay on the page instead.
  if (!storage || storage.getItem(RELOAD_GUARD) !== null) return 'stale';
  try {
    storage.setItem(RELOAD_GUARD, deployed);
  } catch {
    return 'stale';
  }
  reload();
  return 'reloading';
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
