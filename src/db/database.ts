import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

/** D1 through drizzle-orm, typed by the schema: every query module takes one of these. */
export type Db = DrizzleD1Database<typeof schema>;

export const database = (d1: D1Database): Db => drizzle(d1, { schema });
