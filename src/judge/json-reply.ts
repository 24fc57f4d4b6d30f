// A verdict sent as JSON (structured outputs): the object, and where each score's digits stand in it,
// so the judge's probabilities at those tokens can be read. Pure: no I/O, runs in a Worker.
import { decimal } from "./decimal";

/** A ``` fence (json or bare) that ends the reply: the one place a JSON verdict may follow text. */
const JSON_FENCE = /```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```\s*$/di;

/** A score read from a JSON member; `start`..`end`: where its digits stand in the text read, when known. */
export interface JsonScore {
  value: number;
  over?: number;
  start?: number;
  end?: number;
}

/** The reply's JSON object, when the whole reply is one or ends with one in a fence; else undefined. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  return jsonReply(text)?.value;
}

/** A JSON reply: the parsed object, its source text, and where that text starts in the reply. */
export interface JsonReply {
  value: Record<string, unknown>;
  source: string;
  offset: number;
}

export function jsonReply(text: string): JsonReply | undefined {
  const trimmed = text.trim();
  let offset = text.length - text.trimStart().length;
  let candidate: string | undefined;
  if (trimmed.startsWith("{") && trimmed.endsWith("}")) candidate = trimmed;
  else {
    const fence = JSON_FENCE.exec(trimmed);
    const inner = fence?.[1];
    if (fence && inner !== undefined) {
      candidate = inner.trim();
      offset += fence.indices![1]![0] + (inner.length - inner.trimStart().length);
    }
  }
  if (!candidate?.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(candidate);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? { value: value as Record<string, unknown>, source: candidate, offset }
      : undefined;
  } catch {
    return undefined;
  }
}

const jsonKey = (k: string): string => k.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
const SCORE_STRING = /^\s*([-−]?)(\d+(?:[.,]\d+)?)\s*(?:\/\s*(\d+(?:[.,]\d+)?))?\s*$/;

/** The first of `keys` present (compared without case, spaces or underscores), as a number or "3,5/5". */
export function jsonScore(json: JsonReply, keys: string[]): JsonScore | undefined {
  const byKey = new Map(Object.entries(json.value).map(([k, v]) => [jsonKey(k), v]));
  const key = keys.find((k) => byKey.get(k) !== undefined);
  if (key === undefined) return undefined;
  const raw = byKey.get(key);
  let found: { value: number; over?: number } | undefined;
  if (typeof raw === "number") found = Number.isFinite(raw) ? { value: raw } : undefined;
  else if (typeof raw === "string") {
    const match = SCORE_STRING.exec(raw);
    if (match) {
      const value = (match[1] ? -1 : 1) * decimal(match[2]);
      found = match[3] === undefined ? { value } : { value, over: decimal(match[3]) };
    }
  }
  return found && { ...found, ...jsonDigits(json, key, raw) };
}

/**
 * Where the digits of the member `key` (normalised) whose value is `raw` stand in the reply: the last
 * top-level member that matches, as JSON.parse keeps the last of repeated keys.
 */
function jsonDigits(json: JsonReply, key: string, raw: unknown): { start: number; end: number } | Record<string, never> {
  const member = topLevelMembers(json.source).findLast((m) => jsonKey(m.key) === key && parsesTo(json.source.slice(m.start, m.end), raw));
  if (!member) return {};
  const text = json.source.slice(member.start, member.end);
  // a number is its own text; a string's digits are found in its source, which must read as parsed (no escapes)
  const digits = /\d+(?:[.,]\d+)?/.exec(typeof raw === "number" ? text : text.slice(1, -1) === raw ? text : "");
  if (!digits) return {};
  return { start: json.offset + member.start + digits.index, end: json.offset + member.start + digits.index + digits[0].length };
}

function parsesTo(source: string, raw: unknown): boolean {
  try {
    return JSON.parse(source) === raw;
  } catch {
    return false;
  }
}

/** The top-level members of a JSON object's source: each key and where its value's text starts and ends. */
function topLevelMembers(source: string): { key: string; start: number; end: number }[] {
  const members: { key: string; start: number; end: number }[] = [];
  let i = 0;
  const space = () => {
    while (i < source.length && /\s/.test(source[i])) i++;
  };
  const string = (): string | null => {
    const from = i;
    if (source[i] !== '"') return null;
    for (i++; i < source.length && source[i] !== '"'; i++) if (source[i] === "\\") i++;
    i++;
    try {
      return JSON.parse(source.slice(from, i)) as string;
    } catch {
      return null;
    }
  };
  const value = (): boolean => {
    if (source[i] === '"') return string() !== null;
    let depth = 0;
    for (; i < source.length; i++) {
      const c = source[i];
      if (c === '"') {
        if (string() === null) return false;
        i--;
      } else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        if (depth === 0) return true;
        depth--;
      } else if (c === "," && depth === 0) return true;
    }
    return depth === 0;
  };
  space();
  if (source[i] !== "{") return [];
  i++;
  for (;;) {
    space();
    if (source[i] === "}") return members;
    const key = string();
    if (key === null) return members;
    space();
    if (source[i] !== ":") return members;
    i++;
    space();
    const start = i;
    if (!value()) return members;
    let end = i;
    while (end > start && /\s/.test(source[end - 1])) end--;
    members.push({ key, start, end });
    space();
    if (source[i] === ",") i++;
    else return members;
  }
}
