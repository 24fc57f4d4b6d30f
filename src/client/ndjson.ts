/** One line of an NDJSON export (GET /v1/tenant/export, /v1/subjects/export): a JSON object named by its `type`. */
export interface ExportLine {
  type: string;
  [field: string]: unknown;
}

/**
 * The lines of an NDJSON body, parsed one by one as the bytes arrive: a line split across chunks is
 * joined, blank lines are skipped, and the last line needs no newline. Stopping early (a `break` out
 * of the loop) cancels the body, so the service stops reading its data for an export nobody reads.
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<ExportLine> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let rest = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      rest += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = rest.split("\n");
      // the last piece may be a line still arriving, unless the body has ended
      rest = done ? "" : (lines.pop() ?? "");
      for (const line of lines) if (line.trim() !== "") yield JSON.parse(line) as ExportLine;
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
