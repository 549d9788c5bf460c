// At most 8192 bytes are ever read from a binary file, whether kb lists a
// topic, matches it with a glob, or is asked for it by name (NOTES 15).
//
// Two independent proofs:
// 1. in-process: every read of node:fs is counted per file (spies), while
//    the kb layer lists, globs, loads exactly, pre-loads and checks;
// 2. the compiled binary under strace (when strace is installed): every
//    read-like system call on the file's descriptors is summed, for each
//    command that touches subjects.
// Both use a binary whose only NUL byte is at offset 8000, so a prober must
// look at nearly all of its first 8192 bytes, followed by megabytes that
// must never be read.
import { describe, test, expect, afterAll, spyOn } from 'bun:test';
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { Topic } from '../../src/config/types.ts';
import { engine } from '../../src/glob/engine.ts';
import { compileWith } from '../../src/glob/pattern.ts';
import { readBody, readSubject } from '../../src/kb/fs/read.ts';
import { probeKind } from '../../src/kb/fs/probe.ts';
import { hasLearnable, hasListable, listable } from '../../src/kb/index/listing.ts';
import { loadLearned, loadPatterns as loadCompiled, type ReadAs } from '../../src/kb/index/load.ts';
import { kindOf, openTopic as openSpec } from '../../src/kb/index/view.ts';
import { BIN, fixture, run, BINARY } from './harness.ts';
import { bytesRead, STRACE } from '../support/strace.ts';

const LIMIT = 8192;
const BIG = 3 * 1024 * 1024;

/** 3 MiB of non-NUL bytes with one NUL at `at`. */
function binary(at: number): Uint8Array {
  const b = new Uint8Array(BIG);
  for (let i = 0; i < b.length; i++) b[i] = 1 + (i % 251);
  b[at] = 0;
  return b;
}

const CONFIG = '[kb.topic.docs]\nsubjects = "docs"\n';
const root = fixture(
  {
    'docs/readme.md': '# Readme\n',
    'docs/notes.txt': 'notes\n',
    'docs/assets/big.bin': binary(8000),
    'docs/assets/early.png': binary(3),
    'docs/deep/nested/blob.md': binary(8191), // a text extension does not help it
  },
  CONFIG,
);
const BINARIES = ['assets/big.bin', 'assets/early.png', 'deep/nested/blob.md'].map((p) => join(root, 'docs', p));

function topic(learned: string[] = []): Topic {
  return { id: 'docs', enable: true, subjects: 'docs', subjectsDir: join(root, 'docs'), learned, disabled: [], sources: {} };
}

/** Patterns compiled as the knowledge base compiles them. */
const compile = (patterns: readonly string[]) => compileWith(patterns, engine);

/** A view of a topic, its learned patterns compiled. */
const openTopic = (t: Topic) => openSpec(t, { learned: compile(t.learned) });

const loadPatterns = (view: ReturnType<typeof openTopic>, patterns: string[], as: ReadAs = 'text') => loadCompiled(view, compile(patterns), as);

/** Runs `fn` with every byte read through node:fs counted per path (as it
 *  happens: descriptors are reused once closed). */
function countReads(fn: () => void): Map<string, number> {
  const byFd = new Map<number, string>();
  const bytes = new Map<string, number>();
  const add = (path: string | undefined, n: number) => {
    if (path !== undefined) bytes.set(path, (bytes.get(path) ?? 0) + n);
  };
  const real = { openSync: fs.openSync, readSync: fs.readSync, readFileSync: fs.readFileSync, readvSync: fs.readvSync, closeSync: fs.closeSync };
  const spies = [
    spyOn(fs, 'openSync').mockImplementation(((...args: Parameters<typeof fs.openSync>) => {
      const fd = real.openSync(...args);
      byFd.set(fd, String(args[0]));
      return fd;
    }) as typeof fs.openSync),
    spyOn(fs, 'closeSync').mockImplementation(((fd: number) => {
      byFd.delete(fd);
      return real.closeSync(fd);
    }) as typeof fs.closeSync),
    spyOn(fs, 'readSync').mockImplementation(((fd: number, ...rest: unknown[]) => {
      const n = (real.readSync as (...a: unknown[]) => number)(fd, ...rest);
      add(byFd.get(fd), n);
      return n;
    }) as typeof fs.readSync),
    spyOn(fs, 'readvSync').mockImplementation(((fd: number, ...rest: unknown[]) => {
      const n = (real.readvSync as (...a: unknown[]) => number)(fd, ...rest);
      add(byFd.get(fd), n);
      return n;
    }) as typeof fs.readvSync),
    spyOn(fs, 'readFileSync').mockImplementation(((file: unknown, ...rest: unknown[]) => {
      const data = (real.readFileSync as (...a: unknown[]) => { length: number })(file, ...rest);
      add(typeof file === 'number' ? byFd.get(file) : String(file), data.length);
      return data;
    }) as typeof fs.readFileSync),
    // A stream reads as much as it likes: any use on a binary counts as whole.
    spyOn(fs, 'createReadStream').mockImplementation(((path: unknown) => {
      add(String(path), BIG);
      throw new Error('createReadStream is not expected on this path');
    }) as typeof fs.createReadStream),
  ];
  try {
    fn();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return bytes;
}

function expectAtMostLimit(bytes: Map<string, number>): void {
  for (const p of BINARIES) expect({ path: p, bytes: bytes.get(p) ?? 0 }).toEqual({ path: p, bytes: Math.min(bytes.get(p) ?? 0, LIMIT) });
}

describe('in-process: at most 8192 bytes are read from a binary file', () => {
  test('the counter sees reads (a text file is read whole)', () => {
    const text = join(root, 'docs', 'readme.md');
    const bytes = countReads(() => readSubject(text));
    expect(bytes.get(text)).toBe(9);
    // ...and a whole-file read of a binary would be seen.
    const seen = countReads(() => fs.readFileSync(BINARIES[0]));
    expect(seen.get(BINARIES[0])).toBe(BIG);
  });

  test('probing reads exactly the first 8192 bytes', () => {
    const bytes = countReads(() => {
      for (const p of BINARIES) expect(probeKind(p)).toBe('binary');
    });
    for (const p of BINARIES) expect(bytes.get(p)).toBe(LIMIT);
  });

  // Each operation below is what one kb command does; each is counted on its own.
  const operations: [string, () => void][] = [
    ['list: learn without subjects', () => expect(listable(openTopic(topic())).map((s) => s.slug)).toEqual(['notes', 'readme'])],
    ['list: kb list (probes every subject)', () => {
      const view = openTopic(topic());
      for (const s of view.index.subjects) kindOf(view, s);
    }],
    ['list: kb prompt (hasListable)', () => expect(hasListable(openTopic(topic(['notes', 'readme'])))).toBe(false)],
    ['list: kb schema (hasLearnable)', () => expect(hasLearnable(openTopic(topic(['notes', 'readme'])))).toBe(false)],
    ['glob: learn **', () => {
      const items = [...loadPatterns(openTopic(topic()), ['**'])];
      expect(items.filter((i) => i.kind === 'subject').map((i) => (i as { slug: string }).slug)).toEqual(['notes', 'readme']);
    }],
    ['glob: learn assets/* deep/**', () => {
      expect([...loadPatterns(openTopic(topic()), ['assets/*', 'deep/**'])].map((i) => i.kind)).toEqual(['no-match', 'no-match']);
    }],
    ['glob: learned **', () => void [...loadLearned(openTopic(topic(['**'])))]],
    ['exact: learn assets/big assets/early deep/nested/blob', () => {
      const items = [...loadPatterns(openTopic(topic()), ['assets/big', 'assets/early', 'deep/nested/blob'])];
      expect(items.map((i) => i.kind)).toEqual(['binary', 'binary', 'binary']);
    }],
    ['exact: learned assets/big', () => void [...loadLearned(openTopic(topic(['assets/big'])))]],
    ['exact: readSubject (kb check)', () => {
      for (const p of BINARIES) expect(readSubject(p).kind).toBe('binary');
    }],
    ['exact: readBody as bytes (kb learn streaming)', () => {
      for (const p of BINARIES) expect(readBody(p, 'bytes').kind).toBe('binary');
    }],
    ['glob: learn ** as bytes (kb learn streaming)', () => {
      const items = [...loadPatterns(openTopic(topic()), ['**'], 'bytes')];
      expect(items.filter((i) => i.kind === 'subject').map((i) => (i as { slug: string }).slug)).toEqual(['notes', 'readme']);
    }],
    ['exact: learn assets/big assets/early deep/nested/blob as bytes', () => {
      const items = [...loadPatterns(openTopic(topic()), ['assets/big', 'assets/early', 'deep/nested/blob'], 'bytes')];
      expect(items.map((i) => i.kind)).toEqual(['binary', 'binary', 'binary']);
    }],
  ];
  for (const [name, op] of operations) {
    test(name, () => {
      const bytes = countReads(op);
      expectAtMostLimit(bytes);
      expect(BINARIES.some((p) => (bytes.get(p) ?? 0) > 0)).toBe(true); // the binaries were looked at
    });
  }
});

const strace = STRACE;
if (!strace) console.warn('skipping the strace half of the 8192-byte proof: strace is not installed');

/** Bytes the compiled kb read from each of `files` (the binaries). */
function straced(args: string[], files: readonly string[] = BINARIES): Map<string, number> {
  return bytesRead([BIN, ...args], root, { PATH: process.env.PATH ?? '', HOME: root, XDG_CONFIG_HOME: join(root, '.xdg'), JP_GLOBAL_CONFIG_DIR: join(root, '.global') }, files, root);
}

describe.skipIf(!strace || process.platform !== 'linux')('dist/kb under strace: at most 8192 bytes from a binary file', () => {
  const cases: [string, string[]][] = [
    ['list: kb learn docs', ['learn', 'docs']],
    ['list: kb list', ['list']],
    ['list: kb schema', ['schema']],
    ['list: kb prompt', ['prompt']],
    ['glob: kb learn docs **', ['learn', 'docs', '**']],
    ['glob: kb learn docs assets/*', ['learn', 'docs', 'assets/*']],
    ['exact: kb learn docs assets/big', ['learn', 'docs', 'assets/big']],
    ['exact: kb learn docs assets/big deep/nested/blob readme', ['learn', 'docs', 'assets/big', 'deep/nested/blob', 'readme']],
    ['exact: kb -k docs/assets/big prompt', ['-k', 'docs/assets/big', 'prompt']],
    ['glob: kb -k docs/** prompt', ['-k', 'docs/**', 'prompt']],
    ['check: kb check', ['check']],
  ];
  for (const [name, args] of cases) {
    test(name, () => {
      expect(run(BINARY, root, args).err).not.toContain('error:');
      const bytes = straced(args);
      for (const p of BINARIES) expect({ path: p, bytes: bytes.get(p) ?? 0 }).toEqual({ path: p, bytes: Math.min(bytes.get(p) ?? 0, LIMIT) });
    });
  }

  test('the strace count sees reads of a file (a text subject is read whole)', () => {
    // Counted as the binaries are, by the same system calls: a subject
    // shorter than 8192 bytes is read at a position (pread64).
    const text = join(root, 'docs', 'readme.md');
    expect(straced(['learn', 'docs', 'readme'], [text]).get(text)).toBe(9);
  });
});

afterAll(() => {});
