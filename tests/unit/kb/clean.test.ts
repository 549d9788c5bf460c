// Cleaning a topic's index (kb/index/clean.ts): what no listing, tag or
// pattern could show faithfully is left out, with a notice.

import { describe, test, expect } from 'bun:test';
import { MAX_PATTERN_LENGTH } from '../../../src/glob/index.ts';
import { notice } from '../../../src/kb/fs/walk.ts';
import { cleanIndex } from '../../../src/kb/index/clean.ts';
import type { Subject, SubjectIndex } from '../../../src/kb/index/types.ts';

function subject(path: string, size = 1): Subject {
  const slug = path.replace(/\.[^./]*$/, '');
  return { path, abs: `/t/${path}`, slug, hidden: false, ext: 'md', size };
}

function index(subjects: Subject[], notices = [notice('dangling-link', 'x', 'dangling symbolic link skipped: x -> y')]): SubjectIndex {
  return { dir: '/t', subjects, notices, ignored: [], aliases: new Map(), links: [] };
}

describe('cleanIndex', () => {
  test('a clean index keeps its subjects (the same array) and notices', () => {
    const subjects = [subject('a.md'), subject('b/c.md')];
    const out = cleanIndex(index(subjects));
    expect(out.subjects).toBe(subjects);
    expect(out.notices.map((n) => n.code)).toEqual(['dangling-link']);
  });

  test('a path holding a control character is left out, with an escaped notice', () => {
    const out = cleanIndex(index([subject('a.md'), subject('bad\nname.md')], []));
    expect(out.subjects.map((s) => s.slug)).toEqual(['a']);
    expect(out.notices).toHaveLength(1);
    expect(out.notices[0].code).toBe('control-character');
    expect(out.notices[0].where).not.toContain('\n');
    expect(out.notices[0].message).not.toContain('\n');
    expect(out.notices[0].message).toContain('skipped');
  });

  test('a name that is not UTF-8 (U+FFFD, cannot be stat\'ed) is left out; U+FFFD in a real name stays', () => {
    const out = cleanIndex(index([subject('ok\uFFFD.md', 12), subject('gone\uFFFD.md', -1)], []));
    expect(out.subjects.map((s) => s.path)).toEqual(['ok\uFFFD.md']);
    expect(out.notices.map((n) => `${n.code}:${n.where}`)).toEqual(['unreadable:gone\uFFFD.md']);
    expect(out.notices[0].message).toBe('file name is not valid UTF-8, skipped: gone\uFFFD.md');
  });

  test('among many clean names, the one holding a control character is found wherever it is', () => {
    for (const at of [0, 500, 999]) {
      const subjects = Array.from({ length: 1000 }, (_, i) => subject(i === at ? `n${i}\u202e.md` : `d${i % 7}/n${i}.md`));
      const out = cleanIndex(index(subjects, []));
      expect(out.subjects).toHaveLength(999);
      expect(out.notices.map((n) => n.code)).toEqual(['control-character']);
    }
  });

  test('U+FFFD in real names only: the index keeps its subjects (the same array)', () => {
    const subjects = [subject('a.md'), subject('ok\uFFFD.md', 12), subject('z.md')];
    expect(cleanIndex(index(subjects, [])).subjects).toBe(subjects);
  });

  test('an index whose walk read plain names only is not searched for control characters; a long slug is still left out', () => {
    const subjects = [subject('a.md'), subject('bad\nname.md')];
    expect(cleanIndex({ ...index(subjects, []), plainNames: true }).subjects).toBe(subjects);
    const long = 'y'.repeat(MAX_PATTERN_LENGTH + 1);
    expect(cleanIndex({ ...index([subject('a.md'), subject(`${long}.md`)], []), plainNames: true }).subjects.map((s) => s.slug)).toEqual(['a']);
  });

  test('a long slug after many short ones is left out', () => {
    const long = 'y'.repeat(MAX_PATTERN_LENGTH + 1);
    const subjects = Array.from({ length: 500 }, (_, i) => subject(`n${i}.md`));
    subjects.push(subject(`${long}.md`));
    const out = cleanIndex(index(subjects, []));
    expect(out.subjects).toHaveLength(500);
    expect(out.notices.map((n) => n.code)).toEqual(['long-slug']);
  });

  test('a slug longer than a pattern may be is left out', () => {
    const long = 'x'.repeat(MAX_PATTERN_LENGTH + 1);
    const out = cleanIndex(index([subject(`${long}.md`), subject('y.md')], []));
    expect(out.subjects.map((s) => s.slug)).toEqual(['y']);
    expect(out.notices[0].code).toBe('long-slug');
    expect(out.notices[0].message).toStartWith(`slug longer than ${MAX_PATTERN_LENGTH} characters (${MAX_PATTERN_LENGTH + 1}), skipped`);
  });

  test('a notice holding a control character is made printable on one line', () => {
    const out = cleanIndex(index([], [notice('dangling-link', 'a\nb', 'dangling symbolic link skipped: a\nb -> c')]));
    expect(out.notices[0].where).not.toContain('\n');
    expect(out.notices[0].message).not.toContain('\n');
    expect(out.notices[0].code).toBe('dangling-link');
  });
});
