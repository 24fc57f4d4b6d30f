import { fieldName, type FieldError } from "./problem";

/** A UTF-16 surrogate that is not half of a pair; in a `u` regex a paired one is a single code point. */
const LONE_SURROGATE = /\p{Cs}/u;

/** How many places are named at most: one bad body can hold thousands. */
const MAX_REPORTED = 20;

const REASON = "contains a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair): that is not text and cannot be stored as sent";

/**
 * Every place in a parsed JSON body where a string (a value or an object key) holds a lone surrogate.
 * JSON's `\uD800` escape lets a client send one; D1 stores it as bytes that are not UTF-8 and reads back
 * replacement characters, so two different ids come back as the same one (issue 11). Such text is
 * refused at the door, whichever field it is in. Iterative, so a deeply nested body cannot overflow the
 * stack.
 */
export function loneSurrogates(json: unknown): FieldError[] {
  const errors: FieldError[] = [];
  // each place links to its parent, so a path is built only for a place that is reported
  const stack: Place[] = [{ value: json, key: null, parent: null }];
  while (stack.length > 0 && errors.length < MAX_REPORTED) {
    const place = stack.pop()!;
    const { value } = place;
    if (typeof place.key === "string" && LONE_SURROGATE.test(place.key)) {
      errors.push({ field: fieldName([...pathOf(place.parent!), printable(place.key)]), reason: `this key ${REASON}` });
    } else if (typeof value === "string") {
      if (LONE_SURROGATE.test(value)) errors.push({ field: fieldName(pathOf(place)), reason: REASON });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: place });
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        stack.push({ value: child, key, parent: place });
      }
    }
  }
  return errors;
}

interface Place {
  value: unknown;
  key: string | number | null;
  parent: Place | null;
}

/** Parts of a field name kept at most, and characters of each: a hostile body can be deep and its keys long. */
const MAX_PARTS = 32;
const MAX_PART_CHARS = 100;

function pathOf(place: Place): (string | number)[] {
  const path: (string | number)[] = [];
  for (let p: Place | null = place; p && p.key !== null; p = p.parent) path.push(p.key);
  path.reverse();
  const shown = path.slice(0, MAX_PARTS).map((k) => (typeof k === "string" ? clip(k) : k));
  return path.length > MAX_PARTS ? [...shown, "…"] : shown;
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
