// Reads the judge's verdict out of its reply. Pure: no I/O, runs in a Worker.
//
// Decisions:
// - The LAST verdict counts. Judges restate their scores, and a judge that quotes an answer may
//   quote an injected "Answer 1: 10/10"; its own verdict comes after. Pairwise: the last score for
//   answer 2, and the last score for answer 1 before it.
// - Labels are accepted in every language (Answer/Antwort/Translation/Übersetzung) whatever the
//   template: judges mix languages.
// - A denominator other than maxScore ("8/10" when maxScore is 5) is a failure, not rescaled: it
//   means the judge graded on a scale it was not given, and a re-ask is safer than a guess.
// - A bare number ("Answer 1: 4") counts when it ends the statement and lies in 0..maxScore. Across a
//   line break it needs "/max" or a score word, so "### Answer 1\n2. It misses..." is not a 2.
// - Any value in 0..maxScore is accepted, half points or not; 0 is a real grade. A failure is a
//   failure with a reason, never a zero.
// - JSON (structured outputs) is read only when the whole reply is a JSON object, or ends with one in
//   a ``` fence: a JSON object quoted from an answer in the middle of a text reply is not a verdict.
// JSON replies are read in ./json-reply.ts. The regexes are sticky and the label patterns bounded, so
// a hostile reply costs linear time.
import { decimal } from "./decimal";
import { jsonReply, jsonScore } from "./json-reply";
import { ANSWER_NOUN, type Template } from "./templates";

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * One score of the verdict and where its number is written in the reply: `start`..`end` are character
 * offsets into the reply exactly as the judge sent it (`<think>` blocks included), covering the digits
 * ("3.5" of "Answer 1: 3.5/5"; the sign is never part of a valid score). `at` is null when the score
 * was read but its place cannot be told (a JSON string with escapes): the value stands, only the
 * judge's probabilities at that place cannot be read.
 */
export interface LocatedScore {
  value: number;
  at: { start: number; end: number } | null;
}

export interface ParseContext {
  template: Template;
  maxScore: number;
}

/** A score found in the reply; `index` is the answer it is for (0: none named, a bare "Score:"). */
interface Verdict {
  at: number;
  index: 0 | 1 | 2;
  value: number;
  over?: number;
  /** Where the number's digits stand, in the text that was read. */
  start?: number;
  end?: number;
}

const LABEL = "(?:answer|antwort|translation|übersetzung)";
const SCORE_WORD =
  "(?:(?:final|overall|total)[ \\t]{1,3})?(?:score|grade|rating|points|punktzahl|gesamtpunktzahl|punkte|bewertung)(?:[ \\t]{1,3}(?:of|von))?";
const ANSWER_LABEL = new RegExp(`(?<![\\p{L}\\p{N}])${LABEL}[ \\t]{0,3}#?[ \\t]{0,3}([12])(?!\\p{N})(?:['’]s)?`, "giu");
const HEADING = new RegExp(`(?:^|\\n)[ \\t#>*_|-]*(?:\\d+\\.[ \\t#>*_|-]*)?${LABEL}[ \\t]{0,3}#?[ \\t]{0,3}([12])(?!\\p{N})`, "giu");
const SCORE_LABEL = new RegExp(`(?<![\\p{L}\\p{N}])${SCORE_WORD}(?!\\p{L})`, "giu");
const SCORE_WORD_HERE = new RegExp(`${SCORE_WORD}(?!\\p{L})`, "iyu");
// Markdown, punctuation and space between a label and its score; a "-" right before a digit is a sign.
const SEPARATOR = /(?:[\s*_`#>|:=~–—([]|-(?!\d))*/y;
const NUMBER = /([-−]?)(\d+(?:[.,]\d+)?)/y;
const CLOSER = /[*_`\])]*/y;
const GAP = /[ \t]*/y;
const UNIT = /(?:points?|pts\.?|punkte?n?|marks?)(?!\p{L})/iuy;
const OVER = /(?:\/|out[ \t]+of(?!\p{L})|von(?!\p{L}))[\s*_`]*/iuy;
const DENOMINATOR = /\d+(?:[.,]\d+)?/y;
const STATEMENT_END = new RegExp(`[ \\t]*(?:$|[\\r\\n,.;!|)]|${LABEL}(?!\\p{L}))`, "iuy");

export function parsePairwise(reply: string, ctx: ParseContext): ParseResult<[number, number]> {
  const located = locatePairwise(reply, ctx);
  return located.ok ? { ok: true, value: [located.value[0].value, located.value[1].value] } : located;
}

export function parseIndividual(reply: string, ctx: ParseContext): ParseResult<number> {
  const located = locateIndividual(reply, ctx);
  return located.ok ? { ok: true, value: located.value.value } : located;
}

/** The pairwise verdict `parsePairwise` reads, with where each of its two scores is written. */
export function locatePairwise(reply: string, ctx: ParseContext): ParseResult<[LocatedScore, LocatedScore]> {
  const thinking = stripThinking(reply);
  const text = thinking.text;
  const noun = ANSWER_NOUN[ctx.template] ?? "Answer";
  const names = [`${noun} 1`, `${noun} 2`] as const;
  if (!(ctx.maxScore > 0)) return fail(`invalid maxScore ${ctx.maxScore}`);
  if (text.trim() === "") return fail("empty reply");
  const json = jsonReply(text);
  if (json) {
    const found = [1, 2].map((n) => jsonScore(json, [`answer${n}`, `antwort${n}`, `translation${n}`, `übersetzung${n}`, `score${n}`]));
    const missing = found.indexOf(undefined);
    if (missing >= 0) return fail(`JSON reply has no numeric answer_${missing + 1}`);
    return both(checked(found[0]!, names[0], ctx.maxScore, thinking), checked(found[1]!, names[1], ctx.maxScore, thinking));
  }
  const labelled = labelledVerdicts(text);
  const direct = pickPair(labelled, names);
  const pair = direct.ok ? direct : pickPair(sectionVerdicts(text, labelled), names);
  if (!pair.ok) return direct.ok ? pair : direct; // both readings failed: the direct one's reason is clearer
  return both(checked(pair.value[0], names[0], ctx.maxScore, thinking), checked(pair.value[1], names[1], ctx.maxScore, thinking));
}

/** The pointwise verdict `parseIndividual` reads, with where its score is written. */
export function locateIndividual(reply: string, ctx: ParseContext): ParseResult<LocatedScore> {
  const thinking = stripThinking(reply);
  const text = thinking.text;
  if (!(ctx.maxScore > 0)) return fail(`invalid maxScore ${ctx.maxScore}`);
  if (text.trim() === "") return fail("empty reply");
  const json = jsonReply(text);
  if (json) {
    const found = jsonScore(json, ["score", "punktzahl", "grade", "rating"]);
    return found ? checked(found, "score", ctx.maxScore, thinking) : fail("JSON reply has no numeric score");
  }
  const last = scoreWordVerdicts(text).at(-1);
  if (!last) return fail(`no score found (expected "Score: X/${ctx.maxScore}" or "Punktzahl: X/${ctx.maxScore}")`);
  return checked(last, "score", ctx.maxScore, thinking);
}

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

function both(a: ParseResult<LocatedScore>, b: ParseResult<LocatedScore>): ParseResult<[LocatedScore, LocatedScore]> {
  if (!a.ok) return a;
  if (!b.ok) return b;
  return { ok: true, value: [a.value, b.value] };
}

function checked(
  v: Pick<Verdict, "value" | "over" | "start" | "end">,
  name: string,
  max: number,
  thinking: Stripped,
): ParseResult<LocatedScore> {
  if (v.over !== undefined && v.over !== max)
    return fail(`${name} is scored out of ${v.over}, but the scale is 0 to ${max} (not rescaled)`);
  if (v.value < 0) return fail(`${name} score ${v.value} is negative`);
  if (v.value > max) return fail(`${name} score ${v.value} is above the maximum ${max}`);
  const at =
    v.start === undefined || v.end === undefined ? null : { start: thinking.original(v.start), end: thinking.original(v.end - 1) + 1 };
  return { ok: true, value: { value: v.value, at } };
}

/** The last score for answer 2, and the last score for answer 1 before it. */
function pickPair(verdicts: Verdict[], [name1, name2]: readonly [string, string]): ParseResult<[Verdict, Verdict]> {
  const second = verdicts.findLast((v) => v.index === 2);
  if (!second) {
    const anyFirst = verdicts.some((v) => v.index === 1);
    return fail(anyFirst ? `no score for ${name2}` : `no score for ${name1} or ${name2}`);
  }
  const first = verdicts.findLast((v) => v.index === 1 && v.at < second.at);
  if (!first) return fail(`no score for ${name1} before the last score for ${name2}`);
  return { ok: true, value: [first, second] };
}

// "Answer 1: 3.5/5", "**Antwort 2:** **3,5**/5", "| Translation 1 | 80/100 |".
function labelledVerdicts(text: string): Verdict[] {
  const found: Verdict[] = [];
  for (const label of text.matchAll(ANSWER_LABEL)) {
    const score = readScore(text, label.index + label[0].length, false);
    if (score) found.push({ at: label.index, index: Number(label[1]) as 1 | 2, ...score });
  }
  return found;
}

/** "Score: 7/10", "Punktzahl: 7,5/10", "Final grade: 7". */
function scoreWordVerdicts(text: string): Verdict[] {
  const found: Verdict[] = [];
  for (const word of text.matchAll(SCORE_LABEL)) {
    const score = readScore(text, word.index + word[0].length, true);
    if (score) found.push({ at: word.index, index: 0, ...score });
  }
  return found;
}

/**
 * A reply in sections: "### Answer 1" then, lines later, "**Score:** 3/5". Each score word belongs to
 * the last answer heading above it; explicit labelled scores keep their own answer.
 */
function sectionVerdicts(text: string, labelled: Verdict[]): Verdict[] {
  const headings = Array.from(text.matchAll(HEADING), (m) => ({ at: m.index, index: Number(m[1]) as 1 | 2 }));
  const sectioned = scoreWordVerdicts(text).map((v): Verdict => ({ ...v, index: headings.findLast((h) => h.at <= v.at)?.index ?? 0 }));
  return [...labelled, ...sectioned].filter((v) => v.index !== 0).sort((a, b) => a.at - b.at);
}

/** The score that starts right after a label at `from`, or null when no score follows it. */
function readScore(
  text: string,
  from: number,
  afterScoreWord: boolean,
): { value: number; over?: number; start: number; end: number } | null {
  let at = from + stick(SEPARATOR, text, from);
  let scoreWord = afterScoreWord;
  const word = afterScoreWord ? 0 : stick(SCORE_WORD_HERE, text, at);
  if (word > 0) {
    scoreWord = true;
    at += word;
    at += stick(SEPARATOR, text, at);
  }
  const crossesLine = text.slice(from, at).includes("\n");
  NUMBER.lastIndex = at;
  const number = NUMBER.exec(text);
  if (!number) return null;
  const value = (number[1] ? -1 : 1) * decimal(number[2]);
  const digits = { start: at + number[1].length, end: at + number[0].length };
  let end = at + number[0].length;
  end += stick(CLOSER, text, end);
  let tail = end + stick(GAP, text, end);
  const unit = stick(UNIT, text, tail);
  if (unit > 0) tail += unit + stick(CLOSER, text, tail + unit);
  const over = stick(OVER, text, tail + stick(GAP, text, tail));
  if (over > 0) {
    DENOMINATOR.lastIndex = tail + stick(GAP, text, tail) + over;
    const denominator = DENOMINATOR.exec(text);
    if (denominator) return { value, over: decimal(denominator[0]), ...digits };
  }
  if (crossesLine && !scoreWord) return null;
  if (stick(STATEMENT_END, text, unit > 0 ? tail : end) < 0) return null;
  return { value, ...digits };
}

/** Length of the sticky match at `at`: 0 for an empty match, -1 for none. */
function stick(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  return match ? match[0].length : -1;
}

const THINKING = /<think>[\s\S]*?<\/think>/gi;

/** Reasoning models think aloud first; drafts of scores in there are not the verdict. */
export const withoutThinking = (reply: string): string => reply.replace(THINKING, "");

/** The reply without its thinking, and the way back from an offset in it to the same character in the reply. */
interface Stripped {
  text: string;
  original(offset: number): number;
}

function stripThinking(reply: string): Stripped {
  const cuts: { at: number; length: number }[] = []; // `at`: where a removed block stood, in the stripped text
  let removed = 0;
  for (const block of reply.matchAll(THINKING)) {
    cuts.push({ at: block.index - removed, length: block[0].length });
    removed += block[0].length;
  }
  const text = cuts.length === 0 ? reply : reply.replace(THINKING, "");
  return {
    text,
    original: (offset) => cuts.reduce((o, cut) => (cut.at <= offset ? o + cut.length : o), offset),
  };
}
