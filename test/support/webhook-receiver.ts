import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real webhook receiver on 127.0.0.1 for the workerd tests. `POST /hook/<tag>/<script>` answers the
 * tag's n-th delivery with the n-th status of the comma-separated script (the last one repeats), e.g.
 * `/hook/t1/500,500,200` fails twice then accepts, `/hook/t2/410` says "gone". `GET /received?tag=X`
 * lists what it got: headers, the raw body, and the status it answered.
 */
export interface Received {
  headers: Record<string, string>;
  body: string;
  answered: number;
}

export async function startWebhookReceiver(): Promise<{ port: number; close(): Promise<void> }> {
  const received = new Map<string, Received[]>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/received") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(received.get(url.searchParams.get("tag") ?? "") ?? []));
    }
    const hook = url.pathname.match(/^\/hook\/([^/]+)\/([\d,]+)$/);
    if (req.method !== "POST" || !hook) {
      res.writeHead(404);
      return res.end();
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const list = received.get(hook[1]) ?? [];
      const script = hook[2].split(",").map(Number);
      const answered = script[Math.min(list.length, script.length - 1)];
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      list.push({ headers, body: Buffer.concat(chunks).toString("utf8"), answered });
      received.set(hook[1], list);
      res.writeHead(answered, { "content-type": "text/plain" });
      res.end(answered < 300 ? "ok" : "not now");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
