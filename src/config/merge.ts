// Merging configuration layers into one tree that remembers, for every
// value, which layer set it. Tables merge key by key; a later scalar or array
// replaces an earlier value; an append adds to an earlier array (a table
// appended merges in, the arrays inside it appended); a replace drops the
// table it lands on first.

import type { Source } from './types.ts';
import { isTable } from './fields.ts';
import { map } from '../shared/arrays.ts';

/** Where a key is set in a file's text (locate.ts). */
export interface Entry {
  line: number;
  /** The offset in the text where the key is first set: the order in which
   *  keys appear (configuration order, docs/reference/configuration.md "Where configuration comes from"). */
  pos: number;
  /** The value on this line is an inline table or array: keys below it live
   *  on the same line (or the next few). */
  inline?: boolean;
}

/** A file's keys (paths joined by NUL) and where each is first set. */
export type Index = Map<string, Entry>;

export type Format = 'toml' | 'json' | 'json5' | 'yaml';

/** Where a layer comes from. */
export interface Origin {
  /** For `Topic.sources`: absolute file path, `--cfg <text>`, `env NAME`, `-k <value>`. */
  source: Source;
  /** For `Problem.where`: the file relative to the workspace root when
   *  inside it, or the flag / variable. */
  label: string;
  /** A file's text and format, to find a key's line for messages. */
  text?: string;
  format?: Format;
  /** The key index, when the parser built it (YAML); else built from
   *  `text` on demand (locate.ts). */
  index?: Index;
}

/** One change: deep-merge `value` at `path`, append `value`'s items to the
 *  array at `path` (a table `value`: merge it, appending to the arrays it
 *  reaches: JP's `:+=`), replace what is at `path` with `value` (`replace`:
 *  JP's `:=` on a map), or (`index`) replace item `index` of that array,
 *  which must exist (JP's `KEY.N=VALUE`). A table value may be a Map, which
 *  keeps its keys in the order written (locate.ts `inSourceOrder`). */
export interface Op {
  path: string[];
  value: unknown;
  append?: boolean;
  replace?: boolean;
  index?: number;
}

export interface Layer {
  origin: Origin;
  ops: Op[];
  /** The file's `inherit`, when it sets one: the last one set decides
   *  whether the next configuration source is read (load.ts). */
  inherit?: boolean;
  /** The file's `config_load_paths`, when it sets a valid one. */
  loadPaths?: string[];
}

export interface Leaf {
  kind: 'leaf';
  value: unknown;
  origin: Origin;
  /** For arrays: the origin of each item (appends mix layers). */
  items?: Origin[];
}

export interface Table {
  kind: 'table';
  /** Insertion order is first appearance across layers. */
  entries: Map<string, Node>;
  /** The layer that first declared the table. */
  origin: Origin;
}

export type Node = Leaf | Table;

export const DEFAULT_ORIGIN: Origin = { source: 'default', label: 'default' };

/** An index assignment whose item does not exist. */
export interface MergeError {
  message: string;
  origin: Origin;
}

/** Merges `layers`, lowest precedence first, into a fresh tree. An index
 *  assignment to a missing item changes nothing and is reported to
 *  `onError`. */
export function merge(layers: readonly Layer[], onError?: (e: MergeError) => void): Table {
  const root: Table = { kind: 'table', entries: new Map(), origin: DEFAULT_ORIGIN };
  for (const layer of layers) {
    for (const op of layer.ops) {
      if (op.index === undefined) apply(root, op, layer.origin);
      else {
        const message = setItem(root, op, layer.origin);
        if (message !== undefined) onError?.({ message, origin: layer.origin });
      }
    }
  }
  return root;
}

/** Replaces item `op.index` of the array at `op.path`; the reason when it
 *  does not exist. */
function setItem(root: Table, op: Op, origin: Origin): string | undefined {
  const index = op.index as number;
  const key = op.path.join('.');
  const node = lookup(root, op.path);
  const length = node?.kind === 'leaf' && Array.isArray(node.value) ? node.value.length : 0;
  if (node?.kind !== 'leaf' || index >= length) {
    return `unknown index ${index}: \`${key}\` has ${length === 1 ? '1 item' : `${length} items`}`;
  }
  const value = [...(node.value as unknown[])];
  value[index] = op.value;
  const items = [...(node.items ?? value.map(() => node.origin))];
  items[index] = origin;
  node.value = value;
  node.items = items;
  return undefined;
}

function apply(root: Table, op: Op, origin: Origin): void {
  if (op.path.length === 0) {
    mergeInto(root, op.value, origin);
    return;
  }
  let table = root;
  for (const key of op.path.slice(0, -1)) {
    let next = table.entries.get(key);
    if (next?.kind !== 'table') {
      next = { kind: 'table', entries: new Map(), origin };
      table.entries.set(key, next);
    }
    table = next;
  }
  const key = op.path[op.path.length - 1];
  const existing = op.replace ? undefined : table.entries.get(key);
  table.entries.set(key, mergeInto(existing, op.value, origin, op.append === true));
}

/** `value` merged onto `existing`; with `append`, arrays are appended to
 *  the ones they meet. */
function mergeInto(existing: Node | undefined, value: unknown, origin: Origin, append = false): Node {
  if (!isTable(value)) return append ? appendTo(existing, value, origin) : leaf(value, origin);
  const table: Table = existing?.kind === 'table' ? existing : { kind: 'table', entries: new Map(), origin };
  const entries = value instanceof Map ? [...(value as Map<string, unknown>)] : Object.entries(value);
  for (const [key, v] of entries) {
    table.entries.set(key, mergeInto(table.entries.get(key), v, origin, append));
  }
  return table;
}

/** An append onto something that is not an array starts a new array; a
 *  scalar appended inside a table (`:+=` with an object) is set. */
function appendTo(existing: Node | undefined, value: unknown, origin: Origin): Leaf {
  if (!Array.isArray(value)) return leaf(value, origin);
  const added = value;
  if (existing?.kind !== 'leaf' || !Array.isArray(existing.value)) return leaf(added, origin);
  return {
    kind: 'leaf',
    value: [...existing.value, ...added],
    origin,
    items: [...(existing.items ?? []), ...added.map(() => origin)],
  };
}

function leaf(value: unknown, origin: Origin): Leaf {
  if (!Array.isArray(value)) return { kind: 'leaf', value, origin };
  return { kind: 'leaf', value: [...value], origin, items: map(value as unknown[], () => origin) };
}

/** The node at `path`, if any. */
export function lookup(root: Table, path: readonly string[]): Node | undefined {
  let node: Node | undefined = root;
  for (const key of path) {
    if (node?.kind !== 'table') return undefined;
    node = node.entries.get(key);
  }
  return node;
}

/** The tree as plain data (for tests and `kb config`-style dumps). */
export function toPlain(node: Node): unknown {
  if (node.kind === 'leaf') return node.value;
  return Object.fromEntries([...node.entries].map(([k, v]) => [k, toPlain(v)]));
}
