// `npm run release` for this machine's target, offline (the other targets
// need Bun's runtimes from the network: docs/guide/install.md says what is tested
// where): it builds kb-<version>-<target>, twice with the same bytes, writes
// SHA256SUMS that `sha256sum -c` accepts, and the binary passes the smoke
// script (scripts/smoke.mjs): its headers, `--version`, the README's first
// screen and an MCP initialize.
import { expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { hostTarget } from '../../scripts/lib/targets.mjs';
import { BIN, REPO, describeWith, tempDir } from './lib.ts';

const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
const host = hostTarget();

describeWith(['sha256sum'], 'npm run release, for this machine', () => {
  if (!host) throw new Error(`no released target is this machine (${process.platform}-${process.arch})`);
  test('builds the binary twice with the same bytes, with SHA256SUMS, and it passes the smoke script', () => {
    const out = join(tempDir(), 'release');
    const r = spawnSync('node', [join(REPO, 'scripts/release.mjs'), '--targets', host.name, '--no-npm', '--reproduce', '--smoke', '--out', out], { cwd: REPO, encoding: 'utf8', timeout: 300_000 });
    const name = `kb-${version}-${host.name}${host.exe ?? ''}`;
    expect(r.stderr).toContain(`release: ${host.name}: the same bytes`);
    expect(r.stdout).toContain(`${host.name}: run natively`);
    expect(r.stdout).not.toContain('FAIL');
    expect(r.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['SHA256SUMS', name]);
    expect(readFileSync(join(out, 'SHA256SUMS'), 'utf8')).toMatch(new RegExp(`^[0-9a-f]{64}  ${name.replaceAll('.', '\\.')}\\n$`));
    for (const check of ['format', 'loader', 'embeds its commit', '--version', 'kb init docs 2>&1', 'kb learn docs', 'kb search "tag a release"', 'mcp initialize']) {
      expect(r.stdout).toContain(`  ok   ${check}: `);
    }
    const check = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' });
    expect([check.stdout, check.status]).toEqual([`${name}: OK\n`, 0]);
    // The release binary is dist/kb, built by npm run build from the same tree.
    expect(readFileSync(join(out, name)).equals(readFileSync(BIN))).toBe(true);
  }, 300_000);
});
