// A short, stable name for a cache file (kb/search/cache.ts, kb/fs/head-cache.ts).

/** 128 bits of `text` as 32 hex digits: four 32-bit FNV-1a hashes of its
 *  UTF-16 code units with different seeds, each finished by MurmurHash3's
 *  mix. A file name, not a secret (the header names its subjects directory,
 *  checked on reading): node:crypto would cost every search about 4 ms to
 *  import. */
export function hash128(text: string): string {
  let out = '';
  for (const seed of [0x811c9dc5, 0x9e3779b9, 0x85ebca6b, 0xc2b2ae35]) {
    let h = seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ text.length, 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}
