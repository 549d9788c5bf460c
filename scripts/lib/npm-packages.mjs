// kb's npm packages, as esbuild and Biome ship theirs: one package per
// platform holding that platform's binary (its package.json names the os,
// cpu and libc it runs on, so npm installs only the one that matches), and
// the `kb` package, whose optionalDependencies name them all, with a small
// launcher (npm/kb/). Nothing is downloaded after install.
//
// writeNpmPackages() lays them out as directories, ready for `npm publish
// DIR` (the platform packages first, `kb` last) or `npm pack DIR`.

import { copyFileSync, cpSync, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The npm package holding a target's binary: `kb-linux-x64`, or with
 *  another name for the kb package (`@scope/kb`), `@scope/kb-linux-x64`. */
export function packageName(target, name = 'kb') {
  return `${name}-${target.name}`;
}

const DESCRIPTION = 'A file-based knowledge base for LLM assistants: the <knowledge> prompt section, the learn tool, search, and an MCP server.';

function json(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A hard link to `from` (the release binary) where the file system allows,
 *  else a copy. */
function place(from, to) {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** Writes `out`/<package>/ for each binary ({ target, path }) and `out`/kb/;
 *  returns the directories, platform packages first. `name`: the kb
 *  package's name (the platform packages' names start with it). */
export function writeNpmPackages({ repo, out, version, binaries, name: main = 'kb' }) {
  rmSync(out, { recursive: true, force: true });
  const dirs = [];
  for (const { target, path } of binaries) {
    const name = packageName(target, main);
    const dir = join(out, name.replace('/', '+'));
    mkdirSync(join(dir, 'bin'), { recursive: true });
    place(path, join(dir, 'bin', `kb${target.exe ?? ''}`));
    json(join(dir, 'package.json'), {
      name,
      version,
      description: `kb for ${target.name}: the binary the kb package runs on this platform.`,
      os: [target.os],
      cpu: [target.cpu],
      ...(target.libc ? { libc: [target.libc] } : {}),
      files: ['bin'],
      preferUnplugged: true,
    });
    writeFileSync(join(dir, 'README.md'), `# ${name}\n\nThe kb binary for ${target.name}. Install \`${main}\`, which picks this package on this platform.\n`);
    dirs.push(dir);
  }
  const dir = join(out, main.replace('/', '+'));
  cpSync(join(repo, 'npm/kb'), dir, { recursive: true });
  json(join(dir, 'lib/targets.json'), binaries.map(({ target }) => ({ name: target.name, package: packageName(target, main), os: target.os, cpu: target.cpu, ...(target.libc ? { libc: target.libc } : {}), ...(target.exe ? { exe: target.exe } : {}) })));
  json(join(dir, 'package.json'), {
    name: main,
    version,
    description: DESCRIPTION,
    bin: { kb: 'bin/kb' },
    scripts: { postinstall: 'node install.js' },
    optionalDependencies: Object.fromEntries(binaries.map(({ target }) => [packageName(target, main), version])),
    engines: { node: '>=18' },
    files: ['bin', 'lib', 'install.js'],
  });
  dirs.push(dir);
  return dirs;
}
