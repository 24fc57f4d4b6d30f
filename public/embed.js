// @ts-check
// The collecting form, embedded in any allowed page with
//   <script src="https://SERVICE/embed.js" data-collection="PUBLIC_TOKEN" async></script>
// or shown by this service's own /embed/PUBLIC_TOKEN page (the iframe snippet). A classic script with
// no imports, drawn in a shadow root so the host page's styles and ours leave each other alone.
(() => {
  /** @typedef {import("../src/contract").Problem} Problem */
  /** @typedef {import("../src/contract").SubmissionRequest} Submission */
  /**
   * What `GET /v1/public/collections/:token` sends (src/api/public-collections.ts builds it inline, with
   * no type of its own to import).
   * @typedef {{ question: string, open: boolean, deadline: string | null, limits: { maxAnswerChars: number, maxNameChars: number } }} PublicCollection
   */
  // a classic script, run as it loads: currentScript is its own <script> element
  var script = /** @type {HTMLScriptElement} */ (document.currentScript);
  var service = new URL(script.src).origin;
  var token = script.dataset.collection || decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  var host = document.createElement("div");
  host.className = "knockout-judge-form";
  if (script.parentNode && script.parentNode !== document.head) script.after(host);
  else document.body.append(host);
  var root = host.attachShadow({ mode: "open" });
  var uid = `kj${Math.random().toString(36).slice(2, 8)}`;

  var css =
    ":host{display:block;font:16px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1b1f24}" +
    "form,.box{border:1px solid #d0d7de;border-radius:10px;padding:1rem;background:#fff;max-width:40rem}" +
    ".q{font-weight:600;margin:0 0 .75rem;white-space:pre-wrap}label{display:block;font-weight:600;margin:.6rem 0 .2rem}" +
    "textarea,input{box-sizing:border-box;width:100%;font:inherit;padding:.45rem .5rem;border:1px solid #8c959f;border-radius:6px}" +
    "button{margin-top:.8rem;font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer}" +
    "button[disabled]{opacity:.6}:focus-visible{outline:3px solid #f0b400;outline-offset:2px}" +
    ".hint{color:#57606a;font-size:.9rem;font-weight:400}.error{color:#a40e26;background:#ffebe9;border-radius:6px;padding:.5rem .75rem}" +
    ".ok{color:#116329;background:#dafbe1;border-radius:6px;padding:.5rem .75rem}.ok a{color:#0b5cad;word-break:break-all}";

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, string>} attrs
   * @param {(Node | string)[]} [children]
   */
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    (children || []).forEach((c) => {
      e.append(c);
    });
    return e;
  }

  /**
   * @param {HTMLElement} box
   * @param {string} kind
   * @param {(Node | string)[]} nodes
   */
  function say(box, kind, nodes) {
    box.className = kind;
    box.replaceChildren.apply(box, nodes);
    box.hidden = false;
  }

  /**
   * @param {number} status
   * @param {Problem | null} problem
   */
  function reason(status, problem) {
    if (status === 409) return "This question is closed: it no longer takes answers.";
    if (status === 429) return `Too many answers came from your network just now. ${problem?.detail || "Try again later."}`;
    if (status === 403) return "This form is not allowed on this site: the question's owner has not listed it.";
    if (status === 404) return "This question does not exist (any more).";
    if (status === 400 && problem && problem.errors) return `Please check your answer: ${problem.errors.map((e) => e.reason).join("; ")}`;
    return `Your answer could not be sent${problem?.detail ? `: ${problem.detail}` : ". Please try again."}`;
  }

  root.append(el("style", {}, [css]));
  var status = el("p", { role: "status", "aria-live": "polite" }, ["Loading the question…"]);
  root.append(status);

  fetch(`${service}/v1/public/collections/${encodeURIComponent(token)}`)
    .then((r) => r.json().then((j) => ({ status: r.status, json: j })))
    .then((info) => {
      if (info.status !== 200) return say(status, "error", [reason(info.status, info.json)]);
      status.remove();
      draw(info.json);
    })
    .catch(() => {
      say(status, "error", ["The question could not be loaded on this site."]);
    });

  /** @param {PublicCollection} q */
  function draw(q) {
    var form = el("form", { novalidate: "" });
    form.append(el("p", { class: "q", id: `${uid}-q` }, [q.question]));
    var text = el("textarea", {
      id: `${uid}-text`,
      name: "text",
      rows: "5",
      maxlength: String(q.limits.maxAnswerChars),
      required: "",
      "aria-describedby": `${uid}-q ${uid}-hint`,
    });
    form.append(el("label", { for: `${uid}-text` }, ["Your answer"]), text);
    form.append(
      el("p", { class: "hint", id: `${uid}-hint` }, [
        `Up to ${q.limits.maxAnswerChars} characters.${q.deadline ? ` Open until ${new Date(q.deadline).toLocaleString()}.` : ""}`,
      ]),
    );
    var name = el("input", {
      id: `${uid}-name`,
      name: "name",
      type: "text",
      maxlength: String(q.limits.maxNameChars),
      autocomplete: "name",
    });
    form.append(el("label", { for: `${uid}-name` }, ["Your name ", el("span", { class: "hint" }, ["(optional)"])]), name);
    var button = el("button", { type: "submit" }, ["Send my answer"]);
    form.append(button);
    var out = el("div", { role: "status", "aria-live": "polite" });
    out.hidden = true;
    form.append(out);
    // the receipt links of this visit's answers: kept whatever is said after them (a second Enter, an error)
    var receipts = el("div", { class: "receipts" });
    receipts.hidden = true;
    form.append(receipts);
    root.append(form);
    if (!q.open) {
      text.disabled = name.disabled = button.disabled = true;
      say(out, "error", ["This question is closed: it no longer takes answers."]);
      return;
    }

    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!text.value.trim()) {
        say(out, "error", ["Write an answer first."]);
        return text.focus();
      }
      button.disabled = true;
      say(out, "hint", ["Sending your answer…"]);
      /** @type {Submission} */
      var body = { text: text.value };
      if (name.value.trim()) body.name = name.value.trim();
      fetch(`${service}/v1/public/collections/${encodeURIComponent(token)}/answers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
        .then((r) =>
          r
            .json()
            .catch(() => null)
            .then((j) => ({ status: r.status, json: j })),
        )
        .then((res) => {
          if (res.status !== 201) {
            button.disabled = res.status === 409;
            return say(out, "error", [reason(res.status, res.json)]);
          }
          text.value = "";
          name.value = "";
          button.disabled = false;
          var link = el("a", { href: res.json.receiptUrl, target: "_blank", rel: "noopener noreferrer" }, [res.json.receiptUrl]);
          say(out, "ok", ["Thank you, your answer is in."]);
          var kept = el("p", { class: "ok" }, ["Keep this link to see your score and rank once the answers are graded: ", link]);
          receipts.append(kept);
          receipts.hidden = false;
        })
        .catch(() => {
          button.disabled = false;
          say(out, "error", ["Your answer could not be sent. Check your connection and try again."]);
        });
    });
  }
})();
