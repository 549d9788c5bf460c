// Types of scripts/lib/targets.mjs, for the tests.

export interface Target {
  name: string;
  bun: string;
  os: 'linux' | 'darwin' | 'win32';
  cpu: 'x64' | 'arm64';
  libc?: 'glibc' | 'musl';
  exe?: string;
}
export const TARGETS: Target[];
export const EXTRA_TARGETS: Target[];
export function targetNamed(name: string): Target | undefined;
export function binaryName(version: string, target: Target): string;
export function hostLibc(report?: () => unknown): 'glibc' | 'musl';
export function hostTarget(platform?: string, arch?: string, libc?: string): Target | undefined;
