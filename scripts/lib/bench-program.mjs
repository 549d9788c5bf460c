// A benchmark's own program (scripts/search-reference.ts, the search's
// speed reference; scripts/mcp-http-floor.ts, the HTTP load's floor),
// compiled by the Bun that builds kb with kb's flags but --splitting (one
// entry point, no worker), once per Bun version and source: the limit on
// kb's own runtime that kb is timed against.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FLAGS } from '../build.mjs';

/** `src` compiled into `<dir>/reference/<name>-<bun version>-<source
 *  hash>` unless there already; its path. `bun`: the Bun that builds kb;
 *  `log`: a line said before compiling. Throws when it does not compile. */
export function benchProgram({ src, dir, name, bun, log }) {
  const version = spawnSync(bun, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const tag = createHash('sha256').update(readFileSync(src)).digest('hex').slice(0, 12);
  const out = join(dir, 'reference', `${name}-${version}-${tag}`);
  if (!existsSync(out)) {
    mkdirSync(dirname(out), { recursive: true });
    const flags = FLAGS.filter((f) => f !== '--splitting');
    log(`compiling ${src.slice(src.lastIndexOf('scripts/'))} with bun build ${flags.join(' ')} ...`);
    const r = spawnSync(bun, ['build', src, ...flags, '--outfile', out], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`could not compile ${src}`);
  }
  return out;
}
