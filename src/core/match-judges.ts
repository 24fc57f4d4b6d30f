import { panelJudge } from "./panel";
import type { OpenCall } from "./types";

/**
 * "cycle" (a panel of judges, issue 30): the judge each match is held to, so that both orders of a
 * debiased match are one judge's and the order debiasing cancels that judge's own position bias. A
 * match starts with its turn's judge (src/core/panel.ts panelJudge), or, replayed, the judge its
 * recorded calls name. When its judge is down the whole match moves to the next judge in turn: the
 * caller asks that judge every call of the match again, those the judge it left had answered too, and
 * records no answer from any other. Deterministic and free of I/O; one per run of an evaluation.
 */
export class MatchJudges {
  private readonly held = new Map<number, string>();
  private readonly movedMatches = new Set<number>();

  /** `recorded`: the calls recorded so far (a restarted run), each naming the judge that answered it. */
  constructor(
    private readonly panel: readonly string[],
    recorded: Iterable<{ match: number; judge?: string | null }> = [],
  ) {
    if (panel.length === 0) throw new RangeError("a panel needs a judge");
    for (const r of recorded) if (r.judge && panel.includes(r.judge)) this.held.set(r.match, r.judge);
  }

  /** The judge every call of `match` is asked of now. */
  judgeOf(match: number): string {
    return this.held.get(match) ?? panelJudge(this.panel, match);
  }

  /**
   * `from`, the judge a call of `match` was asked of, is down: the match moves to the judge after it in
   * turn. True when this moved it; false when it had moved already (another call of the match found
   * `from` down first), so the match moves once per judge it leaves, not once per call.
   */
  move(match: number, from: string): boolean {
    if (this.judgeOf(match) !== from) return false;
    this.held.set(match, this.panel[(this.panel.indexOf(from) + 1) % this.panel.length]);
    this.movedMatches.add(match);
    return true;
  }

  /** Whether an answer by `judge` to a call of `match` may be recorded: `judge` is the match's judge now. */
  holds(match: number, judge: string | null | undefined): boolean {
    return judge === this.judgeOf(match);
  }

  /** Whether `match` moved in this run (its open calls may have changed under a call in flight). */
  moved(match: number): boolean {
    return this.movedMatches.has(match);
  }

  /**
   * Whether an answer may be recorded: its judge is its match's now, and, should the match have moved,
   * the call is still open (`openCalls`, asked only then): a move drops the match's recorded calls, and
   * an adaptive match's second order, opened by its first, goes with it until the new judge is unsure too.
   */
  records(
    answer: { match: number; call: number; judge?: string | null },
    openCalls: () => readonly Pick<OpenCall, "match" | "call">[],
  ): boolean {
    if (!this.holds(answer.match, answer.judge)) return false;
    return !this.moved(answer.match) || openCalls().some((c) => c.match === answer.match && c.call === answer.call);
  }
}
