// `kb learn TOPIC` keeps what its files' heads said in the user's cache
// (kb/fs/heads.ts): the next listing stats the files instead of reading
// them, and lists exactly what it would have read; an edited file is read
// again; `--no-cache` neither reads nor writes it; a cache that cannot be
// written is a warning, never a different listing. It keeps its walk too
// (kb/fs/walk-cache.ts): a listing of folders that did not change reads
// none, and a file made or removed is walked again. On dist/kb, and the
// sources under deno.
import { describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, BINARY, DENO_RUNNER, fixture, isolatedEnv, run, type Runner } from './harness.ts';
import { bytesRead, foldersRead, STRACE } from '../support/strace.ts';

const OLD = Date.now() / 1000 - 3600;

function workspace(): { root: string; files: string[] } {
  const files: Record<string, string> = {
    'docs/guide/intro.md': '---\ndescription: Start here\n---\n# Intro\n',
    'docs/guide/setup.md': '# Setup\n\nInstall it.\n',
    'docs/logo.png': '\x89PNG\0\x01\x02',
  };
  for (let i = 0; i < 30; i++) files[`docs/notes/n${i}.md`] = `# Note number ${i}\n\n${'text '.repeat(50)}\n`;
  const root = fixture(files, '[kb.topic.docs]\nsubjects = "docs"\n');
  const paths = Object.keys(files).map((f) => join(root, f));
  // Older than the two seconds within which a file is not kept.
  for (const p of paths) utimesSync(p, OLD, OLD);
  return { root, files: paths };
}

const headsIn = (root: string): string[] => {
  const dir = join(root, '.xdg-cache/kb/heads');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.heads')) : [];
};

/** The topic's folders, modified an hour ago: older than the two seconds
 *  within which a walk is not kept. */
const TOPIC_DIRS = ['docs', 'docs/guide', 'docs/notes'];
function ageFolders(root: string): string[] {
  const dirs = TOPIC_DIRS.map((d) => join(root, d));
  for (const d of dirs) utimesSync(d, OLD, OLD);
  return dirs;
}

for (const runner of [BINARY, DENO_RUNNER] as Runner[]) {
  describe(`the listing's kept heads (${runner.name})`, () => {
    test('the second listing keeps every head, and lists what --no-cache lists', () => {
      const { root } = workspace();
      const plain = run(runner, root, ['learn', 'docs', '--no-cache']);
      expect(plain.code).toBe(0);
      expect(headsIn(root)).toEqual([]);
      const first = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(first.out).toBe(plain.out);
      expect(first.err).toContain('listing cache: 0 of 33 heads kept, 33 read, written');
      expect(headsIn(root)).toHaveLength(1);
      const second = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(second.code).toBe(0);
      expect(second.out).toBe(plain.out);
      expect(second.err).toContain('listing cache: 33 of 33 heads kept; walked\n');
      expect(second.out).toContain('- guide/intro: Start here');
      expect(second.out).toContain('- notes/n7: Note number 7');
      expect(second.out).not.toContain('logo');
    });

    test('an edited file is read again, even when its size did not change', () => {
      const { root } = workspace();
      run(runner, root, ['learn', 'docs']);
      const file = join(root, 'docs/notes/n7.md');
      writeFileSync(file, `# Note NUMBER 7\n\n${'text '.repeat(50)}\n`);
      utimesSync(file, OLD + 10, OLD + 10);
      const r = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(r.out).toContain('- notes/n7: Note NUMBER 7');
      expect(r.err).toContain('listing cache: 32 of 33 heads kept, 1 read, written');
      expect(r.out).toBe(run(runner, root, ['learn', 'docs', '--no-cache']).out);
    });
  });
}

for (const runner of [BINARY, DENO_RUNNER] as Runner[]) {
  describe(`the listing's kept walk (${runner.name})`, () => {
    test('folders older than two seconds: the second listing keeps the walk, and lists what --no-cache lists; a file made or removed is walked again', () => {
      const { root } = workspace();
      ageFolders(root);
      const plain = run(runner, root, ['learn', 'docs', '--no-cache']);
      const first = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(first.out).toBe(plain.out);
      expect(first.err).toContain('listing cache: 0 of 33 heads kept, 33 read, written; walked, kept for the next call\n');
      const second = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(second.out).toBe(plain.out);
      expect(second.err).toContain('listing cache: 33 of 33 heads kept; the walk kept\n');
      // A note made: walked again (its folder was modified just now: the
      // walk is not kept until it is two seconds old, nor is the new
      // note's head).
      writeFileSync(join(root, 'docs/notes/fresh.md'), '# A fresh note\n');
      const made = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(made.out).toContain('- notes/fresh: A fresh note');
      expect(made.out).toBe(run(runner, root, ['learn', 'docs', '--no-cache']).out);
      expect(made.err).toContain('listing cache: 33 of 34 heads kept, 1 read; walked\n');
      ageFolders(root);
      expect(run(runner, root, ['learn', 'docs', '--verbose']).err).toContain('33 of 34 heads kept, 1 read; walked, kept for the next call\n');
      unlinkSync(join(root, 'docs/notes/n7.md'));
      const removed = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(removed.out).not.toContain('notes/n7:');
      expect(removed.out).toBe(run(runner, root, ['learn', 'docs', '--no-cache']).out);
    });
  });
}

for (const runner of [BINARY, DENO_RUNNER] as Runner[]) {
  describe(`the listing's kept frontmatter (${runner.name})`, () => {
    test('frontmatter the parser reads (nested maps, flow lists) is parsed once: the second listing takes it kept, and lists what --no-cache lists', () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 12; i++) files[`docs/page${i}.md`] = `---\ntitle: Page ${i}\ndescription: What page ${i} is about.\nkeywords: [k${i}]\nparams:\n  weight: ${i}\n---\n# Page ${i}\n`;
      files['docs/simple.md'] = '---\ndescription: Simple\n---\n';
      const root = fixture(files, '[kb.topic.docs]\nsubjects = "docs"\n');
      const plain = run(runner, root, ['learn', 'docs', '--no-cache']);
      expect(plain.out).toContain('- page7: What page 7 is about.');
      const first = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(first.out).toBe(plain.out);
      expect(first.err).toContain('frontmatter 0 kept, 12 parsed, written\n');
      const second = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(second.out).toBe(plain.out);
      expect(second.err).toContain('frontmatter 12 kept\n');
      writeFileSync(join(root, 'docs/page7.md'), '---\ndescription: Page seven, edited.\nkeywords: [k7]\n---\n');
      const edited = run(runner, root, ['learn', 'docs', '--verbose']);
      expect(edited.out).toContain('- page7: Page seven, edited.');
      expect(edited.out).toBe(run(runner, root, ['learn', 'docs', '--no-cache']).out);
      expect(edited.err).toContain('frontmatter 11 kept, 1 parsed, written\n');
    });
  });
}

describe.skipIf(!STRACE)('what a listing with its walk kept reads', () => {
  test('no folder of the topic; without it, every one', () => {
    const { root } = workspace();
    const dirs = ageFolders(root);
    run(BINARY, root, ['learn', 'docs']);
    expect(foldersRead([BIN, 'learn', 'docs'], root, isolatedEnv(root), dirs, root)).toEqual([]);
    expect(foldersRead([BIN, 'learn', 'docs', '--no-cache'], root, isolatedEnv(root), dirs, root)).toEqual(dirs);
  });
});

describe('what keeps no heads', () => {
  test('loading subjects, a folder\'s listing and a search write no cache of heads', () => {
    const { root } = workspace();
    expect(run(BINARY, root, ['learn', 'docs', 'guide/intro']).code).toBe(0);
    expect(run(BINARY, root, ['learn', 'docs', 'notes/*']).code).toBe(0);
    expect(run(BINARY, root, ['learn', 'docs', 'guide/']).code).toBe(0);
    expect(run(BINARY, root, ['search', 'note', '-t', 'docs']).code).toBe(0);
    expect(headsIn(root)).toEqual([]);
  });
});

describe('listings at once', () => {
  test('eight listings of one topic at once, twice: each lists what --no-cache lists, and the file left is whole', async () => {
    const { root } = workspace();
    const plain = run(BINARY, root, ['learn', 'docs', '--no-cache']).out;
    const once = () =>
      new Promise<string>((resolve) => {
        const child = spawn(BIN, ['learn', 'docs'], { cwd: root, env: isolatedEnv(root) });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('close', () => resolve(out));
      });
    for (let round = 0; round < 2; round++) {
      const outs = await Promise.all(Array.from({ length: 8 }, once));
      expect(outs.every((o) => o === plain)).toBe(true);
    }
    expect(headsIn(root)).toHaveLength(1);
    const last = run(BINARY, root, ['learn', 'docs', '--verbose']);
    expect(last.out).toBe(plain);
    expect(last.err).toContain('listing cache: 33 of 33 heads kept; walked\n');
  });
});

describe('a cache that cannot be read', () => {
  test('a garbled cache file: a warning naming it, the same listing, and it is written anew', () => {
    const { root } = workspace();
    run(BINARY, root, ['learn', 'docs']);
    const [name] = headsIn(root);
    const file = join(root, '.xdg-cache/kb/heads', name);
    writeFileSync(file, 'not a cache at all, but long enough to have a header of 32 bytes');
    const r = run(BINARY, root, ['learn', 'docs']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(run(BINARY, root, ['learn', 'docs', '--no-cache']).out);
    expect(r.err).toBe(`warning: the listing's cache ${file} could not be read (not a listing cache of this folder, or its lengths do not add up); every head was read again, and the file is written anew\n`);
    const next = run(BINARY, root, ['learn', 'docs', '--verbose']);
    expect(next.err).toContain('listing cache: 33 of 33 heads kept; walked\n');
    expect(next.err).not.toContain('warning');
  });
});

describe('a cache that cannot be written', () => {
  test('a file where the cache folder would be: a warning, the same listing, exit 0', () => {
    const { root } = workspace();
    writeFileSync(join(root, 'not-a-folder'), 'x');
    const env = { XDG_CACHE_HOME: join(root, 'not-a-folder') };
    const r = run(BINARY, root, ['learn', 'docs'], { env });
    expect(r.code).toBe(0);
    expect(r.out).toBe(run(BINARY, root, ['learn', 'docs', '--no-cache']).out);
    expect(r.err).toMatch(/^warning: the listing's cache could not be written \(.*\); the next listing reads every file's head again$/m);
  });
});

describe.skipIf(!STRACE)('what a listing reads', () => {
  test('with every head kept, no subject file is read', () => {
    const { root, files } = workspace();
    run(BINARY, root, ['learn', 'docs']);
    const bytes = bytesRead([BIN, 'learn', 'docs'], root, isolatedEnv(root), files, root);
    expect(files.filter((p) => (bytes.get(p) ?? 0) > 0)).toEqual([]);
  });

  test('--no-cache reads every head', () => {
    const { root, files } = workspace();
    run(BINARY, root, ['learn', 'docs']);
    const bytes = bytesRead([BIN, 'learn', 'docs', '--no-cache'], root, isolatedEnv(root), files, root);
    expect(files.filter((p) => (bytes.get(p) ?? 0) === 0)).toEqual([]);
  });
});
