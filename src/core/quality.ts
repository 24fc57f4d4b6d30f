import { pearson } from "../metrics/correlation";
import { knockoutUsage } from "./extra";
import type { MethodCore, MethodOptions } from "./method";
import type { MatchView } from "./outcome";
import { METHODS, type MethodName } from "./methods";
import {
  type CallDetail,
  DEFAULT_EXTRA_PLACEMENT,
  DEFAULT_TIE_BREAK,
  type ExtraPlacement,
  type KnockoutState,
  type OpenCall,
  type TieBreak,
} from "./types";

/**
 * The quality bench's core: every method's core run to completion on each question against a judge
 * function, and the pooled Pearson of its scores with the human scores against the judge calls it
 * spent. No I/O of its own: the judge is a function (the bench script's calls judge-sim over HTTP;
 * a test's is a simulation), and every core is seeded, so a run is repeatable.
 */

export interface QualityQuestion {
  id: string;
  maxScore: number;
  answers: readonly { id: string; human: number }[];
}

/** One reply of the judge: its written scores in the call's order, and what it believed (expected scores). */
export interface JudgeReply {
  scores: number[];
  detail?: CallDetail;
}

export type QualityJudge = (question: QualityQuestion, call: OpenCall) => JudgeReply | Promise<JudgeReply>;

/** A row of the bench: a method, its options, and whether it reads the judge's probabilities. */
export interface QualityMethod {
  label: string;
  method: MethodName;
  debias: MethodOptions["debias"];
  /** "text": the written scores only (the paper); "logprobs": the expected scores decide where given. */
  scoreFrom: "text" | "logprobs";
  /** The knockout's extra calls for a question of n answers. */
  extraCalls?: (n: number) => number;
  /** The knockout's adaptive margin for a question's scale. */
  adaptiveMargin?: (maxScore: number) => number;
  pairing?: MethodOptions["pairing"];
  /** The knockout's placement of its extra calls; absent: the service's (DEFAULT_EXTRA_PLACEMENT). */
  extraPlacement?: ExtraPlacement;
  /** Who advances from a match nothing split; absent: the service's (DEFAULT_TIE_BREAK). */
  tieBreak?: TieBreak;
}

export interface QuestionRun {
  scores: Map<string, number>;
  judgeCalls: number;
  /** Adaptive debiasing: the calls not sent against judging every match in both orders. */
  callsSaved: number;
  /** The matches as recorded, for the review and interval measures of the bench. */
  matches: MatchView[];
}

/** One method on one question, to the end: every open call is put to the judge, its replies recorded in order. */
export async function runQuestion(question: QualityQuestion, m: QualityMethod, judge: QualityJudge, seed: number): Promise<QuestionRun> {
  const core = METHODS[m.method] as MethodCore<unknown>;
  const n = question.answers.length;
  let state = core.start(
    question.answers.map((a) => a.id),
    {
      seed,
      debias: m.debias,
      pairing: m.pairing ?? "bracket",
      byes: "paper",
      tieBreak: m.tieBreak ?? DEFAULT_TIE_BREAK,
      ...(m.extraCalls ? { extraCalls: m.extraCalls(n) } : {}),
      ...(m.adaptiveMargin ? { adaptiveMargin: m.adaptiveMargin(question.maxScore) } : {}),
      // the service's placement unless the method names one, as its tie rule
      extraPlacement: m.extraPlacement ?? DEFAULT_EXTRA_PLACEMENT,
    },
  );
  let judgeCalls = 0;
  while (!core.isFinished(state)) {
    const open = core.openCalls(state);
    if (open.length === 0) throw new Error(`${m.label}: no open calls but not finished`);
    // all of a step's calls at once, as the Durable Object sends them; recorded in the order listed
    const replies = await Promise.all(open.map((call) => judge(question, call)));
    open.forEach((call, i) => {
      const reply = replies[i];
      state = core.record(state, call.match, call.call, reply.scores, m.scoreFrom === "logprobs" ? reply.detail : undefined);
    });
    judgeCalls += open.length;
  }
  const outcome = core.outcome(state, new Map());
  const scores = new Map(outcome.answers.flatMap((a) => (a.score === null ? [] : [[a.id, a.score] as [string, number]])));
  const callsSaved = m.method === "knockout" ? knockoutUsage(state as KnockoutState).callsSaved : 0;
  return { scores, judgeCalls, callsSaved, matches: outcome.matches };
}

export interface QualityRow {
  label: string;
  /** Pooled over every answer of every question, judge score against human score. */
  pearson: number | null;
  judgeCalls: number;
  answers: number;
  callsPerAnswer: number;
  callsSaved: number;
}

/** Every method on every question (question i seeded `seed + i`, as the CLI does), one row per method. */
export async function qualityBench(
  questions: readonly QualityQuestion[],
  methods: readonly QualityMethod[],
  judge: QualityJudge,
  seed = 1,
): Promise<QualityRow[]> {
  const rows: QualityRow[] = [];
  for (const m of methods) {
    const judged: number[] = [];
    const human: number[] = [];
    let judgeCalls = 0;
    let callsSaved = 0;
    for (const [i, q] of questions.entries()) {
      const run = await runQuestion(q, m, judge, seed + i);
      judgeCalls += run.judgeCalls;
      callsSaved += run.callsSaved;
      for (const a of q.answers) {
        const s = run.scores.get(a.id);
        if (s === undefined) continue;
        judged.push(s);
        human.push(a.human);
      }
    }
    rows.push({
      label: m.label,
      pearson: pearson(judged, human),
      judgeCalls,
      answers: judged.length,
      callsPerAnswer: judged.length ? judgeCalls / judged.length : 0,
      callsSaved,
    });
  }
  return rows;
}

/**
 * The rows: individual, the paper's knockout (debiased, written scores), the knockout with
 * logprobs, with extra calls of N/2, N, 2N (and 4N, the most allowed), adaptive debiasing (its fully
 * debiased counterpart is the logprobs row; with the calls it saves spent as N/2 extra calls too),
 * and round-robin.
 */
export function standardMethods(adaptiveMargin: (maxScore: number) => number): QualityMethod[] {
  // the rows with extra calls place them as new evaluations do
  return [
    { label: "individual", method: "individual", debias: false, scoreFrom: "text" },
    { label: "individual, logprobs", method: "individual", debias: false, scoreFrom: "logprobs" },
    { label: "knockout (paper: debiased, written scores)", method: "knockout", debias: true, scoreFrom: "text" },
    { label: "knockout, logprobs", method: "knockout", debias: true, scoreFrom: "logprobs" },
    {
      label: "knockout, logprobs, extra N/2",
      method: "knockout",
      debias: true,
      scoreFrom: "logprobs",
      extraCalls: (n) => Math.floor(n / 2),
    },
    { label: "knockout, logprobs, extra N", method: "knockout", debias: true, scoreFrom: "logprobs", extraCalls: (n) => n },
    {
      label: "knockout, logprobs, extra 2N",
      method: "knockout",
      debias: true,
      scoreFrom: "logprobs",
      extraCalls: (n) => 2 * n,
    },
    {
      label: "knockout, logprobs, extra 4N",
      method: "knockout",
      debias: true,
      scoreFrom: "logprobs",
      extraCalls: (n) => 4 * n,
    },
    { label: "knockout, logprobs, adaptive debiasing", method: "knockout", debias: "adaptive", scoreFrom: "logprobs", adaptiveMargin },
    { label: "knockout, written, adaptive debiasing", method: "knockout", debias: "adaptive", scoreFrom: "text", adaptiveMargin },
    {
      label: "knockout, logprobs, adaptive + extra N/2",
      method: "knockout",
      debias: "adaptive",
      scoreFrom: "logprobs",
      adaptiveMargin,
      extraCalls: (n) => Math.floor(n / 2),
    },
    { label: "round-robin (debiased, written scores)", method: "round-robin", debias: true, scoreFrom: "text" },
  ];
}
