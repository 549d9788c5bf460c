// scripts/lib/fresh-copy.mjs: the benches time copies of the programs they
// compare, written at the start of a comparison (a compiled program starts
// faster from a file written minutes before than from an older one).

import { describe, expect, test } from 'bun:test';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshCopy } from '../../scripts/lib/fresh-copy.mjs';
import { makeTempDir } from '../support/temp.ts';

describe('freshCopy', () => {
  test('the same bytes, executable, in <dir>/run/, written now; an older copy is replaced', () => {
    const dir = makeTempDir('kb-fresh-');
    const src = join(dir, 'prog');
    writeFileSync(src, '#!/bin/sh\necho one\n', { mode: 0o644 });
    const old = new Date(Date.now() - 3600_000);
    utimesSync(src, old, old);
    const to = freshCopy(src, dir, 'prog-copy');
    expect(to).toBe(join(dir, 'run', 'prog-copy'));
    expect(readFileSync(to, 'utf8')).toBe('#!/bin/sh\necho one\n');
    expect(statSync(to).mode & 0o111).toBe(0o111);
    expect(statSync(to).mtimeMs).toBeGreaterThan(old.getTime() + 1800_000);
    writeFileSync(src, '#!/bin/sh\necho two\n');
    expect(readFileSync(freshCopy(src, dir, 'prog-copy'), 'utf8')).toBe('#!/bin/sh\necho two\n');
  });
});
