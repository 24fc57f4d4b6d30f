// Ranks from ratings, 1 = best, with standard competition ranking ("1224"): tied players share
// the best rank of their group and the next player skips, so a rank always says how many players
// are strictly better. Ratings within 1e-9 (relative) count as tied, because symmetric players
// of an iterative fit (Bradley-Terry) differ in the last bits.

const TIE_TOLERANCE = 1e-9;

export function rankByRating(ratings: ReadonlyMap<string, number>): Map<string, number> {
  const ordered = [...ratings.entries()].sort(([pa, ra], [pb, rb]) => rb - ra || (pa < pb ? -1 : pa > pb ? 1 : 0));
  const ranks = new Map<string, number>();
  ordered.forEach(([player, rating], position) => {
    const previous = position > 0 ? ordered[position - 1] : undefined;
    const tied = previous !== undefined && Math.abs(previous[1] - rating) <= TIE_TOLERANCE * Math.max(1, Math.abs(rating));
    ranks.set(player, tied ? ranks.get(previous[0])! : position + 1);
  });
  return ranks;
}
