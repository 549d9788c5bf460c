// Types of scripts/release.mjs, for the tests.

export function releaseVersion(repo?: string): { version: string; tagged: boolean };
