// Builds the judge's prompts from the paper's templates. Pure: no I/O, runs in a Worker.
//
// Layout of every prompt, one `user` message (the paper used plain prompts, no system message):
//   sharedPrefix(ctx)     instructions, question, reference, output format, the data note
//   <label>\n<fence>      each answer verbatim inside a backtick fence longer than any run in it
//   closing line          fixed per template and kind
// All of a question's pairwise calls start with the same sharedPrefix, so vLLM's prefix cache serves
// it once per question; only the answers and the closing line differ.
import { WORDINGS, type Fill, type Template, type Wording } from "./templates";

export type { Template } from "./templates";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface QuestionContext {
  template: Template;
  question: string;
  reference?: string;
  maxScore: number;
}

export type PromptKind = "pairwise" | "individual";

/** Scores as people write them: 10, 2.5, never "10.0". */
export function formatScore(score: number): string {
  return String(score);
}

/**
 * The text every prompt of this kind for this question starts with. Everything after it is answers
 * and a fixed closing line.
 */
export function sharedPrefix(ctx: QuestionContext, kind: PromptKind = "pairwise"): string {
  const part = wordingOf(ctx)[kind];
  return `${part.instructions(fillOf(ctx))}\n\n${part.dataNote}\n\n`;
}

export function pairwisePrompt(ctx: QuestionContext, first: string, second: string): ChatMessage[] {
  const wording = wordingOf(ctx);
  const [label1, label2] = wording.pairwise.labels;
  const content =
    sharedPrefix(ctx, "pairwise") +
    fencedAnswer(label1, first, wording.fenceTag) +
    "\n\n" +
    fencedAnswer(label2, second, wording.fenceTag) +
    "\n\n" +
    wording.pairwise.closing;
  return [{ role: "user", content }];
}

export function individualPrompt(ctx: QuestionContext, answer: string): ChatMessage[] {
  const wording = wordingOf(ctx);
  const content =
    sharedPrefix(ctx, "individual") +
    fencedAnswer(wording.individual.label, answer, wording.fenceTag) +
    "\n\n" +
    wording.individual.closing;
  return [{ role: "user", content }];
}

/** For structured outputs: the judge fills the explanation first (chain of thought), then the scores. */
export function pairwiseSchema(ctx: QuestionContext): { name: string; schema: object } {
  const score = scoreSchema(ctx);
  return {
    name: "pairwise_grades",
    schema: {
      type: "object",
      properties: { explanation: { type: "string" }, answer_1: score, answer_2: score },
      required: ["explanation", "answer_1", "answer_2"],
      additionalProperties: false,
    },
  };
}

export function individualSchema(ctx: QuestionContext): { name: string; schema: object } {
  return {
    name: "individual_grade",
    schema: {
      type: "object",
      properties: { explanation: { type: "string" }, score: scoreSchema(ctx) },
      required: ["explanation", "score"],
      additionalProperties: false,
    },
  };
}

/**
 * A backtick fence longer than the longest backtick run in the text (at least 3, as in CommonMark),
 * so no line of the answer can close it: an answer can never end its own block early.
 */
export function fenceFor(text: string): string {
  let longest = 0; // a loop, not Math.max(...runs): an answer with very many runs would overflow the call stack
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

/** The answer goes in untouched; a newline is added before the closing fence, never inside the text. */
export function fencedAnswer(label: string, text: string, tag: string): string {
  const fence = fenceFor(text);
  return `${label}\n${fence}${tag}\n${text}\n${fence}`;
}

function scoreSchema(ctx: QuestionContext): object {
  return { type: "number", minimum: 0, maximum: checkedMax(ctx.maxScore) };
}

function wordingOf(ctx: QuestionContext): Wording {
  // Callers outside TypeScript (stored rows, JSON) can carry any string; fail loudly, never guess.
  if (!Object.hasOwn(WORDINGS, ctx.template)) throw new RangeError(`unknown template: ${String(ctx.template)}`);
  return WORDINGS[ctx.template];
}

function fillOf(ctx: QuestionContext): Fill {
  // An empty reference is no reference: "The reference answer: " followed by nothing would mislead.
  const reference = ctx.reference !== undefined && ctx.reference.trim() !== "" ? ctx.reference : undefined;
  return { question: ctx.question, reference, max: formatScore(checkedMax(ctx.maxScore)) };
}

function checkedMax(maxScore: number): number {
  if (!Number.isFinite(maxScore) || maxScore <= 0) throw new RangeError(`maxScore must be a positive number, got ${maxScore}`);
  return maxScore;
}
