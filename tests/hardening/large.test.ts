// Size: 100,000 files in one folder, and a 1 GiB text subject (written
// once, used by every case, deleted right after). Time and peak memory of
// dist/kb are measured; the bounds are generous for slow CI machines but
// far below what reading everything into memory would take.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { closeSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, expectNoCrash, kbMeasured, workspace, type Measured } from './helpers.ts';

afterAll(cleanup);

const MiB = 1 << 20;

function run(root: string, args: string[]): Measured {
  const r = kbMeasured(root, args, { timeoutMs: 120_000 });
  expectNoCrash(r);
  return r;
}

describe('100,000 files in one folder', () => {
  const N = 100_000;
  const name = (i: number) => `f${String(i).padStart(6, '0')}`;
  let root: string;
  beforeAll(() => {
    root = workspace({});
    const dir = join(root, 't');
    for (let i = 0; i < N; i++) writeFileSync(join(dir, `${name(i)}.md`), `${i}\n`);
  }, 120_000);
  afterAll(() => rmSync(join(root, 't'), { recursive: true, force: true }), 120_000);

  test('listing: every subject, in order (no budget)', () => {
    const r = run(root, ['learn', '--max-tokens', '0', 't']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n').filter((l) => l.startsWith('- '));
    expect(lines.length).toBe(N);
    expect(lines[0]).toBe('- f000000');
    expect(lines[N - 1]).toBe(`- ${name(N - 1)}`);
    expect(r.maxRss).toBeLessThan(512 * MiB);
  }, 120_000);

  test('a glob, an exact slug, the prompt and check', () => {
    expect(run(root, ['learn', 't', 'f09999*']).out.match(/<subject "/g)?.length).toBe(10);
    const exact = run(root, ['learn', 't', name(54321)]);
    expect({ out: exact.out, err: exact.err, code: exact.code }).toEqual({ out: '54321\n', err: '', code: 0 });
    const prompt = run(root, ['prompt']);
    expect(prompt.out).toContain('\n- t\n');
    expect(prompt.code).toBe(0);
    const check = run(root, ['check']);
    expect({ out: check.out, err: check.err, code: check.code }).toEqual({ out: `ok: 1 topic, ${N} subjects, no problems\n`, err: '', code: 0 });
  }, 120_000);

  test('with the default budget, the listing fits and says how many more there are', () => {
    const r = run(root, ['learn', 't']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\[To stay within the 20,000-token budget, \d+ more subjects, after the last one listed, are not listed\./);
    expect(r.err).toContain('subjects not listed');
  }, 120_000);

  test('loading all of them streams: memory stays bounded', () => {
    const r = run(root, ['learn', '--max-tokens', '0', 't', '**']);
    expect(r.code).toBe(0);
    expect(r.out.match(/<subject "/g)?.length).toBe(N);
    expect(r.maxRss).toBeLessThan(512 * MiB);
  }, 120_000);
});

describe('a 1 GiB text subject', () => {
  const GiB = 1024 * MiB;
  let root: string;
  let big: string;
  beforeAll(() => {
    root = workspace({ 't/a.md': 'A\n' });
    big = join(root, 't', 'big.md');
    // Real text, not a sparse file: every byte is there to be read.
    const line = 'The quick brown fox jumps over the lazy dog. ```code``` 0123456789\n';
    const chunk = Buffer.from(line.repeat(Math.ceil(MiB / line.length)).slice(0, MiB));
    const fd = openSync(big, 'w');
    try {
      for (let i = 0; i < 1024; i++) writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
  }, 120_000);
  afterAll(() => rmSync(big, { force: true }));

  const note = 'Could not read "big": the file is 1.0 GiB; subjects larger than 16 MiB are not loaded.';

  test('named exactly: a note, no read, little memory', () => {
    const r = run(root, ['learn', 't', 'big']);
    expect({ out: r.out, err: r.err, code: r.code }).toEqual({ out: `${note}\n`, err: '', code: 1 });
    expect(r.maxRss).toBeLessThan(128 * MiB);
    expect(r.ms).toBeLessThan(10_000);
  }, 120_000);

  test('matched by a glob: the other subjects intact, then the note', () => {
    const r = run(root, ['learn', 't', '*']);
    expect({ out: r.out, err: r.err, code: r.code }).toEqual({ out: `<subject "a">\nA\n</subject>\n\n${note}\n`, err: '', code: 0 });
    expect(r.maxRss).toBeLessThan(128 * MiB);
  }, 120_000);

  test('pre-loaded: a warning, the rest of the prompt intact', () => {
    const r = run(root, ['prompt', '-k', 't/big', '-k', 't/a']);
    expect(r.err).toBe('warning: cannot read learned subject "big" of topic "t": the file is 1.0 GiB; subjects larger than 16 MiB are not loaded\n');
    expect(r.out).toStartWith('<knowledge>\nThe following knowledge has been pre-loaded into your system prompt:\n\n<topic "t">\n\n<subject "a">\nA\n</subject>\n</topic>\n');
    expect(r.code).toBe(0);
    expect(r.maxRss).toBeLessThan(128 * MiB);
  }, 120_000);

  test('exported: the other subjects intact, the big one named on stderr and counted, never read whole', () => {
    const r = run(root, ['export']);
    expect(r.out).toBe('{"topic":"t","slug":"a","title":null,"description":null,"tags":[],"path":"t/a.md","size":2,"text":"A\\n"}\n');
    expect(r.err).toBe('warning: topic "t": subject "big" not exported: the file is 1.0 GiB; subjects larger than 16 MiB are not loaded (t/big.md)\nexported 1 subject from 1 topic; skipped 1 file not read\n');
    expect(r.code).toBe(0);
    expect(r.maxRss).toBeLessThan(128 * MiB);
  }, 120_000);

  test('check warns; list shows the size', () => {
    const check = run(root, ['check']);
    expect({ out: check.out, err: check.err, code: check.code }).toEqual({
      out: 'warning: topic "t": cannot read subject "big": the file is 1.0 GiB; subjects larger than 16 MiB are not loaded (t/big.md)\nok: 1 topic, 2 subjects, 0 errors, 1 warning\n',
      err: '',
      code: 0,
    });
    expect(check.maxRss).toBeLessThan(128 * MiB);
    // Too large to load, so no token estimate either.
    expect(run(root, ['list']).out).toBe('t: t\n  a        2 B  ~1 tok\n  big  1.0 GiB\n  (~1 token in all)\n\n1 topic, 2 subjects\n');
  }, 120_000);
});

describe('kb check --duplicates on many notes: bounded, and the bounds said', () => {
  test('20,000 notes of 40 words: within 500 MiB, no bound needed', async () => {
    const { notesCorpus } = await import('../../scripts/lib/notes-corpus.mjs');
    const root = workspace({});
    notesCorpus(20_000, 40).forEach((text, i) => writeFileSync(join(root, 't', `n${i}.md`), text));
    const r = run(root, ['check', '--duplicates']);
    expect({ out: r.out, err: r.err, code: r.code }).toEqual({ out: 'ok: 1 topic, 20000 subjects, no problems\n', err: '', code: 0 });
    expect(r.maxRss).toBeLessThan(500 * MiB);
    expect(r.ms).toBeLessThan(60_000);
    rmSync(join(root, 't'), { recursive: true, force: true });
  }, 180_000);

  test('20,000 notes whose words are each in about 180 of them: the work is bounded; the words left out are said in the report and on stderr', async () => {
    const { mulberry32 } = await import('../../scripts/lib/mulberry32.mjs');
    const root = workspace({});
    const random = mulberry32(3);
    const word = (i: number) => `w${i.toString(36)}q`;
    for (let n = 0; n < 20_000; n++) writeFileSync(join(root, 't', `n${n}.md`), `${Array.from({ length: 40 }, () => word(Math.floor(random() * 4_400))).join(' ')}.\n`);
    const r = run(root, ['check', '--duplicates']);
    expect(r.code).toBe(0);
    expect(r.maxRss).toBeLessThan(500 * MiB);
    expect(r.ms).toBeLessThan(60_000);
    const said = /^warning: (topic "t": the near-duplicate comparison left out \d[\d,]* words found in \d[\d,]* subjects or more \(of 20,000 compared\), to bound its work: subjects alike mostly by those words are not found)$/m;
    const line = said.exec(r.out);
    expect(line === null ? r.out.slice(-2000) : line[1]).toStartWith('topic "t": the near-duplicate comparison left out');
    expect(r.err).toContain(line![1]);
    rmSync(join(root, 't'), { recursive: true, force: true });
  }, 180_000);

  test('3,000 copies of one note kb wrote: found, though their words are too common to count; 1,000 pairs reported, the rest counted and said', () => {
    const root = workspace({});
    const note = '---\nsource: user\n---\nThe staging database is reset every night at 02:00 by the cron job on the ops host, and the reset takes ten minutes.\n';
    for (let i = 0; i < 3_000; i++) writeFileSync(join(root, 't', `n${i}.md`), note);
    const r = run(root, ['check', '--format', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { diagnostics: { code: string; message: string }[] };
    expect(report.diagnostics.filter((d) => d.code === 'near-duplicate')).toHaveLength(1_000);
    const bounded = report.diagnostics.filter((d) => d.code === 'duplicate-check-bounded').map((d) => d.message);
    expect(bounded).toEqual(['topic "t": the near-duplicate comparison found 2,999 pairs: the 1,000 most similar are reported, 1,999 more are not']);
    for (const m of bounded) expect(r.err).toContain(m);
    expect(r.ms).toBeLessThan(60_000);
    expect(r.maxRss).toBeLessThan(256 * MiB);
    rmSync(join(root, 't'), { recursive: true, force: true });
  }, 180_000);
});
