// scripts/check-layers.mjs: the architecture rules of src/, each checked on a
// small fake tree, and the scanner that finds the imports.

import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { analyse, extractImports, report } from '../../scripts/check-layers.mjs';

const REPO = join(import.meta.dir, '../..');
const SCRIPT = join(REPO, 'scripts/check-layers.mjs');

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Writes `files` (path relative to the root -> content) under a fresh temp dir. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-layers-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** The violation lines of a tree. */
function violations(files: Record<string, string>): string[] {
  return analyse(tree(files)).violations.map((v) => v.text);
}

/** A clean tree in the target layout, with the allow-listed exceptions. */
const CLEAN: Record<string, string> = {
  'src/cli.ts': [
    "import { run } from './cli/main.ts';",
    "const load = async () => (await import('./cli/commands/prompt.ts')).default;",
    "const serve = async () => (await import('./mcp/server.ts')).serve;",
    "const worker = new URL('./reader-thread.ts', import.meta.url).href;",
    'run(load, serve, worker);',
  ].join('\n'),
  'src/reader-thread.ts': "import './kb/fs/probe-worker.ts';\n",
  'src/cli/main.ts': [
    "import { defineCommand } from 'citty';",
    "import type { KbConfig } from '../config/types.ts'; // allowed: type-only",
    "import { prompt } from '../app/prompt.ts';",
    "import { print } from '../shared/stdio.ts';",
    "import type { Section } from '../answer/prompt.ts';",
    'export function run(...args: unknown[]): void {}',
  ].join('\n'),
  'src/cli/commands/prompt.ts': [
    "import { prompt } from '../../app/prompt.ts';",
    "import { type Options, type Layer as L } from '../../config/types.ts'; // every name typed: type-only",
    'export default prompt;',
  ].join('\n'),
  'src/mcp/server.ts': [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import type { KbConfig } from '../config/types.ts';",
    "import { prompt } from '../app/prompt.ts';",
    'export async function serve(): Promise<void> {}',
  ].join('\n'),
  'src/app/prompt.ts': [
    "import { loadConfig } from '../config/load.ts';",
    "import { compilePatterns } from '../glob/index.ts';",
    "import { readTopic } from '../kb/fs/read.ts';",
    "import type { Section } from '../answer/prompt.ts';",
    "import { warning } from '../shared/problem.ts';",
    'export function prompt(): Section { return {}; }',
  ].join('\n'),
  'src/app/tools/learn.ts': "const run = () => import('../prompt.ts');\n",
  'src/answer/prompt.ts': "import type { Body } from '../kb/content/body.ts';\nimport type { Problem } from '../shared/problem.ts';\nexport interface Section { body?: Body; problems?: Problem[] }\n",
  'src/config/types.ts': 'export interface KbConfig {}\nexport interface Options {}\nexport interface Layer {}\n',
  'src/config/fields.ts': "import type { KbConfig } from './types.ts';\nexport const FIELDS = [];\n",
  'src/config/load.ts': [
    "import { readFileSync } from 'node:fs';",
    "import { compilePatterns } from '../glob/index.ts';",
    "import { UsageError } from '../shared/errors.ts';",
    "import { FIELDS } from './fields.ts';",
    'export function loadConfig() {}',
  ].join('\n'),
  'src/glob/index.ts': [
    "import type { GlobEngine } from './engine.ts';",
    "export { Budget } from './budget.ts';",
    "export const compilePatterns = () => import('./engine.ts');",
  ].join('\n'),
  'src/glob/engine.ts': "import picomatch from 'picomatch';\nimport { Budget } from './budget.ts';\nexport interface GlobEngine {}\n",
  'src/glob/budget.ts': 'export class Budget {}\n',
  'src/kb/fs/read.ts': "import { readFile } from 'node:fs/promises';\nimport type { Body } from '../content/body.ts';\nexport function readTopic() {}\n",
  'src/kb/content/body.ts': 'export type Body = string | Uint8Array;\n',
  'src/kb/fs/probe-worker.ts': "import { parentPort } from 'node:worker_threads';\nimport { compilePatterns } from '../../glob/index.ts';\n",
  'src/kb/index/types.ts': "import type { Problem } from '../../shared/problem.ts';\nexport interface Subject {}\n",
  'src/render/prompt.ts': [
    "import type { Subject } from '../kb/index/types.ts';",
    "import type { Section } from '../answer/prompt.ts';",
    "import { wrap } from '../shared/text.ts';",
    '// import { readFileSync } from "node:fs";   a comment, not an import',
    '/* export * from "../cli/main.ts"; */',
    "const re = /['\"`]/g; // a regular expression with quotes",
    'const n = 4 / 2 / 1;',
    'const script = `#!/bin/sh',
    "# import x from '../app/prompt.ts'",
    'echo "\\`import fs from \'node:fs\'\\`" ${`nested ${"import(\'../mcp/server.ts\')"}`}',
    '`;',
    "export function renderPrompt(): string { return wrap(script + 'import \"node:net\"'); }",
  ].join('\n'),
  'src/shared/problem.ts': 'export interface Problem {}\nexport const warning = () => {};\n',
  'src/shared/errors.ts': "import type { Problem } from './problem.ts';\nexport class UsageError extends Error {}\n",
  'src/shared/stdio.ts': "import { writeSync } from 'node:fs';\nexport function print() {}\n",
  'src/shared/text.ts': 'export function wrap(s: string): string { return s; }\n',
};

describe('check-layers: a clean tree', () => {
  test('passes, with the allow-listed exceptions and type-only config/types.ts imports', () => {
    const result = analyse(tree(CLEAN));
    expect(result.violations).toEqual([]);
    expect(result.files).toHaveLength(Object.keys(CLEAN).length);
    expect(result.files).toContain('src/cli.ts');
    expect(report(result)).toEqual([`layers: ${result.files.length} files, ${result.imports.length} imports, no violations`]);
  });

  test('the script exits 0 with one summary line', () => {
    const run = spawnSync('node', [SCRIPT, tree(CLEAN)], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/^layers: 23 files, \d+ imports, no violations\n$/);
    expect(run.status).toBe(0);
  });
});

describe('check-layers: each rule is detected', () => {
  test('rule 1: import cycles, type-only imports included, each reported once', () => {
    expect(
      violations({
        'src/shared/a.ts': "import { b } from './b.ts';\nexport const a = 1;\n",
        'src/shared/b.ts': "import type { A } from './a.ts';\nexport const b = 2;\n",
        'src/kb/index/x.ts': "import { y } from './y.ts';\n",
        'src/kb/index/y.ts': "export { z } from './z.ts';\n",
        'src/kb/index/z.ts': "const x = () => import('./x.ts');\n",
      }),
    ).toEqual([
      'layers: src/kb/index/x.ts -> src/kb/index/y.ts: rule 1: import cycle: src/kb/index/x.ts -> src/kb/index/y.ts -> src/kb/index/z.ts -> src/kb/index/x.ts',
      'layers: src/shared/a.ts -> src/shared/b.ts: rule 1: import cycle: src/shared/a.ts -> src/shared/b.ts -> src/shared/a.ts',
    ]);
  });

  test('rule 2: kb/ and glob/ import nothing from the layers above them', () => {
    expect(
      violations({
        'src/kb/index/view.ts': "import { loadConfig } from '../../config/load.ts';\n",
        'src/glob/index.ts': "import type { Row } from '../render/list.ts';\n",
        'src/config/load.ts': 'export function loadConfig() {}\n',
        'src/render/list.ts': 'export interface Row {}\n',
      }),
    ).toEqual([
      'layers: src/glob/index.ts -> src/render/list.ts: rule 2: glob/ must not import from render/',
      'layers: src/kb/index/view.ts -> src/config/load.ts: rule 2: kb/ must not import from config/',
    ]);
  });

  test('rule 3: mcp/ and cli/ do not import each other', () => {
    expect(
      violations({
        'src/mcp/server.ts': "import { print } from '../cli/output.ts';\nexport function serve() {}\n",
        'src/cli/output.ts': 'export function print() {}\n',
        'src/cli/commands/mcp.ts': "const serve = async () => (await import('../../mcp/server.ts')).serve;\n",
      }),
    ).toEqual([
      'layers: src/cli/commands/mcp.ts -> src/mcp/server.ts: rule 3: cli/ must not import from mcp/',
      'layers: src/mcp/server.ts -> src/cli/output.ts: rule 3: mcp/ must not import from cli/',
    ]);
  });

  test('rule 4: render/ does no I/O', () => {
    expect(
      violations({
        'src/render/a.ts': [
          "import { readFileSync } from 'node:fs';",
          "import { readFile } from 'fs/promises';",
          "import { execFileSync } from 'node:child_process';",
          "import type { Server } from 'node:http';",
          "import { wrap } from '../shared/text.ts';",
          "import type { Subject } from '../kb/index/types.ts';",
          "import { readTopic } from '../kb/fs/read.ts';",
          "import type { KbConfig } from '../config/types.ts';",
        ].join('\n'),
        'src/shared/text.ts': 'export function wrap() {}\n',
        'src/kb/index/types.ts': 'export interface Subject {}\n',
        'src/kb/fs/read.ts': 'export function readTopic() {}\n',
        'src/config/types.ts': 'export interface KbConfig {}\n',
      }),
    ).toEqual([
      'layers: src/render/a.ts -> fs/promises: rule 4: render/ does no I/O (imports fs/promises)',
      'layers: src/render/a.ts -> node:child_process: rule 4: render/ does no I/O (imports node:child_process)',
      'layers: src/render/a.ts -> node:fs: rule 4: render/ does no I/O (imports node:fs)',
      'layers: src/render/a.ts -> node:http: rule 4: render/ does no I/O (imports node:http)',
      'layers: src/render/a.ts -> src/config/types.ts: rule 4: render/ must not import from config/',
      'layers: src/render/a.ts -> src/kb/fs/read.ts: rule 4: render/ does no I/O (imports kb/fs/)',
    ]);
  });

  test('rule 5: cli/ and mcp/ reach kb/, glob/ and config/ only through app/, but for the allow-list', () => {
    expect(
      violations({
        'src/cli/context.ts': [
          "import { KbConfig } from '../config/types.ts'; // a value import: not allowed",
          "import { FIELDS } from '../config/fields.ts'; // a value import of config/: not allowed",
          "import { loadConfig } from '../config/load.ts';",
          "import { compilePatterns } from '../glob/index.ts';",
          "import type { TopicView } from '../kb/index/view.ts';",
        ].join('\n'),
        'src/mcp/session.ts': "import type { KbConfig } from '../config/types.ts';\nimport { FIELDS } from '../config/fields.ts';\n",
        'src/config/types.ts': 'export interface KbConfig {}\n',
        'src/config/fields.ts': 'export const FIELDS = [];\n',
        'src/config/load.ts': 'export function loadConfig() {}\n',
        'src/glob/index.ts': 'export function compilePatterns() {}\n',
        'src/kb/index/view.ts': 'export interface TopicView {}\n',
      }),
    ).toEqual([
      'layers: src/cli/context.ts -> src/config/fields.ts: rule 5: cli/ reaches config/ only through app/',
      'layers: src/cli/context.ts -> src/config/load.ts: rule 5: cli/ reaches config/ only through app/',
      'layers: src/cli/context.ts -> src/config/types.ts: rule 5: cli/ reaches config/ only through app/',
      'layers: src/cli/context.ts -> src/glob/index.ts: rule 5: cli/ reaches glob/ only through app/',
      'layers: src/cli/context.ts -> src/kb/index/view.ts: rule 5: cli/ reaches kb/ only through app/',
      'layers: src/mcp/session.ts -> src/config/fields.ts: rule 5: mcp/ reaches config/ only through app/',
    ]);
  });

  test('rule 6: glob/ is imported only through glob/index.ts', () => {
    expect(
      violations({
        'src/app/a.ts': "import { compilePatterns } from '../glob/index.ts';\nimport type { GlobEngine } from '../glob/engine.ts';\n",
        'src/cli.ts': "const engine = () => import('./glob/engine.ts');\n",
        'src/glob/index.ts': "import type { GlobEngine } from './engine.ts';\nexport function compilePatterns() {}\n",
        'src/glob/engine.ts': 'export interface GlobEngine {}\n',
      }),
    ).toEqual([
      'layers: src/app/a.ts -> src/glob/engine.ts: rule 6: glob/ is imported only through glob/index.ts',
      'layers: src/cli.ts -> src/glob/engine.ts: rule 6: glob/ is imported only through glob/index.ts',
    ]);
  });

  test('rule 7: shared/ imports nothing from any other src folder', () => {
    expect(
      violations({
        'src/shared/problem.ts': "import { slug } from '../kb/index/slug.ts';\nimport { wrap } from './text.ts';\n",
        'src/shared/text.ts': 'export function wrap() {}\n',
        'src/kb/index/slug.ts': 'export function slug() {}\n',
      }),
    ).toEqual(['layers: src/shared/problem.ts -> src/kb/index/slug.ts: rule 7: shared/ imports nothing outside shared/']);
  });

  test('rule 8: config/ imports only glob/index.ts and shared/', () => {
    expect(
      violations({
        'src/config/load.ts': [
          "import { compilePatterns } from '../glob/index.ts';",
          "import { UsageError } from '../shared/errors.ts';",
          "import { readTopic } from '../kb/fs/read.ts';",
          "import type { Knowledge } from '../app/knowledge-base.ts';",
        ].join('\n'),
        'src/glob/index.ts': 'export function compilePatterns() {}\n',
        'src/shared/errors.ts': 'export class UsageError {}\n',
        'src/kb/fs/read.ts': 'export function readTopic() {}\n',
        'src/app/knowledge-base.ts': 'export interface Knowledge {}\n',
      }),
    ).toEqual([
      'layers: src/config/load.ts -> src/app/knowledge-base.ts: rule 8: config/ must not import from app/',
      'layers: src/config/load.ts -> src/kb/fs/read.ts: rule 8: config/ must not import from kb/',
    ]);
  });

  test('rule 9: app/ imports nothing from cli/ or mcp/', () => {
    expect(
      violations({
        'src/app/learn.ts': "export { print } from '../cli/output.ts';\nimport '../mcp/session.ts';\n",
        'src/cli/output.ts': 'export function print() {}\n',
        'src/mcp/session.ts': 'export {};\n',
      }),
    ).toEqual([
      'layers: src/app/learn.ts -> src/cli/output.ts: rule 9: app/ must not import from cli/',
      'layers: src/app/learn.ts -> src/mcp/session.ts: rule 9: app/ must not import from mcp/',
    ]);
  });

  test('rule 9: app/ imports nothing from render/, the tool registry included, even lazily or for a type', () => {
    expect(
      violations({
        'src/app/check.ts': "import { renderResult } from '../render/search.ts';\nimport type { Row } from '../render/list.ts';\n",
        'src/app/tools.ts': "import { renderBadToolArguments } from '../render/tools.ts';\n",
        'src/app/tools/search.ts': "const text = () => import('../../render/search.ts');\n",
        'src/render/search.ts': 'export function renderResult() {}\n',
        'src/render/list.ts': 'export interface Row {}\n',
        'src/render/tools.ts': 'export function renderBadToolArguments() {}\n',
      }),
    ).toEqual([
      'layers: src/app/check.ts -> src/render/list.ts: rule 9: app/ must not import from render/',
      'layers: src/app/check.ts -> src/render/search.ts: rule 9: app/ must not import from render/',
      'layers: src/app/tools.ts -> src/render/tools.ts: rule 9: app/ must not import from render/',
      'layers: src/app/tools/search.ts -> src/render/search.ts: rule 9: app/ must not import from render/',
    ]);
  });

  test('rule 11: answer/ imports types only, from kb/, shared/ and answer/; nothing below it imports answer/', () => {
    expect(
      violations({
        'src/answer/learn.ts': [
          "import type { Body } from '../kb/content/body.ts';",
          "import type { Problem } from '../shared/problem.ts';",
          "import type { TopicLabel } from './topic.ts';",
          "import { quoted } from '../shared/text.ts';",
          "import type { Fit } from '../app/listing.ts';",
          "import type { Row } from '../render/list.ts';",
        ].join('\n'),
        'src/answer/topic.ts': 'export interface TopicLabel {}\n',
        'src/kb/content/body.ts': "import type { TopicLabel } from '../../answer/topic.ts';\nexport type Body = string;\n",
        'src/config/load.ts': "import type { TopicLabel } from '../answer/topic.ts';\n",
        'src/shared/problem.ts': "import type { TopicLabel } from '../answer/topic.ts';\nexport interface Problem {}\n",
        'src/shared/text.ts': 'export function quoted() {}\n',
        'src/app/listing.ts': 'export interface Fit {}\n',
        'src/render/list.ts': 'export interface Row {}\n',
      }),
    ).toEqual([
      'layers: src/answer/learn.ts -> src/app/listing.ts: rule 11: answer/ must not import from app/',
      'layers: src/answer/learn.ts -> src/render/list.ts: rule 11: answer/ must not import from render/',
      'layers: src/answer/learn.ts -> src/shared/text.ts: rule 11: answer/ imports types only',
      'layers: src/config/load.ts -> src/answer/topic.ts: rule 8: config/ must not import from answer/',
      'layers: src/kb/content/body.ts -> src/answer/topic.ts: rule 2: kb/ must not import from answer/',
      'layers: src/shared/problem.ts -> src/answer/topic.ts: rule 7: shared/ imports nothing outside shared/',
    ]);
  });

  test('rule 10: inside kb/, content/ is below fs/, which is below index/', () => {
    expect(
      violations({
        'src/kb/content/body.ts': "import { readBody } from '../fs/read.ts';\nexport type Body = string;\n",
        'src/kb/fs/read.ts': "import type { Subject } from '../index/types.ts';\nexport function readBody() {}\n",
        'src/kb/index/types.ts': "export interface Subject {}\n",
        'src/kb/index/view.ts': "import { readBody } from '../fs/read.ts';\nimport type { Body } from '../content/body.ts';\n",
      }),
    ).toEqual([
      'layers: src/kb/content/body.ts -> src/kb/fs/read.ts: rule 10: kb/content/ must not import from kb/fs/',
      'layers: src/kb/fs/read.ts -> src/kb/index/types.ts: rule 10: kb/fs/ must not import from kb/index/',
    ]);
  });

  test('a relative import of no file is reported', () => {
    expect(violations({ 'src/app/a.ts': "import { gone } from './gone.ts';\n" })).toEqual([
      'layers: src/app/a.ts -> ./gone.ts: unresolved import (no such file)',
    ]);
  });

  test('the script prints the violations and exits 1', () => {
    const root = tree({ 'src/app/a.ts': "import '../cli/b.ts';\n", 'src/cli/b.ts': '' });
    const run = spawnSync('node', [SCRIPT, root], { encoding: 'utf8' });
    expect(run.stdout).toBe('layers: src/app/a.ts -> src/cli/b.ts: rule 9: app/ must not import from cli/\n');
    expect(run.status).toBe(1);
  });
});

describe('check-layers: the import scanner', () => {
  const specs = (src: string) => extractImports(src).map((i) => [i.specifier, i.kind, i.typeOnly]);

  test('every form of import, and which are type-only', () => {
    const src = [
      "import a from './a.ts';",
      "import * as b from './b.ts';",
      "import c, { d, type D } from './c.ts';",
      'import {',
      '  e,',
      '  f as g,',
      "} from './e.ts';",
      "import type { T } from './t.ts';",
      "import { type U, type V as W } from './u.ts';",
      "import type from './type.ts';",
      "import './side.ts';",
      "export * from './star.ts';",
      "export * as ns from './ns.ts';",
      "export { x } from './x.ts';",
      "export type { Y } from './y.ts';",
      "export { z }; // no from: not an import",
      "const m = await import('./dyn.ts');",
      "const j = await import('./data.json', { with: { type: 'json' } });",
      "type M = typeof import('./typeof.ts');",
      "type N = import('./type-import.ts').Name;",
      "const p = import('./then.ts').then((m) => m);",
      "const w = new URL('./worker.ts', import.meta.url);",
      "const u = new URL('https://example.com', import.meta.url);",
      'const meta = import.meta.url;',
      "import pkg from '../package.json' with { type: 'json' };",
      "import legacy = require('./legacy.ts');",
      "const lazy = () => require('lazy-pkg');",
      "const now = require('now-pkg');",
      "const notOne = obj.require('./method.ts');",
    ].join('\n');
    expect(specs(src)).toEqual([
      ['./a.ts', 'import', false],
      ['./b.ts', 'import', false],
      ['./c.ts', 'import', false],
      ['./e.ts', 'import', false],
      ['./t.ts', 'import', true],
      ['./u.ts', 'import', true],
      ['./type.ts', 'import', false],
      ['./side.ts', 'side-effect', false],
      ['./star.ts', 'export', false],
      ['./ns.ts', 'export', false],
      ['./x.ts', 'export', false],
      ['./y.ts', 'export', true],
      ['./dyn.ts', 'dynamic', false],
      ['./data.json', 'dynamic', false],
      ['./typeof.ts', 'dynamic', true],
      ['./type-import.ts', 'dynamic', true],
      ['./then.ts', 'dynamic', false],
      ['./worker.ts', 'url', false],
      ['../package.json', 'import', false],
      ['./legacy.ts', 'require', false],
      ['lazy-pkg', 'lazy-require', false],
      ['now-pkg', 'lazy-require', false],
    ]);
  });

  test('nothing in comments, strings, template literals or regular expressions', () => {
    const src = [
      "// import a from './a.ts';",
      "/* import b from './b.ts';",
      "   export * from './c.ts'; */",
      "const s = \"import d from './d.ts'\";",
      "const t = 'export * from \"./e.ts\"';",
      'const sh = `#!/bin/sh',
      "  echo \\`import f from './f.ts'\\`",
      "  x=\\${HOME} # import('./g.ts')",
      '`;',
      "const nested = `a ${`b ${'import(\"./h.ts\")'} c`} d import './i.ts'`;",
      "const re = /import '.\\/j.ts'|[/'`]/g;",
      'const half = 1 / 2; const third = half / 3;',
      "const after = `${import('./real.ts')}`;",
      "import k from './k.ts';",
    ].join('\n');
    expect(specs(src)).toEqual([
      ['./real.ts', 'dynamic', false],
      ['./k.ts', 'import', false],
    ]);
  });

  test('line numbers count the lines of comments and templates', () => {
    const src = "/*\n\n*/\nconst t = `\n\n`;\nimport a from './a.ts';\n";
    expect(extractImports(src)).toEqual([{ specifier: './a.ts', kind: 'import', typeOnly: false, line: 7 }]);
  });
});

describe('check-layers: the repository', () => {
  test('the real src/ follows the rules', () => {
    expect(analyse(REPO).violations.map((v) => v.text)).toEqual([]);
  });
});
