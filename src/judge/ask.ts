import type { OpenCall } from "../core/types";
import type { EvaluationInput } from "../model/evaluation";
import type { CompletionRequest } from "./client";
import { type ExpectedScores, expectedScores, scoreStep, type TokenLogprob } from "./expected";
import { parseIndividual, parsePairwise, type ParseResult } from "./parse";
import { individualPrompt, individualSchema, pairwisePrompt, pairwiseSchema, sharedPrefix, type QuestionContext } from "./prompts";
import { parseRubric, rubricPrompt, rubricSchema } from "./rubric";

/**
 * What to send the judge for one call of an evaluation, and how to read its reply: pairwise for two
 * answers, pointwise for one (against the rubric, as structured output, when there is one). Pure, so
 * the Durable Object only sends and records.
 */
export function questionContext(input: EvaluationInput): QuestionContext {
  return { template: input.template, question: input.question, reference: input.reference ?? undefined, maxScore: input.maxScore };
}

export function judgeRequest(input: EvaluationInput, call: OpenCall): CompletionRequest {
  const ctx = questionContext(input);
  const text = (id: string) => {
    const answer = input.answers.find((a) => a.id === id);
    if (!answer) throw new Error(`call names an unknown answer ${id}`);
    return answer.text;
  };
  const pairwise = call.order.length === 2;
  // a rubric always asks for its JSON object: its criteria cannot be read from free text
  if (!pairwise && input.rubric) {
    return {
      messages: rubricPrompt(ctx, input.rubric, text(call.order[0])),
      temperature: input.judge.temperature,
      jsonSchema: rubricSchema(ctx, input.rubric),
    };
  }
  const messages = pairwise ? pairwisePrompt(ctx, text(call.order[0]), text(call.order[1])) : individualPrompt(ctx, text(call.order[0]));
  const logprobs = wantsLogprobs(input) ? { logprobs: { top: TOP_LOGPROBS } } : {};
  // structured outputs: the endpoint constrains the reply to the schema, so the verdict cannot be
  // anything but the judge's own scores; the parser reads JSON replies already
  if (input.judge.structuredOutputs)
    return {
      messages,
      temperature: input.judge.temperature,
      jsonSchema: pairwise ? pairwiseSchema(ctx) : individualSchema(ctx),
      ...logprobs,
    };
  return { messages, temperature: input.judge.temperature, ...logprobs };
}

/** Alternatives asked for per token: OpenAI's and vLLM's default maximum, enough for every score on a 0-10 scale. */
export const TOP_LOGPROBS = 20;

/** Whether the judge's token probabilities are asked for: unless the written scores are to decide (a rubric's criteria are read from its text). */
export function wantsLogprobs(input: EvaluationInput): boolean {
  return input.judge.scoreFrom !== "text" && !input.rubric;
}

/**
 * The expected scores of a parsed reply, from the judge's token probabilities at its final verdict, or
 * null when they cannot be read (none given, or tokens that do not spell the reply).
 */
export function readExpected(
  input: EvaluationInput,
  call: OpenCall,
  reply: string,
  logprobs: readonly TokenLogprob[] | null,
): ExpectedScores | null {
  if (!wantsLogprobs(input) || !logprobs) return null;
  const scale = { ...questionContext(input), step: scoreStep(input.template) };
  return expectedScores(reply, logprobs, scale, call.order.length === 2 ? "pairwise" : "pointwise");
}

/**
 * How much of a call's prompt is the prefix every call of its kind for this question shares (what
 * vLLM's prefix cache can reuse), and the prompt's whole length, in characters.
 */
export function promptShape(input: EvaluationInput, call: OpenCall): { prefixChars: number; promptChars: number } {
  const request = judgeRequest(input, call);
  const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
  return { prefixChars: sharedPrefix(questionContext(input), call.order.length === 2 ? "pairwise" : "individual").length, promptChars };
}

/** Tokens from characters, for a judge that does not report usage: about 4 characters a token in English. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/**
 * A call's prompt tokens (the judge's count, or an estimate) and the part of them that is the shared
 * prefix, in proportion to its characters.
 */
export function promptTokenSplit(
  reported: number,
  shape: { prefixChars: number; promptChars: number },
): { promptTokens: number; sharedPrefixTokens: number } {
  const promptTokens = reported > 0 ? reported : estimateTokens(shape.promptChars);
  const share = shape.promptChars > 0 ? shape.prefixChars / shape.promptChars : 0;
  return { promptTokens, sharedPrefixTokens: Math.round(promptTokens * share) };
}

/** The scores in the call's order (a rubric call: the overall score, then each criterion's), or why the reply could not be read. */
export function readReply(input: EvaluationInput, call: OpenCall, reply: string): ParseResult<number[]> {
  const ctx = questionContext(input);
  if (call.order.length === 2) return parsePairwise(reply, ctx);
  if (input.rubric) return parseRubric(reply, ctx, input.rubric);
  const one = parseIndividual(reply, ctx);
  return one.ok ? { ok: true, value: [one.value] } : one;
}
