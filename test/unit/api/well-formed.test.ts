import { describe, expect, it } from "vitest";
import { loneSurrogates } from "../../../src/api/well-formed";

const fields = (json: unknown) => loneSurrogates(json).map((e) => e.field);

describe("lone surrogates in a parsed JSON body", () => {
  it("names every string value that holds one by its JSON path, in document order", () => {
    expect(
      fields({
        question: "q\ud800",
        answers: [
          { id: "a", text: "ok" },
          { id: "\udc00", text: "x\udbff" },
        ],
        metadata: { a: { b: [1, "\ud83d"] } },
      }),
    ).toEqual(["question", "answers[1].id", "answers[1].text", "metadata.a.b[1]"]);
    expect(fields("\ud800")).toEqual(["(body)"]);
  });

  it("names a key that holds one by the key, escaped so the name can be printed", () => {
    expect(fields({ metadata: { "k\ud800": 1, ok: "\udfff" } })).toEqual(["metadata.k\\uD800", "metadata.ok"]);
    expect(loneSurrogates({ "\ud800": 1 })[0].reason).toMatch(/^this key contains a lone UTF-16 surrogate/);
  });

  it("takes surrogate pairs (emoji), every other character and every other JSON value as they are", () => {
    expect(loneSurrogates({ "👩‍🏫": ["📚", "\ud83d\ude00", "e\u0301", "\u0000\u200b\u202e", "\uffff", 1, null, true, {}, []] })).toEqual(
      [],
    );
  });

  it("stops at 20 and keeps names short however deep or long the body", () => {
    expect(loneSurrogates(Array.from({ length: 1000 }, () => "\ud800"))).toHaveLength(20);
    let deep: unknown = "\ud800";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [only] = loneSurrogates(deep);
    expect(only.field).toBe(`${"[0]".repeat(32)}.…`);
    const long = "k".repeat(1_000);
    expect(fields({ [long]: { [`${long}\ud800`]: 1 } })).toEqual([`${"k".repeat(100)}….${"k".repeat(100)}…`]);
    expect(fields({ [`${"k".repeat(99)}\ud800`]: 1 })).toEqual([`${"k".repeat(99)}\\uD800`]);
    expect(fields({ [long]: `${long}\ud800` })).toEqual([`${"k".repeat(100)}…`]);
  });
});
