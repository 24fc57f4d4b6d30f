// A proxy in front of judge-sim that sends every streamed token with as many alternatives as the
// request's `top_logprobs` asks, as vLLM does. judge-sim lists one alternative for a token of its
// reasoning (itself) and the real ones only at a score, so a reply of 150 reasoning tokens is about a
// fifth of the bytes a real judge sends with `top_logprobs: 20`, and reading it costs the service less
// than a real judge's would: the overhead and profile benches put this proxy between them. The added
// alternatives are not numbers, at logprob -40 and below: they change no score the service reads.
import http from "node:http";

/** Starts the proxy to `target` (judge-sim's base URL) on an ephemeral port; resolves to its URL and a stop. */
export async function fullAlternatives(target) {
  const server = http.createServer((req, res) => {
    const parts = [];
    req.on("data", (p) => parts.push(p));
    req.on("end", () => {
      const body = Buffer.concat(parts);
      let top = 0;
      try {
        top = Number(JSON.parse(body.toString("utf8")).top_logprobs ?? 0);
      } catch {
        // not JSON: passed on as it is
      }
      const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        if (!top || !/event-stream/.test(reply.headers["content-type"] ?? "")) return void reply.pipe(res);
        reply.setEncoding("utf8");
        let buffer = "";
        reply.on("data", (piece) => {
          buffer += piece;
          let out = "";
          for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
            out += `${padded(buffer.slice(0, cut), top)}\n\n`;
            buffer = buffer.slice(cut + 2);
          }
          if (out) res.write(out);
        });
        reply.on("end", () => res.end(buffer));
        reply.on("error", () => res.destroy());
      });
      upstream.on("error", () => res.destroy());
      res.on("close", () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** One event with each token's alternatives filled up to `top`. */
function padded(event, top) {
  if (!event.startsWith("data: {")) return event;
  const chunk = JSON.parse(event.slice(6));
  for (const choice of chunk.choices ?? []) {
    for (const entry of choice.logprobs?.content ?? []) {
      const alternatives = entry.top_logprobs ?? [];
      for (let k = alternatives.length; k < top; k++) {
        // letters, not digits: a real judge's alternatives to a word of its reasoning are words
        const token = `${entry.token}~${String.fromCharCode(97 + (k % 26))}`;
        alternatives.push({ token, logprob: -40 - k, bytes: [...Buffer.from(token)] });
      }
      entry.top_logprobs = alternatives;
    }
  }
  return `data: ${JSON.stringify(chunk)}`;
}
