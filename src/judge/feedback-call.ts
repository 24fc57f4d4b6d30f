import type { EvaluationInput, JudgeFeedback } from "../model/evaluation";
import { estimateTokens } from "./ask";
import { feedbackSeed } from "./call-seed";
import { completeWithRetry, type JudgeConfig, JudgeError } from "./client";
import { feedbackRequest, readFeedback } from "./feedback-prompt";
import type { PlayHooks } from "./play";

/** What one feedback call cost, counted in the evaluation's usage beside the tournament's. */
export interface FeedbackTokens {
  promptTokens: number;
  completionTokens: number;
}

/**
 * One answer's feedback call: sent like a tournament call (the permits, retries until
 * JUDGE_DEADLINE_MS, a pool's other endpoints), asked again while its reply is empty. A call that
 * still fails ends with the reason instead of the text: it never fails the evaluation, whose grades are
 * already decided. Throws only when the evaluation was cancelled, so nothing is recorded.
 */
export async function askFeedback(
  input: EvaluationInput,
  judge: JudgeConfig,
  answerId: string,
  hooks: Pick<PlayHooks, "signal" | "parseAttempts" | "around" | "pooled" | "priority" | "fetch" | "onRetry" | "onParseFailure">,
  now: () => number = Date.now,
): Promise<{ feedback: JudgeFeedback; tokens: FeedbackTokens }> {
  const asked = { ...feedbackRequest(input, answerId), ...(hooks.priority !== undefined ? { priority: hooks.priority } : {}) };
  const promptChars = asked.messages.reduce((n, m) => n + m.content.length, 0);
  const position = input.answers.findIndex((a) => a.id === answerId);
  let reason = "";
  for (let ask = 1; ask <= hooks.parseAttempts; ask++) {
    let completion: Awaited<ReturnType<typeof completeWithRetry>>;
    // an empty reply is asked again under the next seed, as a tournament call's unreadable one is
    const request = { ...asked, seed: feedbackSeed(input.seed, position, ask) };
    try {
      completion = await completeWithRetry(judge, request, {
        signal: hooks.signal,
        around: hooks.around,
        fetch: hooks.fetch,
        onRetry: hooks.onRetry,
        pooled: hooks.pooled,
      });
    } catch (err) {
      if (hooks.signal.aborted) throw err;
      reason = err instanceof JudgeError ? err.message : String(err);
      break;
    }
    if (hooks.signal.aborted) throw new JudgeError("cancelled", false);
    const tokens = {
      promptTokens: completion.promptTokens > 0 ? completion.promptTokens : estimateTokens(promptChars),
      completionTokens: completion.completionTokens,
    };
    const text = readFeedback(completion.text);
    if (text !== null) {
      return {
        feedback: { answerId, text, error: null, at: now() },
        tokens,
      };
    }
    // an empty reply still cost its tokens (counted by the hook; the returned tokens are the answered attempt's)
    hooks.onParseFailure({ ...tokens, sharedPrefixTokens: 0 });
    reason = "the judge's reply was empty";
  }
  return {
    feedback: { answerId, text: null, error: `the feedback could not be written: ${reason}`, at: now() },
    tokens: { promptTokens: 0, completionTokens: 0 },
  };
}
