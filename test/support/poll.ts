import { vi } from "vitest";

/**
 * The one way a test waits for a state it cannot be told about (an evaluation completing, a gate
 * going idle): vitest's `vi.waitFor`, asking `probe` until it gives something truthy. It waits on a
 * state, never times one; the bound only ends a test that would otherwise hang.
 */
export function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (!value) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: intervalMs },
  );
}
