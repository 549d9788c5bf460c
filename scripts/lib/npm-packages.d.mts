// Types of scripts/lib/npm-packages.mjs, for the tests.
import type { Target } from './targets.d.mts';

export function packageName(target: Target, name?: string): string;
export function writeNpmPackages(options: { repo: string; out: string; version: string; binaries: { target: Target; path: string }[]; name?: string }): string[];
