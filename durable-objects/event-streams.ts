import { sseEvent } from "../src/live/view";

/**
 * Server-sent event streams of the people watching one object: each gets what is broadcast from the
 * moment it opened, a comment every 20 s so proxies keep it open, and its end. A viewer that has gone
 * away makes its write fail and is forgotten.
 */
export class EventStreams {
  private readonly streams = new Set<WritableStreamDefaultWriter<Uint8Array>>();
  private keepAlive: ReturnType<typeof setInterval> | null = null;

  get watched(): boolean {
    return this.streams.size > 0;
  }

  /** A new stream that starts with `first` (e.g. a snapshot); ended at once when `ended`. */
  open(first: [event: string, data: unknown][], ended = false): Response {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    for (const [event, data] of first) this.write(writer, sseEvent(event, data));
    if (ended) writer.close().catch(() => {});
    else {
      this.streams.add(writer);
      // proxies drop a stream that stays silent; a comment line every 20 s keeps it open
      this.keepAlive ??= setInterval(() => this.broadcast(": keep-alive\n\n"), 20_000);
    }
    return new Response(readable, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" } });
  }

  send(event: string, data: unknown): void {
    this.broadcast(sseEvent(event, data));
  }

  /** A last event for everyone; the streams close. */
  end(event: string, data: unknown): void {
    this.send(event, data);
    for (const stream of this.streams) stream.close().catch(() => {});
    this.streams.clear();
    this.stopKeepAlive();
  }

  private broadcast(text: string): void {
    for (const stream of this.streams) this.write(stream, text);
  }

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
