-- Issue 29: D1 bills rows written, and an insert into a table keyed by several columns writes two
-- rows: the row (under its hidden rowid) and its entry in the primary key's index. A WITHOUT ROWID
-- table is stored in its primary key, so an insert writes one. Only for small rows: a row of more than
-- about a thousand bytes spills into an overflow page of its own there, so answers (their texts) and
-- judge_calls (the judge's words) would take about three times the storage, billed every month, to
-- save one row written once. matches (no text) is rebuilt so: same columns, same key; nothing reads
-- its rowid. drizzle-kit does not know WITHOUT ROWID: a migration of its own that rebuilds matches
-- must keep it (src/db/schema.ts says so beside it).
CREATE TABLE `matches_keyed` (
	`evaluation_id` text NOT NULL,
	`idx` integer NOT NULL,
	`round` integer NOT NULL,
	`a` text NOT NULL,
	`b` text,
	`score_a` real,
	`score_b` real,
	`winner` text,
	`tie` text,
	`orders_disagree` integer,
	`extra` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`evaluation_id`, `idx`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `matches_keyed` (`evaluation_id`, `idx`, `round`, `a`, `b`, `score_a`, `score_b`, `winner`, `tie`, `orders_disagree`, `extra`)
	SELECT `evaluation_id`, `idx`, `round`, `a`, `b`, `score_a`, `score_b`, `winner`, `tie`, `orders_disagree`, `extra` FROM `matches`;
--> statement-breakpoint
DROP TABLE `matches`;
--> statement-breakpoint
ALTER TABLE `matches_keyed` RENAME TO `matches`;
