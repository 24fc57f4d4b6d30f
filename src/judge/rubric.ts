// Pointwise judging against a rubric of named criteria (seeds/004: "score each response on defined
// criteria ... JSON output"). Pure: the prompt, the structured-output schema and the reply parser.
//
// The prompt keeps the layout of the other prompts (everything a question's calls share first, the
// answer verbatim in a fence, a fixed closing line) and asks for a JSON object. The schema orders
// the fields explanation -> criteria -> overall, so a judge that writes in order reasons first, then
// scores each criterion, then gives the overall score in the light of them.
import type { Rubric } from "../model/evaluation";
import { jsonObject } from "./json-reply";
import { withoutThinking, type ParseResult } from "./parse";
import { fencedAnswer, formatScore, type ChatMessage, type QuestionContext } from "./prompts";
import { ANSWER_NOUN, WORDINGS } from "./templates";

const SUBJECT: Record<QuestionContext["template"], { intro: string; question: string; reference: string }> = {
  exam: { intro: "You are a university professor exam grader.", question: "The Question", reference: "The Reference Answer" },
  "exam-de": {
    intro: "You are a university professor grading exam answers (they may be written in German).",
    question: "The Question",
    reference: "The Reference Answer",
  },
  translation: { intro: "You are a translation evaluator.", question: "Source", reference: "Reference translation" },
};

export function rubricPrefix(ctx: QuestionContext, rubric: Rubric): string {
  const s = SUBJECT[ctx.template];
  const noun = ANSWER_NOUN[ctx.template].toLowerCase();
  const max = formatScore(ctx.maxScore);
  const criteria = rubric.criteria
    .map((c) => `- ${c.name} (0 to ${formatScore(c.maxScore)})${c.description ? `: ${c.description}` : ""}`)
    .join("\n");
  const reference = ctx.reference !== undefined && ctx.reference.trim() !== "" ? `${s.reference}: ${ctx.reference}\n\n` : "";
  return (
    `${s.intro} Grade the following ${noun} on each of the criteria below, then give an overall score on a scale of 0 to ${max} (half points allowed).\n\n` +
    `${s.question}: ${ctx.question}\n\n` +
    reference +
    `Criteria:\n${criteria}\n\n` +
    `Reply with a JSON object only: {"explanation": "...", "criteria": {${rubric.criteria.map((c) => `${JSON.stringify(c.name)}: <score>`).join(", ")}}, "overall": <score from 0 to ${max}>}\n\n` +
    `${WORDINGS[ctx.template].individual.dataNote}\n\n`
  );
}

export function rubricPrompt(ctx: QuestionContext, rubric: Rubric, answer: string): ChatMessage[] {
  const wording = WORDINGS[ctx.template];
  const content =
    rubricPrefix(ctx, rubric) +
    fencedAnswer(wording.individual.label, answer, wording.fenceTag) +
    "\n\nGrade it now: the JSON object only.";
  return [{ role: "user", content }];
}

/** Structured outputs: vLLM and OpenAI then constrain the reply to exactly this object. */
export function rubricSchema(ctx: QuestionContext, rubric: Rubric): { name: string; schema: object } {
  const score = (max: number) => ({ type: "number", minimum: 0, maximum: max });
  return {
    name: "rubric_grade",
    schema: {
      type: "object",
      properties: {
        explanation: { type: "string" },
        criteria: {
          type: "object",
          properties: Object.fromEntries(rubric.criteria.map((c) => [c.name, score(c.maxScore)])),
          required: rubric.criteria.map((c) => c.name),
          additionalProperties: false,
        },
        overall: score(ctx.maxScore),
      },
      required: ["explanation", "criteria", "overall"],
      additionalProperties: false,
    },
  };
}

/**
 * [overall, criterion 1, criterion 2, ...] in the rubric's order. Every criterion must be there and
 * within its scale; nothing is rescaled or defaulted (a missing score is a failure, never a zero).
 * Criterion names match without regard to case, spaces or underscores.
 */
export function parseRubric(reply: string, ctx: Pick<QuestionContext, "maxScore">, rubric: Rubric): ParseResult<number[]> {
  const json = jsonObject(withoutThinking(reply));
  if (!json) return { ok: false, reason: "the reply is not a JSON object" };
  const key = (k: string) => k.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const lookup = (obj: Record<string, unknown>, name: string) => Object.entries(obj).find(([k]) => key(k) === key(name))?.[1];
  const number = (v: unknown): number | undefined =>
    typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : undefined;

  const overall = number(lookup(json, "overall") ?? lookup(json, "score"));
  if (overall === undefined) return { ok: false, reason: "no numeric overall score" };
  if (overall < 0 || overall > ctx.maxScore) return { ok: false, reason: `overall score ${overall} is outside 0..${ctx.maxScore}` };
  const given = lookup(json, "criteria");
  const scores = given !== null && typeof given === "object" && !Array.isArray(given) ? (given as Record<string, unknown>) : json;
  const values: number[] = [overall];
  for (const c of rubric.criteria) {
    const v = number(lookup(scores, c.name));
    if (v === undefined) return { ok: false, reason: `no numeric score for criterion "${c.name}"` };
    if (v < 0 || v > c.maxScore) return { ok: false, reason: `criterion "${c.name}" score ${v} is outside 0..${c.maxScore}` };
    values.push(v);
  }
  return { ok: true, value: values };
}
