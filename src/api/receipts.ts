import { Hono } from "hono";
import { submissionByReceipt } from "../db/collections";
import { database } from "../db/database";
import type { App } from "./context";
import { hashToken } from "../platform/tokens";
import { ProblemError } from "../platform/problems";
import { receipt } from "../contract";
import { route } from "./route";
import { tokenOfErased } from "../evaluations/erasure";
import { receiptOf } from "../evaluations/receipt-view";

/**
 * A submitter's receipt: their own answer and, once the teacher has released it (or at once, for a
 * collection released automatically), its final grade; nothing of anyone else's. The page is public:
 * before the release this answer carries nothing of the grade, not even in a field the page hides.
 */
export const receipts = new Hono<App>();

route(
  receipts,
  {
    method: "get",
    path: "/:token",
    summary: "One submitted answer and, once released, its final grade",
    tag: "collections",
    auth: "none",
    ok: { 200: { description: "the receipt", schema: receipt } },
    // 410: the answer was erased
    refusals: [410],
  },
  async (c) => {
    const db = database(c.env.DB);
    const mine = await submissionByReceipt(db, await hashToken(c.req.param("token")));
    if (!mine) {
      if (await tokenOfErased(c.env, c.req.param("token"))) throw new ProblemError(410, "this answer was erased");
      throw new ProblemError(404, "no such receipt");
    }
    c.header("cache-control", "no-store");
    return c.json(await receiptOf(c.env, mine));
  },
);
