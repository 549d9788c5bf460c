// Reading configuration files into layers: parsing, the file-level directives
// (`extends`, `inherit`, `config_load_paths`) and recursion into extended
// files. Problems become diagnostics; only `kb` and the directives are read,
// every other top-level key belongs to another tool.

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Problem } from './types.ts';
import { deepPosition, depthMessage, tooDeep } from './depth.ts';
import { displayPath } from './discover.ts';
import { KB_KEY, isStringArray, typeName } from './fields.ts';
import { globFiles } from './glob.ts';
import { parseJson } from './json.ts';
import { whereOf } from './locate.ts';
import type { Layer, Origin } from './merge.ts';
import { parseToml } from './toml.ts';

export interface ReadContext {
  root: string;
  /** Every file read, in precedence order (appended to). */
  files: string[];
  diagnostics: Problem[];
}

/** The files being extended, outermost first, to detect cycles. */
interface Link {
  real: string;
  label: string;
}

/** Reads `path` and, before it, everything it extends. Returns the layers,
 *  lowest precedence first; nothing when the file does not exist. */
export async function readConfigFile(path: string, ctx: ReadContext, chain: readonly Link[] = []): Promise<Layer[]> {
  const label = displayPath(ctx.root, path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      ctx.diagnostics.push({ severity: 'error', code: 'read-error', message: `cannot read configuration file: ${(err as Error).message}`, where: label });
    }
    return [];
  }
  if (!ctx.files.includes(path)) ctx.files.push(path);

  const format = path.endsWith('.json') ? 'json' : 'toml';
  const parsed = format === 'json' ? parseJson(text, label) : await parseToml(text, label);
  if ('diagnostic' in parsed) {
    ctx.diagnostics.push(parsed.diagnostic);
    return [];
  }
  if (tooDeep(parsed.data)) {
    // Refused like a syntax error: deeper values would overflow the stack.
    const where = label + (deepPosition(text) || ':1');
    ctx.diagnostics.push({ severity: 'error', code: `${format}-syntax`, message: `invalid ${format.toUpperCase()}: ${depthMessage()}`, where });
    return [];
  }
  const data = parsed.data;
  const origin: Origin = { source: path, label, text, format };
  const wrongType = (key: string, expected: string) =>
    ctx.diagnostics.push({
      severity: 'error',
      code: 'wrong-type',
      message: `\`${key}\` must be ${expected}, got ${typeName(data[key])}`,
      where: whereOf(origin, [key]),
    });

  const own: Layer = { origin, ops: KB_KEY in data ? [{ path: [KB_KEY], value: data[KB_KEY] }] : [] };
  if ('config_load_paths' in data) {
    if (isStringArray(data.config_load_paths)) own.loadPaths = data.config_load_paths;
    else wrongType('config_load_paths', 'an array of strings');
  }
  if ('inherit' in data && typeof data.inherit !== 'boolean') wrongType('inherit', 'a boolean');

  const layers: Layer[] = [];
  if ('extends' in data) {
    if (!isStringArray(data.extends)) wrongType('extends', 'an array of strings');
    else {
      const self: Link = { real: realPath(path), label };
      for (const entry of data.extends) {
        for (const target of await extendsTargets(entry, origin, ctx)) {
          const real = realPath(target);
          const links = [...chain, self];
          const cycleAt = links.findIndex((l) => l.real === real);
          if (cycleAt >= 0) {
            const names = [...links.slice(cycleAt).map((l) => l.label), displayPath(ctx.root, target)];
            ctx.diagnostics.push({
              severity: 'error',
              code: 'extends-cycle',
              message: `extends cycle: ${names.join(' -> ')}`,
              where: whereOf(origin, ['extends']),
            });
            continue;
          }
          layers.push(...(await readConfigFile(target, ctx, links)));
        }
      }
    }
  }
  layers.push(own);
  // `inherit = false` (JP): the file is authoritative; configuration files
  // later in the load order are not merged on top of it.
  if (data.inherit === false) layers[layers.length - 1] = { ...own, authoritative: true };
  return layers;
}

/** The files an `extends` entry names, relative to the declaring file. A
 *  missing plain path is a warning; a glob may match nothing, and never
 *  matches the declaring file itself (`extends = ["*.toml"]`). */
async function extendsTargets(entry: string, origin: Origin, ctx: ReadContext): Promise<string[]> {
  const dir = dirname(origin.source);
  const matched = await globFiles(dir, entry);
  if (matched !== undefined) {
    const self = realPath(origin.source);
    return matched.filter((file) => realPath(file) !== self);
  }
  const target = resolve(dir, entry);
  if (existsSync(target)) return [target];
  ctx.diagnostics.push({
    severity: 'warning',
    code: 'extends-not-found',
    message: `extended file not found: ${entry} (resolved to ${displayPath(ctx.root, target)})`,
    where: whereOf(origin, ['extends']),
  });
  return [];
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
