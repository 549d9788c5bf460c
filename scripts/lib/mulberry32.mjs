// mulberry32: a small, fast, seeded 32-bit PRNG, the one the benchmark's
// generators, the test vaults and the tests' random cases share (plain
// JavaScript, so that Node.js scripts and Bun's tests both import it).

/** The numbers in [0, 1) of `seed`: the same numbers for the same seed. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
