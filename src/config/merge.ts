// Merging configuration layers into one tree that remembers, for every
// value, which layer set it. Tables merge key by key; a later scalar or array
// replaces an earlier value; an append adds to an earlier array.

import type { Source } from './types.ts';
import { isTable } from './fields.ts';

/** Where a layer comes from. */
export interface Origin {
  /** For `Topic.sources`: absolute file path, `--cfg <text>`, `env NAME`, `-k <value>`. */
  source: Source;
  /** For `Problem.where`: the file relative to the workspace root when
   *  inside it, or the flag / variable. */
  label: string;
  /** A file's text and format, to find a key's line for messages. */
  text?: string;
  format?: 'toml' | 'json';
}

/** One change: deep-merge `value` at `path`, or append `value`'s items to the
 *  array at `path`. */
export interface Op {
  path: string[];
  value: unknown;
  append?: boolean;
}

export interface Layer {
  origin: Origin;
  ops: Op[];
  /** `inherit = false` (JP): the file is authoritative; the configuration
   *  files after it in the load order are not read. */
  authoritative?: boolean;
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

/** Merges `layers`, lowest precedence first, into a fresh tree. */
export function merge(layers: readonly Layer[]): Table {
  const root: Table = { kind: 'table', entries: new Map(), origin: DEFAULT_ORIGIN };
  for (const layer of layers) {
    for (const op of layer.ops) apply(root, op, layer.origin);
  }
  return root;
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
  const existing = table.entries.get(key);
  table.entries.set(key, op.append ? appendTo(existing, op.value, origin) : mergeInto(existing, op.value, origin));
}

function mergeInto(existing: Node | undefined, value: unknown, origin: Origin): Node {
  if (!isTable(value)) return leaf(value, origin);
  const table: Table = existing?.kind === 'table' ? existing : { kind: 'table', entries: new Map(), origin };
  for (const key of Object.keys(value)) {
    table.entries.set(key, mergeInto(table.entries.get(key), value[key], origin));
  }
  return table;
}

/** An append onto something that is not an array starts a new array. */
function appendTo(existing: Node | undefined, value: unknown, origin: Origin): Leaf {
  const added = Array.isArray(value) ? value : [value];
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
  return { kind: 'leaf', value: [...value], origin, items: value.map(() => origin) };
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
