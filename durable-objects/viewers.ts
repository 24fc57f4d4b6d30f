import type { Status } from "../src/evaluation";
import { changedMatches, sseEvent, type LiveView } from "../src/live/view";

/**
 * The server-sent event streams of the people watching one evaluation live. A stream opens with a
 * `snapshot` of the whole bracket, then gets a `progress` event with only the matches that changed
 * since the last one, and an `end` event when the evaluation has ended, after which it closes.
 */
export class LiveViewers {
  private readonly streams = new Set<WritableStreamDefaultWriter<Uint8Array>>();
  /** The matches as last pushed, one JSON text per match index. */
  private sent: string[] = [];
  private keepAlive: ReturnType<typeof setInterval> | null = null;

  get watched(): boolean {
    return this.streams.size > 0;
  }

  /** A new viewer's stream: the snapshot now (and the judge's words so far), the rest as it happens (or at once, if it has ended). */
  open(view: LiveView, words: { match: number; call: number; text: string }[] = []): Response {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    this.write(writer, sseEvent("snapshot", view));
    for (const w of words) this.write(writer, sseEvent("match-text", w));
    if (view.status === "completed" || view.status === "failed" || view.status === "cancelled") {
      this.write(writer, sseEvent("end", { status: view.status, error: view.error }));
      writer.close().catch(() => {});
    } else {
      this.streams.add(writer);
      // proxies drop a stream that stays silent; a comment line every 20 s keeps it open
      this.keepAlive ??= setInterval(() => this.broadcast(": keep-alive\n\n"), 20_000);
    }
    return new Response(readable, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" } });
  }

  /** Pushes the matches that changed since the last push. */
  progress(view: LiveView): void {
    const { changed, sent } = changedMatches(this.sent, view.matches);
    this.sent = sent;
    const { matches: _all, answerIds: _ids, ...head } = view;
    this.broadcast(sseEvent("progress", { ...head, matches: changed }));
  }

  /** The judge's words so far of the calls that changed, one `match-text` event each. */
  matchText(updates: { match: number; call: number; text: string }[]): void {
    for (const u of updates) this.broadcast(sseEvent("match-text", u));
  }

  /** The last event for every viewer: the evaluation has ended, the streams close. */
  end(status: Status, error: string | null): void {
    this.broadcast(sseEvent("end", { status, error }));
    for (const stream of this.streams) stream.close().catch(() => {});
    this.streams.clear();
    this.stopKeepAlive();
  }

  private broadcast(text: string): void {
    for (const stream of this.streams) this.write(stream, text);
  }

  /** A viewer that has gone away makes its write fail; it is then forgotten. */
  private write(stream: WritableStreamDefaultWriter<Uint8Array>, text: string): void {
    stream.write(new TextEncoder().encode(text)).catch(() => {
      this.streams.delete(stream);
      if (this.streams.size === 0) this.stopKeepAlive();
    });
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
  }
}
