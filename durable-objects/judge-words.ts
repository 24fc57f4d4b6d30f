/**
 * The judge's words as they are generated, for live viewers: the text so far of every streamed call in
 * flight, pushed as `match-text` events at most every `intervalMs` per evaluation (a judge writes tens
 * of tokens a second; a viewer needs a few updates), and kept so a viewer who joins late gets it.
 */
export interface MatchText {
  match: number;
  call: number;
  text: string;
}

export class JudgeWords {
  private readonly texts = new Map<string, MatchText>();
  private readonly changed = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly push: (updates: MatchText[]) => void,
    private readonly intervalMs = 250,
  ) {}

  update(match: number, call: number, text: string): void {
    if (!text) return; // a stream's first chunk carries the role and no words yet
    const key = `${match}.${call}`;
    this.texts.set(key, { match, call, text });
    this.changed.add(key);
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** The call has its result: its text is in the match from now on. */
  done(match: number, call: number): void {
    const key = `${match}.${call}`;
    this.texts.delete(key);
    this.changed.delete(key);
  }

  /** Forgets every call's text (the evaluation was erased). */
  clear(): void {
    this.texts.clear();
    this.changed.clear();
  }

  /** Every call's text so far, for a viewer who has just come. */
  current(): MatchText[] {
    return [...this.texts.values()];
  }

  private flush(): void {
    this.timer = null;
    const updates = [...this.changed].flatMap((key) => this.texts.get(key) ?? []);
    this.changed.clear();
    if (updates.length) this.push(updates);
  }
}
