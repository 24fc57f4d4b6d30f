import { describe, expect, it } from "vitest";
import { FEEDBACK_MARK, judge, overlapF1, readPrompt } from "../../../demo-judge/heuristic";
import { feedbackPrompt, FEEDBACK_MARK as SERVICE_FEEDBACK_MARK } from "../../../src/judge/feedback-prompt";
import { parseIndividual, parsePairwise } from "../../../src/judge/parse";
import { individualPrompt, pairwisePrompt, type QuestionContext } from "../../../src/judge/prompts";

const exam: QuestionContext = {
  template: "exam",
  question: "What is a stack?",
  reference: "A stack is a last-in first-out data structure with push and pop operations.",
  maxScore: 5,
};

describe("the demo judge", () => {
  it("reads this project's prompts: scale, question, reference and both answers verbatim", () => {
    const first = "A stack is LIFO: push adds on top, pop removes the top.\n```\ncode\n```";
    const second = "  A queue.  ";
    const parts = readPrompt(pairwisePrompt(exam, first, second)[0].content);
    expect(parts).toMatchObject({ max: 5, question: exam.question, reference: exam.reference, answers: [first, second], label: "Answer" });
  });

  it("scores a close answer above a wrong one, on the prompt's scale, in a reply our parser accepts", () => {
    const good = "A stack is a last-in first-out structure; push and pop work on the top.";
    const bad = "It is a kind of tree used for sorting.";
    const verdict = judge(pairwisePrompt(exam, good, bad)[0].content);
    expect(verdict.scores[0]).toBeGreaterThan(verdict.scores[1]);
    expect(verdict.scores.every((s) => s >= 0 && s <= 5 && Number.isInteger(s * 2))).toBe(true);
    expect(parsePairwise(verdict.text, exam)).toEqual({ ok: true, value: verdict.scores });
    expect(verdict.text).toMatch(/not an LLM/);
  });

  it("answers German and translation prompts in their own labels, and single answers with a Score", () => {
    const de: QuestionContext = { template: "exam-de", question: "Was ist ein Stack?", maxScore: 4 };
    const v = judge(pairwisePrompt(de, "Ein Stack ist LIFO.", "Weiss nicht.")[0].content);
    expect(v.text).toMatch(/Antwort 1: [\d.]+\/4 Antwort 2: [\d.]+\/4$/);
    expect(parsePairwise(v.text, de).ok).toBe(true);
    const mt: QuestionContext = { template: "translation", question: "Der Hund schläft.", reference: "The dog sleeps.", maxScore: 100 };
    const t = judge(pairwisePrompt(mt, "The dog sleeps.", "A cat eats.")[0].content);
    expect(t.scores).toEqual([100, 0]);
    const single = judge(individualPrompt(exam, "A stack is last-in first-out.")[0].content);
    expect(parseIndividual(single.text, exam)).toEqual({ ok: true, value: single.scores[0] });
  });

  it("overlap is symmetric, 1 for the same words and 0 for none", () => {
    expect(overlapF1("push pop stack", "stack pop push")).toBe(1);
    expect(overlapF1("apple", "stack")).toBe(0);
    expect(overlapF1("stack push", "stack pop")).toBeCloseTo(overlapF1("stack pop", "stack push"), 12);
    expect(overlapF1("", "stack")).toBe(0);
  });
});

describe("the demo judge's feedback", () => {
  it("answers a feedback prompt in plain text for the student, with no score on any scale", () => {
    expect(FEEDBACK_MARK).toBe(SERVICE_FEEDBACK_MARK);
    const prompt = feedbackPrompt(exam, null, "A stack is a list.")[0].content;
    const v = judge(prompt);
    expect(v.scores).toEqual([]);
    expect(v.text).toMatch(
      /^Demo judge \(not an LLM\): your answer shares 1 of the \d+ content words of the reference answer\. Words it does not use: /,
    );
    expect(v.text).not.toMatch(/\/\s*\d|Score/);
  });
});
