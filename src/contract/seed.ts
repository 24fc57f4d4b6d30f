import { z } from "zod";

/** A seed of the seeded generator: a non-negative 31-bit integer, the same in every request that takes one. */
export const seed = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);
