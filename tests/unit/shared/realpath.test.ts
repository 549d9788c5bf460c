import { afterAll, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realpathSteady } from '../../../src/shared/realpath.ts';
import { makeTempDir } from '../../support/temp.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('the real path of a file another process keeps replacing by rename: never a failure', async () => {
  const dir = makeTempDir('kb-realpath-');
  dirs.push(dir);
  const file = join(dir, 'config.toml');
  writeFileSync(file, 'x');
  // Another process renames a new file over it, again and again (as kb
  // init and every kb writer replace a file).
  const script = `const fs = require('node:fs'); const end = Date.now() + 1500; let i = 0; while (Date.now() < end) { const t = ${JSON.stringify(dir)} + '/t' + (i++ % 2); fs.writeFileSync(t, 'y'); fs.renameSync(t, ${JSON.stringify(file)}); }`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise((resolve) => setTimeout(resolve, 100));
  let steadyFailures = 0;
  const end = Date.now() + 1000;
  while (Date.now() < end) {
    try {
      expect(realpathSteady(file)).toBe(realpathSync(dir) + '/config.toml');
    } catch {
      steadyFailures++;
    }
  }
  await exited;
  // (The runtime's own realpath failed now and then meanwhile: realpath.ts.)
  expect(steadyFailures).toBe(0);
});

test('a path that is not there, and a dangling link, still fail (ENOENT), after a bounded number of tries', () => {
  const dir = makeTempDir('kb-realpath-');
  dirs.push(dir);
  expect(() => realpathSteady(join(dir, 'missing'))).toThrow();
  symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
  expect(() => realpathSteady(join(dir, 'dangling'))).toThrow();
  mkdirSync(join(dir, 'real'));
  symlinkSync(join(dir, 'real'), join(dir, 'link'));
  expect(realpathSteady(join(dir, 'link'))).toBe(realpathSync(join(dir, 'real')));
});
