// The names a topic's walk leaves out whatever its ignore files say (the
// rules themselves: fs/ignore.ts): kb's own (the control files and the
// write lock) and the built-in defaults. Apart from the rules' matcher, so
// that what needs only these names (kb/index/quick-learnable.ts) loads
// none of it.

/** kb's write lock in a topic's folder (kb/write/lock.ts): kb's own,
 *  never walked, whatever it is (a folder while a write runs; a file, a
 *  link or a folder of files that is not kb's, which a write refuses). */
export const LOCK_NAME = '.kb-lock';

/** The control files, in the order their rules apply (later wins). */
export const IGNORE_FILES = ['.gitignore', '.kbignore'] as const;

/** Directories never walked unless a control file re-includes them:
 *  `node_modules`, and version control's own folders (git, Mercurial,
 *  Subversion, Bazaar, darcs, Jujutsu, Pijul), a repository's history and
 *  settings, never knowledge. A topic at a repository's root would
 *  otherwise walk every object of its history, and serve `.git/config`
 *  (a remote's URL may hold a token) as a hidden subject. (One literal:
 *  `kb schema` loads this module, and a spread is code run on first use.) */
export const DEFAULT_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn', '.bzr', '_darcs', '.jj', '.pijul']);

/** Files left out unless a control file re-includes them: lockfiles
 *  (generated, large, and never knowledge), and the `.git` file a git
 *  worktree or submodule holds instead of the folder (where its
 *  repository is). */
export const DEFAULT_FILES: ReadonlySet<string> = new Set([
  '.git',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'deno.lock',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'Gemfile.lock',
  'composer.lock',
  'go.sum',
  'mix.lock',
  'pubspec.lock',
  'Podfile.lock',
  'flake.lock',
  'gradle.lockfile',
  'packages.lock.json',
]);

/** A control file's name. */
export function isControlFile(name: string): boolean {
  return name.charCodeAt(0) === 46 && (name === '.gitignore' || name === '.kbignore');
}

/** kb's own entries, never walked: the control files and the write lock
 *  (a folder named so too). */
export function isKbOwn(name: string, isDir: boolean): boolean {
  return isDir ? name === LOCK_NAME : isControlFile(name) || name === LOCK_NAME;
}

/** Left out by the built-in defaults, unless a control file re-includes
 *  it. */
export function isDefaultIgnored(name: string, isDir: boolean): boolean {
  return isDir ? DEFAULT_DIRS.has(name) : DEFAULT_FILES.has(name);
}

/** Whether one of `entries` is a control file (one loop, no call per
 *  entry: every directory of a walk asks). */
export function hasControlFile(entries: readonly { name: string }[]): boolean {
  for (let i = 0; i < entries.length; i++) {
    const name = entries[i].name;
    if (name.charCodeAt(0) === 46 && (name === '.gitignore' || name === '.kbignore')) return true;
  }
  return false;
}
