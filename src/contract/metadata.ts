import { z } from "zod";
import { limits } from "./limits.ts";

/**
 * How deep a JSON value nests (a scalar is 0, `{}` is 1), counted without recursion and no further
 * than `stopAt + 1`, so a value nested thousands deep is measured as cheaply as a shallow one.
 */
export function nestingDepth(value: unknown, stopAt: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * An evaluation's or a batch's metadata: any JSON object, stored and returned as given, within
 * `limits.maxMetadataDepth` levels (reading a deeper one back would overflow JSON.stringify's stack,
 * and every read of the evaluation, and the tenant's list, would fail) and `limits.maxMetadataBytes`.
 */
export const metadata = z.record(z.string(), z.unknown()).superRefine((m, ctx) => {
  if (nestingDepth(m, limits.maxMetadataDepth) > limits.maxMetadataDepth) {
    ctx.addIssue({ code: "custom", message: `nests more than ${limits.maxMetadataDepth} levels deep` });
    return;
  }
  // bytes as stored (UTF-8), not UTF-16 code units: 16,370 euro signs are 49 KB
  if (new TextEncoder().encode(JSON.stringify(m)).length > limits.maxMetadataBytes)
    ctx.addIssue({ code: "custom", message: `must be at most ${limits.maxMetadataBytes} bytes as JSON` });
});
