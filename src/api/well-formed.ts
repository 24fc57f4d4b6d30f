import { type FieldError, fieldName } from "../platform/problems";

/** A UTF-16 surrogate that is not half of a pair; in a `u` regex a paired one is a single code point. */
const LONE_SURROGATE = /\p{Cs}/u;

/** How many places are named at most: one bad body can hold thousands. */
const MAX_REPORTED = 20;

const REASON =
  "contains a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair): that is not text and cannot be stored as sent";

/**
 * Every place in a parsed JSON body where a string (a value or an object key) holds a lone surrogate.
 * JSON's `\uD800` escape lets a client send one; D1 stores it as bytes that are not UTF-8 and reads back
 * replacement characters, so two different ids come back as the same one (issue 11). Such text is
 * refused at the door, whichever field it is in. Walked depth first with one frame per open array or
 * object, so neither a deep body nor a long one costs more than its depth (a body is up to 8 MiB).
 */
export function loneSurrogates(json: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const report = (path: (string | number)[], reason: string) => errors.push({ field: fieldName(path), reason });
  if (typeof json === "string" && LONE_SURROGATE.test(json)) report([], REASON);
  let top = open(json, null, null);
  while (top && errors.length < MAX_REPORTED) {
    const frame: Frame = top;
    if (frame.next >= frame.size) {
      top = frame.parent;
      continue;
    }
    const i = frame.next++;
    const key = frame.keys ? frame.keys[i] : i;
    const child = (frame.container as Record<string | number, unknown>)[key];
    if (typeof key === "string" && LONE_SURROGATE.test(key)) report(pathTo(frame, printable(key)), `this key ${REASON}`);
    else if (typeof child === "string") {
      if (LONE_SURROGATE.test(child)) report(pathTo(frame, typeof key === "string" ? clip(key) : key), REASON);
    } else top = open(child, key, frame) ?? frame;
  }
  return errors;
}

/** An array or object being walked: `next` is the index of its next element or key. */
interface Frame {
  container: object;
  keys: string[] | null;
  size: number;
  next: number;
  key: string | number | null;
  parent: Frame | null;
}

function open(value: unknown, key: string | number | null, parent: Frame | null): Frame | null {
  if (Array.isArray(value)) return { container: value, keys: null, size: value.length, next: 0, key, parent };
  if (value === null || typeof value !== "object") return null;
  const keys = Object.keys(value);
  return { container: value, keys, size: keys.length, next: 0, key, parent };
}

/** Parts of a field name kept at most, and characters of each: a hostile body can be deep and its keys long. */
const MAX_PARTS = 32;
const MAX_PART_CHARS = 100;

/** The path to `last` (already as shown) in a frame, as its field name shows it. */
function pathTo(frame: Frame, last: string | number): (string | number)[] {
  const path: (string | number)[] = [];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) path.push(typeof f.key === "string" ? clip(f.key) : f.key);
  path.reverse().push(last);
  return path.length > MAX_PARTS ? [...path.slice(0, MAX_PARTS), "…"] : path;
}

/** The key with each lone surrogate written as its escape, so the field can be named in the reply. */
function printable(key: string): string {
  return clip(key).replace(/\p{Cs}/gu, (s) => `\\u${s.charCodeAt(0).toString(16).toUpperCase()}`);
}

function clip(text: string): string {
  if (text.length <= MAX_PART_CHARS) return text;
  // not through the middle of a pair, which would itself leave a lone surrogate
  const end = /[\uD800-\uDBFF]/.test(text[MAX_PART_CHARS - 1]) ? MAX_PART_CHARS - 1 : MAX_PART_CHARS;
  return `${text.slice(0, end)}…`;
}
