// Reads the headers of kb's release binaries, to check a binary that cannot
// run here (scripts/smoke.mjs): ELF (Linux), PE (Windows) and Mach-O
// (macOS), and the ad-hoc code signature of a Mach-O binary, whose every
// page hash is checked as the macOS kernel checks them when it maps a page
// (an arm64 Mac runs no unsigned code; a page whose hash is wrong kills the
// process). Dependency-free; every reader is bounded by the file it reads
// and throws on a header that does not fit in it.

import { createHash } from 'node:crypto';

/** What a binary is: its format, machine and the details each checks. */
export function readBinary(buf) {
  if (buf.length >= 4 && buf.readUInt32BE(0) === 0x7f454c46) return readElf(buf);
  if (buf.length >= 2 && buf.toString('latin1', 0, 2) === 'MZ') return readPe(buf);
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0xfeedfacf) return readMachO(buf);
  throw new Error('not an ELF, PE or 64-bit Mach-O file');
}

function need(buf, end, what) {
  if (!Number.isSafeInteger(end) || end > buf.length) throw new Error(`${what} lies past the end of the file (${end} > ${buf.length})`);
}

const ELF_MACHINES = { 62: 'x64', 183: 'arm64' };

/** ELF: 64-bit little-endian, its machine, and its program interpreter
 *  (which names the C library: glibc's ld-linux, or musl's ld-musl). */
export function readElf(buf) {
  need(buf, 64, 'the ELF header');
  if (buf[4] !== 2 || buf[5] !== 1) throw new Error('not a 64-bit little-endian ELF file');
  const machine = ELF_MACHINES[buf.readUInt16LE(0x12)] ?? `machine ${buf.readUInt16LE(0x12)}`;
  const type = buf.readUInt16LE(0x10);
  const phoff = Number(buf.readBigUInt64LE(0x20));
  const phentsize = buf.readUInt16LE(0x36);
  const phnum = buf.readUInt16LE(0x38);
  need(buf, phoff + phentsize * phnum, 'the program headers');
  let interpreter;
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (buf.readUInt32LE(at) !== 3) continue; // PT_INTERP
    const off = Number(buf.readBigUInt64LE(at + 8));
    const size = Number(buf.readBigUInt64LE(at + 0x20));
    need(buf, off + size, 'the interpreter');
    interpreter = buf.toString('latin1', off, off + size).replace(/\0+$/, '');
  }
  return { format: 'elf', os: 'linux', machine, executable: type === 2 || type === 3, interpreter };
}

const PE_MACHINES = { 0x8664: 'x64', 0xaa64: 'arm64' };
const PE_SUBSYSTEMS = { 2: 'gui', 3: 'console' };

/** PE: PE32+, its machine, and its subsystem (a console program gets the
 *  console it was started from; a GUI one would get none). */
export function readPe(buf) {
  need(buf, 0x40, 'the DOS header');
  const pe = buf.readUInt32LE(0x3c);
  need(buf, pe + 24 + 70, 'the PE header');
  if (buf.readUInt32BE(pe) !== 0x50450000) throw new Error('no PE signature');
  const machineId = buf.readUInt16LE(pe + 4);
  const optional = pe + 24;
  if (buf.readUInt16LE(optional) !== 0x20b) throw new Error('not a PE32+ (64-bit) file');
  const subsystemId = buf.readUInt16LE(optional + 68);
  return {
    format: 'pe',
    os: 'win32',
    machine: PE_MACHINES[machineId] ?? `machine 0x${machineId.toString(16)}`,
    subsystem: PE_SUBSYSTEMS[subsystemId] ?? `subsystem ${subsystemId}`,
  };
}

const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const LC_MAIN = 0x80000028;

/** Mach-O (64-bit): its CPU, file type, segments, entry point and code
 *  signature (checked: codeSignature below). */
export function readMachO(buf) {
  need(buf, 32, 'the Mach-O header');
  const cpu = buf.readUInt32LE(4);
  const filetype = buf.readUInt32LE(12);
  const ncmds = buf.readUInt32LE(16);
  const sizeofcmds = buf.readUInt32LE(20);
  need(buf, 32 + sizeofcmds, 'the load commands');
  const segments = [];
  let main = false;
  let signature;
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    need(buf, at + 8, 'a load command');
    const cmd = buf.readUInt32LE(at);
    const size = buf.readUInt32LE(at + 4);
    if (size < 8 || at + size > 32 + sizeofcmds) throw new Error(`load command ${i} has a bad size (${size})`);
    if (cmd === LC_SEGMENT_64) {
      segments.push({
        name: buf.toString('latin1', at + 8, at + 24).replace(/\0+$/, ''),
        fileoff: Number(buf.readBigUInt64LE(at + 40)),
        filesize: Number(buf.readBigUInt64LE(at + 48)),
      });
    } else if (cmd === LC_MAIN) main = true;
    else if (cmd === LC_CODE_SIGNATURE) signature = { offset: buf.readUInt32LE(at + 8), size: buf.readUInt32LE(at + 12) };
    at += size;
  }
  return {
    format: 'macho',
    os: 'darwin',
    machine: MACHO_CPUS[cpu] ?? `cpu 0x${cpu.toString(16)}`,
    executable: filetype === 2, // MH_EXECUTE
    main,
    segments,
    signature: signature && codeSignature(buf, signature),
  };
}

const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_ADHOC = 0x2;
const HASHES = { 1: ['sha1', 20], 2: ['sha256', 32] };

/** The code signature at `offset`: its CodeDirectory's identifier, flags and
 *  hash, and the problems found checking it: every page hash (code slots)
 *  and the hashes of the blobs beside it (special slots), against the
 *  bytes they cover; an empty `problems` is a signature macOS accepts as
 *  far as the file's own bytes go. */
export function codeSignature(buf, { offset, size }) {
  need(buf, offset + size, 'the code signature');
  const sig = buf.subarray(offset, offset + size);
  need(sig, 12, 'the signature header');
  if (sig.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error('the code signature is not an embedded signature');
  const count = sig.readUInt32BE(8);
  need(sig, 12 + count * 8, 'the signature index');
  const blobs = new Map();
  for (let i = 0; i < count; i++) {
    const type = sig.readUInt32BE(12 + i * 8);
    const at = sig.readUInt32BE(16 + i * 8);
    need(sig, at + 8, `signature blob ${type}`);
    const length = sig.readUInt32BE(at + 4);
    need(sig, at + length, `signature blob ${type}`);
    if (!blobs.has(type)) blobs.set(type, sig.subarray(at, at + length));
  }
  const cd = blobs.get(0);
  if (!cd || cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) throw new Error('the code signature has no CodeDirectory');
  return checkDirectory(buf, cd, blobs, offset);
}

function checkDirectory(buf, cd, blobs, signatureOffset) {
  need(cd, 44, 'the CodeDirectory');
  const flags = cd.readUInt32BE(12);
  const hashOffset = cd.readUInt32BE(16);
  const identOffset = cd.readUInt32BE(20);
  const nSpecial = cd.readUInt32BE(24);
  const nCode = cd.readUInt32BE(28);
  const codeLimit = cd.readUInt32BE(32);
  const hashSize = cd[36];
  const hashType = cd[37];
  const pageSize = cd[39] === 0 ? 0 : 2 ** cd[39];
  const [algorithm, length] = HASHES[hashType] ?? [];
  if (!algorithm || length !== hashSize) throw new Error(`the CodeDirectory has an unknown hash (type ${hashType}, size ${hashSize})`);
  need(cd, hashOffset + nCode * hashSize, 'the code slots');
  if (hashOffset < nSpecial * hashSize) throw new Error('the special slots lie before the CodeDirectory');
  const end = cd.indexOf(0, identOffset);
  const identifier = cd.toString('utf8', identOffset, end === -1 ? cd.length : end);
  const problems = [];
  if (codeLimit !== signatureOffset) problems.push(`the signature covers ${codeLimit} bytes, not the ${signatureOffset} before it`);
  const expected = pageSize === 0 ? 1 : Math.ceil(codeLimit / pageSize);
  if (nCode !== expected) problems.push(`${nCode} page hashes for ${expected} pages`);
  const hash = (bytes) => createHash(algorithm).update(bytes).digest();
  let bad = 0;
  for (let i = 0; i < Math.min(nCode, expected); i++) {
    const from = pageSize === 0 ? 0 : i * pageSize;
    const to = pageSize === 0 ? codeLimit : Math.min(from + pageSize, codeLimit);
    const slot = cd.subarray(hashOffset + i * hashSize, hashOffset + (i + 1) * hashSize);
    if (!hash(buf.subarray(from, to)).equals(slot)) bad++;
  }
  if (bad > 0) problems.push(`${bad} of ${nCode} pages do not match their hash`);
  for (const [type, blob] of blobs) {
    if (type < 2 || type > 7 || type > nSpecial) continue;
    const slot = cd.subarray(hashOffset - type * hashSize, hashOffset - (type - 1) * hashSize);
    if (!hash(blob).equals(slot)) problems.push(`signature blob ${type} does not match its hash`);
  }
  return { identifier, adhoc: (flags & CS_ADHOC) !== 0, flags, hash: algorithm, pageSize, pages: nCode, problems };
}
