/**
 * The Wilson score interval of a share: `count` successes of `of` trials, at 95% by default. Unlike the
 * normal approximation it stays inside [0, 1] and is honest at 0/n and n/n, which small evaluations
 * (a dozen debiased matches) give often. Null for no trials. Pure.
 */
export function wilsonInterval(count: number, of: number, z = 1.959963984540054): [number, number] | null {
  if (!(of > 0) || count < 0 || count > of) return null;
  const p = count / of;
  const z2 = z * z;
  const centre = (p + z2 / (2 * of)) / (1 + z2 / of);
  const half = (z / (1 + z2 / of)) * Math.sqrt((p * (1 - p)) / of + z2 / (4 * of * of));
  // exact at the edges, where rounding would leave 0.9999999999999999
  return [count === 0 ? 0 : Math.max(0, centre - half), count === of ? 1 : Math.min(1, centre + half)];
}
