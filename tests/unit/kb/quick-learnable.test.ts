// quickLearnable (kb/index/quick-learnable.ts): `true` only where the full
// view's hasLearnable says so; `undefined` leaves the answer to it.

import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { IgnoreRules } from '../../../src/kb/fs/ignore.ts';
import { probeKinds } from '../../../src/kb/fs/probe.ts';
import { MAX_WALK_ENTRIES } from '../../../src/kb/fs/walk.ts';
import { hasLearnable } from '../../../src/kb/index/listing.ts';
import { quickLearnable, RULES } from '../../../src/kb/index/quick-learnable.ts';
import { rng } from '../../support/rng.ts';
import { BIN, openTopic, topic, tree } from './view-fixture.ts';

const quick = (dir: string, learned: string[] = [], disabled: string[] = [], max = MAX_WALK_ENTRIES) => quickLearnable(topic(dir, learned, disabled), probeKinds, max, IgnoreRules);
const full = (dir: string, learned: string[] = [], disabled: string[] = [], max = MAX_WALK_ENTRIES) => hasLearnable(openTopic(topic(dir, learned, disabled), { maxEntries: max }));

describe('quickLearnable: told from the top of the folder', () => {
  test('a text file at the top', () => {
    expect(quick(tree({ 'a.md': 'A\n', 'sub/b.md': 'B\n' }))).toBe(true);
  });

  test('the SKILL.md of the first folder: a collection of skills', () => {
    expect(quick(tree({ 'alpha/SKILL.md': '---\nname: alpha\n---\nA\n', 'alpha/run.py': 'x\n', 'beta/SKILL.md': 'B\n' }))).toBe(true);
  });

  test('a folder of nothing but binary files at the top, and text below: left to the full view', () => {
    const dir = tree({ 'img.png': BIN, 'deep/a.md': 'A\n' });
    expect(quick(dir)).toBeUndefined();
    expect(full(dir)).toBe(true);
  });

  test('a file whose slug another entry can take: left to the full view', () => {
    // foo.png may win the slug "foo" (precedence.ts): not told here.
    expect(quick(tree({ 'foo.md': 'A\n', 'foo.png': BIN }))).toBeUndefined();
    // A folder "x" holding SKILL.md is the subject "x", as x.md would be.
    expect(quick(tree({ 'x.md': 'A\n', 'x/SKILL.md': 'S\n' }))).toBeUndefined();
    // ".a.md" and "a.md" both take "a".
    expect(quick(tree({ 'a.md': 'A\n', '.a.md': 'H\n' }))).toBeUndefined();
  });

  test('a disabled slug, learned patterns, a hidden file, a lockfile, kb\'s own names: left to the full view', () => {
    expect(quick(tree({ 'a.md': 'A\n' }), [], ['a'])).toBeUndefined();
    expect(quick(tree({ 'a.md': 'A\n' }), ['*'])).toBeUndefined();
    expect(quick(tree({ '.a.md': 'A\n' }))).toBeUndefined();
    expect(quick(tree({ 'yarn.lock': 'A\n' }))).toBeUndefined();
    expect(quick(tree({ '.gitignore': 'x\n' }))).toBeUndefined();
  });

  test('a folder with an ignore file asks for the rules first', () => {
    const ask = (spec: Record<string, string | Uint8Array>) => quickLearnable(topic(tree(spec)), probeKinds, MAX_WALK_ENTRIES);
    expect(ask({ '.kbignore': '*.svg\n', 'a.md': 'A\n' })).toBe(RULES);
    expect(ask({ 'alpha/.gitignore': 'x\n', 'alpha/SKILL.md': 'A\n' })).toBe(RULES);
    expect(ask({ 'a.md': 'A\n' })).toBe(true);
  });

  test("the folder's ignore file applies as in the walk", () => {
    expect(quick(tree({ '.kbignore': '*.md\n', 'a.md': 'A\n' }))).toBeUndefined();
    expect(quick(tree({ '.kbignore': '*.svg\n', 'a.md': 'A\n', 'b.svg': '<svg/>\n' }))).toBe(true);
    expect(quick(tree({ '.gitignore': '*\n!a.md\n', 'a.md': 'A\n' }))).toBe(true);
    expect(quick(tree({ '.gitignore': 'alpha/\n', 'alpha/SKILL.md': 'A\n' }))).toBeUndefined();
  });

  test('a folder the walk would not read whole, or cannot read: left to the full view', () => {
    expect(quick(tree({ 'a.md': 'A\n', 'b.md': 'B\n', 'c.md': 'C\n' }), [], [], 2)).toBeUndefined();
    expect(quick(tree({ 'alpha/SKILL.md': 'A\n', 'alpha/b.md': 'B\n' }), [], [], 2)).toBeUndefined();
    expect(quick(join(tree({ 'a.md': 'A\n' }), 'missing'))).toBeUndefined();
  });
});

describe('quickLearnable never says yes where the full view says no', () => {
  // Random topics of the shapes that decide: names that share slugs,
  // hidden names, binary files, lockfiles, ignore files, skills, disabled
  // slugs, learned patterns, a small walk limit.
  const STEMS = ['a', 'b', 'x', 'SKILL', 'alpha'];
  const EXTS = ['.md', '.txt', '.png', ''];
  const IGNORES = ['*.md\n', 'a.*\n', '*\n!b.md\n', 'alpha/\n', 'x\n', '*.png\n'];

  function randomTopic(r: () => number): { spec: Record<string, string | Uint8Array>; disabled: string[]; learned: string[]; max: number } {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
    const spec: Record<string, string | Uint8Array> = {};
    const content = () => (r() < 0.3 ? BIN : 'text\n');
    for (let n = Math.floor(r() * 4); n > 0; n--) spec[`${r() < 0.15 ? '.' : ''}${pick(STEMS)}${pick(EXTS)}`] = content();
    if (r() < 0.1) spec['package-lock.json'] = '{}\n';
    if (r() < 0.25) spec[pick(['.gitignore', '.kbignore'])] = pick(IGNORES);
    for (let n = Math.floor(r() * 3); n > 0; n--) {
      const folder = `${r() < 0.1 ? '.' : ''}${pick(STEMS)}`;
      // A file of that name is there already: no folder of it.
      if (folder in spec) continue;
      if (r() < 0.6) spec[`${folder}/SKILL.md`] = content();
      if (r() < 0.5) spec[`${folder}/${pick(STEMS)}${pick(EXTS)}`] = content();
      if (r() < 0.15) spec[`${folder}/.gitignore`] = pick(IGNORES);
    }
    if (Object.keys(spec).length === 0) spec['empty/.keep'] = '';
    const disabled = r() < 0.2 ? [pick(STEMS)] : [];
    const learned = r() < 0.1 ? [pick(['*', 'a', 'alpha'])] : [];
    const max = r() < 0.2 ? 1 + Math.floor(r() * 4) : MAX_WALK_ENTRIES;
    return { spec, disabled, learned, max };
  }

  test('on 400 random topics; both answers occur', () => {
    const r = rng(20261130);
    let yes = 0;
    let fullNo = 0;
    const wrong: string[] = [];
    for (let i = 0; i < 400; i++) {
      const t = randomTopic(r);
      const dir = tree(t.spec);
      const q = quick(dir, t.learned, t.disabled, t.max);
      const f = full(dir, t.learned, t.disabled, t.max);
      if (q === true) yes++;
      if (!f) fullNo++;
      if (q === true && !f) wrong.push(JSON.stringify({ ...t, spec: Object.keys(t.spec) }));
    }
    expect(wrong).toEqual([]);
    // Not a test of nothing: the quick answer is given often, and the full
    // view says no often enough to catch a wrong yes.
    expect(yes).toBeGreaterThan(100);
    expect(fullNo).toBeGreaterThan(40);
  });
});
