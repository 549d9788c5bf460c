// Checks the architecture of src/: which folder may import which
// (`node scripts/check-layers.mjs [REPO_ROOT]`). Dependency-free: node:fs and
// node:path only, so it runs before `npm install` and on any node >= 18.
//
// Every .ts file under src/ is scanned for its imports: `import ... from`,
// `import '...'`, `export ... from`, `import type`, `import x = require()`,
// dynamic `import('...')` with a literal specifier (and the type-level
// `typeof import('...')`), and `new URL('./x.ts', import.meta.url)` (a
// worker's entry point). Relative specifiers are resolved to files; bare
// ones (`citty`, `node:fs`) are kept as written. The scanner is a small
// lexer: comments, strings, template literals (with nested `${}`) and
// regular expressions are skipped, so the word `import` inside them is not
// an import.
//
// The layout it checks (folders are top-level directories under src/):
//
//   src/
//     cli.ts, reader-thread.ts   entry points (may import anything)
//     app/      application layer
//     cli/      command-line front end (cli/commands/ inside it)
//     mcp/      MCP front end
//     config/   configuration loading
//     glob/     glob module: ONE face, glob/index.ts; the rest is private
//     kb/       core: kb/content/ (pure), kb/fs/ (reads), kb/index/, kb/search/, kb/write/
//     render/   pure data -> text
//     answer/   the types of what kb answers (types only)
//     shared/   problem type, errors, text utilities, stdio
//
// Prints `layers: N files, M imports, no violations` and exits 0, or one
// `layers: <importer> -> <imported>: <rule>` line per violation and exits 1.
// A relative import that resolves to no file is reported too (a checker
// that skipped it could miss a violation).

import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// ---------------------------------------------------------------------------
// Allow-list: the exceptions to rule 5 (cli/ and mcp/ reach the core only
// through app/). Paths are relative to src/. `typeOnly: true` allows type-only
// imports only (`import type`, `export type`, `import { type A }`,
// `typeof import()`); a value import of the same file is still a violation.
// ---------------------------------------------------------------------------
export const RULE5_ALLOW = [
  // The configuration's types: describing options is not reaching the core.
  { from: ['cli', 'mcp'], to: 'config/types.ts', typeOnly: true },
];

/** Node modules that do I/O: render/ imports none of them (rule 4). Matched
 *  with or without `node:`, and with any subpath (`fs/promises`). */
export const IO_MODULES = ['fs', 'child_process', 'net', 'http', 'https', 'worker_threads'];

// ---------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------

const ID_START = /[A-Za-z_$\u0080-\uffff]/;
const ID_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const PUNCT3 = ['>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??='];
const PUNCT2 = ['=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<', '>>'];
// After these keywords a `/` starts a regular expression, not a division.
const KEYWORDS_BEFORE_EXPR = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await',
]);

/**
 * Tokens of a TypeScript source: `{type: 'id' | 'str' | 'punct' | 'num',
 * value, line}`. Strings (and templates without `${}`) carry their value;
 * comments, regular expressions and template text are dropped; the code in a
 * template's `${}` is tokenized like any other.
 */
export function tokenize(src) {
  const tokens = [];
  const braces = []; // one entry per open `{`: true if it is a template's `${`
  let i = 0;
  let line = 1;
  const n = src.length;

  const push = (type, value, startLine) => tokens.push({ type, value, line: startLine });
  const regexAllowed = () => {
    const t = tokens[tokens.length - 1];
    if (!t) return true;
    if (t.type === 'num' || t.type === 'str') return false;
    if (t.type === 'id') return KEYWORDS_BEFORE_EXPR.has(t.value);
    return !(t.value === ')' || t.value === ']' || t.value === '}' || t.value === '++' || t.value === '--');
  };

  // Reads template text from i (just after the backtick or the `}` that ends
  // a `${}`); returns true if it stopped at a `${`, false at the closing `.
  const templateText = (startLine, head) => {
    let text = '';
    while (i < n) {
      const c = src[i];
      if (c === '\\') {
        text += src[i + 1] ?? '';
        if (src[i + 1] === '\n') line++;
        i += 2;
      } else if (c === '`') {
        i++;
        if (head) push('str', text, startLine); // a template without `${}` is a plain string
        else push('punct', '`', startLine); // the end of a template with substitutions
        return false;
      } else if (c === '$' && src[i + 1] === '{') {
        i += 2;
        if (head) push('punct', '`', startLine); // a template expression begins: not a literal
        braces.push(true);
        return true;
      } else {
        if (c === '\n') line++;
        text += c;
        i++;
      }
    }
    return false;
  };

  while (i < n) {
    const c = src[i];
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff' || c === '\u00a0') { i++; continue; }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) if (src[j] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === '#' && i === 0 && src[1] === '!') { // hashbang
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    const startLine = line;
    if (c === "'" || c === '"') {
      let value = '';
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') {
        if (src[i] === '\\') {
          if (src[i + 1] === '\n') line++;
          value += src[i + 1] ?? '';
          i += 2;
        } else value += src[i++];
      }
      i++;
      push('str', value, startLine);
      continue;
    }
    if (c === '`') {
      i++;
      templateText(startLine, true);
      continue;
    }
    if (c === '{') { braces.push(false); push('punct', '{', startLine); i++; continue; }
    if (c === '}') {
      i++;
      if (braces.pop() === true) templateText(startLine, false); // back into the template's text
      else push('punct', '}', startLine);
      continue;
    }
    if (ID_START.test(c)) {
      let j = i + 1;
      while (j < n && ID_PART.test(src[j])) j++;
      push('id', src.slice(i, j), startLine);
      i = j;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(src[j])) j++;
      push('num', src.slice(i, j), startLine);
      i = j;
      continue;
    }
    if (c === '/' && regexAllowed()) {
      let inClass = false;
      i++;
      while (i < n && src[i] !== '\n') {
        const d = src[i];
        if (d === '\\') { i += 2; continue; }
        if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        i++;
      }
      i++;
      while (i < n && ID_PART.test(src[i])) i++; // flags
      push('num', '/regexp/', startLine); // a value, like a number
      continue;
    }
    const p = PUNCT3.find((s) => src.startsWith(s, i)) ?? PUNCT2.find((s) => src.startsWith(s, i)) ?? c;
    push('punct', p, startLine);
    i += p.length;
  }
  return tokens;
}

// ---------------------------------------------------------------------------
// Imports
// ---------------------------------------------------------------------------

const isPunct = (t, v) => t !== undefined && t.type === 'punct' && t.value === v;
const isId = (t, v) => t !== undefined && t.type === 'id' && (v === undefined || t.value === v);

/** Index just past the `}` that closes the `{` at `open` (or tokens.length). */
function skipBraces(tokens, open) {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    if (isPunct(tokens[k], '{')) depth++;
    else if (isPunct(tokens[k], '}') && --depth === 0) return k + 1;
  }
  return tokens.length;
}

/** True if every specifier in the `{ ... }` at tokens[open] is marked
 *  `type` (and there is at least one): the whole import is then erased. */
function allInlineTypes(tokens, open, close) {
  let specifiers = 0;
  let typed = 0;
  let atStart = true;
  for (let k = open + 1; k < close - 1; k++) {
    const t = tokens[k];
    if (isPunct(t, ',')) { atStart = true; continue; }
    if (atStart) {
      specifiers++;
      // `type X` / `type X as Y` is typed; `type` alone or `type as X` names a binding called type
      if (isId(t, 'type') && isId(tokens[k + 1]) && !(isId(tokens[k + 1], 'as') && !isId(tokens[k + 2], 'as'))) typed++;
      atStart = false;
    }
  }
  return specifiers > 0 && typed === specifiers;
}

/**
 * The imports of one source text: `{specifier, kind, typeOnly, line}`,
 * kind being 'import' | 'export' | 'side-effect' | 'dynamic' | 'url' |
 * 'require' (`import x = require('x')`) | 'lazy-require' (a `require('x')`
 * call, which loads `x` when it runs). Only literal specifiers are seen
 * (`import(name)` is not).
 */
export function extractImports(src) {
  const tokens = tokenize(src);
  const found = [];
  const add = (specifier, kind, typeOnly, line) => found.push({ specifier, kind, typeOnly, line });

  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.type !== 'id') continue;
    const prev = tokens[k - 1];
    if (isPunct(prev, '.') || isPunct(prev, '?.')) continue; // a property called import/export/URL

    if (t.value === 'import') {
      const next = tokens[k + 1];
      if (next === undefined || isPunct(next, '.')) continue; // import.meta
      if (isPunct(next, '(')) {
        // import('x'): dynamic, or a type (`typeof import('x')`, `import('x').T`)
        const arg = tokens[k + 2];
        if (arg?.type === 'str' && (isPunct(tokens[k + 3], ')') || isPunct(tokens[k + 3], ','))) {
          // the `)` that closes the call (past import attributes, if any)
          let close = k + 1;
          for (let depth = 0; close < tokens.length; close++) {
            if (isPunct(tokens[close], '(')) depth++;
            else if (isPunct(tokens[close], ')') && --depth === 0) break;
          }
          const after = tokens[close + 1];
          const member = isPunct(after, '.') ? tokens[close + 2] : undefined;
          const typeOnly = isId(prev, 'typeof') ||
            (member !== undefined && isId(member) && !['then', 'catch', 'finally'].includes(member.value));
          add(arg.value, 'dynamic', typeOnly, t.line);
        }
        continue;
      }
      if (next.type === 'str') { add(next.value, 'side-effect', false, t.line); continue; }
      // import [type] <clause> from 'x'  |  import [type] X = require('x')
      let j = k + 1;
      let typeOnly = false;
      if (isId(tokens[j], 'type') && !isPunct(tokens[j + 1], ',') && !(isId(tokens[j + 1], 'from') && tokens[j + 2]?.type === 'str')) {
        typeOnly = true;
        j++;
      }
      if (isId(tokens[j]) && isPunct(tokens[j + 1], '=') && isId(tokens[j + 2], 'require') && isPunct(tokens[j + 3], '(') && tokens[j + 4]?.type === 'str') {
        add(tokens[j + 4].value, 'require', typeOnly, t.line);
        continue;
      }
      // the clause: `X`, `* as X`, `{...}`, `X, {...}`, `X, * as Y`
      let hasDefaultOrNamespace = false;
      let namedTyped = false;
      let ok = false;
      while (j < tokens.length) {
        const u = tokens[j];
        if (isPunct(u, '{')) {
          const end = skipBraces(tokens, j);
          namedTyped = allInlineTypes(tokens, j, end);
          j = end;
        } else if (isPunct(u, '*')) {
          hasDefaultOrNamespace = true;
          j += 3; // * as X
        } else if (isId(u, 'from') && tokens[j + 1]?.type === 'str') {
          ok = true;
          break;
        } else if (isId(u)) {
          hasDefaultOrNamespace = true;
          j++;
        } else if (isPunct(u, ',')) j++;
        else break;
      }
      if (ok) add(tokens[j + 1].value, 'import', typeOnly || (namedTyped && !hasDefaultOrNamespace), t.line);
      continue;
    }

    if (t.value === 'export') {
      // export [type] * [as X] from 'x'  |  export [type] { ... } from 'x'
      let j = k + 1;
      let typeOnly = false;
      if (isId(tokens[j], 'type') && (isPunct(tokens[j + 1], '{') || isPunct(tokens[j + 1], '*'))) {
        typeOnly = true;
        j++;
      }
      let namedTyped = false;
      if (isPunct(tokens[j], '*')) {
        j++;
        if (isId(tokens[j], 'as')) j += 2;
      } else if (isPunct(tokens[j], '{')) {
        const end = skipBraces(tokens, j);
        namedTyped = allInlineTypes(tokens, j, end);
        j = end;
      } else continue;
      if (isId(tokens[j], 'from') && tokens[j + 1]?.type === 'str') {
        add(tokens[j + 1].value, 'export', typeOnly || namedTyped, t.line);
      }
      continue;
    }

    // require('x') called where it is needed (a synchronous load deferred
    // to that call: kb/fs/ignore.ts), not `x.require(...)` (skipped above)
    const tsImportEquals = isPunct(prev, '=') && isId(tokens[k - 2]) && (isId(tokens[k - 3], 'import') || (isId(tokens[k - 3], 'type') && isId(tokens[k - 4], 'import')));
    if (t.value === 'require' && isPunct(tokens[k + 1], '(') && tokens[k + 2]?.type === 'str' && isPunct(tokens[k + 3], ')') && !tsImportEquals) {
      add(tokens[k + 2].value, 'lazy-require', false, t.line);
      continue;
    }

    // new URL('./x.ts', import.meta.url)
    if (t.value === 'new' && isId(tokens[k + 1], 'URL') && isPunct(tokens[k + 2], '(') && tokens[k + 3]?.type === 'str' &&
      isPunct(tokens[k + 4], ',') && isId(tokens[k + 5], 'import') && isPunct(tokens[k + 6], '.') &&
      isId(tokens[k + 7], 'meta') && isPunct(tokens[k + 8], '.') && isId(tokens[k + 9], 'url')) {
      const spec = tokens[k + 3].value;
      if (spec.startsWith('./') || spec.startsWith('../')) add(spec, 'url', false, t.line);
    }
  }
  return found;
}

// ---------------------------------------------------------------------------
// Files and resolution
// ---------------------------------------------------------------------------

const toPosix = (p) => p.split(sep).join('/');

function listTs(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTs(abs));
    else if (entry.isFile() && entry.name.endsWith('.ts')) out.push(abs);
  }
  return out;
}

const isFile = (p) => existsSync(p) && statSync(p).isFile();

/** The file a relative specifier names: as written, with .ts, the .ts of a
 *  .js/.mjs specifier, or a directory's index.ts. Null if none exists. */
function resolveFile(fromAbs, specifier) {
  const base = resolve(dirname(fromAbs), specifier.replace(/[?#].*$/, ''));
  const candidates = [base, `${base}.ts`, base.replace(/\.m?js$/, '.ts'), join(base, 'index.ts')];
  return candidates.find(isFile) ?? null;
}

const isRelative = (s) => s === '.' || s === '..' || s.startsWith('./') || s.startsWith('../');

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

/** The top-level folder of a path relative to src/ ('' for the files at the
 *  top: the entry points). */
const folderOf = (p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '');
const inFolder = (p, folders) => folders.includes(folderOf(p));

/** Rules 2-9 for one import. `to` is relative to src/ (null for a bare
 *  specifier); returns the rule texts it breaks. */
function edgeRules(from, to, imp) {
  const broken = [];
  const f = folderOf(from);
  if (to === null) {
    // Rule 4: render/ does no I/O.
    if (f === 'render') {
      const bare = imp.specifier.replace(/^node:/, '');
      const mod = IO_MODULES.find((m) => bare === m || bare.startsWith(`${m}/`));
      if (mod !== undefined) broken.push(`rule 4: render/ does no I/O (imports ${imp.specifier})`);
    }
    return broken;
  }
  const g = folderOf(to);
  // The files at the top of src/ (the entry points, f === '') are in no
  // folder: of rules 2-9 only rule 6 (glob/'s one face) applies to them.
  // Rule 2: kb/ and glob/ import nothing from the layers above them.
  if ((f === 'kb' || f === 'glob') && ['config', 'app', 'cli', 'mcp', 'render', 'answer'].includes(g)) {
    broken.push(`rule 2: ${f}/ must not import from ${g}/`);
  }
  // Rule 3: the two front ends are independent.
  if ((f === 'mcp' && g === 'cli') || (f === 'cli' && g === 'mcp')) {
    broken.push(`rule 3: ${f}/ must not import from ${g}/`);
  }
  // Rule 4: render/ does no I/O.
  if (f === 'render') {
    if (to.startsWith('kb/fs/')) broken.push('rule 4: render/ does no I/O (imports kb/fs/)');
    else if (['config', 'app', 'cli', 'mcp'].includes(g)) broken.push(`rule 4: render/ must not import from ${g}/`);
  }
  // Rule 5: the front ends reach the core only through app/.
  if ((f === 'cli' || f === 'mcp') && ['kb', 'glob', 'config'].includes(g)) {
    const allowed = RULE5_ALLOW.some((a) => a.to === to && a.from.includes(f) && (!a.typeOnly || imp.typeOnly));
    if (!allowed) broken.push(`rule 5: ${f}/ reaches ${g}/ only through app/`);
  }
  // Rule 6: glob/ has one face.
  if (f !== 'glob' && g === 'glob' && to !== 'glob/index.ts') {
    broken.push('rule 6: glob/ is imported only through glob/index.ts');
  }
  // Rule 7: shared/ is the bottom.
  if (f === 'shared' && g !== 'shared') {
    broken.push('rule 7: shared/ imports nothing outside shared/');
  }
  // Rule 8: config/ sits on glob/ and shared/ only.
  if (f === 'config' && ['app', 'cli', 'mcp', 'kb', 'render', 'answer'].includes(g)) {
    broken.push(`rule 8: config/ must not import from ${g}/`);
  }
  // Rule 9: app/ knows neither front end, nor how its answers are
  // written: it returns data, and is given what render/'s text costs.
  if (f === 'app' && (g === 'cli' || g === 'mcp')) {
    broken.push(`rule 9: app/ must not import from ${g}/`);
  }
  if (f === 'app' && g === 'render') {
    broken.push('rule 9: app/ must not import from render/');
  }
  // Rule 11: answer/ is types only, over kb/'s and shared/'s.
  if (f === 'answer') {
    if (!['kb', 'shared', 'answer'].includes(g)) broken.push(`rule 11: answer/ must not import from ${g === '' ? 'the entry points' : `${g}/`}`);
    else if (!imp.typeOnly) broken.push('rule 11: answer/ imports types only');
  }
  // Rule 10: inside kb/, content/ (pure) is below fs/ (reading), which is
  // below index/ (subjects, views), which is below search/.
  if (f === 'kb' && g === 'kb') {
    const part = (p) => p.split('/')[1];
    const rank = { content: 0, fs: 1, index: 2, search: 3, write: 4 };
    const a = rank[part(from)];
    const b = rank[part(to)];
    if (a !== undefined && b !== undefined && b > a) broken.push(`rule 10: kb/${part(from)}/ must not import from kb/${part(to)}/`);
  }
  return broken;
}

/** Strongly connected components (Tarjan, iterative) of the graph. */
function components(nodes, edges) {
  const adj = new Map(nodes.map((v) => [v, [...(edges.get(v) ?? [])].sort()]));
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const result = [];
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, counter); low.set(root, counter); counter++;
    stack.push(root); onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [v, at] = frame;
      const next = adj.get(v) ?? [];
      if (at < next.length) {
        frame[1]++;
        const w = next[at];
        if (!index.has(w)) {
          index.set(w, counter); low.set(w, counter); counter++;
          stack.push(w); onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const u = work[work.length - 1][0];
        low.set(u, Math.min(low.get(u), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const comp = [];
        let w;
        do { w = stack.pop(); onStack.delete(w); comp.push(w); } while (w !== v);
        result.push(comp);
      }
    }
  }
  return result;
}

/** The shortest cycle through `start` inside `members` (BFS), as a list of
 *  nodes beginning with start (the closing edge back to start implied). */
function shortestCycle(start, members, edges) {
  const parent = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of [...(edges.get(v) ?? [])].sort()) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [];
        for (let x = v; x !== null; x = parent.get(x)) path.unshift(x);
        return path;
      }
      if (!parent.has(w)) { parent.set(w, v); queue.push(w); }
    }
  }
  return [start];
}

/** Rule 1: import cycles. Each tangle (strongly connected component) is
 *  reported as concrete cycles: the shortest through its first file not yet
 *  in a reported cycle, until every file of the tangle is in one. */
function cycles(nodes, edges) {
  const found = [];
  for (const comp of components(nodes, edges)) {
    const only = comp[0];
    if (comp.length === 1 && !(edges.get(only)?.has(only))) continue;
    const members = new Set(comp);
    const covered = new Set();
    for (const start of [...comp].sort()) {
      if (covered.has(start)) continue;
      const cycle = shortestCycle(start, members, edges);
      for (const v of cycle) covered.add(v);
      found.push(cycle);
    }
  }
  return found;
}

// ---------------------------------------------------------------------------
// Analysis
// ---------------------------------------------------------------------------

/**
 * Analyses `<root>/src`. Returns
 *   files:      the .ts files, relative to root ('src/cli.ts', sorted)
 *   imports:    every import found: {from, specifier, to, kind, typeOnly, line};
 *               from and to relative to root, to null for a bare specifier
 *               or a relative one that names no file
 *   violations: {importer, imported, rule, text}, sorted, text being the
 *               line printed (`layers: <importer> -> <imported>: <rule>`)
 */
export function analyse(root) {
  const rootAbs = resolve(root);
  const srcAbs = join(rootAbs, 'src');
  const files = listTs(srcAbs).map((abs) => toPosix(relative(rootAbs, abs))).sort();
  const imports = [];
  const violations = new Map(); // text -> violation, one per line
  const violate = (importer, imported, rule) => {
    const text = `layers: ${importer} -> ${imported}: ${rule}`;
    if (!violations.has(text)) violations.set(text, { importer, imported, rule, text });
  };
  const edges = new Map(files.map((f) => [f, new Set()]));

  for (const file of files) {
    const abs = join(rootAbs, file);
    const fromSrc = toPosix(relative(srcAbs, abs));
    for (const imp of extractImports(readFileSync(abs, 'utf8'))) {
      let to = null;
      let toSrc = null;
      if (isRelative(imp.specifier)) {
        const target = resolveFile(abs, imp.specifier);
        if (target === null) {
          imports.push({ from: file, to: null, ...imp });
          violate(file, imp.specifier, 'unresolved import (no such file)');
          continue;
        }
        to = toPosix(relative(rootAbs, target));
        const rel = relative(srcAbs, target);
        if (rel.startsWith('..') || isAbsolute(rel)) {
          imports.push({ from: file, to, ...imp }); // outside src/ (package.json): no rule applies
          continue;
        }
        toSrc = toPosix(rel);
      }
      imports.push({ from: file, to, ...imp });
      if (to !== null && edges.has(to)) edges.get(file).add(to);
      for (const rule of edgeRules(fromSrc, toSrc, imp)) violate(file, to ?? imp.specifier, rule);
    }
  }

  for (const cycle of cycles(files, edges)) {
    violate(cycle[0], cycle[1] ?? cycle[0], `rule 1: import cycle: ${[...cycle, cycle[0]].join(' -> ')}`);
  }

  const sorted = [...violations.values()].sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return { files, imports, violations: sorted };
}

/** The lines `main` prints for an analysis. */
export function report({ files, imports, violations }) {
  if (violations.length === 0) return [`layers: ${files.length} files, ${imports.length} imports, no violations`];
  return violations.map((v) => v.text);
}

function scriptPath() {
  if (import.meta.filename) return import.meta.filename;
  let p = decodeURIComponent(new URL(import.meta.url).pathname);
  if (/^\/[A-Za-z]:\//.test(p)) p = p.slice(1); // file:///C:/... on Windows
  return p;
}

export function main(argv = process.argv.slice(2)) {
  const root = argv[0] ?? resolve(dirname(scriptPath()), '..');
  if (!existsSync(join(root, 'src'))) {
    console.error(`layers: no src/ directory in ${resolve(root)}`);
    return 2;
  }
  const result = analyse(root);
  const lines = report(result);
  for (const l of lines) console.log(l);
  return result.violations.length === 0 ? 0 : 1;
}

const direct = (() => {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(resolve(process.argv[1])) === realpathSync(scriptPath());
  } catch {
    return false;
  }
})();
if (direct) process.exitCode = main();
