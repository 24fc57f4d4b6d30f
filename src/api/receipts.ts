import { Hono } from "hono";
import { type CollectionSettings, collectionById, gradedAnswer, submissionByReceipt } from "../db/collections";
import { evaluationById } from "../db/evaluations";
import { database } from "../db/database";
import type { App } from "./context";
import { hashToken } from "../platform/tokens";
import { ProblemError } from "../platform/problems";
import { receipt } from "../contract";
import { route } from "./route";

/** A submitter's receipt: their own answer and, once graded, its score and rank; nothing of anyone else's. */
export const receipts = new Hono<App>();

route(
  receipts,
  {
    method: "get",
    path: "/:token",
    summary: "One submitted answer and, once graded, its score and rank",
    tag: "collections",
    auth: "none",
    ok: { 200: { description: "the receipt", schema: receipt } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const mine = await submissionByReceipt(db, await hashToken(c.req.param("token")));
    if (!mine) throw new ProblemError(404, "no such receipt");
    const row = (await collectionById(db, mine.collectionId))!;
    const settings = row.settings as CollectionSettings;
    const evaluation = row.evaluationId ? await evaluationById(db, row.evaluationId) : null;
    const graded = evaluation?.status === "completed" ? await gradedAnswer(db, evaluation.id, mine.answerId) : null;
    const status =
      row.status === "open"
        ? "collecting"
        : row.error
          ? "not graded"
          : !evaluation
            ? "grading"
            : evaluation.status === "completed"
              ? "graded"
              : evaluation.status === "failed"
                ? "failed"
                : "grading";
    c.header("cache-control", "no-store");
    return c.json({
      question: settings.question,
      status,
      ...(row.error ? { reason: row.error } : {}),
      answer: { text: mine.text, name: mine.name, submittedAt: new Date(mine.createdAt).toISOString() },
      result: graded ? { score: graded.score, maxScore: settings.maxScore, rank: graded.rank, of: graded.of } : null,
    });
  },
);
