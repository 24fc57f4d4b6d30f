import type { z } from "zod";
import type { evaluationEvents } from "../src/contract/events";
import type { Status } from "../src/model/evaluation";
import { changedMatches, type LiveView } from "../src/live/view";
import { EventStreams } from "./event-streams";

/** An answer's feedback as the stream sends it (src/contract/events.ts, `feedback`). */
export type FeedbackEvent = z.output<(typeof evaluationEvents)["feedback"]>;

/**
 * The server-sent event streams of the people watching one evaluation live. A stream opens with a
 * `snapshot` of the whole bracket, then gets a `progress` event with only the matches that changed
 * since the last one, and an `end` event when the evaluation has ended, after which it closes.
 */
export class LiveViewers {
  private readonly streams = new EventStreams();
  /** The matches as last pushed, one JSON text per match index. */
  private sent: string[] = [];

  get watched(): boolean {
    return this.streams.watched;
  }

  /** A new viewer's stream: the snapshot now (and the judge's words so far), the rest as it happens (or at once, if it has ended). */
  open(view: LiveView, words: { match: number; call: number; text: string }[] = [], feedback: FeedbackEvent[] = []): Response {
    const ended = view.status === "completed" || view.status === "failed" || view.status === "cancelled";
    return this.streams.open(
      [
        ["snapshot", view],
        ...words.map((w): [string, unknown] => ["match-text", w]),
        ...feedback.map((f): [string, unknown] => ["feedback", f]),
        ...(ended ? [["end", { status: view.status, error: view.error }] as [string, unknown]] : []),
      ],
      ended,
    );
  }

  /** Pushes the matches that changed since the last push. */
  progress(view: LiveView): void {
    const { changed, sent } = changedMatches(this.sent, view.matches);
    this.sent = sent;
    const { matches: _all, answerIds: _ids, ...head } = view;
    this.streams.send("progress", { ...head, matches: changed });
  }

  /** The judge's words so far of the calls that changed, one `match-text` event each. */
  matchText(updates: { match: number; call: number; text: string }[]): void {
    for (const u of updates) this.streams.send("match-text", u);
  }

  /** One answer's feedback, as it arrives. */
  feedback(event: FeedbackEvent): void {
    this.streams.send("feedback", event);
  }

  /** The last event for every viewer: the evaluation was erased, the streams close. */
  erased(): void {
    this.streams.end("end", { status: "erased", error: null });
  }

  /** The last event for every viewer: the evaluation has ended, the streams close. */
  end(status: Status, error: string | null): void {
    this.streams.end("end", { status, error });
  }
}
