import { describe, it, expect } from "vitest";
import {
  fenceFor,
  individualPrompt,
  individualSchema,
  pairwisePrompt,
  pairwiseSchema,
  sharedPrefix,
  type Template,
} from "../../../src/judge/prompts";
import { REFERENCE, TEMPLATES, TRICKY, contentOf, ctxOf } from "./fixtures";

describe("the shared prefix (vLLM prefix caching)", () => {
  const answers = Object.values(TRICKY);
  it.each(TEMPLATES)("every pairwise prompt of a %s question starts with exactly sharedPrefix(ctx), both answers verbatim", (template) => {
    for (const reference of [undefined, REFERENCE]) {
      const ctx = ctxOf(template, reference);
      const prefix = sharedPrefix(ctx);
      for (const a of answers)
        for (const b of answers) {
          const prompt = contentOf(pairwisePrompt(ctx, a, b));
          expect(prompt.slice(0, prefix.length)).toBe(prefix);
          expect(prompt.slice(prefix.length)).toContain(a);
          expect(prompt.slice(prefix.length)).toContain(b);
        }
    }
  });

  it("is most of a typical prompt, and depends only on the question, not on the answers", () => {
    const ctx = ctxOf("exam", REFERENCE);
    const prompt = contentOf(pairwisePrompt(ctx, "O(log n).", "O(n)."));
    expect(sharedPrefix(ctx).length / prompt.length).toBeGreaterThan(0.8);
    expect(sharedPrefix({ ...ctx })).toBe(sharedPrefix(ctx));
    expect(sharedPrefix({ ...ctx, question: "Another question?" })).not.toBe(sharedPrefix(ctx));
  });

  it("differs between pairwise and individual prompts, each kind shared across its own calls", () => {
    const ctx = ctxOf("exam");
    expect(sharedPrefix(ctx, "individual")).not.toBe(sharedPrefix(ctx, "pairwise"));
    for (const a of answers) expect(contentOf(individualPrompt(ctx, a)).startsWith(sharedPrefix(ctx, "individual"))).toBe(true);
  });

  it("is deterministic: the same inputs give byte-identical prompts", () => {
    const ctx = ctxOf("exam-de", REFERENCE);
    expect(pairwisePrompt(ctx, "a", "b")).toEqual(pairwisePrompt(ctx, "a", "b"));
  });
});

describe("fences", () => {
  it.each([
    ["", 3],
    ["no backticks", 3],
    ["`inline`", 3],
    ["``", 3],
    ["```", 4],
    ["a ```` b ``` c", 5],
    ["`".repeat(40), 41],
  ])("fence for %j is %i backticks", (text, length) => {
    expect(fenceFor(text)).toBe("`".repeat(length));
  });

  it("handles an answer with a very large number of backtick runs", () => {
    const text = "` x ".repeat(200_000);
    expect(fenceFor(text)).toBe("```");
  });
});

describe("maxScore", () => {
  it.each([
    [10, "exam", "0 to 10", "Y/10."],
    [5, "exam", "0 to 5", "Answer 2: Y/5"],
    [2.5, "exam", "0 to 2.5", "Answer 2: Y/2.5"],
    [100, "translation", "from 0 to 100", "Translation 2: Y/100"],
    [5, "translation", "from 0 to 5", "Translation 2: Y/5"],
    [10, "exam-de", "0 bis 10", "Antwort 2: Y/10"],
    [7.5, "exam-de", "0 bis 7.5", "Antwort 2: Y/7.5"],
  ] as const)("%s in %s reads %j and %j", (maxScore, template, scale, format) => {
    const prompt = contentOf(pairwisePrompt(ctxOf(template, undefined, maxScore), "a", "b"));
    expect(prompt).toContain(scale);
    expect(prompt).toContain(format);
    expect(prompt).not.toMatch(/\d\.0\b/);
  });

  it("German keeps the paper's decimal-comma example and a plain max", () => {
    const prompt = contentOf(individualPrompt(ctxOf("exam-de", undefined, 10), "a"));
    expect(prompt).toContain("halbe Punkte wie 0,5 oder 1,5 sind erlaubt");
    expect(prompt).toContain("Punktzahl: X/10");
  });

  it.each(TEMPLATES)("the first '0 to N' in a %s prompt is the max (what a judge, and judge-sim, read as the scale)", (template) => {
    for (const maxScore of [5, 10, 2.5, 100]) {
      const ctx = ctxOf(template, REFERENCE, maxScore);
      for (const prompt of [contentOf(pairwisePrompt(ctx, "a 0 to 3 b", "c")), contentOf(individualPrompt(ctx, "a 0 to 3"))]) {
        const scale = /\b0\s*(?:to|bis|-|–)\s*(\d+(?:[.,]\d+)?)/.exec(prompt);
        expect(Number(scale![1])).toBe(maxScore);
      }
    }
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])("rejects %s", (maxScore) => {
    expect(() => pairwisePrompt(ctxOf("exam", undefined, maxScore), "a", "b")).toThrow(RangeError);
    expect(() => individualPrompt(ctxOf("exam", undefined, maxScore), "a")).toThrow(RangeError);
    expect(() => pairwiseSchema(ctxOf("exam", undefined, maxScore))).toThrow(RangeError);
  });
});

describe("language markers", () => {
  it("only the German template reads as German, only the translation template as translation", () => {
    const german = /Antwort 1|Die Frage|Bewerten Sie/;
    const mt = /Translation 1|translation evaluator/i;
    for (const template of TEMPLATES) {
      const ctx = ctxOf(template, REFERENCE);
      for (const prompt of [contentOf(pairwisePrompt(ctx, "a", "b")), contentOf(individualPrompt(ctx, "a"))]) {
        expect(german.test(prompt)).toBe(template === "exam-de");
        expect(mt.test(prompt)).toBe(template === "translation");
      }
    }
  });
});

describe("inputs", () => {
  it("an empty or blank reference is no reference", () => {
    for (const reference of ["", "  \n"]) expect(sharedPrefix(ctxOf("exam", reference))).toBe(sharedPrefix(ctxOf("exam")));
  });

  it("puts the question and the reference in verbatim", () => {
    const question = "  Erkläre `O(log n)` — $& und ${x}?\n(2 Zeilen)  ";
    const reference = "```\nfenced reference\n```";
    const prefix = sharedPrefix({ template: "exam-de", question, reference, maxScore: 10 });
    expect(prefix).toContain(`Die Frage: ${question}\n\n`);
    expect(prefix).toContain(`Referenzantwort: ${reference}\n\n`);
  });

  it("rejects an unknown template", () => {
    const ctx = { ...ctxOf("exam"), template: "essay" as Template };
    expect(() => pairwisePrompt(ctx, "a", "b")).toThrow(/unknown template/);
    expect(() => sharedPrefix({ ...ctx, template: "toString" as Template })).toThrow(/unknown template/);
  });
});

describe("JSON schemas for structured outputs", () => {
  it("pairwise: explanation, answer_1, answer_2 in that order, bounded by maxScore", () => {
    const { name, schema } = pairwiseSchema(ctxOf("exam", undefined, 5));
    expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(schema).toEqual({
      type: "object",
      properties: {
        explanation: { type: "string" },
        answer_1: { type: "number", minimum: 0, maximum: 5 },
        answer_2: { type: "number", minimum: 0, maximum: 5 },
      },
      required: ["explanation", "answer_1", "answer_2"],
      additionalProperties: false,
    });
    expect(Object.keys((schema as { properties: object }).properties)).toEqual(["explanation", "answer_1", "answer_2"]);
  });

  it("individual: explanation then score", () => {
    const { name, schema } = individualSchema(ctxOf("translation"));
    expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(schema).toEqual({
      type: "object",
      properties: { explanation: { type: "string" }, score: { type: "number", minimum: 0, maximum: 100 } },
      required: ["explanation", "score"],
      additionalProperties: false,
    });
  });

  it("is plain JSON (survives a round trip)", () => {
    const { schema } = pairwiseSchema(ctxOf("exam-de", undefined, 2.5));
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});
