import type { Status } from "../src/model/evaluation";
import { notModified, weakTag } from "../src/evaluations/etag";
import type { playedPart } from "../src/evaluations/live-read";
import { withoutTexts } from "../src/evaluations/texts";
import { type ReadBudget, ReadBudgets, utf8Bytes } from "../src/limits/read-budget";

/**
 * A read of the result from the object (see Tournament.read): its tag, its status, and its JSON unless
 * unchanged; or, when the reader has spent its budget, how long until it may read in full again.
 */
export type LiveRead =
  | {
      etag: string;
      status: Status;
      /** The result but its head, as JSON text; null when the reader's If-None-Match already names `etag`. */
      json: string | null;
    }
  | { status: Status; retryAfterMs: number };

type Part = ReturnType<typeof playedPart>;
type Form = "full" | "bare";

/**
 * The running evaluation's result as its readers get it, kept by its Tournament object: built and
 * serialised at most once per state and form, then handed out as it is (the work is synchronous and
 * holds the object, so it must not be repeated per poll), and each key's full reads paid from its byte
 * budget (src/limits/read-budget.ts) while the evaluation is queued or running.
 */
export class ResultCopies {
  /** The result of one state, for every reader until the state moves on: with and without its texts. */
  private shown: { version: string; part: Part; json: { [F in Form]?: { text: string; bytes: number } } } | null = null;
  /** The size of the latest copy of each form, whatever its state: the price of a read whose copy is not built yet. */
  private readonly lastBytes: { [F in Form]?: number } = {};
  /** What each key may still read (null: no budget configured). */
  private readonly budgets: ReadBudgets | null;

  constructor(budget: ReadBudget | null) {
    this.budgets = budget ? new ReadBudgets(budget) : null;
  }

  /**
   * The read of state `version` (see stateVersion), whose result `build` makes. `ifNoneMatch`: the
   * reader's header; when it names the current tag, no JSON is sent, and nothing is charged. `reader`:
   * the API key reading; a full read it cannot pay is refused before any copy is built. A read is
   * priced at the size of its form's latest copy, which a new state changes by a few hundred bytes, so
   * a refused read of a state not yet serialised costs no build.
   */
  read(
    {
      version,
      status,
      texts,
      ifNoneMatch,
      reader,
      now,
    }: { version: string; status: Status; texts: boolean; ifNoneMatch?: string; reader?: string; now: number },
    build: () => Part,
  ): LiveRead {
    const etag = weakTag(`${version}/${texts ? "texts" : "bare"}`);
    if (notModified(ifNoneMatch, etag)) return { etag, status, json: null };
    const form: Form = texts ? "full" : "bare";
    if ((status === "queued" || status === "running") && reader !== undefined && this.budgets) {
      const current = this.shown?.version === version ? this.shown.json[form] : undefined;
      const price = current?.bytes ?? this.lastBytes[form] ?? this.copy(version, form, build).bytes;
      const paid = this.budgets.charge(reader, price, now);
      if (!paid.allowed) return { status, retryAfterMs: paid.retryAfterMs };
    }
    return { etag, status, json: this.copy(version, form, build).text };
  }

  /** This state's result in `form`, built and serialised the first time it is asked for. */
  private copy(version: string, form: Form, build: () => Part): { text: string; bytes: number } {
    if (this.shown?.version !== version) this.shown = { version, part: build(), json: {} };
    const { part, json } = this.shown;
    if (!json[form]) {
      const text = JSON.stringify(form === "full" ? part : withoutTexts(part));
      json[form] = { text, bytes: utf8Bytes(text) };
      this.lastBytes[form] = json[form].bytes;
    }
    return json[form];
  }
}
