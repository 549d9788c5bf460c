// Signs a 64-bit Mach-O executable ad hoc, as the linker does (what macOS
// needs to run it: an arm64 Mac runs no unsigned code, and a signature
// whose page hashes do not match kills the process on either CPU).
//
// Why kb needs it: `bun build --compile --target=bun-darwin-x64` (Bun 1.4.5,
// cross-compiling) appends kb to Bun's runtime but keeps the runtime's own
// Developer ID signature, which no longer matches the file (it covers the
// runtime's bytes only: scripts/lib/binfmt.mjs reports 75 pages out of
// 23,797 that do not match). The darwin-arm64 binary comes out correctly
// signed ad hoc; scripts/release.mjs re-signs a binary only when the check
// finds a problem, and checks it again after.
//
// The signature written is the linker's kind: one CodeDirectory (version
// 0x20400, flags adhoc and linker-signed, SHA-256 over 4 KiB pages up to the
// signature, the executable segment __TEXT), no requirements, no
// entitlements, no hardened runtime. It replaces the old one in place at the
// end of __LINKEDIT: the load commands are updated for its size first, so
// that the first page's hash covers them as they end up.

import { createHash } from 'node:crypto';

const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CPU_ARM64 = 0x0100000c;
const PAGE = 4096;
const CD_HEADER = 88; // the CodeDirectory's fields up to execSegFlags (version 0x20400)

function commands(buf) {
  if (buf.length < 32 || buf.readUInt32LE(0) !== 0xfeedfacf) throw new Error('not a 64-bit Mach-O file');
  const ncmds = buf.readUInt32LE(16);
  const out = { segments: {}, signature: undefined };
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    if (at + 8 > buf.length) throw new Error('the load commands run past the end of the file');
    const cmd = buf.readUInt32LE(at);
    if (cmd === LC_SEGMENT_64) out.segments[buf.toString('latin1', at + 8, at + 24).replace(/\0+$/, '')] = at;
    else if (cmd === LC_CODE_SIGNATURE) out.signature = at;
    at += buf.readUInt32LE(at + 4);
  }
  return out;
}

/** `buf` (a Mach-O executable) signed ad hoc with `identifier`: a new
 *  buffer. Throws when the file is not laid out as a linker lays it out
 *  (the signature last in __LINKEDIT, __LINKEDIT last in the file). */
export function adhocSign(buf, identifier) {
  const { segments, signature } = commands(buf);
  const linkedit = segments.__LINKEDIT;
  const text = segments.__TEXT;
  if (signature === undefined || linkedit === undefined || text === undefined) throw new Error('no LC_CODE_SIGNATURE, __LINKEDIT or __TEXT to sign');
  const dataoff = buf.readUInt32LE(signature + 8);
  const linkOff = Number(buf.readBigUInt64LE(linkedit + 40));
  const linkSize = Number(buf.readBigUInt64LE(linkedit + 48));
  if (dataoff < linkOff || linkOff + linkSize !== buf.length || dataoff % 16 !== 0) throw new Error('the code signature is not at the end of __LINKEDIT and of the file');
  const ident = Buffer.from(`${identifier}\0`, 'utf8');
  const nCode = Math.ceil(dataoff / PAGE);
  const hashOffset = CD_HEADER + ident.length;
  const cdLength = hashOffset + nCode * 32;
  const size = 20 + cdLength;
  const out = Buffer.alloc(dataoff + size);
  buf.copy(out, 0, 0, dataoff);
  // The load commands, for the new size.
  const vmPage = out.readUInt32LE(4) === CPU_ARM64 ? 0x4000 : 0x1000;
  const newLinkSize = dataoff + size - linkOff;
  out.writeUInt32LE(size, signature + 12);
  out.writeBigUInt64LE(BigInt(newLinkSize), linkedit + 48);
  out.writeBigUInt64LE(BigInt(Math.ceil(newLinkSize / vmPage) * vmPage), linkedit + 32);
  // The SuperBlob: one CodeDirectory.
  const sig = out.subarray(dataoff);
  sig.writeUInt32BE(0xfade0cc0, 0);
  sig.writeUInt32BE(20 + cdLength, 4);
  sig.writeUInt32BE(1, 8);
  sig.writeUInt32BE(0, 12); // CSSLOT_CODEDIRECTORY
  sig.writeUInt32BE(20, 16);
  const cd = sig.subarray(20, 20 + cdLength);
  cd.writeUInt32BE(0xfade0c02, 0);
  cd.writeUInt32BE(cdLength, 4);
  cd.writeUInt32BE(0x20400, 8); // version
  cd.writeUInt32BE(0x20002, 12); // CS_ADHOC | CS_LINKER_SIGNED
  cd.writeUInt32BE(hashOffset, 16);
  cd.writeUInt32BE(CD_HEADER, 20); // identOffset
  cd.writeUInt32BE(0, 24); // nSpecialSlots
  cd.writeUInt32BE(nCode, 28);
  cd.writeUInt32BE(dataoff, 32); // codeLimit
  cd[36] = 32; // hashSize
  cd[37] = 2; // SHA-256
  cd[38] = 0; // platform
  cd[39] = 12; // log2(page size)
  // spare2, scatterOffset, teamOffset, spare3, codeLimit64: zero.
  cd.writeBigUInt64BE(out.readBigUInt64LE(text + 40), 64); // execSegBase
  cd.writeBigUInt64BE(out.readBigUInt64LE(text + 48), 72); // execSegLimit
  cd.writeBigUInt64BE(1n, 80); // CS_EXECSEG_MAIN_BINARY
  ident.copy(cd, CD_HEADER);
  for (let i = 0; i < nCode; i++) {
    const page = out.subarray(i * PAGE, Math.min((i + 1) * PAGE, dataoff));
    createHash('sha256').update(page).digest().copy(cd, hashOffset + i * 32);
  }
  return out;
}
