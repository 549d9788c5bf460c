// Where search indexes are cached: apart from cache.ts, so that opening a
// knowledge base (which every command does) loads nothing of search.
import { dirname, isAbsolute, join } from 'node:path';

/** The cache directory for an environment: $XDG_CACHE_HOME/kb/search
 *  when that is an absolute path (the XDG rule), else ~/.cache/kb/search;
 *  undefined without a home. */
export function cacheDir(env: Record<string, string | undefined>, home: string | undefined): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'kb', 'search');
  return home ? join(home, '.cache', 'kb', 'search') : undefined;
}

/** Where a listing keeps what its files' heads said (kb/fs/head-cache.ts):
 *  beside the search indexes, $XDG_CACHE_HOME/kb/heads or
 *  ~/.cache/kb/heads; undefined without a home. */
export function headsDir(env: Record<string, string | undefined>, home: string | undefined): string | undefined {
  const search = cacheDir(env, home);
  return search === undefined ? undefined : join(dirname(search), 'heads');
}
