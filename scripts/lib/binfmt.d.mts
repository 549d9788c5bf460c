// Types of scripts/lib/binfmt.mjs, for the tests.

export interface Signature {
  identifier: string;
  adhoc: boolean;
  flags: number;
  hash: string;
  pageSize: number;
  pages: number;
  problems: string[];
}
export interface Binary {
  format: 'elf' | 'pe' | 'macho';
  os: 'linux' | 'win32' | 'darwin';
  machine: string;
  executable?: boolean;
  interpreter?: string;
  subsystem?: string;
  main?: boolean;
  segments?: { name: string; fileoff: number; filesize: number }[];
  signature?: Signature;
}
export function readBinary(buf: Buffer): Binary;
export function readElf(buf: Buffer): Binary;
export function readPe(buf: Buffer): Binary;
export function readMachO(buf: Buffer): Binary;
export function codeSignature(buf: Buffer, at: { offset: number; size: number }): Signature;
