// @ts-check
// The knockout bracket, drawn from the live view: round columns, one card per match, and empty slots
// for matches not yet made (their players are still playing the round before).
import { formatScore } from "./score-format.js";

/** @typedef {import("../../src/contract").LiveView} LiveView */
/** @typedef {import("../../src/contract").LiveMatch} LiveMatch */
/** @typedef {{ round: number, slots: (LiveMatch | null)[], byes: string[] }} BracketRound */

/**
 * How many matches each round of a knockout of n answers has; an odd one out gets a bye.
 * @param {number} n
 */
export function roundSizes(n) {
  const sizes = [];
  for (let k = n; k > 1; k = Math.ceil(k / 2)) sizes.push(Math.floor(k / 2));
  return sizes;
}

/**
 * The bracket's rounds: each round's matches by index, padded with nulls for matches still to come,
 * and (knockout, when the answer ids are known) who sits the round out: an entrant of a round whose
 * matches are all made but who plays in none of them. A round's entrants are the winners and byes of
 * the round before, known once it is decided.
 * @param {string} method
 * @param {number} answerCount
 * @param {LiveMatch[]} matches
 * @param {string[] | null} [answerIds]
 * @returns {BracketRound[]}
 */
export function bracketRounds(method, answerCount, matches, answerIds = null) {
  /** @type {Map<number, LiveMatch[]>} */
  const byRound = new Map();
  for (const m of [...matches].sort((x, y) => x.index - y.index)) {
    const round = byRound.get(m.round) ?? [];
    round.push(m);
    byRound.set(m.round, round);
  }
  const sizes = method === "knockout" ? roundSizes(answerCount) : [...byRound.values()].map((round) => round.length);
  const last = Math.max(sizes.length, ...byRound.keys());
  const rounds = [];
  let entrants = method === "knockout" && answerIds ? answerIds : null;
  for (let r = 1; r <= last; r++) {
    const made = byRound.get(r) ?? [];
    const size = Math.max(sizes[r - 1] ?? 0, made.length);
    const complete = made.length === size;
    const playing = new Set(made.flatMap((m) => [m.a, m.b]).filter((id) => id !== null));
    const byes = entrants && complete ? entrants.filter((id) => !playing.has(id)) : [];
    rounds.push({ round: r, slots: [...made, ...Array(size - made.length).fill(null)], byes });
    entrants =
      entrants && complete && made.every((m) => m.winner)
        ? entrants.filter((id) => byes.includes(id) || made.some((m) => m.winner === id))
        : null;
  }
  return rounds;
}

/**
 * What a round is called, in the method's own words: a knockout's last rounds are the final and the
 * semi-finals; the other methods have no final (pairwise judges one round of pairs, individual no pairs).
 * @param {number} r
 * @param {number} count the method's rounds (a knockout's, without extra judgments)
 * @param {string} [method]
 */
export function roundTitle(r, count, method = "knockout") {
  if (method === "individual") return "Judgments";
  if (method === "pairwise") return "Pairs";
  if (method === "round-robin") return `Round ${r}`;
  if (r > count) return "Extra judgments";
  if (r === count) return "Final";
  if (r === count - 1 && count > 2) return "Semi-finals";
  return `Round ${r}`;
}

/**
 * Replaces the contents of `root` with the bracket.
 * @param {HTMLElement} root
 * @param {LiveView} view
 * @param {ReadonlyMap<number, string>} [words] the judge's words so far, by match index, of calls being generated
 */
export function drawBracket(root, view, words = new Map()) {
  // extra judgments decide nothing: they are a column of their own after the knockout's rounds
  const rounds = bracketRounds(
    view.method,
    view.answerCount,
    view.matches.filter((m) => !m.extra),
    view.answerIds ?? null,
  );
  const extra = view.matches.filter((m) => m.extra);
  const count = rounds.length;
  if (extra.length) rounds.push({ round: count + 1, slots: extra, byes: [] });
  const doc = root.ownerDocument;
  root.replaceChildren();
  for (const { round, slots, byes } of rounds) {
    const col = doc.createElement("section");
    col.className = "round";
    col.setAttribute("aria-label", roundTitle(round, count, view.method));
    const h = doc.createElement("h3");
    h.textContent = roundTitle(round, count, view.method);
    col.append(h);
    const list = doc.createElement("ol");
    for (const m of slots) list.append(matchCard(doc, m, view.maxScore, words));
    for (const id of byes) {
      const li = doc.createElement("li");
      li.className = "match bye";
      li.textContent = `${id}: bye to the next round`;
      list.append(li);
    }
    col.append(list);
    root.append(col);
  }
}

/**
 * @param {Document} doc
 * @param {LiveMatch | null} m
 * @param {number} maxScore
 * @param {ReadonlyMap<number, string>} [words]
 */
function matchCard(doc, m, maxScore, words = new Map()) {
  const li = doc.createElement("li");
  li.className = "match";
  if (!m) {
    li.classList.add("waiting");
    li.textContent = "to be decided";
    return li;
  }
  li.dataset.index = String(m.index);
  // decided once scored: methods without elimination (and pointwise judging, b null) have no winner
  const decided = m.scoreA !== null && m.scoreA !== undefined;
  li.classList.add(decided ? "decided" : "playing");
  if (!decided) li.setAttribute("aria-busy", "true");
  /** @type {[string, number | null][]} */
  const sides = [[m.a, m.scoreA]];
  if (m.b !== null && m.b !== undefined) sides.push([m.b, m.scoreB]);
  for (const [id, score] of sides) {
    const row = doc.createElement("div");
    row.className = "player";
    if (m.winner === id) row.classList.add("winner");
    if (m.winner && m.winner !== id) row.classList.add("loser");
    const name = doc.createElement("span");
    name.className = "id";
    name.textContent = id;
    const s = doc.createElement("span");
    s.className = "score";
    s.textContent = decided ? formatScore(score, "") : "…";
    if (decided) s.setAttribute("aria-label", `${formatScore(score, "")} of ${maxScore}${m.winner === id ? ", advances" : ""}`);
    row.append(name, s);
    li.append(row);
  }
  const said = words.get(m.index);
  if (!decided && said) {
    // the judge's words as it writes them: the last few lines, the verdict comes at the end
    const p = doc.createElement("p");
    p.className = "judge-words";
    p.textContent = said.length > 160 ? `…${said.slice(-160)}` : said;
    li.append(p);
  }
  return li;
}
