// Loops for the code every start runs. The engine compiles its own Array
// methods that take a callback from their source the first time a process
// calls each of them: in a compiled program, a first `map` costs about
// 0.2 ms, and then `filter` and `reduce` about 0.08 ms each, `some` 0.07,
// `every`, `find` and `forEach` 0.04 (`Array.from` 0.27), while these
// functions, compiled with the rest of kb into the binary's bytecode, cost
// nothing to start. What an assistant runs on every prompt (`kb schema`,
// `kb prompt`, a listing, a load, a warm search, a recall) uses these or
// plain loops (tests/unit/startup-builtins.test.ts keeps the Array methods
// off those paths): about half a millisecond of each; elsewhere the
// methods read as well and cost the same.

/** `list.map(fn)`. */
export function map<T, U>(list: readonly T[], fn: (item: T, index: number) => U): U[] {
  const out = new Array<U>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = fn(list[i], i);
  return out;
}

/** `list.filter(keep)`. */
export function filter<T, S extends T>(list: readonly T[], keep: (item: T, index: number) => item is S): S[];
export function filter<T>(list: readonly T[], keep: (item: T, index: number) => unknown): T[];
export function filter<T>(list: readonly T[], keep: (item: T, index: number) => unknown): T[] {
  const out: T[] = [];
  for (let i = 0; i < list.length; i++) if (keep(list[i], i)) out.push(list[i]);
  return out;
}

/** `list.some(test)`. */
export function some<T>(list: readonly T[], test: (item: T) => unknown): boolean {
  for (let i = 0; i < list.length; i++) if (test(list[i])) return true;
  return false;
}

/** `list.every(test)`. */
export function every<T>(list: readonly T[], test: (item: T) => unknown): boolean {
  for (let i = 0; i < list.length; i++) if (!test(list[i])) return false;
  return true;
}

/** `list.find(test)`. */
export function find<T>(list: readonly T[], test: (item: T) => unknown): T | undefined {
  for (let i = 0; i < list.length; i++) if (test(list[i])) return list[i];
  return undefined;
}

/** `list.flatMap(fn)`, for a function that returns arrays. */
export function flatMap<T, U>(list: readonly T[], fn: (item: T) => readonly U[]): U[] {
  const out: U[] = [];
  for (let i = 0; i < list.length; i++) for (const u of fn(list[i])) out.push(u);
  return out;
}

/**
 * `items` in the code-unit order of their `keys` (as compareCodeUnits;
 * items of equal keys in their order), `keys[i]` being the key of
 * `items[i]`. Sorted by the built-in string sort, without a comparator
 * call per comparison (for the 3,000 entries of one folder, a comparator
 * cost about 2 ms): each key gets a NUL (which sorts before every other
 * code unit, so a key sorts before the keys it starts) and its index in
 * three code units below 256 (so a key of bytes stays one, which sorts
 * faster than one of 16-bit units). `keys` is left sorted, suffixes and
 * all. Keys may not hold a NUL (names and slugs of files cannot).
 */
export function inCodeUnitOrder<T>(items: readonly T[], keys: string[]): T[] {
  const n = keys.length;
  const out = new Array<T>(n);
  if (n >= 1 << 24) {
    const order = new Array<number>(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
    for (let k = 0; k < n; k++) out[k] = items[order[k]];
    return out;
  }
  for (let i = 0; i < n; i++) keys[i] = keys[i] + '\0' + String.fromCharCode(i >>> 16, (i >>> 8) & 255, i & 255);
  keys.sort();
  for (let k = 0; k < n; k++) {
    const key = keys[k];
    const end = key.length;
    out[k] = items[(key.charCodeAt(end - 3) << 16) | (key.charCodeAt(end - 2) << 8) | key.charCodeAt(end - 1)];
  }
  return out;
}

/** A directory's entries in name order (code units, as compareCodeUnits;
 *  inCodeUnitOrder), as a topic's walk reads them (kb/fs/walk.ts).
 *  `names`, the entries' names in their order (namesOf), are sorted with
 *  them. */
export function byName<T extends { readonly name: string }>(entries: readonly T[], names: string[] = namesOf(entries)): T[] {
  return inCodeUnitOrder(entries, names);
}

/** The names of `entries`, in their order. */
export function namesOf(entries: readonly { readonly name: string }[]): string[] {
  const names: string[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) names[i] = entries[i].name;
  return names;
}
