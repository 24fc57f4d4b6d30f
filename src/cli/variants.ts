// `--compare` entries: a method and how to run it, so that one run can put the paper's Table 1 rows
// side by side (knockout with and without debiasing were refused as "a repeated method").
//
//   knockout                 the method with the run's --debias / --no-debias
//   knockout:no-debias       one order per match          knockout:debias      both orders
//   knockout:adaptive        debias: "adaptive"           knockout:logprobs    judge.scoreFrom "logprobs"
//   knockout:text            judge.scoreFrom "text"       knockout:extra=2N    extraCalls 2N (also N/2, N, 8)
//
// Modifiers combine: `knockout:logprobs:extra=N`. Pure: parsing, labels and request fields.
import { METHOD_NAMES, type MethodName as Method } from "../core/method";

export type ScoreFrom = "auto" | "text" | "logprobs";

export interface Variant {
  /** As given on the command line; unique within a run. */
  spec: string;
  method: Method;
  debias: boolean | "adaptive";
  /** Null: the service's default (the field is not sent). */
  scoreFrom: ScoreFrom | null;
  /** Extra judge calls after the knockout: a count, or so many per answer of the question (2N: 2). */
  extraCalls: { count: number } | { perAnswer: number } | null;
}

const METHODS = METHOD_NAMES;

/** A variant from its spec, or why the spec is wrong. `debias` is the run's default. */
export function parseVariant(spec: string, debias: boolean): { ok: true; variant: Variant } | { ok: false; error: string } {
  const [name, ...modifiers] = spec.split(":").map((p) => p.trim());
  if (!METHODS.includes(name as Method)) return { ok: false, error: `unknown method "${name}"; one of ${METHODS.join(", ")}` };
  const method = name as Method;
  const variant: Variant = { spec, method, debias, scoreFrom: null, extraCalls: null };
  for (const modifier of modifiers) {
    if (modifier === "debias" || modifier === "no-debias" || modifier === "adaptive") {
      if (method === "individual") return { ok: false, error: `${spec}: debiasing does not apply to individual judging` };
      if (modifier === "adaptive" && method !== "knockout") return { ok: false, error: `${spec}: adaptive debiasing is the knockout's` };
      variant.debias = modifier === "adaptive" ? "adaptive" : modifier === "debias";
    } else if (modifier === "logprobs" || modifier === "text") {
      variant.scoreFrom = modifier;
    } else if (modifier.startsWith("extra=")) {
      if (method !== "knockout") return { ok: false, error: `${spec}: extra calls are the knockout's` };
      const extra = parseExtra(modifier.slice("extra=".length));
      if (!extra) return { ok: false, error: `${spec}: extra= takes a count or a multiple of N (N/2, N, 2N, 8)` };
      variant.extraCalls = extra;
    } else {
      return { ok: false, error: `${spec}: unknown modifier "${modifier}" (debias, no-debias, adaptive, logprobs, text, extra=K)` };
    }
  }
  return { ok: true, variant };
}

function parseExtra(text: string): Variant["extraCalls"] {
  if (/^\d+$/.test(text)) return { count: Number(text) };
  const multiple = /^(\d+(?:\.\d+)?)?N(?:\/(\d+))?$/.exec(text);
  if (!multiple) return null;
  const perAnswer = Number(multiple[1] ?? 1) / Number(multiple[2] ?? 1);
  return Number.isFinite(perAnswer) && perAnswer >= 0 ? { perAnswer } : null;
}

/** How a variant is named in reports: "knockout (no debiasing, logprobs, extra 2N)". */
export function variantLabel(v: Variant): string {
  const parts: string[] = [];
  if (v.method !== "individual") parts.push(v.debias === "adaptive" ? "adaptive debiasing" : v.debias ? "debiased" : "no debiasing");
  if (v.scoreFrom) parts.push(v.scoreFrom === "logprobs" ? "logprobs" : v.scoreFrom === "text" ? "written scores" : "scores auto");
  if (v.extraCalls)
    parts.push(`extra ${"count" in v.extraCalls ? v.extraCalls.count : `${v.extraCalls.perAnswer === 1 ? "" : v.extraCalls.perAnswer}N`}`);
  return parts.length ? `${v.method} (${parts.join(", ")})` : v.method;
}

/** The extra calls for a question of `answers` answers: rounded down, at most 4N (the service's limit). */
export function extraCallsFor(v: Variant, answers: number): number | null {
  if (!v.extraCalls) return null;
  const wanted = "count" in v.extraCalls ? v.extraCalls.count : Math.floor(v.extraCalls.perAnswer * answers);
  return Math.min(wanted, 4 * answers);
}

/** The request fields a variant sets beside the question's: method, debias and, when given, the judge's score source and extra calls. */
export function variantFields(v: Variant, answers: number): Record<string, unknown> {
  const extra = extraCallsFor(v, answers);
  return {
    method: v.method,
    debias: v.debias,
    ...(v.scoreFrom ? { judge: { scoreFrom: v.scoreFrom } } : {}),
    ...(extra !== null ? { extraCalls: extra } : {}),
  };
}
