// Where one waiter's permit goes among the pool's endpoints (./fair-gate decides whose turn it is). Pure.

/** What routing reads of a waiter (see ./fair-gate's Waiter). */
export interface RouteRequest {
  models?: readonly string[];
  skipIfDown?: readonly string[];
  avoid?: string;
}

/** An endpoint's health as routing sees it: up, down (its circuit open), or out (it serves another model: never sent to). */
export type Health = "up" | "down" | "out";

/** One endpoint of the pool: its cap, and its share of the load when several have room. */
export interface Slot {
  id: string;
  cap: number;
  weight?: number;
  /** The models it serves; absent or null: any model asked (a pool of one model). */
  models?: readonly string[] | null;
}

/** An endpoint as the gate keeps it: its settings, its permits in use, its health. */
export type SlotState = Required<Slot> & { inUse: number; health: Health };

/** A waiter's route now: a permit at an endpoint (for a model), "skip", or null: it waits. */
export type Decision = { slot: SlotState; model?: string } | "skip" | null;

/**
 * The endpoint a waiter's permit is for, "skip", or null when it must wait: of the first of its
 * models (in order) that has an endpoint in the healthiest tier there is (up, else down, else out),
 * the endpoints of that tier with room, least loaded relative to cap x weight first, the one to
 * `avoid` last; in list order on a tie. "skip" when that tier is not up while one of the waiter's
 * `skipIfDown` models has an endpoint up.
 */
export function routeWaiter(slots: readonly SlotState[], w: RouteRequest): Decision {
  const choices: { model?: string; slots: SlotState[] }[] = w.models?.length
    ? w.models.map((model) => ({ model, slots: serving(slots, model) }))
    : [{ slots: [...slots] }];
  let chosen: { model?: string; slots: SlotState[] } | null = null;
  let tier: Health = "up";
  // the healthiest there is: with every endpoint out, calls still go (and fail, saying why) rather than wait forever
  for (const t of ["up", "down", "out"] as const) {
    const found = choices.find((c) => c.slots.some((s) => s.health === t));
    if (found) {
      chosen = { model: found.model, slots: found.slots.filter((s) => s.health === t) };
      tier = t;
      break;
    }
  }
  if (!chosen) return null;
  if (tier !== "up" && w.skipIfDown?.some((m) => serving(slots, m).some((s) => s.health === "up"))) return "skip";
  let best: SlotState | null = null;
  let bestRank = Infinity;
  for (const s of chosen.slots) {
    if (s.inUse >= s.cap) continue;
    const rank = (s.id === w.avoid ? 1e9 : 0) + (s.inUse + 1) / (s.cap * s.weight);
    if (rank < bestRank) {
      best = s;
      bestRank = rank;
    }
  }
  return best ? { slot: best, model: chosen.model } : null;
}

/** The endpoints that serve `model`; every endpoint when none names it (a pool of one model takes any name). */
function serving(slots: readonly SlotState[], model: string): SlotState[] {
  const named = slots.filter((s) => s.models === null || s.models.includes(model));
  return named.length > 0 ? named : [...slots];
}
