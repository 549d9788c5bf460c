// Files that vanish or change while kb works. Deterministically first: the
// tree changes between the walk and the reads (in-process, every kind of
// change), and during the walk itself (node:fs spied on, the change made
// right before the call that would see it). Then for real: dist/kb runs
// again and again while another process churns the topic directory.
import { afterAll, describe, expect, spyOn, test } from 'bun:test';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { Topic } from '../../src/config/types.ts';
import { engine } from '../../src/glob/engine.ts';
import { compileWith } from '../../src/glob/pattern.ts';
import { formattedText } from '../../src/kb/content/format.ts';
import { MAX_SUBJECT_BYTES } from '../../src/kb/fs/read.ts';
import { loadPatterns, type LoadItem } from '../../src/kb/index/load.ts';
import { openTopic } from '../../src/kb/index/view.ts';
import { walk } from '../../src/kb/fs/walk.ts';
import { cleanup, expectNoCrash, kbMeasured, tempDir, workspace } from './helpers.ts';

afterAll(cleanup);

const { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } = fs;

function topic(dir: string): Topic {
  return { id: 't', enable: true, subjects: 't', subjectsDir: dir, learned: [], disabled: [], sources: {} };
}

function show(items: Iterable<LoadItem>): string[] {
  return [...items].map((i) => {
    switch (i.kind) {
      case 'subject':
        return `subject ${i.slug}: ${JSON.stringify(formattedText(i.content))}`;
      case 'unreadable':
        return `unreadable ${i.slug}: ${i.message}`;
      case 'no-match':
      case 'invalid-pattern':
        return `${i.kind} ${i.pattern}`;
      default:
        return `${i.kind} ${i.slug}`;
    }
  });
}

describe('the tree changes between the walk and the reads', () => {
  test('every kind of change is a note; the other subjects are intact', () => {
    const dir = tempDir();
    const names = ['a-ok', 'b-gone', 'c-dir', 'd-fifo', 'e-zero', 'f-empty', 'g-binary', 'h-grown', 'i-loop'];
    for (const n of names) writeFileSync(join(dir, `${n}.md`), `${n}\n`);
    const view = openTopic(topic(dir));
    expect(view.index.subjects.map((s) => s.slug)).toEqual(names);

    unlinkSync(join(dir, 'b-gone.md'));
    unlinkSync(join(dir, 'c-dir.md'));
    mkdirSync(join(dir, 'c-dir.md'));
    unlinkSync(join(dir, 'd-fifo.md'));
    execFileSync('mkfifo', [join(dir, 'd-fifo.md')]);
    unlinkSync(join(dir, 'e-zero.md'));
    symlinkSync('/dev/zero', join(dir, 'e-zero.md'));
    writeFileSync(join(dir, 'f-empty.md'), '');
    writeFileSync(join(dir, 'g-binary.md'), new Uint8Array([1, 0, 2]));
    writeFileSync(join(dir, 'h-grown.md'), new Uint8Array(MAX_SUBJECT_BYTES + 1).fill(0x61));
    unlinkSync(join(dir, 'i-loop.md'));
    symlinkSync('i-loop.md', join(dir, 'i-loop.md'));

    expect(show(loadPatterns(view, compileWith(['*', 'g-binary'], engine), 'text'))).toEqual([
      'subject a-ok: "a-ok\\n"',
      'subject f-empty: ""',
      'binary g-binary',
      'unreadable b-gone: no such file or directory',
      'unreadable c-dir: is a directory',
      'unreadable d-fifo: not a regular file',
      'unreadable e-zero: not a regular file',
      'unreadable h-grown: the file is 16 MiB; subjects larger than 16 MiB are not loaded',
      'unreadable i-loop: too many levels of symbolic links',
    ]);
  });

  test('a file that grows past the limit while it is read stops the read there', async () => {
    const { readSubject } = await import('../../src/kb/fs/read.ts');
    const dir = tempDir();
    const p = join(dir, 'log.md');
    writeFileSync(p, 'x'.repeat(10_000));
    // The file is 10 kB when stat'ed; it grows by 1 MB on every read call.
    const realRead = fs.readSync;
    const spy = spyOn(fs, 'readSync').mockImplementation(((fd: number, buf: Uint8Array, off: number, len: number, pos: null) => {
      fs.appendFileSync(p, 'y'.repeat(1 << 20));
      return realRead(fd, buf, off, len, pos);
    }) as typeof fs.readSync);
    try {
      expect(readSubject(p, 4 << 20)).toEqual({ kind: 'error', message: 'the file is more than 4.0 MiB; subjects larger than 4.0 MiB are not loaded' });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the tree changes during the walk', () => {
  /** Runs `walk` with `before(path)` called right before each readdir and
   *  stat of a path, to change the tree at the worst moment. */
  function walkWith(dir: string, before: (call: string, path: string) => void) {
    const realReaddir = fs.readdirSync;
    const realStat = fs.statSync;
    const a = spyOn(fs, 'readdirSync').mockImplementation(((p: string, o: unknown) => {
      before('readdir', String(p));
      return realReaddir(p, o as never);
    }) as typeof fs.readdirSync);
    const b = spyOn(fs, 'statSync').mockImplementation(((p: string, o: unknown) => {
      before('stat', String(p));
      return realStat(p, o as never);
    }) as typeof fs.statSync);
    try {
      return walk(dir);
    } finally {
      a.mockRestore();
      b.mockRestore();
    }
  }

  test('a directory removed after it was listed: a notice, the rest walked', () => {
    const dir = tempDir();
    for (const f of ['a/x.md', 'b/y.md', 'c/z.md']) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), f);
    }
    const got = walkWith(dir, (call, p) => {
      if (call === 'readdir' && p.endsWith('/b')) rmSync(p, { recursive: true });
    });
    expect(got.files.map((f) => f.path)).toEqual(['a/x.md', 'c/z.md']);
    expect(got.notices.map((n) => `${n.code}: ${n.message}`)).toEqual(['vanished: directory vanished while walking: b']);
  });

  test('a directory replaced by a file after it was listed', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b/y.md'), 'y');
    writeFileSync(join(dir, 'a.md'), 'a');
    const got = walkWith(dir, (call, p) => {
      if (call === 'readdir' && p.endsWith('/b')) {
        rmSync(p, { recursive: true });
        writeFileSync(p, 'now a file');
      }
    });
    expect(got.files.map((f) => f.path)).toEqual(['a.md']);
    expect(got.notices.map((n) => n.code)).toEqual(['vanished']);
  });

  test('a symlink whose target vanishes between the listing and the stat', () => {
    const dir = tempDir();
    const shared = tempDir();
    writeFileSync(join(shared, 'target.md'), 't');
    symlinkSync(join(shared, 'target.md'), join(dir, 'link.md'));
    writeFileSync(join(dir, 'z.md'), 'z');
    const got = walkWith(dir, (call, p) => {
      if (call === 'stat' && p.endsWith('/link.md')) rmSync(join(shared, 'target.md'), { force: true });
    });
    expect(got.files.map((f) => f.path)).toEqual(['z.md']);
    expect(got.notices.map((n) => n.message)).toEqual([`dangling symbolic link skipped: link.md -> ${join(shared, 'target.md')}`]);
  });

  test('the subjects directory itself vanishes', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.md'), 'a');
    const got = walkWith(dir, (call, p) => {
      if (call === 'readdir' && p === dir) rmSync(dir, { recursive: true });
    });
    expect(got.files).toEqual([]);
    expect(got.notices.map((n) => n.code)).toEqual(['vanished']);
  });
});

describe('dist/kb while another process churns the topic', () => {
  test('never crashes; stderr holds only warnings; stdout stays well-formed', async () => {
    const root = workspace({ 't/ok.md': 'OK\n', 't/keep/deep.md': 'DEEP\n' });
    const churner = spawn(process.execPath, [join(import.meta.dir, 'churn.ts'), join(root, 't'), '30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 200));
      const commands = [['learn', 't', '**'], ['learn', 't'], ['prompt', '-k', 't/**'], ['check'], ['list'], ['schema']];
      const deadline = performance.now() + 6000;
      let runs = 0;
      let noticed = 0; // runs that reported something the churn did
      while (performance.now() < deadline) {
        for (const args of commands) {
          const r = kbMeasured(root, args, { timeoutMs: 20_000 });
          runs++;
          expectNoCrash(r);
          for (const line of r.err.split('\n').filter(Boolean)) expect(line).toStartWith('warning: ');
          if (r.err !== '' || /^warning: /m.test(r.out) || /Could not read|^ {2}! /m.test(r.out)) noticed++;
          if (args[0] === 'learn' && args.length === 3) {
            expect(r.code).toBe(0);
            expect(r.out).toContain('<subject "ok">\nOK\n</subject>');
            expect(r.out).toContain('<subject "keep/deep">\nDEEP\n</subject>');
            expect(r.out.match(/<subject "/g)?.length).toBe(r.out.match(/\n<\/subject>/g)?.length);
            expect(r.out).toEndWith('\n');
          } else if (args[0] === 'check') {
            expect(r.out).toMatch(/^(ok|failed): 1 topic, \d+ subjects?, /m);
          } else {
            expect(r.code).toBe(0);
          }
        }
      }
      expect(runs).toBeGreaterThan(12);
      // The churn was real: some runs had something to report.
      expect(noticed).toBeGreaterThan(0);
    } finally {
      const exited = new Promise((r) => churner.once('exit', r));
      churner.kill();
      await exited; // before the directory is removed
    }
  }, 60_000);
});
