// Reading configuration files into layers: finding a location's file (JP
// tries each extension), reading it safely, parsing, the file-level
// directives (`extends`, `inherit`, `config_load_paths`) and recursion into
// extended files. Problems become diagnostics; only `kb` and the directives
// are read, every other top-level key belongs to another tool.

import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { realpathSteady } from '../shared/realpath.ts';
import { basename, dirname, join, resolve } from 'node:path';
import type { Problem } from './types.ts';
import { deepPosition, depthMessage, tooDeep } from './depth.ts';
import { displayPath } from './discover.ts';
import { KB_KEY, isStringArray, isTable, tomlTypeName } from './fields.ts';
import { CONFIG_EXTENSIONS, formatOf, parseConfig, type Parsed } from './formats.ts';
import { inSourceOrder, indexOf, whereOf } from './locate.ts';
import type { Format, Layer, Origin } from './merge.ts';
import { map } from '../shared/arrays.ts';
import { invalidUtf8At } from '../shared/text.ts';

/** The largest configuration file read: 1 MiB. Real ones are a few KiB; a
 *  link to a device or a huge file must not be read whole. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** The longest `extends` chain, in files, the outermost included (JP's
 *  `MAX_EXTENDS_DEPTH`, `u8::MAX`): extending one file more is an error,
 *  as JP's `ExtendsDepthExceeded`. */
export const MAX_EXTENDS_DEPTH = 255;

export interface ReadContext {
  root: string;
  /** Every file read, in precedence order (appended to). */
  files: string[];
  diagnostics: Problem[];
  /** What --verbose tells (a source skipped, and why). */
  notes?: string[];
}

/** The files being extended, outermost first, to detect cycles. */
interface Link {
  real: string;
  label: string;
}

/** `path` with its extension replaced by `ext` (Rust's
 *  `Path::with_extension`, which JP uses: `dev` -> `dev.toml`,
 *  `.jp.toml` -> `.jp.json`, `web.v2` -> `web.toml`). */
export function withExtension(path: string, ext: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return join(dirname(path), `${stem}.${ext}`);
}

export type Located = { path: string } | { missing: true } | { error: NodeJS.ErrnoException; path: string };

/**
 * The file for a configuration location, as JP's `load_config_file_at_path`
 * finds it: `path` itself, else the same name with each extension in turn
 * (toml, json, json5, yaml, yml); the first that exists, only that one.
 * Anything that exists counts, so that a directory, a device or a FIFO in
 * its place is reported rather than passed over.
 */
export function locateConfigFile(path: string): Located {
  const candidates = [path, ...map(CONFIG_EXTENSIONS, (ext) => withExtension(path, ext))];
  for (const candidate of new Set(candidates)) {
    try {
      if (statSync(candidate, { throwIfNoEntry: false }) === undefined) continue;
      return { path: candidate };
    } catch (err) {
      return { error: err as NodeJS.ErrnoException, path: candidate };
    }
  }
  return { missing: true };
}

type ReadBytes = { bytes: Uint8Array } | { missing: true } | { problem: string };

/** UTF-8 as read: invalid bytes become U+FFFD (with a warning) and a
 *  byte-order mark is kept (the parsers strip it). TextDecoder, not
 *  Buffer: the global Buffer costs start-up time on first use. */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

const TOO_LARGE = `configuration file is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB`;

/** A regular file's bytes, at most MAX_CONFIG_BYTES. Opened without
 *  blocking (a FIFO would wait forever for a writer) and checked on the open
 *  descriptor, so what is read is what was checked. */
function readRegular(path: string): ReadBytes {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return { missing: true };
    return { problem: `cannot read configuration file: ${e.code === 'EISDIR' ? 'it is a directory' : e.message}` };
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { problem: 'cannot read configuration file: it is a directory' };
    if (!stat.isFile()) return { problem: 'cannot read configuration file: not a regular file (a device, FIFO or socket)' };
    const tooLarge = { problem: TOO_LARGE };
    if (stat.size > MAX_CONFIG_BYTES) return tooLarge;
    // The size may lie (files under /proc say 0): read up to one byte past
    // the cap. The first chunk holds a file of the size fstat gives and the
    // read that says it ended (a buffer of the file's size, not 64 KiB:
    // zeroing 128 KiB for a 50-byte file took about 0.1 ms of every start);
    // more come 64 KiB at a time.
    const chunks: Uint8Array[] = [];
    let total = 0;
    let chunk = new Uint8Array(Math.min(Math.max(stat.size + 1, 4096), MAX_CONFIG_BYTES + 1));
    let filled = 0;
    for (;;) {
      if (filled === chunk.length) {
        chunks.push(chunk);
        chunk = new Uint8Array(Math.min(64 * 1024, MAX_CONFIG_BYTES + 1 - total));
        filled = 0;
      }
      const got = readSync(fd, chunk, filled, chunk.length - filled, null);
      if (got === 0) break;
      filled += got;
      total += got;
      if (total > MAX_CONFIG_BYTES) return tooLarge;
    }
    chunks.push(chunk.subarray(0, filled));
    if (chunks.length === 1) return { bytes: chunks[0] };
    const all = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return { bytes: all };
  } catch (err) {
    return { problem: `cannot read configuration file: ${(err as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

/** A configuration file's bytes as kb reads them: at most
 *  MAX_CONFIG_BYTES, decoded as UTF-8 (an invalid byte read as U+FFFD: a
 *  warning, `invalid`; `invalidAt`: the first such byte's offset), parsed
 *  in its format, nested at most 64 levels.
 *  `kb init` checks what it would write with this very function. */
export async function readConfigBytes(
  bytes: Uint8Array,
  format: Format,
  label: string,
): Promise<{ text: string; parsed: Parsed & { data: Record<string, unknown> }; invalid?: Problem; invalidAt?: number } | { diagnostic: Problem }> {
  if (bytes.length > MAX_CONFIG_BYTES) return { diagnostic: { severity: 'error', code: 'read-error', message: TOO_LARGE, where: label } };
  const text = UTF8.decode(bytes);
  const parsed = await parseConfig(text, format, label);
  if ('diagnostic' in parsed) return parsed;
  if (tooDeep(parsed.data)) {
    // Refused like a syntax error: deeper values would overflow the stack.
    const where = label + ((format === 'yaml' ? '' : deepPosition(text)) || ':1');
    return { diagnostic: { severity: 'error', code: `${format}-syntax`, message: `invalid ${format.toUpperCase()}: ${depthMessage()}`, where } };
  }
  // Most files hold no U+FFFD at all: the bytes are looked at only then.
  const bad = text.includes('\uFFFD') ? invalidUtf8At(bytes) : -1;
  return bad < 0 ? { text, parsed } : { text, parsed, invalid: invalidBytes(bytes, bad, label), invalidAt: bad };
}

/** The warning for a configuration file that is not valid UTF-8, its
 *  first invalid byte at `at`. */
function invalidBytes(bytes: Uint8Array, at: number, label: string): Problem {
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
  const hex = bytes[at].toString(16).padStart(2, '0');
  return {
    severity: 'warning',
    code: 'invalid-utf8',
    message: `configuration file is not valid UTF-8: byte 0x${hex} at offset ${at} is read as U+FFFD, as is any other invalid byte; a configuration file must be UTF-8 (TOML requires it): save it as UTF-8`,
    where: `${label}:${line}`,
  };
}

/** Reads `path` and the files it extends (those with `strategy = "before"`,
 *  the default, first, the file itself, then those with `"after"`).
 *  Returns the layers, lowest precedence first; nothing when the file does
 *  not exist. */
export async function readConfigFile(path: string, ctx: ReadContext, chain: readonly Link[] = []): Promise<Layer[]> {
  const file = await readOne(path, ctx);
  if (file === undefined) return [];
  const { origin, data } = file;
  const wrongType: WrongType = (key, expected, value = data[key], at = [key]) =>
    ctx.diagnostics.push({
      severity: 'error',
      code: 'wrong-type',
      message: `\`${at.join('.')}\` must be ${expected}, got ${tomlTypeName(value)}`,
      where: whereOf(origin, at),
    });

  const own: Layer = { origin, ops: KB_KEY in data ? [{ path: [KB_KEY], value: inSourceOrder(data[KB_KEY], () => indexOf(origin), [KB_KEY]) }] : [] };
  if ('config_load_paths' in data) {
    if (isStringArray(data.config_load_paths)) own.loadPaths = data.config_load_paths;
    else wrongType('config_load_paths', 'an array of strings');
  }
  if ('inherit' in data) {
    if (typeof data.inherit === 'boolean') own.inherit = data.inherit;
    else wrongType('inherit', 'a boolean');
  }
  if (!('extends' in data)) return [own];
  if (!Array.isArray(data.extends)) {
    wrongType('extends', 'an array of paths');
    return [own];
  }
  const { before, after } = await readExtended(data.extends, { real: realPath(path), label: origin.label }, origin, ctx, chain, wrongType);
  return [...before, own, ...after];
}

/** Reports a key of a configuration file whose value has the wrong type. */
type WrongType = (key: string, expected: string, value?: unknown, at?: string[]) => void;

/** One configuration file, read and parsed, noted in `ctx.files`; undefined
 *  (with a diagnostic, unless it is missing) when it cannot be. */
async function readOne(path: string, ctx: ReadContext): Promise<{ origin: Origin; data: Record<string, unknown> } | undefined> {
  const label = displayPath(ctx.root, path);
  const read = readRegular(path);
  if ('missing' in read) return undefined;
  if ('problem' in read) {
    ctx.diagnostics.push({ severity: 'error', code: 'read-error', message: read.problem, where: label });
    return undefined;
  }
  if (!ctx.files.includes(path)) ctx.files.push(path);

  const format = formatOf(path);
  if (format === undefined) {
    ctx.diagnostics.push({
      severity: 'error',
      code: 'unknown-format',
      message: 'not a configuration file: the name must end in .toml, .json, .json5, .yaml or .yml',
      where: label,
    });
    return undefined;
  }
  const loaded = await readConfigBytes(read.bytes, format, label);
  if ('diagnostic' in loaded) {
    ctx.diagnostics.push(loaded.diagnostic);
    return undefined;
  }
  if (loaded.invalid !== undefined) ctx.diagnostics.push(loaded.invalid);
  const { text, parsed } = loaded;
  return { origin: { source: path, label, text, format, ...(parsed.index ? { index: parsed.index } : {}) }, data: parsed.data };
}

/** The layers of the files an `extends` array names (`self`: the file
 *  that extends them, `chain`: the files that extended it), those to go
 *  before it and those to go after it. */
async function readExtended(entries: unknown[], self: Link, origin: Origin, ctx: ReadContext, chain: readonly Link[], wrongType: WrongType): Promise<{ before: Layer[]; after: Layer[] }> {
  const before: Layer[] = [];
  const after: Layer[] = [];
  for (const [i, entry] of entries.entries()) {
    const item = extendsEntry(entry, i, wrongType);
    if (item === undefined) continue;
    for (const target of await extendsTargets(item.path, origin, ctx)) {
      const links = [...chain, self];
      const problem = chainProblem(links, target, ctx.root);
      if (problem !== undefined) {
        ctx.diagnostics.push({ severity: 'error', ...problem, where: whereOf(origin, ['extends']) });
        continue;
      }
      (item.after ? after : before).push(...(await readConfigFile(target, ctx, links)));
    }
  }
  return { before, after };
}

/** Why `target` cannot extend the chain `links` (a cycle, or too long a
 *  chain), or undefined. */
function chainProblem(links: readonly Link[], target: string, root: string): { code: 'extends-cycle' | 'extends-depth'; message: string } | undefined {
  const real = realPath(target);
  const cycleAt = links.findIndex((l) => l.real === real);
  if (cycleAt >= 0) {
    const names = [...links.slice(cycleAt).map((l) => l.label), displayPath(root, target)];
    return { code: 'extends-cycle', message: `extends cycle: ${names.join(' -> ')}` };
  }
  // JP's `ExtendsStack::try_push`: the cycle first, then the depth.
  if (links.length >= MAX_EXTENDS_DEPTH) {
    return { code: 'extends-depth', message: `extends chain longer than ${MAX_EXTENDS_DEPTH} files: ${chainText([...links.map((l) => l.label), displayPath(root, target)])}` };
  }
  return undefined;
}

/** A chain of files for a message: all of a short one; the first two and
 *  the last two of a long one, with how many are left out between. */
function chainText(names: readonly string[]): string {
  if (names.length <= 6) return names.join(' -> ');
  return [...names.slice(0, 2), `... (${names.length - 4} more)`, ...names.slice(-2)].join(' -> ');
}

/** An `extends` item: a path, or a table `{ path = "...", strategy =
 *  "before" | "after" }` (JP's `ExtendingRelativePath`). */
function extendsEntry(
  entry: unknown,
  i: number,
  wrongType: WrongType,
): { path: string; after: boolean } | undefined {
  if (typeof entry === 'string') return { path: entry, after: false };
  const at = ['extends', String(i)];
  if (!isTable(entry)) {
    wrongType('extends', 'a path or a table { path, strategy }', entry, at);
    return undefined;
  }
  const table = entry as Record<string, unknown>;
  let ok = true;
  for (const key of Object.keys(table)) {
    if (key !== 'path' && key !== 'strategy') {
      wrongType('extends', 'a table with only `path` and `strategy`', table[key], [...at, key]);
      ok = false;
    }
  }
  if (table.path === undefined) {
    wrongType('extends', 'a table with a `path`', table, at);
    ok = false;
  } else if (typeof table.path !== 'string') {
    wrongType('extends', 'a string', table.path, [...at, 'path']);
    ok = false;
  }
  const strategy = table.strategy ?? 'before';
  if (strategy !== 'before' && strategy !== 'after') {
    wrongType('extends', '"before" or "after"', strategy, [...at, 'strategy']);
    ok = false;
  }
  return ok ? { path: table.path as string, after: strategy === 'after' } : undefined;
}

/** The files an `extends` entry names, relative to the declaring file. A
 *  missing plain path is a warning; a glob may match nothing, and matches
 *  hidden files (as JP's `glob` does). A glob that matches the declaring
 *  file is a cycle, as in JP. */
async function extendsTargets(entry: string, origin: Origin, ctx: ReadContext): Promise<string[]> {
  const dir = dirname(origin.source);
  // The glob machinery loads only for a file that extends another (few do).
  const { globFiles } = await import('./glob.ts');
  const matched = await globFiles(dir, entry);
  if (matched !== undefined) {
    if (matched.truncated) {
      ctx.diagnostics.push({
        severity: 'warning',
        code: 'extends-truncated',
        message: `extends glob ${entry}: stopped after walking ${matched.truncated} entries; files beyond them are not read`,
        where: whereOf(origin, ['extends']),
      });
    }
    return matched.files;
  }
  const target = resolve(dir, entry);
  if (locatedExists(target)) return [target];
  ctx.diagnostics.push({
    severity: 'warning',
    code: 'extends-not-found',
    message: `extended file not found: ${entry} (resolved to ${displayPath(ctx.root, target)})`,
    where: whereOf(origin, ['extends']),
  });
  return [];
}

function locatedExists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true; // there, but not reachable: reading it says why
  }
}

function realPath(path: string): string {
  try {
    return realpathSteady(path);
  } catch {
    return resolve(path);
  }
}
