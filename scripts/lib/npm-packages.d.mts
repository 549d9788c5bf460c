// Types of scripts/lib/npm-packages.mjs, for the tests.
import type { Target } from './targets.d.mts';

export function packageName(target: Target): string;
export function writeNpmPackages(options: { repo: string; out: string; version: string; binaries: { target: Target; path: string }[] }): string[];
