// Types of scripts/lib/first-screen.mjs, for the tests.
import type { SpawnSyncReturns, StdioOptions } from 'node:child_process';

export interface ScreenCommand {
  line: string;
  args: string[];
  merge: boolean;
  expected: string;
}
export interface ScreenResult {
  line: string;
  ok: boolean;
  out: string;
  expected: string;
  code: number | null;
  err: string;
}
export type Run = (args: string[], cwd: string, stdio: StdioOptions) => SpawnSyncReturns<string>;
export function firstScreen(readme: string): { folders: string[]; commands: ScreenCommand[] };
export function splitCommand(line: string): { line: string; args: string[]; merge: boolean };
export function runFirstScreen(repo: string, run: Run, root?: string): { root: string; dir: string; results: ScreenResult[] };
export function spawnRun(argv: string[], env: Record<string, string | undefined>): Run;
