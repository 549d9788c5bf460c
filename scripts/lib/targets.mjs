// The targets kb is released for (scripts/release.mjs), and the one this
// machine is (scripts/build.mjs builds dist/kb for it).
//
// Each target: its name in file and package names, Bun's --target, and the
// platform as npm and Node.js name it (os, cpu, libc), which the npm
// packages declare (scripts/lib/npm-packages.mjs) and the launcher matches
// (npm/kb/lib/platform.js). The x64 targets are Bun's default (modern)
// runtime, which needs AVX2 (x86-64 CPUs from 2013 on); the -baseline ones
// run on older CPUs, and are built only when asked for
// (`npm run release -- --targets linux-x64-baseline`).

/** Released by default, in this order. */
export const TARGETS = [
  { name: 'linux-x64', bun: 'bun-linux-x64', os: 'linux', cpu: 'x64', libc: 'glibc' },
  { name: 'linux-arm64', bun: 'bun-linux-arm64', os: 'linux', cpu: 'arm64', libc: 'glibc' },
  { name: 'linux-x64-musl', bun: 'bun-linux-x64-musl', os: 'linux', cpu: 'x64', libc: 'musl' },
  { name: 'darwin-x64', bun: 'bun-darwin-x64', os: 'darwin', cpu: 'x64' },
  { name: 'darwin-arm64', bun: 'bun-darwin-arm64', os: 'darwin', cpu: 'arm64' },
  { name: 'windows-x64', bun: 'bun-windows-x64', os: 'win32', cpu: 'x64', exe: '.exe' },
];

/** Built only when named: x64 CPUs without AVX2. Not in the npm route (npm
 *  cannot tell CPUs apart by their features). */
export const EXTRA_TARGETS = [
  { name: 'linux-x64-baseline', bun: 'bun-linux-x64-baseline', os: 'linux', cpu: 'x64', libc: 'glibc' },
  { name: 'windows-x64-baseline', bun: 'bun-windows-x64-baseline', os: 'win32', cpu: 'x64', exe: '.exe' },
];

/** The target named `name`, or undefined. */
export function targetNamed(name) {
  return [...TARGETS, ...EXTRA_TARGETS].find((t) => t.name === name);
}

/** The file name of a release binary: `kb-1.0.0-linux-x64`, `kb-1.0.0-windows-x64.exe`. */
export function binaryName(version, target) {
  return `kb-${version}-${target.name}${target.exe ?? ''}`;
}

/** The C library of this Linux machine: 'glibc' when Node.js reports a glibc
 *  version, else 'musl'. */
export function hostLibc(report = () => process.report?.getReport()) {
  const header = report()?.header;
  return header && typeof header === 'object' && 'glibcVersionRuntime' in header ? 'glibc' : 'musl';
}

/** The released target this machine runs, or undefined (FreeBSD, Windows on
 *  arm64, ...: `npm run build` then builds for the host without a name). */
export function hostTarget(platform = process.platform, arch = process.arch, libc = platform === 'linux' ? hostLibc() : undefined) {
  return TARGETS.find((t) => t.os === platform && t.cpu === arch && (t.libc === undefined || t.libc === libc));
}
