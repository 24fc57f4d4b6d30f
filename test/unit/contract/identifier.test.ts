import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerId, idKeyedRecord, idProblem, identifier, normalizeId } from "../../../src/contract/identifier";

describe("ids", () => {
  it('refuse "." and ".." as answer ids, which a URL drops as path segments; other dotted ids stay', () => {
    const schema = answerId(200);
    for (const id of [".", ".."])
      expect(schema.safeParse(id).error?.issues[0].message).toMatch(/must not be "\." or "\.\.": a URL drops them/);
    for (const id of ["...", ".a", "a.", "a..b", "%2e"]) expect(schema.parse(id)).toBe(id);
  });

  it("are kept in NFC, so lookalikes made of different code points become one id", () => {
    expect(normalizeId("e\u0301")).toBe("é");
    expect(normalizeId("A\u030a")).toBe(normalizeId("Å"));
    expect(normalizeId("\u212b")).toBe("Å"); // the Ångström sign
    // NFC, not NFKC: a ligature or a full-width letter looks different and stays what it is
    expect(normalizeId("ﬁ")).toBe("ﬁ");
    expect(normalizeId("Ａ")).toBe("Ａ");
  });

  it("may not hold control or format characters, and the reason says which and where", () => {
    for (const [id, code] of [
      ["a\u0000", "0000"],
      ["a\u200bb", "200B"],
      ["\u202eabc", "202E"],
      ["a\tb", "0009"],
      ["\ufeffa", "FEFF"],
      ["a\u00ad", "00AD"],
      ["👨\u200d👩", "200D"],
    ] as const) {
      expect(idProblem(id)).toMatch(new RegExp(`^must not contain control or format characters \\(U\\+${code} at character \\d+\\)`));
    }
    expect(idProblem("a\u200bb")).toMatch(/at character 2/);
    for (const id of ["ana", "José", "s 1", "學生-7", "📚", "a.b_c-d", "\u00a0"]) expect(idProblem(id)).toBeNull();
  });

  it("parse to their NFC form through `identifier`, refused when empty, too long or invisible", () => {
    const id = identifier(3);
    expect(id.parse("e\u0301")).toBe("é");
    expect(id.safeParse("").success).toBe(false);
    expect(id.safeParse("abcd").success).toBe(false);
    // 4 code units sent, 3 once composed: the limit is on the id as kept
    expect(id.parse("abe\u0301")).toBe("abé");
    expect(id.safeParse("a\u200b").error?.issues[0].message).toMatch(/U\+200B/);
    expect(id.safeParse(7).success).toBe(false);
  });

  it("as object keys: checked, duplicates after NFC refused by key, and the parsed object keyed by NFC", () => {
    const record = idKeyedRecord(10, z.number());
    expect(record.parse({ "e\u0301": 1, b: 2 })).toEqual({ é: 1, b: 2 });
    const twins = record.safeParse({ é: 1, "e\u0301": 2 });
    expect(twins.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [["e\u0301"], 'the same id as the key "é" once normalised (NFC)'],
    ]);
    const bad = record.safeParse({ "": 1, ["x".repeat(11)]: 2, "a\u0000": 3 });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      "this key must not be empty",
      "this key must be at most 10 characters",
      expect.stringMatching(/^this key must not contain control/),
    ]);
  });
});
