// Types of scripts/lib/mulberry32.mjs.

/** The numbers in [0, 1) of `seed`: the same numbers for the same seed. */
export function mulberry32(seed: number): () => number;
