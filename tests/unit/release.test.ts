// The release's parts that need no build: the targets, the version check,
// the binary header readers and the Mach-O signer (on a small Mach-O made
// here), the npm launcher's choice of platform package, and the split of the
// README's first screen.
import { describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { readBinary } from '../../scripts/lib/binfmt.mjs';
import { firstScreen, splitCommand } from '../../scripts/lib/first-screen.mjs';
import { adhocSign } from '../../scripts/lib/macho-sign.mjs';
import { packageName, writeNpmPackages } from '../../scripts/lib/npm-packages.mjs';
import { TARGETS, binaryName, hostTarget, type Target } from '../../scripts/lib/targets.mjs';
import { releaseVersion } from '../../scripts/release.mjs';
import { makeTempDir } from '../support/temp.ts';

const REPO = resolve(import.meta.dir, '../..');
const temp = () => makeTempDir('kb-release-unit-');

describe('targets', () => {
  test('the six the release builds, with their file names', () => {
    expect(TARGETS.map((t) => binaryName('1.2.3', t))).toEqual([
      'kb-1.2.3-linux-x64',
      'kb-1.2.3-linux-arm64',
      'kb-1.2.3-linux-x64-musl',
      'kb-1.2.3-darwin-x64',
      'kb-1.2.3-darwin-arm64',
      'kb-1.2.3-windows-x64.exe',
    ]);
  });

  test('this machine is found by platform, CPU and C library', () => {
    expect(hostTarget('linux', 'x64', 'glibc')?.name).toBe('linux-x64');
    expect(hostTarget('linux', 'x64', 'musl')?.name).toBe('linux-x64-musl');
    expect(hostTarget('linux', 'arm64', 'glibc')?.name).toBe('linux-arm64');
    expect(hostTarget('darwin', 'arm64')?.name).toBe('darwin-arm64');
    expect(hostTarget('win32', 'x64')?.name).toBe('windows-x64');
    expect(hostTarget('freebsd', 'x64')).toBeUndefined();
  });
});

describe('the release version', () => {
  const repo = (tag?: string) => {
    const dir = temp();
    writeFileSync(join(dir, 'package.json'), '{ "version": "1.2.3" }\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(dir, 'none') } });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'v');
    if (tag) git('tag', tag);
    return dir;
  };

  test("is package.json's; a tag v<version> makes it a release, none a snapshot", () => {
    expect(releaseVersion(repo('v1.2.3'))).toEqual({ version: '1.2.3', tagged: true });
    expect(releaseVersion(repo())).toEqual({ version: '1.2.3', tagged: false });
    expect(releaseVersion(repo('not-a-version'))).toEqual({ version: '1.2.3', tagged: false });
  });

  test('a tag naming another version stops the release', () => {
    expect(() => releaseVersion(repo('v1.2.4'))).toThrow('HEAD is tagged v1.2.4, but package.json says 1.2.3');
  });
});

/** A small 64-bit Mach-O executable laid out as a linker lays one out: the
 *  header and load commands, `pages` pages of code, then __LINKEDIT with
 *  an empty code signature at its end (adhocSign fills it). */
function machO(cpu: number, pages: number): Buffer {
  const cmds = [segment('__TEXT', 0, 0), segment('__LINKEDIT', 0, 0), lc(0x1d, 16), lc(0x80000028, 24)];
  const sizeofcmds = cmds.reduce((n, c) => n + c.length, 0);
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeUInt32LE(cpu, 4);
  header.writeUInt32LE(2, 12); // MH_EXECUTE
  header.writeUInt32LE(cmds.length, 16);
  header.writeUInt32LE(sizeofcmds, 20);
  const code = Buffer.alloc(pages * 4096 - 32 - sizeofcmds);
  for (let i = 0; i < code.length; i++) code[i] = (i * 7919) % 251;
  const textSize = 32 + sizeofcmds + code.length;
  const linkedit = Buffer.alloc(64, 0xab);
  const buf = Buffer.concat([header, ...cmds, code, linkedit]);
  const at = (i: number) => 32 + cmds.slice(0, i).reduce((n, c) => n + c.length, 0);
  buf.writeBigUInt64LE(BigInt(textSize), at(0) + 48);
  buf.writeBigUInt64LE(BigInt(textSize), at(1) + 40);
  buf.writeBigUInt64LE(BigInt(linkedit.length), at(1) + 48);
  buf.writeUInt32LE(buf.length, at(2) + 8); // the signature starts at the end, empty
  return buf;
}

function segment(name: string, fileoff: number, filesize: number): Buffer {
  const b = lc(0x19, 72);
  b.write(name, 8, 'latin1');
  b.writeBigUInt64LE(BigInt(fileoff), 40);
  b.writeBigUInt64LE(BigInt(filesize), 48);
  return b;
}

function lc(cmd: number, size: number): Buffer {
  const b = Buffer.alloc(size);
  b.writeUInt32LE(cmd, 0);
  b.writeUInt32LE(size, 4);
  return b;
}

describe('Mach-O: the ad-hoc signature', () => {
  test('signed ad hoc, every page hash matches; a changed byte anywhere before the signature is found', () => {
    const signed = adhocSign(machO(0x0100000c, 5), 'kb');
    const bin = readBinary(signed);
    expect(bin).toMatchObject({ format: 'macho', os: 'darwin', machine: 'arm64', executable: true, main: true });
    expect(bin.signature).toEqual({ identifier: 'kb', adhoc: true, flags: 0x20002, hash: 'sha256', pageSize: 4096, pages: 6, problems: [] });
    // 5 pages of header and code, then __LINKEDIT's 64 bytes before the signature.
    for (const at of [100, 3 * 4096 + 5, 5 * 4096 + 63]) {
      const changed = Buffer.from(signed);
      changed[at] ^= 1;
      expect(readBinary(changed).signature?.problems).toEqual(['1 of 6 pages do not match their hash']);
    }
  });

  test('signing again gives the same bytes (the release is reproducible)', () => {
    const signed = adhocSign(machO(0x01000007, 3), 'kb');
    expect(adhocSign(signed, 'kb').equals(signed)).toBe(true);
    expect(readBinary(signed).machine).toBe('x64');
  });

  test('a signature that covers less than the file, as Bun leaves darwin-x64, is reported', () => {
    const signed = adhocSign(machO(0x01000007, 3), 'kb');
    // codeLimit: the CodeDirectory says it covers one page less.
    const sigAt = 3 * 4096 + 64;
    signed.writeUInt32BE(2 * 4096 + 64, sigAt + 20 + 32);
    expect(readBinary(signed).signature?.problems).toContain(`the signature covers ${2 * 4096 + 64} bytes, not the ${sigAt} before it`);
  });

  test('a header that points past the end of the file is an error, not a read out of bounds', () => {
    const signed = adhocSign(machO(0x0100000c, 2), 'kb');
    expect(() => readBinary(signed.subarray(0, 100))).toThrow('past the end of the file');
    const bad = Buffer.from(signed);
    bad.writeUInt32LE(0xffffff, 32 + 72 + 72 + 8); // LC_CODE_SIGNATURE's dataoff
    expect(() => readBinary(bad)).toThrow('past the end of the file');
  });
});

describe('ELF and PE headers', () => {
  test.skipIf(process.platform !== 'linux')('the running Bun is an ELF executable with a loader', () => {
    const bin = readBinary(readFileSync(process.execPath));
    expect(bin).toMatchObject({ format: 'elf', os: 'linux', machine: process.arch, executable: true });
    expect(bin.interpreter).toMatch(/\/ld-(linux|musl)-/);
  });

  test('a PE32+ console program for x64', () => {
    const pe = Buffer.alloc(512);
    pe.write('MZ', 0, 'latin1');
    pe.writeUInt32LE(0x80, 0x3c);
    pe.writeUInt32BE(0x50450000, 0x80);
    pe.writeUInt16LE(0x8664, 0x84);
    pe.writeUInt16LE(0x20b, 0x98);
    pe.writeUInt16LE(3, 0x98 + 68);
    expect(readBinary(pe)).toEqual({ format: 'pe', os: 'win32', machine: 'x64', subsystem: 'console' });
    pe.writeUInt16LE(2, 0x98 + 68);
    expect(readBinary(pe).subsystem).toBe('gui');
  });
});

describe('the npm launcher picks the platform package', () => {
  const out = join(temp(), 'npm');
  const stub = join(temp(), 'kb');
  writeFileSync(stub, '');
  writeNpmPackages({ repo: REPO, out, version: '1.2.3', binaries: TARGETS.map((target) => ({ target, path: stub })) });
  const { binaryPath } = createRequire(join(out, 'kb/lib/'))('./platform.js') as {
    binaryPath(platform: string, arch: string, resolve: (id: string) => string, libc: () => string): string;
  };
  /** A require.resolve that finds the packages named. */
  const installed = (...targets: string[]) => (id: string) => {
    const t = TARGETS.find((x: Target) => id.startsWith(`${packageName(x)}/`));
    if (!t || !targets.includes(t.name)) throw new Error(`Cannot find module '${id}'`);
    return `/node_modules/${id}`;
  };
  const glibc = () => 'glibc';

  test('the one npm installed, by os and cpu', () => {
    expect(binaryPath('linux', 'x64', installed('linux-x64'), glibc)).toBe('/node_modules/kb-linux-x64/bin/kb');
    expect(binaryPath('linux', 'x64', installed('linux-x64-musl'), glibc)).toBe('/node_modules/kb-linux-x64-musl/bin/kb');
    expect(binaryPath('win32', 'x64', installed('windows-x64'), glibc)).toBe('/node_modules/kb-windows-x64/bin/kb.exe');
    expect(binaryPath('darwin', 'arm64', installed('darwin-arm64', 'linux-x64'), glibc)).toBe('/node_modules/kb-darwin-arm64/bin/kb');
  });

  test('glibc or musl by the C library when an npm that ignores libc installed both', () => {
    const both = installed('linux-x64', 'linux-x64-musl');
    expect(binaryPath('linux', 'x64', both, () => 'glibc')).toBe('/node_modules/kb-linux-x64/bin/kb');
    expect(binaryPath('linux', 'x64', both, () => 'musl')).toBe('/node_modules/kb-linux-x64-musl/bin/kb');
  });

  test('says why when there is none', () => {
    expect(() => binaryPath('linux', 'x64', installed(), glibc)).toThrow('kb-linux-x64 or kb-linux-x64-musl, the package holding kb for this machine, is not installed: npm leaves it out when optional dependencies are omitted');
    expect(() => binaryPath('freebsd', 'x64', installed(), glibc)).toThrow('kb has no binary for freebsd-x64 (it has: linux-x64, linux-arm64, linux-x64-musl, darwin-x64, darwin-arm64, windows-x64)');
  });

  test("the kb package's optionalDependencies name every platform package, at its version", () => {
    const pkg = JSON.parse(readFileSync(join(out, 'kb/package.json'), 'utf8'));
    expect(pkg.optionalDependencies).toEqual(Object.fromEntries(TARGETS.map((t) => [packageName(t), '1.2.3'])));
    expect(pkg.bin).toEqual({ kb: 'bin/kb' });
    const musl = JSON.parse(readFileSync(join(out, 'kb-linux-x64-musl/package.json'), 'utf8'));
    expect([musl.os, musl.cpu, musl.libc]).toEqual([['linux'], ['x64'], ['musl']]);
    const mac = JSON.parse(readFileSync(join(out, 'kb-darwin-arm64/package.json'), 'utf8'));
    expect([mac.os, mac.cpu, mac.libc]).toEqual([['darwin'], ['arm64'], undefined]);
  });

  test('under another name (--npm-name @scope/kb), the platform packages are named after it', () => {
    const scoped = join(temp(), 'npm');
    const dirs = writeNpmPackages({ repo: REPO, out: scoped, version: '1.2.3', binaries: [{ target: TARGETS[0], path: stub }], name: '@acme/kb' });
    expect(dirs.map((d) => d.slice(scoped.length + 1))).toEqual(['@acme+kb-linux-x64', '@acme+kb']);
    const pkg = JSON.parse(readFileSync(join(scoped, '@acme+kb/package.json'), 'utf8'));
    expect([pkg.name, pkg.optionalDependencies, pkg.bin]).toEqual(['@acme/kb', { '@acme/kb-linux-x64': '1.2.3' }, { kb: 'bin/kb' }]);
    expect(JSON.parse(readFileSync(join(scoped, '@acme+kb/lib/targets.json'), 'utf8'))[0].package).toBe('@acme/kb-linux-x64');
  });
});

describe('the install docs', () => {
  test("name package.json's version in the download lines", () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const install = readFileSync(join(REPO, 'docs/guide/install.md'), 'utf8');
    expect([...install.matchAll(/\bV=(\S+)|\$V = '([^']+)'/g)].map((m) => m[1] ?? m[2])).toEqual([version, version]);
    expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toContain(`f=kb-${version}-linux-x64;`);
  });
});

describe("the README's first screen", () => {
  test('splits into words, quoted words and a final 2>&1, and refuses more shell than that', () => {
    expect(splitCommand('kb search "tag a release"')).toEqual({ line: 'kb search "tag a release"', args: ['search', 'tag a release'], merge: false });
    expect(splitCommand('kb init docs 2>&1')).toEqual({ line: 'kb init docs 2>&1', args: ['init', 'docs'], merge: true });
    expect(() => splitCommand('kb learn docs | head')).toThrow('more shell than a word split runs (|)');
    expect(() => splitCommand('kb learn $TOPIC')).toThrow('more shell than a word split runs ($)');
    expect(() => splitCommand('ls docs')).toThrow('does not run kb');
  });

  test('is the quick start: init, learn and search in a copy of examples/docs', () => {
    const screen = firstScreen(readFileSync(join(REPO, 'README.md'), 'utf8'));
    expect(screen.folders).toEqual(['docs']);
    expect(screen.commands.map((c) => c.args[0])).toEqual(['init', 'learn', 'search']);
    expect(screen.commands[1].expected).toStartWith('# Topic: docs\n');
    expect(screen.commands[1].expected).toEndWith('specific subjects.\n');
  });
});
