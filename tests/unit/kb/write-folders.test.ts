// kb/write/folders.ts: the folders a write makes (a missing topic folder,
// inside the workspace, never through a link) or leaves behind (forget's
// emptied folders, never the topic's own, never through a link).
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSubjectsDir, removeEmptyFolders } from '../../../src/kb/write/folders.ts';
import { makeTempDir } from '../../support/temp.ts';

const temp = () => realpathSync(makeTempDir('kb-folders-'));

describe('makeSubjectsDir', () => {
  test('creates every missing folder below the root; an existing one is fine', () => {
    const root = temp();
    mkdirSync(join(root, '.jp'));
    expect(makeSubjectsDir(root, join(root, '.jp/kb/notes'))).toEqual({ ok: true, created: '.jp/kb/notes' });
    expect(existsSync(join(root, '.jp/kb/notes'))).toBe(true);
  });

  test('refuses outside the root, through a link, over a file', () => {
    const root = temp();
    expect(makeSubjectsDir(root, join(root, '../x')).ok).toBe(false);
    expect(makeSubjectsDir(root, root).ok).toBe(false);
    const away = temp();
    symlinkSync(away, join(root, 'link'));
    expect(makeSubjectsDir(root, join(root, 'link/notes'))).toEqual({ ok: false, why: 'its subjects directory does not exist, and kb creates none through a symbolic link (link)' });
    expect(existsSync(join(away, 'notes'))).toBe(false);
    writeFileSync(join(root, 'file'), '');
    expect(makeSubjectsDir(root, join(root, 'file/notes'))).toEqual({ ok: false, why: 'its subjects directory does not exist, and file is not a folder' });
  });
});

describe('removeEmptyFolders', () => {
  test('deepest first, up to the first folder that is not empty; never the root', () => {
    const root = temp();
    mkdirSync(join(root, 'a/b/c'), { recursive: true });
    writeFileSync(join(root, 'a/keep.md'), '');
    expect(removeEmptyFolders(root, 'a/b/c/gone.md')).toEqual(['a/b/c', 'a/b']);
    expect(existsSync(join(root, 'a/keep.md'))).toBe(true);
    expect(removeEmptyFolders(root, 'top.md')).toEqual([]);
    mkdirSync(join(root, 'x'));
    expect(removeEmptyFolders(root, 'x/gone.md')).toEqual(['x']);
    expect(existsSync(root)).toBe(true);
  });

  test('a folder reached through a link is left alone', () => {
    const root = temp();
    mkdirSync(join(root, 'real/sub'), { recursive: true });
    symlinkSync('real', join(root, 'link'));
    expect(removeEmptyFolders(root, 'link/sub/gone.md')).toEqual([]);
    expect(existsSync(join(root, 'real/sub'))).toBe(true);
  });
});
