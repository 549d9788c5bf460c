// What `kb --version` says: the version (package.json's, which a release
// tag must agree with: scripts/release.mjs), the commit the binary was built
// from and the target it was built for. scripts/build.mjs defines KB_COMMIT
// and KB_TARGET (`bun build --define`), so the binary carries them as
// constants; run from the sources (deno, bun) they are not defined, and the
// line says so.
import pkg from '../../package.json' with { type: 'json' };

declare const KB_COMMIT: string | undefined;
declare const KB_TARGET: string | undefined;

export const VERSION: string = pkg.version;

/** The build, for what a cache holds that another build could read
 *  otherwise (kb/fs/head-cache.ts): its commit, or the version run from
 *  the sources. */
export const BUILD: string = typeof KB_COMMIT === 'string' ? KB_COMMIT : `source ${VERSION}`;

/** `1.0.0 (commit 0123456789ab, linux-x64)`; from the sources,
 *  `1.0.0 (from source, deno linux-x64)`. */
export function versionLine(): string {
  if (typeof KB_COMMIT === 'string' && typeof KB_TARGET === 'string') return `${VERSION} (commit ${KB_COMMIT}, ${KB_TARGET})`;
  const runtime = typeof (globalThis as { Deno?: unknown }).Deno === 'object' ? 'deno' : typeof process.versions.bun === 'string' ? 'bun' : 'node';
  return `${VERSION} (from source, ${runtime} ${process.platform}-${process.arch})`;
}
