import { z } from "zod";

export const iso = z.string().describe("ISO 8601 date-time");

/** A rubric as an evaluation or a collection was made with it (its criteria, as the request gave them). */
export const rubricView = z.looseObject({
  criteria: z.array(z.looseObject({ name: z.string(), description: z.string().optional(), maxScore: z.number().optional() })),
});

export const page = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })), nextCursor: z.string().nullable() });

export type Page = z.output<typeof page>;
