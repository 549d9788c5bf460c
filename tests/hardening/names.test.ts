// A subject whose slug is longer than a pattern may be (1024 characters),
// end to end on dist/kb: no learn call could name it, so it is left out of
// every listing, with a notice, rather than listed under a name that
// cannot be loaded.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, expectNoCrash, kb, workspace, type Result } from './helpers.ts';

afterAll(cleanup);

function run(root: string, args: string[]): Result {
  const r = kb(root, args);
  expectNoCrash(r);
  return r;
}

describe('a slug over 1024 characters', () => {
  const root = workspace({ 't/ok.md': 'OK\n' });
  // Six folders of 200 characters: a slug of 6 * 201 + 4 = 1210 characters.
  const dirs = Array.from({ length: 6 }, (_, i) => String(i).repeat(200));
  mkdirSync(join(root, 't', ...dirs), { recursive: true });
  writeFileSync(join(root, 't', ...dirs, 'long.md'), 'LONG\n');
  // And one of exactly 1024, which a pattern can name.
  const fits = `${'f'.repeat(200)}/${'g'.repeat(200)}/${'h'.repeat(200)}/${'i'.repeat(200)}/${'j'.repeat(200)}/${'k'.repeat(19)}`;
  expect(fits).toHaveLength(1024);
  mkdirSync(join(root, 't', ...fits.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(root, 't', `${fits}.md`), 'FITS\n');
  const path = `${dirs.join('/')}/long.md`;
  const notice = `slug longer than 1024 characters (1210), skipped: no pattern can name it: ${path.slice(0, 60)}...`;

  test('every subject listed can be loaded by the name shown; the long one is left out with a notice', () => {
    const listing = run(root, ['learn', 't']);
    const listed = listing.out.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
    expect(listed).toEqual([fits, 'ok']);
    for (const slug of listed) expect(run(root, ['learn', 't', slug]).code).toBe(0);
    expect(run(root, ['learn', 't', fits]).out).toBe('FITS\n');
    expect(run(root, ['prompt']).err).toBe(`warning: topic "t": ${notice}\n`);
    expect(run(root, ['list']).out).toContain(`  ! ${notice}\n`);
    const check = run(root, ['check']);
    expect(check.out).toContain(`warning: topic "t": ${notice} (t/${path})\n`);
    expect(check.code).toBe(0);
    expect(run(root, ['learn', 't', '**']).out).not.toContain('LONG');
  });
});
