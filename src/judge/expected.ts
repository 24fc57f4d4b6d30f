// Expected scores from the judge's token probabilities (G-Eval's weighting, AlpacaEval's logprob
// judges). Pure: the shell passes the reply and `choices[0].logprobs.content` of an OpenAI/vLLM chat
// completion requested with `logprobs: true, top_logprobs: 20`.
//
// Decisions:
// - Only the verdict counts: the scores are found where `locatePairwise`/`locateIndividual` read
//   them, the same verdict `parsePairwise`/`parseIndividual` return, so a number in the reasoning,
//   a draft inside <think>, or a quoted injection is never where the probabilities are read.
// - The tokens must spell the reply exactly (their `bytes`, or the token's UTF-8, concatenated);
//   anything else (missing, cut short, another text) gives null, never a guess.
// - At the token that writes a score's integer part, `top_logprobs` holds the judge's alternatives
//   (the written token is added when the list leaves it out). Alternatives that do not write a
//   number in 0..maxScore at the same place are dropped; the rest are renormalised; their expected
//   value is the score the judge believed. A list with no alternatives at all carries no belief:
//   null. When the integer part spans several tokens ("7" "3" for 73), each token's alternatives
//   of the same digit count are read as that place's digits (the other places as written), and
//   the places' expectations are added, as if independent: an approximation for tokenizers that
//   split numbers.
// - The fractional part: a half point is written as "3" "." "5", so the distribution is over the
//   integer part only. We take the expectation over that token, then hold it to the written score's
//   rounding cell [written - step/2, written + step/2] (within 0..maxScore): the expected score
//   never contradicts what the judge wrote, and it is continuous across cells. Adding the written
//   fraction to the expected integer part (or mixing it in by the written token's probability) jumps
//   by up to a half point between 3.5 and 4 written for the same belief; the cell does not. The cost:
//   a real model's first-token probabilities are over the integer part, so a sure "3.5" reads as 3.25,
//   never below its cell. With judge-sim, whose integer probabilities are centred on its continuous
//   grade, the expectation lands inside the cell and is kept as it is.
// - The spread (standard deviation of the renormalised distribution, before the cell) comes back
//   too: it is the judge's own uncertainty, which the confidence intervals use. Not where the top
//   alternatives left more than UNSEEN_FOR_SPREAD of the token's probability unlisted: a 0-100 scale
//   has 101 options and vLLM lists at most 20, so a broad belief is cut to its middle and its spread
//   reads as a fraction of the judge's (judge-sim's zh-en: about a third; the intervals built on it
//   covered 89% where they should 95%). The call's spread is then null, and the expectation, which a
//   cut that is about even on both sides moves little, is kept.
// - So does the expectation before it was held (`unheld`): at the top of the scale a judge that writes
//   5 while unsure has probabilities only at and below it, so its expectation falls to the cell's edge
//   (4.75) however unsure it was, and two such answers tie exactly. The unheld expectations still
//   tell them apart: the match breaks a tie of held scores with them (src/core/match.ts), while the
//   score shown stays in its cell.
import { locateIndividual, locatePairwise, type LocatedScore, type ParseContext, type ParseResult } from "./parse";
import type { Template } from "./templates";

/** One alternative at a token position, as OpenAI and vLLM return it. */
export interface TopLogprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
}

/** One entry of `choices[0].logprobs.content`. */
export interface TokenLogprob extends TopLogprob {
  top_logprobs?: TopLogprob[] | null;
}

export interface ScoreScale extends ParseContext {
  /** The scale's resolution: 0.5 where half points are allowed. */
  step: number;
}

/** The share of a score token's probability its listed alternatives may leave out before its spread is not read. */
export const UNSEEN_FOR_SPREAD = 0.1;

export interface ExpectedScores {
  /** One per score of the verdict, in the call's order: [x, y] pairwise, [x] pointwise. */
  expected: number[];
  /**
   * The standard deviation of the judge's distribution behind each score; null when the listed
   * alternatives left more than UNSEEN_FOR_SPREAD of any score token's probability out.
   */
  spread: number[] | null;
  /** Each expectation before it was held to its written score's cell: what breaks a tie of held scores. */
  unheld: number[];
}

/** The step of each template's scale: the exam prompts allow half points, the translation prompts ask for integers. */
export function scoreStep(template: Template): number {
  return template === "translation" ? 1 : 0.5;
}

/**
 * The expected score(s) of a reply's final verdict from the judge's token probabilities, or null when
 * they cannot be read: no logprobs, logprobs that do not spell the reply, no alternatives at a score,
 * or a reply the parser does not read. `kind` is the call's: two answers shown or one.
 */
export function expectedScores(
  reply: string,
  logprobs: readonly TokenLogprob[] | null | undefined,
  scale: ScoreScale,
  kind: "pairwise" | "pointwise",
): ExpectedScores | null {
  if (!Array.isArray(logprobs) || logprobs.length === 0) return null;
  if (!(scale.step > 0)) throw new RangeError(`step must be positive, got ${scale.step}`);
  const located: ParseResult<LocatedScore[]> = kind === "pairwise" ? locatePairwise(reply, scale) : oneOf(locateIndividual(reply, scale));
  if (!located.ok) return null;
  const tokens = alignedTokens(reply, logprobs);
  if (!tokens) return null;
  const expected: number[] = [];
  const spread: number[] = [];
  const unheld: number[] = [];
  let cut = false;
  for (const score of located.value) {
    if (!score.at) return null;
    const belief = beliefAt(reply, tokens, score, scale.maxScore);
    if (!belief) return null;
    const half = scale.step / 2;
    const low = Math.max(0, score.value - half);
    const high = Math.min(scale.maxScore, score.value + half);
    expected.push(Math.min(high, Math.max(low, belief.mean)));
    spread.push(Math.sqrt(belief.variance));
    unheld.push(belief.mean);
    if (belief.unseen > UNSEEN_FOR_SPREAD) cut = true;
  }
  return { expected, spread: cut ? null : spread, unheld };
}

function oneOf(r: ParseResult<LocatedScore>): ParseResult<LocatedScore[]> {
  return r.ok ? { ok: true, value: [r.value] } : r;
}

interface Token {
  entry: TokenLogprob;
  bytes: Uint8Array;
  /** Byte offset of the token in the reply. */
  start: number;
}

const encoder = new TextEncoder();
const bytesOf = (t: TopLogprob): Uint8Array => (Array.isArray(t.bytes) ? Uint8Array.from(t.bytes) : encoder.encode(t.token));

/** Whether the tokens spell the text exactly (their `bytes`, or the token's UTF-8), as a reply's must be read. */
export function spellsText(text: string, tokens: readonly TokenLogprob[]): boolean {
  return alignedTokens(text, tokens) !== null;
}

/** The tokens with their byte offsets, or null unless they spell the reply exactly. */
function alignedTokens(reply: string, logprobs: readonly TokenLogprob[]): Token[] | null {
  const text = encoder.encode(reply);
  const tokens: Token[] = [];
  let at = 0;
  for (const entry of logprobs) {
    if (entry === null || typeof entry !== "object" || typeof entry.token !== "string") return null;
    const bytes = bytesOf(entry);
    if (at + bytes.length > text.length) return null;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== text[at + i]) return null;
    tokens.push({ entry, bytes, start: at });
    at += bytes.length;
  }
  return at === text.length ? tokens : null;
}

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 48 && byte <= 57;

/** The judge's distribution over the integer part of one written score: its mean and variance. */
function beliefAt(reply: string, tokens: Token[], score: LocatedScore, maxScore: number): Belief | null {
  const { start } = score.at!;
  const integerDigits = /^\d+/.exec(reply.slice(start))?.[0];
  if (!integerDigits) return null;
  const from = encoder.encode(reply.slice(0, start)).length;
  const to = from + integerDigits.length; // digits are one byte each
  const covering = tokens.filter((t) => t.start < to && t.start + t.bytes.length > from);
  if (covering.length === 0) return null;
  if (covering.length === 1) return wholeNumber(covering[0], from, maxScore);
  let mean = 0;
  let variance = 0;
  let unseen = 0;
  for (const [i, t] of covering.entries()) {
    const first = Math.max(from, t.start);
    const last = Math.min(to, t.start + t.bytes.length);
    const place = 10 ** (to - last);
    const written = Number(integerDigits.slice(first - from, last - from));
    const rest = Number(integerDigits) - written * place;
    const digits = placeDigits(t, first - t.start, last - first, i === 0, i === covering.length - 1);
    // an alternative whose number would leave the scale, with the other places as written, is not on it
    const belief = distribution(t, digits, (d) => rest + d * place <= Math.floor(maxScore));
    if (!belief) return null;
    mean += belief.mean * place;
    variance += belief.variance * place * place;
    unseen = Math.max(unseen, belief.unseen);
  }
  return { mean, variance, unseen };
}

/**
 * The integer part is inside one token (possibly with more after it: "3." or "3.5"): each alternative
 * that writes the same text before the number and then a number, is that number.
 */
function wholeNumber(t: Token, from: number, maxScore: number): Belief | null {
  const prefix = t.bytes.subarray(0, from - t.start);
  const value = (alt: Uint8Array): number | null => {
    if (alt.length <= prefix.length || prefix.some((b, i) => alt[i] !== b)) return null;
    const number = /^\d+(?:[.,]\d+)?/.exec(latin1(alt.subarray(prefix.length)))?.[0];
    return number === undefined ? null : Number(number.replace(",", "."));
  };
  return distribution(t, value, (v) => v >= 0 && v <= maxScore);
}

/** Reads an alternative as `count` digits at `offset` (after the same prefix), or null. */
function placeDigits(t: Token, offset: number, count: number, leading: boolean, last: boolean) {
  const prefix = t.bytes.subarray(0, offset);
  return (alt: Uint8Array): number | null => {
    if (alt.length < offset + count || prefix.some((b, i) => alt[i] !== b)) return null;
    for (let i = offset; i < offset + count; i++) if (!isDigit(alt[i])) return null;
    // the number must end where the written one ends: no more digits, and nothing after a middle part
    if (isDigit(alt[offset + count]) || (!last && alt.length !== offset + count)) return null;
    if (leading && alt[offset] === 48) return null; // "0" before more digits is no way to write a score
    return Number(latin1(alt.subarray(offset, offset + count)));
  };
}

/** A score token's distribution: its mean and variance, and the probability its listed alternatives leave out. */
interface Belief {
  mean: number;
  variance: number;
  unseen: number;
}

/** The renormalised distribution of an entry's alternatives that read as valid values. */
function distribution(t: Token, read: (alt: Uint8Array) => number | null, valid: (v: number) => boolean): Belief | null {
  const alternatives = t.entry.top_logprobs;
  if (!Array.isArray(alternatives) || alternatives.length === 0) return null;
  const seen = new Set<string>();
  const weights = new Map<number, number>();
  // every listed token, a number or not: what the list leaves out is what a cut-off spread misses
  let listed = 0;
  // the written token itself, when the top list leaves it out, is one of the judge's options too
  for (const alt of [...alternatives, t.entry]) {
    if (alt === null || typeof alt !== "object" || typeof alt.token !== "string" || !(typeof alt.logprob === "number")) continue;
    const bytes = bytesOf(alt);
    const key = bytes.join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    const p = Math.exp(alt.logprob);
    if (!Number.isFinite(p)) continue;
    listed += p;
    const v = read(bytes);
    if (v === null || !valid(v)) continue;
    weights.set(v, (weights.get(v) ?? 0) + p);
  }
  let total = 0;
  for (const p of weights.values()) total += p;
  if (!(total > 0)) return null;
  let mean = 0;
  for (const [v, p] of weights) mean += (v * p) / total;
  let variance = 0;
  for (const [v, p] of weights) variance += ((v - mean) ** 2 * p) / total;
  return { mean, variance, unseen: Math.max(0, 1 - listed) };
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}
