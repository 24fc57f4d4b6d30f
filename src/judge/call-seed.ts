// The `seed` every judge call sends (vLLM's and OpenAI's sampling seed), derived from the evaluation's
// seed and the call's place alone, so a rerun of the evaluation asks the judge exactly what the first
// run asked. Pure.

/**
 * How the seed is chosen, as results report it: one per (evaluation seed, match, call, parse attempt).
 * A transport retry of one attempt keeps its seed (the judge never answered; the same question is
 * asked again). A parse retry gets the next seed: at a fixed seed a sampling judge writes the same
 * unreadable reply again, so asking it again would be no retry at all. A rerun asks attempt for
 * attempt what the first run asked.
 */
export const SEED_POLICY = "per-call: hash(evaluation seed, match, call, parse attempt); feedback: hash(evaluation seed, answer, attempt)";

/**
 * The seed of one attempt of one call: a non-negative 31-bit integer (vLLM takes any int; some
 * OpenAI-compatible servers refuse 64-bit values). `attempt` counts parse attempts from 1.
 */
export function callSeed(evaluationSeed: number, match: number, call: number, attempt: number): number {
  for (const [name, v] of [
    ["evaluationSeed", evaluationSeed],
    ["match", match],
    ["call", call],
    ["attempt", attempt],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
  }
  let h = mix(evaluationSeed | 0, 0x5eed);
  h = mix(h, match);
  h = mix(h, call);
  h = mix(h, attempt);
  return h >>> 1;
}

/**
 * The seed of an answer's feedback call (`answer`: its position in the evaluation's answers), apart
 * from every tournament call's: the same rule, on a stream of its own.
 */
export function feedbackSeed(evaluationSeed: number, answer: number, attempt: number): number {
  return callSeed(evaluationSeed, answer, FEEDBACK_STREAM, attempt);
}

/** The `call` place of feedback calls: no match has this many calls (a match has one or two). */
const FEEDBACK_STREAM = 0xfeed;

/** A murmur3-style finaliser over (h, v): every input bit moves about half the output bits. */
function mix(h: number, v: number): number {
  let x = Math.imul(h ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul((v | 0) + 1, 0xc2b2ae35);
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x;
}
