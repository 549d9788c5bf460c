// A deterministic PRNG (mulberry32): the same numbers for the same seed.
// One implementation, shared with the benchmark's generators.
export { mulberry32 as rng } from '../../scripts/lib/mulberry32.mjs';
