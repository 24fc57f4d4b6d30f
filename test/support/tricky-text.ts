import fc from "fast-check";

/**
 * Characters that are hard to store or to tell apart (issue 11): lone surrogates (high, low, half an
 * emoji), normalisation twins (precomposed and decomposed, the Ångström sign), control characters
 * (NUL, BEL, tab) and format characters (zero-width space and joiner, right-to-left override, BOM, soft
 * hyphen), among well-formed ones.
 */
export const trickyChar = fc.constantFrom(
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\ud83d",
  "😀",
  "é",
  "e\u0301",
  "Å",
  "A\u030a",
  "\u212b",
  "\u0000",
  "\u0007",
  "\t",
  "\u200b",
  "\u200d",
  "\u202e",
  "\ufeff",
  "\u00ad",
);

/** A short string of tricky characters and plain ones. */
export const trickyText = (maxParts: number) =>
  fc.array(fc.oneof(trickyChar, fc.string({ maxLength: 3 })), { maxLength: maxParts }).map((parts) => parts.join(""));
