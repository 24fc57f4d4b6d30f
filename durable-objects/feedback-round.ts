/**
 * Runs `play` for every item, at most `ahead` at once (the permits decide how many reach the judge;
 * this bounds the prompts built ahead of them), and resolves when all have ended. The first error
 * (a cancellation) is thrown once every started call has settled, so none is left running unseen.
 */
export async function playAll<T>(items: readonly T[], ahead: number, play: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (next < items.length && failure === null) {
      const item = items[next++];
      await play(item).catch((err: unknown) => {
        failure ??= err;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(ahead, items.length) }, worker));
  if (failure !== null) throw failure;
}
