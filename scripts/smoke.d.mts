// Types of scripts/smoke.mjs, for the tests.
import type { Target } from './lib/targets.d.mts';

export type Check = [name: string, ok: boolean, detail: string];
export interface SmokeResult {
  target: string;
  how: string;
  checks: Check[];
}
export function runnerFor(target: Target, host?: Target): { argv: string[]; env: Record<string, string>; how: string; stdinFile?: boolean } | { skip: string };
export function headerChecks(file: string, target: Target, commit?: string): Check[];
export function smoke(file: string, target: Target, options?: { version?: string; commit?: string }): SmokeResult;
export function report(result: SmokeResult, out?: { write(s: string): unknown }): boolean;
