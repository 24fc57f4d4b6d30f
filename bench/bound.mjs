// What averaging can reach against judge-sim: the Pearson of a method that judges every answer k
// times, each judgment drawn from judge-sim's stated error model (the human grade's place on the
// question's scale plus --noise, new on every call, and --answer-noise, the same on every call, held
// to the scale) and that scores an answer by the mean of its judgments. The position bias is left
// out (debiasing cancels it), and so are the half-point rounding and the expected-score reading: the
// bound reads the judge's belief exactly. Every method of the quality bench scores an answer by the
// mean of its judgments, and under independent noise the error of a mean falls with its number of
// judgments alone (an even spread being the best spread), so a method of the bench is not expected
// to beat this figure at its own number of judgments per answer: a target above it is out of reach
// for averaging against judge-sim, whatever the pairing. Only another estimator (one that shrinks
// toward a prior, say) or a judge whose errors are not independent (a real model's) can pass it.
const { gaussian, seededRandom } = await import("../src/random/seeded.ts");
const { pearson } = await import("../src/metrics/correlation.ts");

/**
 * `judgments`: per answer, a mean (3.6: 60% of the answers judged 4 times, 40% 3 times).
 * `questions`: each with `sim: { lo, hi }` (the dataset's min_score and max_score, as judge-sim
 * reads them) and answers with `human`. Pooled Pearson, the mean of `reps` seeded draws.
 */
export function averagingBound(questions, judgments, { noise = 0.1, answerNoise = 0 } = {}, reps = 20, seed = 1) {
  if (!(judgments >= 1)) throw new RangeError(`judgments per answer must be at least 1, got ${judgments}`);
  const random = seededRandom(seed).next;
  const gauss = () => gaussian(random);
  let total = 0;
  for (let rep = 0; rep < reps; rep++) {
    const judged = [];
    const human = [];
    for (const q of questions) {
      const { lo, hi } = q.sim;
      const scale = hi > 0 ? hi : 100;
      for (const a of q.answers) {
        const latent = hi > lo ? (a.human - lo) / (hi - lo) : 0;
        const own = answerNoise * gauss();
        // an even spread of a mean that is not whole: floor or ceil judgments, in the right shares
        const k = Math.floor(judgments) + (random() < judgments - Math.floor(judgments) ? 1 : 0);
        let sum = 0;
        for (let j = 0; j < k; j++) sum += Math.min(scale, Math.max(0, scale * (latent + noise * gauss() + own)));
        judged.push(sum / k);
        human.push(a.human);
      }
    }
    total += pearson(judged, human);
  }
  return total / reps;
}
