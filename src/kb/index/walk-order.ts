// The subjects of a walk in slug order, from the order the walk found them
// in, without sorting them all.
//
// The walk (kb/fs/walk.ts) reads a folder's entries in name order and
// hands over its files together, before its subfolders'. A slug is the
// folder's slug prefix and the file's name without its extension, and
// every slug below a subfolder starts with that subfolder's prefix (its
// slug and a `/`): so slug order is each folder's files in slug order,
// with each subfolder's whole run of slugs put where its prefix falls
// among them. A folder's files are nearly always in slug order already (a
// few are not: `a-b.md` comes before `a.md` by name, after it by slug),
// and so are its subfolders; where they are not, only that folder's few
// are sorted. Where the rule may not hold, the caller sorts the lot
// instead: two folders of one slug prefix (`a` and `.a`) are found out
// while the tree is built, and when a skill gave its SKILL.md its
// folder's slug the order is checked slug by slug before it is used. On
// the bench's 10,000 subjects the sort of every slug took 7-9 ms of a
// load, this order 4-6 ms (its first comparisons of a slug are what make
// the slug one flat string, which the later steps would do anyway).

import { inCodeUnitOrder } from '../../shared/arrays.ts';
import type { WalkDir } from '../fs/walk.ts';

/** A folder's files as the walk handed them over: `[start, end)` in the
 *  list of files, and the prefix of their slugs. */
export interface FolderRun {
  folder: WalkDir;
  prefix: string;
  start: number;
  end: number;
}

/** A folder of the tree: its own files and its subfolders. */
interface Node {
  prefix: string;
  start: number;
  end: number;
  children: Node[] | undefined;
}

/**
 * The order that sorts `slugs` (the walk's files' slugs, in the walk's
 * order) by code units, equal slugs in the walk's order: `order[k]` is the
 * index of the k-th. `runs` are the folders' runs of files, in walk order,
 * covering every file once; `prefixOf` gives the slug prefix of a folder
 * that holds no file of its own. Undefined when the tree cannot give that
 * order: the caller sorts (shared/arrays.ts inCodeUnitOrder), which gives
 * the same answer whenever this one gives one.
 *
 * Each file's slug is its folder's prefix and a name part without a `/`
 * when `plain` (nothing renamed a file after the walk): then a folder's
 * files in order and its subfolders in order, every prefix different,
 * make the whole order, with no slug compared to its neighbour again.
 * Otherwise (a skill's SKILL.md takes its folder's slug) the order is
 * checked, slug by slug.
 */
export function slugOrder(slugs: readonly string[], runs: readonly FolderRun[], prefixOf: (folder: WalkDir) => string, plain: boolean): Int32Array | undefined {
  const n = slugs.length;
  const root = treeOf(runs, n, prefixOf);
  if (root === undefined) return n === 0 ? new Int32Array(0) : undefined;
  const order = new Int32Array(n);
  let k = 0;
  // Depth first without recursion: a folder, its files in order, the next
  // of its files and the next of its subfolders, for each folder on the
  // way down. A subfolder's files go in before the first of the folder's
  // files whose slug is not below its prefix (a binary search).
  const nodes: Node[] = [root];
  const files: (Int32Array | undefined)[] = [ownOrder(root, slugs)];
  const nextFile: number[] = [0];
  const nextChild: number[] = [0];
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const node = nodes[top];
    const own = files[top];
    const start = node.start;
    const count = node.end - start;
    let f = nextFile[top];
    const c = nextChild[top];
    const children = node.children;
    const child = children !== undefined && c < children.length ? children[c] : undefined;
    // The files before the next subfolder (all that are left, if none).
    let stop = count;
    if (child !== undefined) {
      let lo = f;
      let hi = count;
      const prefix = child.prefix;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (slugs[own === undefined ? start + mid : own[mid]] < prefix) lo = mid + 1;
        else hi = mid;
      }
      stop = lo;
    }
    if (k + stop - f > n) return undefined;
    if (own === undefined) for (; f < stop; f++) order[k++] = start + f;
    else for (; f < stop; f++) order[k++] = own[f];
    nextFile[top] = f;
    if (child !== undefined) {
      nextChild[top] = c + 1;
      nodes.push(child);
      files.push(ownOrder(child, slugs));
      nextFile.push(0);
      nextChild.push(0);
    } else {
      nodes.pop();
      files.pop();
      nextFile.pop();
      nextChild.pop();
    }
  }
  if (k !== n) return undefined;
  return plain || inOrder(slugs, order) ? order : undefined;
}

/** The folders as a tree, each with its subfolders in prefix order (a
 *  folder with no files of its own, met only as a parent, included);
 *  undefined when the runs are not one tree's, one after the other over
 *  the `n` files. */
function treeOf(runs: readonly FolderRun[], n: number, prefixOf: (folder: WalkDir) => string): Node | undefined {
  const nodes = new Map<WalkDir, Node>();
  let root: Node | undefined;
  let end = 0;
  for (const run of runs) {
    if (nodes.has(run.folder) || run.start !== end || run.end < run.start) return undefined;
    end = run.end;
    const node: Node = { prefix: run.prefix, start: run.start, end: run.end, children: undefined };
    nodes.set(run.folder, node);
    if (run.folder.parent === null) root = node;
  }
  if (end !== n) return undefined;
  // The folders that have subfolders.
  const parents: Node[] = [];
  for (const run of runs) {
    // Up the parents to the first folder already in the tree.
    let folder = run.folder;
    let node = nodes.get(folder)!;
    while (folder.parent !== null) {
      let parent = nodes.get(folder.parent);
      const fresh = parent === undefined;
      if (parent === undefined) {
        parent = { prefix: prefixOf(folder.parent), start: 0, end: 0, children: undefined };
        nodes.set(folder.parent, parent);
        if (folder.parent.parent === null) root = parent;
      }
      if (parent.children === undefined) {
        parent.children = [node];
        parents.push(parent);
      } else {
        parent.children.push(node);
      }
      if (!fresh) break;
      folder = folder.parent;
      node = parent;
    }
  }
  // Subfolders come by name, which is prefix order but where a name ends
  // where another goes on with a code unit below `/` (`a` and `a-b`). Two
  // of one prefix (`a` and `.a`) would mix their files: not this way.
  for (const node of parents) {
    const children = node.children!;
    for (let i = 1; i < children.length; i++) {
      if (children[i - 1].prefix >= children[i].prefix) {
        children.sort(byPrefix);
        for (let j = 1; j < children.length; j++) if (children[j - 1].prefix === children[j].prefix) return undefined;
        break;
      }
    }
  }
  return root;
}

function byPrefix(a: Node, b: Node): number {
  return a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0;
}

/** A folder's own files in slug order: undefined when they came in it
 *  (the common case), else their indices in it. Names that start with a
 *  `.` (hidden files) come first by name but lose the `.` in their slugs:
 *  two runs in slug order, merged; anything else out of order is sorted. */
function ownOrder(node: Node, slugs: readonly string[]): Int32Array | undefined {
  const { start, end } = node;
  let mid = -1;
  for (let i = start + 1; i < end; i++) {
    if (slugs[i - 1] > slugs[i]) {
      if (mid >= 0) return sortedRange(start, end, slugs);
      mid = i;
    }
  }
  if (mid < 0) return undefined;
  // Two runs, [start, mid) and [mid, end): merged, the first's first of
  // equal slugs (the walk's order).
  const out = new Int32Array(end - start);
  let a = start;
  let b = mid;
  let k = 0;
  while (a < mid && b < end) out[k++] = slugs[b] < slugs[a] ? b++ : a++;
  while (a < mid) out[k++] = a++;
  while (b < end) out[k++] = b++;
  return out;
}

/** The indices `[start, end)` sorted by slug. */
function sortedRange(start: number, end: number, slugs: readonly string[]): Int32Array {
  const indices: number[] = new Array(end - start);
  const keys: string[] = new Array(end - start);
  for (let i = start; i < end; i++) {
    indices[i - start] = i;
    keys[i - start] = slugs[i];
  }
  return Int32Array.from(inCodeUnitOrder(indices, keys));
}

/** Whether `order` lists the slugs in code-unit order, equal slugs in the
 *  walk's order (what a stable sort gives). */
function inOrder(slugs: readonly string[], order: Int32Array): boolean {
  for (let k = 1; k < order.length; k++) {
    const a = slugs[order[k - 1]];
    const b = slugs[order[k]];
    if (a > b || (a === b && order[k - 1] > order[k])) return false;
  }
  return true;
}
