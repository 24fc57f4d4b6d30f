import { describe, expect, it } from "vitest";
import { expectedScores, scoreStep, type ScoreScale, type TokenLogprob, UNSEEN_FOR_SPREAD } from "../../../src/judge/expected";
import { seededRandom } from "../../../src/random/seeded";

// Logprobs as vLLM returns them for chat completions. A plain string is a token the judge was sure
// of; a Scored token carries the judge's probabilities over alternatives at that place.
interface Scored {
  token: string;
  alternatives: Record<string, number>;
}
type Part = string | Scored;

const encoder = new TextEncoder();

function logprobs(parts: Part[]): { text: string; content: TokenLogprob[] } {
  const content = parts.map((p): TokenLogprob => {
    if (typeof p === "string")
      return {
        token: p,
        logprob: 0,
        bytes: [...encoder.encode(p)],
        top_logprobs: [{ token: p, logprob: 0, bytes: [...encoder.encode(p)] }],
      };
    const top = Object.entries(p.alternatives)
      .sort((x, y) => y[1] - x[1])
      .map(([token, prob]) => ({ token, logprob: Math.log(prob), bytes: [...encoder.encode(token)] }));
    return { token: p.token, logprob: Math.log(p.alternatives[p.token] ?? 1e-9), bytes: [...encoder.encode(p.token)], top_logprobs: top };
  });
  return { text: parts.map((p) => (typeof p === "string" ? p : p.token)).join(""), content };
}

/** judge-sim's tokenizer: numbers of up to three digits are one token, words, spaces and single symbols. */
function tokenize(text: string): string[] {
  return text.match(/\d{1,3}|[A-Za-z\u00C0-\u024F]+|\s+|[^\sA-Za-z\d]/g) ?? [];
}

/** Plain tokens for `text`, with probabilities at the given token texts, in order of appearance. */
function judged(text: string, scores: Scored[]): { text: string; content: TokenLogprob[] } {
  const queue = [...scores];
  const parts = tokenize(text).map((t): Part => (queue.length > 0 && queue[0].token === t && /^\d/.test(t) ? queue.shift()! : t));
  // only the score tokens named are scored, so a test must list them in the order they appear
  expect(queue).toEqual([]);
  return logprobs(parts);
}

/** Tokens for `text` where every number has wildly wrong probabilities, except those at the given offsets. */
function judgedAt(text: string, beliefs: Map<number, Record<string, number>>): { text: string; content: TokenLogprob[] } {
  let offset = 0;
  const parts = tokenize(text).map((t): Part => {
    const here = offset;
    offset += t.length;
    if (!/^\d/.test(t)) return t;
    return at(t, beliefs.get(here) ?? { "0": 0.5, "5": 0.5 });
  });
  return logprobs(parts);
}

const exam5: ScoreScale = { template: "exam", maxScore: 5, step: 0.5 };
const exam10: ScoreScale = { template: "exam", maxScore: 10, step: 0.5 };
const mt: ScoreScale = { template: "translation", maxScore: 100, step: 1 };
const at = (token: string, alternatives: Record<string, number>): Scored => ({ token, alternatives });

describe("expected scores from the judge's probabilities", () => {
  it("reads each verdict score's distribution over the scale and takes its expectation", () => {
    const { text, content } = judged("Explanation: compared against the question. Answer 1: 3/5 Answer 2: 4/5", [
      at("3", { "3": 0.8, "4": 0.2 }),
      at("4", { "4": 0.9, "3": 0.1 }),
    ]);
    const r = expectedScores(text, content, exam5, "pairwise");
    expect(r!.expected[0]).toBeCloseTo(3.2, 12);
    expect(r!.expected[1]).toBeCloseTo(3.9, 12);
    expect(r!.spread![0]).toBeCloseTo(0.4, 12); // sqrt(0.8 * 0.2)
    expect(r!.spread![1]).toBeCloseTo(0.3, 12);
  });

  it("a written tie is told apart by what the judge believed", () => {
    const { text, content } = judged("Explanation: both fine. Answer 1: 3/5 Answer 2: 3/5", [
      at("3", { "3": 0.7, "2": 0.3 }),
      at("3", { "3": 0.8, "4": 0.2 }),
    ]);
    const [x, y] = expectedScores(text, content, exam5, "pairwise")!.expected;
    expect(x).toBeCloseTo(2.75, 12); // 2.7, held to the written 3's cell
    expect(y).toBeCloseTo(3.2, 12);
  });

  it("returns each expectation before it was held too: two unsure 5s held to 4.75 are still told apart", () => {
    // at the top of the scale a judge unsure of its 5 has probabilities only at and below it
    const reply = "Explanation: both strong. Answer 1: 5/5 Answer 2: 5/5";
    const { text, content } = judgedAt(
      reply,
      new Map<number, Record<string, number>>([
        [reply.indexOf("5/5"), { "5": 0.6, "4": 0.4 }],
        [reply.lastIndexOf("5/5"), { "5": 0.4, "4": 0.6 }],
      ]),
    );
    const r = expectedScores(text, content, exam5, "pairwise")!;
    expect(r.expected).toEqual([4.75, 4.75]); // 4.6 and 4.4, held to the written 5's cell: equal
    expect(r.unheld[0]).toBeCloseTo(4.6, 12);
    expect(r.unheld[1]).toBeCloseTo(4.4, 12);
    // inside its cell an expectation is kept as it is, held or not
    const inside = judged("Explanation: fine. Score: 3/5", [at("3", { "3": 0.9, "4": 0.1 })]);
    const one = expectedScores(inside.text, inside.content, exam5, "pointwise")!;
    expect(one.unheld[0]).toBeCloseTo(3.1, 12);
    expect(one.expected[0]).toBe(one.unheld[0]);
  });

  it("reads the FINAL verdict: not numbers in the reasoning, not a restated earlier verdict, not a <think> draft", () => {
    // every other number is given a wildly different belief: reading any of them would show
    const reply =
      "<think>Answer 1: 1/5 Answer 2: 5/5? no.</think>Explanation: Answer 1 names 2 of the 4 steps. Answer 1: 2/5 Answer 2: 4/5\nOn reflection: Answer 1: 3/5 Answer 2: 4/5";
    const { text, content } = judgedAt(
      reply,
      new Map<number, Record<string, number>>([
        [reply.lastIndexOf("3/5"), { "3": 0.9, "4": 0.1 }],
        [reply.lastIndexOf("4/5"), { "4": 0.6, "5": 0.4 }],
      ]),
    );
    const r = expectedScores(text, content, exam5, "pairwise");
    expect(r!.expected[0]).toBeCloseTo(3.1, 12);
    expect(r!.expected[1]).toBeCloseTo(4.25, 12); // 4.4 held to the cell of 4
  });

  it("null when the endpoint gave no logprobs, or partial ones, or ones for another text", () => {
    const { text, content } = judged("Explanation: ok. Answer 1: 3/5 Answer 2: 4/5", [
      at("3", { "3": 0.8, "4": 0.2 }),
      at("4", { "4": 1 }),
    ]);
    expect(expectedScores(text, null, exam5, "pairwise")).toBeNull();
    expect(expectedScores(text, undefined, exam5, "pairwise")).toBeNull();
    expect(expectedScores(text, [], exam5, "pairwise")).toBeNull();
    expect(expectedScores(text, content.slice(0, -3), exam5, "pairwise")).toBeNull(); // cut short
    expect(expectedScores(text, content.slice(1), exam5, "pairwise")).toBeNull(); // lost its start
    expect(expectedScores(text.replace("ok", "OK"), content, exam5, "pairwise")).toBeNull(); // another text
    expect(expectedScores(`${text} `, content, exam5, "pairwise")).toBeNull();
    // top_logprobs not requested: the written token alone carries no belief
    const bare = content.map((c) => ({ ...c, top_logprobs: [] }));
    expect(expectedScores(text, bare, exam5, "pairwise")).toBeNull();
    const absent = content.map(({ top_logprobs: _, ...c }) => c);
    expect(expectedScores(text, absent, exam5, "pairwise")).toBeNull();
    // and the reply must be one the parser reads
    const unreadable = logprobs(["I think both answers have merit."]);
    expect(expectedScores(unreadable.text, unreadable.content, exam5, "pairwise")).toBeNull();
  });

  it("renormalises over the scale's values: other tokens and numbers off the scale are dropped", () => {
    const { text, content } = judged("Explanation: ok. Answer 1: 3/5 Answer 2: 4/5", [
      at("3", { "3": 0.3, "4": 0.1, "9": 0.2, "/": 0.2, three: 0.2 }),
      at("4", { "4": 0.5, "5": 0.5 }),
    ]);
    const r = expectedScores(text, content, exam5, "pairwise")!;
    expect(r.expected[0]).toBeCloseTo(3.25, 12); // (0.3 * 3 + 0.1 * 4) / 0.4
    expect(r.expected[1]).toBeCloseTo(4.25, 12);
  });

  it("adds the written token when the top list leaves it out", () => {
    const { text, content } = judged("Explanation: ok. Answer 1: 3/5 Answer 2: 4/5", [
      at("3", { "3": 0.5, "4": 0.5 }),
      at("4", { "4": 1 }),
    ]);
    content[content.findIndex((c) => c.token === "3")].top_logprobs = [{ token: "2", logprob: Math.log(0.25) }];
    // "3" at logprob log(0.5) and "2" at log(0.25): 2/3 and 1/3
    expect(expectedScores(text, content, exam5, "pairwise")!.expected[0]).toBeCloseTo(2.75, 12);
  });

  it("half points: the integer token carries the belief, held to the written score's rounding cell", () => {
    const inside = judged("Explanation: ok. Answer 1: 3.5/5 Answer 2: 2/5", [at("3", { "3": 0.6, "4": 0.4 }), at("2", { "2": 1 })]);
    expect(expectedScores(inside.text, inside.content, exam5, "pairwise")!.expected[0]).toBeCloseTo(3.4, 12);
    const sure = judged("Explanation: ok. Answer 1: 3.5/5 Answer 2: 2/5", [at("3", { "3": 1 }), at("2", { "2": 1 })]);
    expect(expectedScores(sure.text, sure.content, exam5, "pairwise")!.expected).toEqual([3.25, 2]);
    // the 5 after the point is not a score of its own, whatever its probabilities
    const fraction = logprobs([
      "Explanation",
      ":",
      " ",
      "ok",
      ".",
      " ",
      "Answer",
      " ",
      "1",
      ":",
      " ",
      at("3", { "3": 0.6, "4": 0.4 }),
      ".",
      at("5", { "5": 0.5, "0": 0.5 }),
      "/",
      "5",
      " ",
      "Answer",
      " ",
      "2",
      ":",
      " ",
      at("2", { "2": 1 }),
      "/",
      "5",
    ]);
    expect(expectedScores(fraction.text, fraction.content, exam5, "pairwise")!.expected[0]).toBeCloseTo(3.4, 12);
  });

  it("continuous across the written cells: a judge centred on its grade gives the grade back (judge-sim's model)", () => {
    // judge-sim: probabilities over the integers 0..max centred on the continuous grade, sd 0.5
    const rand = seededRandom(7).next;
    for (let trial = 0; trial < 200; trial++) {
      const grades = [rand() * 5, rand() * 5];
      const written = grades.map((g) => Math.round(g * 2) / 2);
      const belief = (g: number): Record<string, number> => {
        const w = Array.from({ length: 6 }, (_, v) => Math.exp(-((v - g) ** 2) / (2 * 0.5 * 0.5)));
        const z = w.reduce((s, x) => s + x, 0);
        return Object.fromEntries(w.map((x, v) => [String(v), x / z]));
      };
      const text = `Explanation: compared against the question. Answer 1: ${written[0]}/5 Answer 2: ${written[1]}/5`;
      const first = text.indexOf("Answer 1: ") + 10;
      const second = text.indexOf("Answer 2: ") + 10;
      const { content } = judgedAt(
        text,
        new Map([
          [first, belief(grades[0])],
          [second, belief(grades[1])],
        ]),
      );
      const r = expectedScores(text, content, exam5, "pairwise")!;
      r.expected.forEach((e, i) => {
        expect(Math.abs(e - written[i])).toBeLessThanOrEqual(0.25 + 1e-12);
        // away from the scale's ends the expectation is the grade itself, to the grid's discretisation
        if (grades[i] > 1 && grades[i] < 4) expect(Math.abs(e - grades[i])).toBeLessThan(0.05);
      });
    }
  });

  it("multi-digit scores on 0..100: numbers up to three digits are one token (Llama 3, judge-sim)", () => {
    const near = (centre: number) => Object.fromEntries([centre - 1, centre, centre + 1].map((v, i) => [String(v), [0.25, 0.5, 0.25][i]]));
    const reply = "Explanation: compared against the question. Translation 1: 73/100, Translation 2: 100/100";
    const { text, content } = judgedAt(
      reply,
      new Map<number, Record<string, number>>([
        [reply.indexOf("73"), { ...near(73), "7": 0.1 }],
        [reply.indexOf(": 100") + 2, { "100": 0.6, "99": 0.3, "98": 0.1, "1000": 0.2 }],
        [reply.indexOf("/100") + 1, { "100": 1 }],
        [reply.lastIndexOf("/100") + 1, { "100": 1 }],
      ]),
    );
    const r = expectedScores(text, content, mt, "pairwise")!;
    // "7" is a valid score too (the token "7" writes 7): (0.25*72 + 0.5*73 + 0.25*74 + 0.1*7) / 1.1
    expect(r.expected[0]).toBeCloseTo(Math.max(72.5, (0.25 * 72 + 0.5 * 73 + 0.25 * 74 + 0.1 * 7) / 1.1), 12);
    expect(r.expected[1]).toBeCloseTo(99.5, 12); // 99.5 = 0.6*100+0.3*99+0.1*98 held to [99.5, 100]
    const clean = judged("Explanation: fine. Translation 1: 73/100, Translation 2: 50/100", [
      at("73", near(73)),
      at("100", { "100": 1 }),
      at("50", { "50": 0.5, "51": 0.5 }),
    ]);
    expect(expectedScores(clean.text, clean.content, mt, "pairwise")!.expected).toEqual([73, 50.5]);
  });

  it("no spread where the top list leaves more than UNSEEN_FOR_SPREAD of the probability out (a broad belief on 0..100)", () => {
    // judge-sim's belief on 0..100: a normal of sd 20 over the integers, of which vLLM lists the 20 likeliest
    const broad = (centre: number) => {
      const weights = Array.from({ length: 101 }, (_, v) => Math.exp(-((v - centre) ** 2) / (2 * 20 * 20)));
      const total = weights.reduce((a, b) => a + b, 0);
      const top = weights.map((w, v) => [String(v), w / total] as const).sort((x, y) => y[1] - x[1]);
      return Object.fromEntries(top.slice(0, 20));
    };
    const listed = (alternatives: Record<string, number>) => Object.values(alternatives).reduce((a, b) => a + b, 0);
    expect(listed(broad(60))).toBeLessThan(1 - UNSEEN_FOR_SPREAD); // about 0.4 of the judge's probability
    const cut = judged("Explanation: fine. Translation 1: 60/100, Translation 2: 70/100", [
      at("60", broad(60)),
      at("70", { "70": 0.9, "71": 0.05, "69": 0.05 }),
    ]);
    const r = expectedScores(cut.text, cut.content, mt, "pairwise")!;
    // the expectation is kept (the cut is about even around 60, 20 of the options: 59.5, in the written cell);
    // the spread of a cut-off list is not given, for either score
    expect(r.expected[0]).toBeCloseTo(59.5, 1);
    expect(r.expected[1]).toBeCloseTo(70, 12);
    expect(r.spread).toBeNull();
    // a list that misses no more than UNSEEN_FOR_SPREAD, other tokens included, keeps its spread
    const sure = judged("Explanation: fine. Translation 1: 60/100, Translation 2: 70/100", [
      at("60", { "60": 0.7, "61": 0.1, "59": 0.05, "**": 0.06 }),
      at("70", { "70": 0.9, "71": 0.05, "69": 0.05 }),
    ]);
    const kept = expectedScores(sure.text, sure.content, mt, "pairwise")!;
    expect(kept.spread).not.toBeNull();
    expect(kept.spread![1]).toBeCloseTo(Math.sqrt(0.1), 12);
    // and on 0..5 every option fits in the list: judge-sim's Mohler beliefs keep theirs
    const five = judged("Explanation: ok. Answer 1: 3/5 Answer 2: 4/5", [
      at("3", { "0": 0.02, "1": 0.08, "2": 0.2, "3": 0.4, "4": 0.2, "5": 0.1 }),
      at("4", { "4": 0.5, "5": 0.5 }),
    ]);
    expect(expectedScores(five.text, five.content, exam5, "pairwise")!.spread).not.toBeNull();
  });

  it("tokens split oddly: a space glued to the number, one digit a token, a character split across tokens", () => {
    // " 3" with its leading space: alternatives must write the same space first
    const spaced = logprobs([
      "Answer",
      " 1",
      ":",
      at(" 3", { " 3": 0.5, " 4": 0.25, "3": 0.25 }),
      "/",
      "5",
      " Answer",
      " 2",
      ":",
      at(" 4", { " 4": 1 }),
      "/",
      "5",
    ]);
    // (0.5 * 3 + 0.25 * 4) / 0.75 = 3.33 ("3" without the space is another text), held to the cell of 3
    expect(expectedScores(spaced.text, spaced.content, exam5, "pairwise")!.expected[0]).toBe(3.25);
    const spacedInside = logprobs([
      "Answer",
      " 1",
      ":",
      at(" 3", { " 3": 0.8, " 2": 0.2, "2": 0.5 }),
      "/",
      "5",
      " Answer",
      " 2",
      ":",
      at(" 4", { " 4": 1 }),
      "/",
      "5",
    ]);
    expect(expectedScores(spacedInside.text, spacedInside.content, exam5, "pairwise")!.expected[0]).toBeCloseTo(2.8, 12);
    // one digit a token: 73 as "7" "3", each place read from its own token
    const digits = logprobs([
      "Translation",
      " ",
      "1",
      ":",
      " ",
      at("7", { "7": 0.96, "8": 0.04, "0": 0.5 }),
      at("3", { "3": 0.5, "2": 0.3, "4": 0.2, "35": 0.4 }),
      "/",
      "100",
      ", ",
      "Translation",
      " ",
      "2",
      ":",
      " ",
      at("5", { "5": 1 }),
      at("0", { "0": 1 }),
      "/",
      "100",
    ]);
    const r = expectedScores(digits.text, digits.content, mt, "pairwise")!;
    expect(r.expected[0]).toBeCloseTo(70.4 + 2.9, 12); // "0" before a digit and "35" in one place are not ways to write it
    expect(r.expected[1]).toBe(50);
    // a place whose alternative would leave the scale is dropped: 100 as "10" "0", "20" would be 200
    const hundred = logprobs(["Score", ":", " ", at("10", { "10": 0.5, "20": 0.25, "9": 0.25 }), at("0", { "0": 1 }), "/", "100"]);
    expect(expectedScores(hundred.text, hundred.content, mt, "pointwise")!.expected).toEqual([100]);
    // "ü" split across two tokens whose texts are byte placeholders: the bytes spell the reply
    const german = "Begründung: gut. Antwort 1: 3,5/5 Antwort 2: 2/5";
    const u = [...encoder.encode("ü")];
    const split: TokenLogprob[] = [
      ...logprobs(["Begr"]).content,
      { token: "bytes:\\xc3", logprob: 0, bytes: [u[0]], top_logprobs: [] },
      { token: "bytes:\\xbc", logprob: 0, bytes: [u[1]], top_logprobs: [] },
      ...logprobs([
        "ndung",
        ":",
        " ",
        "gut",
        ".",
        " ",
        "Antwort",
        " ",
        "1",
        ":",
        " ",
        at("3", { "3": 0.6, "4": 0.4 }),
        ",",
        "5",
        "/",
        "5",
        " ",
        "Antwort",
        " ",
        "2",
        ":",
        " ",
        at("2", { "2": 0.9, "1": 0.1 }),
        "/",
        "5",
      ]).content,
    ];
    const de = expectedScores(german, split, { template: "exam-de", maxScore: 5, step: 0.5 }, "pairwise")!;
    expect(de.expected[0]).toBeCloseTo(3.4, 12);
    expect(de.expected[1]).toBeCloseTo(1.9, 12);
  });

  it("structured outputs: the scores of the JSON object, not a number quoted in its explanation", () => {
    const reply = '{"explanation":"Answer 1: 1/5 would be harsh","answer_1":3.5,"answer_2":4}';
    const { content } = judgedAt(
      reply,
      new Map<number, Record<string, number>>([
        [reply.indexOf("3.5"), { "3": 0.6, "4": 0.4 }],
        [reply.indexOf("4}"), { "4": 0.7, "5": 0.3 }],
        [reply.indexOf(".5,") + 1, { "5": 1 }],
      ]),
    );
    const r = expectedScores(reply, content, exam5, "pairwise")!;
    expect(r.expected[0]).toBeCloseTo(3.4, 12);
    expect(r.expected[1]).toBeCloseTo(4.25, 12);
    const fenced = 'Here it is:\n```json\n{"explanation": "fine", "score": "7/10"}\n```';
    const one = judged(fenced, [at("7", { "7": 0.8, "6": 0.2 }), at("10", { "10": 1 })]);
    expect(expectedScores(fenced, one.content, exam10, "pointwise")!.expected[0]).toBeCloseTo(6.8, 12);
  });

  it("pointwise replies give one expected score", () => {
    const { text, content } = judged("Explanation: compared against the question. Score: 7/10", [
      at("7", { "7": 0.5, "8": 0.5 }),
      at("10", { "10": 1 }),
    ]);
    const r = expectedScores(text, content, exam10, "pointwise")!;
    expect(r.expected).toEqual([7.25]);
    expect(r.spread).toEqual([0.5]);
  });

  it("the scale's step comes from the template: half points in the exam prompts, integers in the translation prompts", () => {
    expect(scoreStep("exam")).toBe(0.5);
    expect(scoreStep("exam-de")).toBe(0.5);
    expect(scoreStep("translation")).toBe(1);
  });
});
