// Long functions: every function in src/ longer than LIMIT lines (from the
// line it starts on to the line it ends on, inner functions included), and
// whether a comment says why it stays long. Such a comment starts `long:`
// and sits in the comment block just above the function, or at the top of
// its body, before its first statement:
//
//     // long: the per-file loop of the walk; split, it measured 4% slower.
//     function walk(...) {
//
// `npm run test:unit` runs it (tests/unit/long-functions.test.ts): a long
// function without such a comment fails, unless PENDING lists it (a function
// being split now); a PENDING entry whose function is short, or has its
// comment, fails as well, so the list only shrinks.
// `node scripts/long-functions.mjs` prints the long functions without a
// comment, longest first (`--all`: every long function, the comment too).

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acorn from 'acorn';
import { tsPlugin } from '@sveltejs/acorn-typescript';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A function longer than this many lines needs a `long:` comment. */
export const LIMIT = 80;

/** Long functions without a `long:` comment that are being split now, by
 *  file and name. */
export const PENDING = [];

const TS = acorn.Parser.extend(tsPlugin());

const FUNCTION = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** A comment that says why a function is long. */
const LONG = /^\s*(?:\/\/|\/\*+|\*)\s*long:/;
/** A line holding only (part of) a comment. */
const COMMENT = /^\s*(?:\/\/|\/\*|\*)/;

/** The name a function is known by, from where it stands: `f`, `C.m`,
 *  `x` (of `const x = () => ...`), `key` (of `{ key: () => ... }`), or
 *  `<anonymous>`. */
function nameOf(fn, parent, holder) {
  if (fn.id?.name) return fn.id.name;
  const keyName = (k) => (k?.type === 'Identifier' ? k.name : k?.type === 'Literal' ? String(k.value) : k?.type === 'PrivateIdentifier' ? `#${k.name}` : '[computed]');
  if (parent?.type === 'MethodDefinition' || parent?.type === 'TSAbstractMethodDefinition') {
    const cls = holder?.id?.name ?? '<class>';
    const kind = parent.kind === 'get' || parent.kind === 'set' ? `${parent.kind} ` : '';
    return `${kind}${cls}.${keyName(parent.key)}`;
  }
  if (parent?.type === 'VariableDeclarator' && parent.id?.type === 'Identifier') return parent.id.name;
  if (parent?.type === 'Property' || parent?.type === 'PropertyDefinition') return keyName(parent.key);
  if (parent?.type === 'AssignmentExpression') {
    const l = parent.left;
    if (l.type === 'Identifier') return l.name;
    if (l.type === 'MemberExpression' && !l.computed) return keyName(l.property);
  }
  return '<anonymous>';
}

/** Every function of one TypeScript text: `{ name, line, lines, why }`,
 *  `why` the text of its `long:` comment, or undefined. */
export function functionsOf(code, file = 'x.ts') {
  let ast;
  try {
    ast = TS.parse(code, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  } catch (e) {
    throw new Error(`${file}: ${e.message}`);
  }
  const lines = code.split('\n');
  const out = [];
  const visit = (node, parent, holder) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, parent, holder);
      return;
    }
    if (typeof node.type !== 'string') return;
    if (FUNCTION.has(node.type) && node.body) {
      // A method's function starts at its parameters; the method, at its name.
      const outer = parent?.type === 'MethodDefinition' || parent?.type === 'Property' ? parent : node;
      const start = outer.loc.start.line;
      const end = node.loc.end.line;
      out.push({ name: nameOf(node, parent, holder), line: start, lines: end - start + 1, why: whyOf(lines, start, node) });
    }
    const inner = node.type === 'ClassDeclaration' || node.type === 'ClassExpression' ? node : holder;
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'type') continue;
      const v = node[key];
      if (v !== null && typeof v === 'object') visit(v, node, inner);
    }
  };
  visit(ast, null, null);
  return out;
}

/** The `long:` comment of the function starting on line `start` (1-based):
 *  in the comment lines just above it, or at the top of its body. */
function whyOf(lines, start, fn) {
  const found = (l) => (LONG.test(l) ? l.replace(LONG, '').trim() : undefined);
  for (let i = start - 2; i >= 0 && COMMENT.test(lines[i]); i--) {
    const w = found(lines[i]);
    if (w !== undefined) return w;
  }
  if (fn.body.type !== 'BlockStatement') return undefined;
  const first = fn.body.body[0]?.loc.start.line ?? fn.body.loc.end.line;
  for (let i = fn.body.loc.start.line; i < first - 1 && i < lines.length; i++) {
    const w = found(lines[i]);
    if (w !== undefined) return w;
  }
  return undefined;
}

/** src/'s TypeScript files, relative to the repository. */
export function sourceFiles(dir = join(REPO, 'src')) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(path));
    else if (e.name.endsWith('.ts')) out.push(relative(REPO, path).split(sep).join('/'));
  }
  return out.sort();
}

/** Every function of `files` over `limit` lines, longest first:
 *  `{ file, name, line, lines, why }`. */
export function longFunctions(files = sourceFiles(), limit = LIMIT) {
  const out = [];
  for (const file of files) {
    for (const f of functionsOf(readFileSync(join(REPO, file), 'utf8'), file)) if (f.lines > limit) out.push({ file, ...f });
  }
  return out.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

/** Problems with the long functions `long` (of `longFunctions`): each as
 *  a line `file:line: name: what`. */
export function problemsOf(long, pending = PENDING) {
  const problems = [];
  const isPending = (f) => pending.some((p) => p.file === f.file && p.name === f.name);
  for (const f of long) {
    if (f.why === undefined && !isPending(f)) problems.push(`${f.file}:${f.line}: ${f.name}: ${f.lines} lines (over ${LIMIT}): split it, or say why in a \`// long:\` comment above it`);
  }
  for (const p of pending) {
    const f = long.find((l) => l.file === p.file && l.name === p.name);
    if (f === undefined) problems.push(`${p.file}: ${p.name}: listed in PENDING, but no longer over ${LIMIT} lines: remove it from the list`);
    else if (f.why !== undefined) problems.push(`${p.file}: ${p.name}: listed in PENDING, but has a \`long:\` comment: remove it from the list`);
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const all = process.argv.includes('--all');
  const long = longFunctions();
  const bare = long.filter((f) => f.why === undefined);
  for (const f of all ? long : bare) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}${f.why === undefined ? '' : `  long: ${f.why}`}`);
  const problems = problemsOf(long);
  for (const p of problems) console.error(p);
  console.log(`${long.length} functions over ${LIMIT} lines, ${bare.length} without a \`long:\` comment (${PENDING.length} pending), ${problems.length} problems`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
