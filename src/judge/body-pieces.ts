/**
 * A reply's body, read piece by piece. Each read wakes the isolate: a reasoning judge streams one
 * event a token, a few hundred bytes with its token probabilities, and a read for each was most of the
 * service's CPU per call (issue 29). Where the runtime can wait for more before it wakes us (workerd's
 * `readAtLeast` on a byte stream), a read takes at least `atLeast` bytes (asked again before each read,
 * when it is a function), or what is left when the body ends; elsewhere (Node, a stream that is not of
 * bytes) every piece as it comes.
 */
export interface BodyReader {
  /** The next piece, or null once the body has ended. Rejects as the body breaks. */
  next(): Promise<Uint8Array | null>;
}

type ByobReader = ReadableStreamBYOBReader & {
  readAtLeast?: (minBytes: number, view: Uint8Array) => Promise<ReadableStreamReadResult<Uint8Array>>;
};

export function bodyReader(body: ReadableStream<Uint8Array>, atLeast: number | (() => number)): BodyReader {
  const least = typeof atLeast === "number" ? () => atLeast : atLeast;
  if (typeof atLeast === "function" || atLeast > 1) {
    let byob: ByobReader | null = null;
    try {
      byob = body.getReader({ mode: "byob" }) as ByobReader;
    } catch {
      // not a byte stream: read as it comes
    }
    if (byob && typeof byob.readAtLeast === "function") {
      const reader = byob;
      // twice the least, so a read takes what has come beyond it too; the buffer is handed back each time
      let buffer = new ArrayBuffer(2 * Math.max(1, least()));
      return {
        async next() {
          const bytes = Math.max(1, least());
          if (buffer.byteLength < 2 * bytes) buffer = new ArrayBuffer(2 * bytes);
          const { value, done } = await reader.readAtLeast!(bytes, new Uint8Array(buffer));
          if (done || !value) return null;
          buffer = value.buffer as ArrayBuffer;
          return value;
        },
      };
    }
    byob?.releaseLock();
  }
  const reader = body.getReader();
  return {
    async next() {
      const { value, done } = await reader.read();
      return done ? null : value;
    },
  };
}
