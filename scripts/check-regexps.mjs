// The ReDoS check: every regular expression in src/ (each literal, and each
// `RegExp(...)` whose pattern is a constant) is read by eslint-plugin-regexp's
// `no-super-linear-backtracking` and `no-super-linear-move`, and one that
// either flags must be rewritten. `npm run test:unit` runs it
// (tests/unit/regexps.test.ts); `node scripts/check-regexps.mjs` prints what
// it finds.
//
// Why these two rules: they are a static analysis (scslre, on the pattern's
// automaton): no fuzzing, no time-out, the same answer on every machine and
// every run, in pure JavaScript that `npm ci` installs; and
// `no-super-linear-move` finds what made kb slow, a pattern that fails
// slowly from every place of a text that the search then tries again
// (`<[^>]*>` on `<<<<`), not only backtracking within one attempt.
//
// The analysis cannot read a back-reference (`\1`): a pattern holding one
// is a problem as well.
//
// A flagged pattern kb keeps is listed in BOUNDED (its file and its text),
// and a comment above it in src/ says why its input is bounded (it starts
// `bounded:`).
//
// A `RegExp(...)` whose pattern is not a constant of its own module is
// listed in DYNAMIC below, by its file and its text: either the patterns it
// makes are checked as well (`sources`), or a comment above it in src/ says
// why its input is bounded (`bounded`, and the comment starts `bounded:`).
// A new one that is not listed fails the check, and so does a listed one
// that is gone.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acorn from 'acorn';
import { tsPlugin } from '@sveltejs/acorn-typescript';
import { getStaticValue } from '@eslint-community/eslint-utils';
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import { Linter } from 'eslint';
import regexp from 'eslint-plugin-regexp';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The two rules, at their strictest: potential reports too, sticky and
 *  partial patterns not let off. */
export const RULES = {
  'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
  'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
};

/**
 * `RegExp(...)` calls whose pattern is not a constant of their module.
 * `sources(imports)` returns the RegExp objects they make (the test imports
 * the modules); `bounded` says why no input can make them slow.
 */
export const DYNAMIC = [
  { file: 'src/glob/nfa.ts', call: 'new RegExp(`^(?:${atom})$`)', bounded: 'tested on one character at a time' },
  { file: 'src/glob/pattern.ts', call: 'new RegExp(source)', bounded: 'run only on globs that backtrack linearly' },
  {
    file: 'src/kb/fs/walk-cache.ts',
    call: 'new RegExp(`(?:^|/)(?:${literals([...IGNORE_FILES, LOCK_NAME])})(?:/|$)`)',
    sources: async () => [(await import('../src/kb/fs/walk-cache.ts')).KB_OWN()],
  },
  {
    file: 'src/kb/search/snippet.ts',
    call: "new RegExp(map(long, (t) => [...t].map((c) => c.replace(/[.*+?^${}()|[\\]\\\\/]/g, '\\\\$&')).join('[-_]?')).join('|'), 'g')",
    sources: async () => {
      const { joinedFinder } = await import('../src/kb/search/snippet.ts');
      return [joinedFinder(['single', 'page', 'servernam', 'v3.12', 'a.b.c']), joinedFinder(['abcdefghijklmnopqrstuvwxyz012345'])];
    },
  },
  { file: 'src/kb/search/snippet.ts', call: "new RegExp(map(minimal ?? [], (t) => (inLower ? t.replace(/[.*+?^${}()|[\\]\\\\/]/g, '\\\\$&') : anyCase(t))).join('|') || '[^\\\\s\\\\S]', 'g')", bounded: 'literal needles of a query' },
  ...[
    ['src/app/init-draft.ts', "new RegExp(CONTROL.source, 'g')", (C) => new RegExp(C.source, 'g')],
    ['src/kb/search/snippet.ts', "new RegExp(CONTROL.source, 'g')", (C) => new RegExp(C.source, 'g')],
    ['src/kb/search/trust.ts', "new RegExp(CONTROL.source.replace('\\\\u0000-\\\\u001f', '\\\\u0000-\\\\u0009\\\\u000b-\\\\u001f'))", (C) => new RegExp(C.source.replace('\\u0000-\\u001f', '\\u0000-\\u0009\\u000b-\\u001f'))],
    ['src/render/listing.ts', 'new RegExp(`\\\\s\\\\s|[^\\\\S ]|^\\\\s|\\\\s$|\\\\u0085|${CONTROL.source}`)', (C) => new RegExp(`\\s\\s|[^\\S ]|^\\s|\\s$|\\u0085|${C.source}`)],
    [
      'src/shared/controls.ts',
      "new RegExp(`[${CLASS.replace('\\\\u0000-\\\\u001f', '\\\\u0000-\\\\u0008\\\\u000b\\\\u000c\\\\u000e-\\\\u001f')}]|\\\\r(?!\\\\n)`)",
      (C) => new RegExp(`[${C.source.slice(1, -1).replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f')}]|\\r(?!\\n)`),
    ],
    [
      'src/shared/controls.ts',
      "new RegExp(IN_TEXT().source, 'g')",
      (C) => new RegExp(`[${C.source.slice(1, -1).replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f')}]|\\r(?!\\n)`, 'g'),
    ],
  ].map(([file, call, make]) => ({ file, call, sources: async () => [make((await import('../src/shared/controls.ts')).CONTROL)] })),
];

/** Flagged patterns kept, each with a comment in src/ saying why its input
 *  is bounded: `{ file, text, why }`, `text` as written (`/a+$/g`). */
export const BOUNDED = [];

/** TypeScript, parsed by acorn with the TypeScript plugin, for ESLint. */
const TS = acorn.Parser.extend(tsPlugin());
const parser = {
  meta: { name: 'acorn-typescript' },
  parseForESLint(code) {
    const comments = [];
    const ast = TS.parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      locations: true,
      ranges: true,
      onComment: (block, value, start, end, loc, endLoc) => comments.push({ type: block ? 'Block' : 'Line', value, range: [start, end], loc: { start: loc, end: endLoc } }),
    });
    ast.tokens = [];
    ast.comments = comments;
    return { ast };
  },
};

/** A rule that hands every regular expression of a file to `found`: a
 *  literal, a `RegExp(...)` with a constant pattern (`static`), or one
 *  without (`dynamic`, with its text). */
function collector(found) {
  return {
    create(context) {
      const src = context.sourceCode;
      const call = (node) => {
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'RegExp') return;
        const scope = src.getScope(node);
        const [p, f] = node.arguments;
        const pattern = p === undefined ? { value: '' } : getStaticValue(p, scope);
        const flags = f === undefined ? { value: '' } : getStaticValue(f, scope);
        const line = node.loc.start.line;
        if (pattern !== null && flags !== null && (typeof pattern.value === 'string' || pattern.value instanceof RegExp)) {
          const re = new RegExp(pattern.value, flags.value);
          found.push({ kind: 'static', line, text: src.getText(node), pattern: re.source, flags: re.flags });
        } else found.push({ kind: 'dynamic', line, text: src.getText(node).replace(/\s+/g, ' ') });
      };
      return {
        Literal(node) {
          if (node.regex) found.push({ kind: 'literal', line: node.loc.start.line, text: node.raw, pattern: node.regex.pattern, flags: node.regex.flags });
        },
        NewExpression: call,
        CallExpression: call,
      };
    },
  };
}

/** The regular expressions of one TypeScript text. */
export function regexpsOf(code, filename = 'x.ts') {
  const found = [];
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser }, plugins: { kb: { rules: { collect: collector(found) } } }, rules: { 'kb/collect': 'error' } }],
    { filename },
  );
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filename}:${fatal.line}: ${fatal.message}`);
  return found;
}

/** What the two rules say of each pattern (`/source/flags`): per pattern,
 *  its messages (none: linear). */
export function judge(patterns) {
  if (patterns.length === 0) return [];
  // Each pattern as what it is: a whole expression, used to search a text
  // (the rules then judge it as run, not as a fragment of a larger one; a
  // pattern built from another's source is checked as built).
  const code = patterns.map((p) => `text.search(/${p.pattern}/${p.flags});`).join('\n');
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [{ files: ['**/*.js'], plugins: { regexp }, rules: RULES }], { filename: 'patterns.js' });
  const out = patterns.map((p) => (hasBackreference(p) ? ['back-reference: the analysis cannot read a pattern that holds one'] : []));
  for (const m of messages) {
    if (m.fatal) throw new Error(`a pattern does not parse: ${m.message} (${patterns[m.line - 1]?.text})`);
    out[m.line - 1].push(`${m.ruleId.replace('regexp/', '')}: ${m.message}`);
  }
  return out;
}

/** Whether `/pattern/flags` holds a back-reference. */
function hasBackreference({ pattern, flags }) {
  let found = false;
  const ast = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(pattern, 0, pattern.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
  visitRegExpAST(ast, { onBackreferenceEnter: () => (found = true) });
  return found;
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

/** Whether a comment starting `bounded:` is on one of the five lines above
 *  `line` (1-based) of `code`, or on it. */
export function hasBoundedComment(code, line) {
  const lines = code.split('\n');
  for (let i = Math.max(0, line - 6); i < line; i++) if (/\/\/\s*bounded:|\*\s*bounded:/.test(lines[i])) return true;
  return false;
}

/**
 * Checks `files` (relative to the repository): every problem as a line
 * `file:line: text: why`, and how many regular expressions were checked.
 */
export async function check(files = sourceFiles(), dynamic = DYNAMIC, bounded = BOUNDED) {
  return checkTexts(
    files.map((file) => ({ file, code: readFileSync(join(REPO, file), 'utf8') })),
    dynamic,
    bounded,
  );
}

/** `check` on texts given (`file` names them). */
export async function checkTexts(texts, dynamic = DYNAMIC, bounded = BOUNDED) {
  const problems = [];
  const patterns = [];
  const used = new Set();
  for (const { file, code } of texts) {
    for (const r of regexpsOf(code, file)) {
      if (r.kind !== 'dynamic') {
        patterns.push({ ...r, file });
        continue;
      }
      const entry = dynamic.find((d) => d.file === file && d.call === r.text);
      if (entry === undefined) {
        problems.push(`${file}:${r.line}: ${r.text}: a RegExp made from what is not a constant of this module; list it in DYNAMIC (scripts/check-regexps.mjs)`);
        continue;
      }
      used.add(entry);
      if (entry.bounded !== undefined) {
        if (!hasBoundedComment(code, r.line)) problems.push(`${file}:${r.line}: ${r.text}: listed as bounded, but no \`bounded:\` comment above it says why`);
      } else {
        for (const re of await entry.sources()) patterns.push({ kind: 'made', line: r.line, text: `${r.text} = /${re.source}/${re.flags}`, pattern: re.source, flags: re.flags, file });
      }
    }
  }
  const names = new Set(texts.map((t) => t.file));
  for (const d of dynamic) if (!used.has(d) && names.has(d.file)) problems.push(`${d.file}: ${d.call}: listed in DYNAMIC, but not found`);
  const verdicts = judge(patterns);
  const codeOf = new Map(texts.map((t) => [t.file, t.code]));
  const kept = new Set();
  patterns.forEach((p, i) => {
    if (verdicts[i].length === 0) return;
    const entry = bounded.find((b) => b.file === p.file && b.text === p.text);
    if (entry !== undefined && hasBoundedComment(codeOf.get(p.file), p.line)) {
      kept.add(entry);
      return;
    }
    for (const why of verdicts[i]) problems.push(`${p.file}:${p.line}: ${p.text}: ${why}${entry === undefined ? '' : ' (listed in BOUNDED, but no `bounded:` comment above it says why)'}`);
  });
  for (const b of bounded) if (!kept.has(b) && names.has(b.file) && !problems.some((q) => q.startsWith(`${b.file}:`) && q.includes(b.text))) problems.push(`${b.file}: ${b.text}: listed in BOUNDED, but no such flagged pattern`);
  return { problems, checked: patterns.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, checked } = await check();
  for (const p of problems) console.log(p);
  console.log(`${checked} regular expressions checked, ${problems.length} problems`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
