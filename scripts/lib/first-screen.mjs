// The README's first screen: the quick start's transcript (`kb init docs`,
// `kb learn docs`, `kb search ...`), to run on a kb that is not dist/kb: a
// release binary under an emulator (scripts/smoke.mjs) or the one the npm
// route installed (tests/integrations/npm-route.test.ts). The docs test runs
// the same transcript with sh; here each command is split into words
// without a shell (Windows has none), so the transcript may use only what
// that split knows: words, "double-quoted words" and a final `2>&1`.

import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The first console block after a `<!-- new folder: PATH -->` marker in
 *  `readme`: the folder it copies from examples/, and its commands. */
export function firstScreen(readme) {
  const m = /<!-- new folder: ([^>]*?) -->\n```console\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('README.md: no console block after a <!-- new folder: PATH --> marker');
  const lines = m[2].split('\n');
  lines.pop(); // the newline before the closing fence
  const commands = [];
  for (const line of lines) {
    if (line.startsWith('$ ')) commands.push({ line: line.slice(2), lines: [] });
    else if (commands.length === 0) throw new Error(`README.md: output before the first command: ${line}`);
    else commands.at(-1).lines.push(line);
  }
  return {
    folders: m[1].split(' ').filter(Boolean),
    commands: commands.map(({ line, lines: out }, i) => {
      // The one blank line before the next command only separates them.
      if (i < commands.length - 1 && out.at(-1) === '') out = out.slice(0, -1);
      return { ...splitCommand(line), expected: out.length === 0 ? '' : `${out.join('\n')}\n` };
    }),
  };
}

/** `kb search "tag a release" 2>&1` -> args, and whether stderr joins stdout. */
export function splitCommand(line) {
  let rest = line;
  const merge = rest.endsWith(' 2>&1');
  if (merge) rest = rest.slice(0, -' 2>&1'.length);
  const words = [];
  const re = /"([^"\\$`]*)"|([^\s"'\\$`|&;<>()*?]+)|(\S)/g;
  for (const m of rest.matchAll(re)) {
    if (m[3] !== undefined) throw new Error(`README.md: "${line}": more shell than a word split runs (${m[3]})`);
    words.push(m[1] ?? m[2]);
  }
  if (words[0] !== 'kb') throw new Error(`README.md: "${line}" does not run kb`);
  return { line, args: words.slice(1), merge };
}

/** Runs the first screen: `run(args, cwd, stdio)` runs kb (the caller's
 *  way: natively, under an emulator, through npm's launcher) in a new
 *  folder, `dir`, holding copies of the folders the README names, inside
 *  `root` (the caller removes it; the default is a new temporary folder).
 *  Returns one result per command: what it printed against what the
 *  README shows. */
export function runFirstScreen(repo, run, root = mkdtempSync(join(tmpdir(), 'kb-first-screen-'))) {
  const screen = firstScreen(readFileSync(join(repo, 'README.md'), 'utf8'));
  const dir = join(root, 'workspace');
  mkdirSync(dir, { recursive: true });
  for (const f of screen.folders) cpSync(join(repo, 'examples', f), join(dir, f), { recursive: true });
  const outFile = join(root, 'output');
  const results = [];
  for (const cmd of screen.commands) {
    const fd = openSync(outFile, 'w');
    let r;
    try {
      r = run(cmd.args, dir, ['ignore', fd, cmd.merge ? fd : 'pipe']);
    } finally {
      closeSync(fd);
    }
    const out = readFileSync(outFile, 'utf8');
    results.push({ line: cmd.line, ok: r.status === 0 && out === cmd.expected && (cmd.merge || String(r.stderr ?? '') === ''), out, expected: cmd.expected, code: r.status, err: String(r.stderr ?? '') });
  }
  return { root, dir, results };
}

/** spawnSync for runFirstScreen: `argv` before kb's arguments. */
export function spawnRun(argv, env) {
  return (args, cwd, stdio) => spawnSync(argv[0], [...argv.slice(1), ...args], { cwd, stdio, env, encoding: 'utf8', timeout: 60_000 });
}
