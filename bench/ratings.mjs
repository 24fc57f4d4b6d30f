// `npm run bench -- --only ratings`: what the largest POST /v1/ratings the service admits costs in CPU,
// computed as the route computes it (rateTournament with the service's Bradley-Terry budget), in this
// process, no service started. Three shapes at the cap of games x bootstrap samples (500 players, the
// most a request may name): many samples, many games, and a line of players that Bradley-Terry's MM
// never settles; and 300 players, where a Newton step is dearest, with the samples that fit
// (src/ratings/request-cost.ts). And Glicko-2 against Elo on the same games, one rating period a
// game: both visit each game once, so Glicko-2 should cost a small multiple of Elo, not players times
// more.
import "../scripts/ts-resolve.mjs";

const { rateTournament } = await import("../src/ratings/index.ts");
const { ratingLimits } = await import("../src/contract/limits.ts");
const { seededRandom } = await import("../src/random/seeded.ts");
const { samplesThatFit } = await import("../src/ratings/request-cost.ts");

/** Seeded games between `players` players, one period each (no rounds). */
function randomGames(count, players, seed) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const a = random.nextInt(players);
    const b = (a + 1 + random.nextInt(players - 1)) % players;
    return { a: `p${a}`, b: `p${b}`, outcome: [0, 0.5, 1][random.nextInt(3)] };
  });
}

function timed(work) {
  const start = performance.now();
  const out = work();
  return { ms: performance.now() - start, out };
}

export function ratingsBench({ report }) {
  const budget = { bradleyTerryWork: ratingLimits.bradleyTerryWork };
  const cap = ratingLimits.maxGameSamples;
  const line = Array.from({ length: 499 }, (_, i) => [1, 0, 1].map((outcome) => ({ a: `p${i}`, b: `p${i + 1}`, outcome }))).flat();
  const shapes = [
    { label: "10,000 games of 500 players, 99 samples", games: randomGames(10_000, 500, 1), samples: 99 },
    { label: "100,000 games of 500 players, 9 samples", games: randomGames(100_000, 500, 2), samples: 9 },
    {
      label: `a line of 500 players (${line.length} games), ${Math.floor(cap / line.length)} samples`,
      games: line,
      samples: Math.floor(cap / line.length),
    },
  ];
  // Newton's side of Bradley-Terry at its most costly step: 300 players, a cycle and random games
  const newton = randomGames(200, 300, 4).concat(
    Array.from({ length: 300 }, (_, i) => ({ a: `p${i}`, b: `p${(i + 1) % 300}`, outcome: 1 })),
  );
  const fit = samplesThatFit(newton, undefined).samples;
  shapes.push({ label: `300 players in 500 games, the ${fit} samples that fit`, games: newton, samples: fit });
  for (const { label, games, samples } of shapes) {
    if (games.length * samples > cap) throw new Error(`${label}: over the cap`);
    const { ms, out } = timed(() => rateTournament(games, { bootstrap: { samples, seed: 1 }, ...budget }));
    report(
      `ratings: ${label}`,
      `${(ms / 1000).toFixed(2)} s of CPU for the four systems (Bradley-Terry converged: ${out.systems.bradleyTerry.converged})`,
      ms / 10_000,
      "<= 1 (10 s; a Worker allows 30 s by default)",
    );
  }
  const games = randomGames(10_000, 500, 3);
  const elo = timed(() => rateTournament(games, { systems: ["elo"], bootstrap: false }));
  const glicko = timed(() => rateTournament(games, { systems: ["glicko2"], bootstrap: false }));
  report(
    "ratings: Glicko-2 against Elo, 10,000 games of 500 players, a period a game",
    `${glicko.ms.toFixed(0)} ms against ${elo.ms.toFixed(0)} ms`,
    glicko.ms / elo.ms,
    "<= 5",
  );
}
