// A tiny seeded PRNG so that bootstrap intervals and benchmark schedules are reproducible from a
// seed, identically in a Worker and in Node (Math.random cannot be seeded).
//
// sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, 128-bit state, passes PractRand) is
// seeded through splitmix32 so that nearby seeds (0, 1, 2, ...) give unrelated streams.

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  nextInt(n: number): number;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Seeds may be any finite number; non-integers are truncated and taken modulo 2^32. */
export function seededRandom(seed: number): Random {
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  const mix = splitmix32(Math.trunc(seed) % 0x1_0000_0000);
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const nextUint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // Discard the first outputs: the counting generator needs a few rounds to mix its seed.
  for (let i = 0; i < 12; i++) nextUint32();
  const next = (): number => nextUint32() / 0x1_0000_0000;
  return {
    next,
    // Bias from flooring is < n / 2^32, negligible for resampling and instance schedules.
    nextInt: (n: number) => Math.floor(next() * n),
  };
}
