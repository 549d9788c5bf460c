'use strict';
// Which of kb's platform packages holds the binary for this machine, and
// where that binary is. npm installs only the platform package whose os,
// cpu and libc fields match the machine (the optionalDependencies of this
// package name them all); lib/targets.json lists them, written by kb's
// release (scripts/lib/npm-packages.mjs).

const targets = require('./targets.json');

/** 'glibc' or 'musl' on Linux (asked only when both packages are
 *  installed, as an npm that ignores the libc field does: it costs ~20 ms). */
function libc() {
  const header = process.report && process.report.getReport().header;
  return header && header.glibcVersionRuntime ? 'glibc' : 'musl';
}

/** The binaries of the packages installed for this platform and CPU. */
function installed(platform, arch, resolve) {
  const found = [];
  for (const t of targets) {
    if (t.os !== platform || t.cpu !== arch) continue;
    try {
      found.push({ target: t, path: resolve(`${t.package}/bin/kb${t.exe || ''}`) });
    } catch {
      // not installed: npm skipped it (another libc), or optional packages were left out
    }
  }
  return found;
}

/** The path of kb's binary for this machine; throws, saying why, when there
 *  is none. */
function binaryPath(platform = process.platform, arch = process.arch, resolve = require.resolve, libcOf = libc) {
  const found = installed(platform, arch, resolve);
  if (found.length === 1) return found[0].path;
  if (found.length > 1) {
    const c = libcOf();
    const match = found.find((f) => f.target.libc === c);
    if (match) return match.path;
  }
  const names = targets.filter((t) => t.os === platform && t.cpu === arch).map((t) => t.package);
  if (names.length === 0) {
    throw new Error(`kb has no binary for ${platform}-${arch} (it has: ${targets.map((t) => t.name).join(', ')}); build it from a clone of its repository (npm ci && npm run build)`);
  }
  throw new Error(`${names.join(' or ')}, the package holding kb for this machine, is not installed: npm leaves it out when optional dependencies are omitted (--omit=optional, --no-optional); install kb again without that option`);
}

module.exports = { binaryPath, libc };
