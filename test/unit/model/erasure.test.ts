import { describe, expect, it } from "vitest";
import { erasablePath, erasedView, eraseVerdict, type Tombstone } from "../../../src/model/erasure";

const tombstone = (over: Partial<Tombstone> = {}): Tombstone => ({
  id: "ev_1",
  tenant: "school",
  kind: "evaluation",
  state: "erased",
  by: "key_1",
  requestedAt: Date.UTC(2026, 0, 1),
  erasedAt: Date.UTC(2026, 0, 2),
  ...over,
});

describe("eraseVerdict", () => {
  it("starts on what exists, and is a 404 on what does not", () => {
    expect(eraseVerdict("school", "evaluation", null, true)).toBe("start");
    expect(eraseVerdict("school", "evaluation", null, false)).toBe("not-found");
  });

  it("answers the same 200 for what it erased, and finishes an erasure cut off in the middle", () => {
    expect(eraseVerdict("school", "evaluation", tombstone(), false)).toBe("done");
    expect(eraseVerdict("school", "evaluation", tombstone({ state: "erasing" }), false)).toBe("resume");
  });

  it("tells another tenant, or a route of another kind, nothing: the 404 of none", () => {
    expect(eraseVerdict("other", "evaluation", tombstone(), false)).toBe("not-found");
    expect(eraseVerdict("school", "batch", tombstone(), false)).toBe("not-found");
  });
});

describe("erasedView", () => {
  it("shows when it was erased, or asked for while the erasure runs", () => {
    expect(erasedView(tombstone())).toEqual({ id: "ev_1", status: "erased", erasedAt: "2026-01-02T00:00:00.000Z", by: "key_1" });
    expect(erasedView(tombstone({ state: "erasing", erasedAt: null })).erasedAt).toBe("2026-01-01T00:00:00.000Z");
  });
});

describe("erasablePath", () => {
  it("names the id of every route under an evaluation, a batch or a collection", () => {
    expect(erasablePath("/v1/evaluations/ev_1")).toEqual({ kind: "evaluation", id: "ev_1" });
    expect(erasablePath("/v1/evaluations/ev_1/answers/a/grade")).toEqual({ kind: "evaluation", id: "ev_1" });
    expect(erasablePath("/v1/batches/b_1/ratings")).toEqual({ kind: "batch", id: "b_1" });
    expect(erasablePath("/v1/collections/col_1/events")).toEqual({ kind: "collection", id: "col_1" });
  });

  it("leaves out the erase routes, the lists, other paths and malformed escapes", () => {
    expect(erasablePath("/v1/evaluations/ev_1/erase")).toBeNull();
    expect(erasablePath("/v1/evaluations")).toBeNull();
    expect(erasablePath("/v1/evaluations/")).toBeNull();
    expect(erasablePath("/v1/keys/k_1")).toBeNull();
    expect(erasablePath("/v1/evaluations/%E0%A4%A")).toBeNull();
  });
});
