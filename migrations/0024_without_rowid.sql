-- Issue 29: D1 bills rows written, and an insert into a table keyed by several columns writes two
-- rows: the row (under its hidden rowid) and its entry in the primary key's index. A WITHOUT ROWID
-- table is stored in its primary key, so an insert writes one. The three tables that grow by a row per
-- answer, match and judge call are rebuilt so (same columns, same keys; nothing reads their rowid).
-- drizzle-kit does not know WITHOUT ROWID: a migration of its own that rebuilds one of these tables
-- must keep it (src/db/schema.ts says so beside them).
CREATE TABLE `answers_keyed` (
	`evaluation_id` text NOT NULL,
	`answer_id` text NOT NULL,
	`position` integer NOT NULL,
	`text` text NOT NULL,
	`examinee` text,
	`score` real,
	`scores` text,
	`eliminated_in_round` integer,
	`rank` integer,
	`strength` real,
	`criteria` text,
	`feedback` text,
	`feedback_error` text,
	`feedback_at` integer,
	PRIMARY KEY(`evaluation_id`, `answer_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `answers_keyed` (`evaluation_id`, `answer_id`, `position`, `text`, `examinee`, `score`, `scores`, `eliminated_in_round`, `rank`, `strength`, `criteria`, `feedback`, `feedback_error`, `feedback_at`)
	SELECT `evaluation_id`, `answer_id`, `position`, `text`, `examinee`, `score`, `scores`, `eliminated_in_round`, `rank`, `strength`, `criteria`, `feedback`, `feedback_error`, `feedback_at` FROM `answers`;
--> statement-breakpoint
DROP TABLE `answers`;
--> statement-breakpoint
ALTER TABLE `answers_keyed` RENAME TO `answers`;
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TABLE `judge_calls_keyed` (
	`evaluation_id` text NOT NULL,
	`match_idx` integer NOT NULL,
	`call_idx` integer NOT NULL,
	`order` text NOT NULL,
	`scores` text NOT NULL,
	`raw` text NOT NULL,
	`expected` text,
	`spread` text,
	`unheld` text,
	`parse_retried` integer DEFAULT false NOT NULL,
	`endpoint` text,
	`model` text,
	`revision` text,
	`seed` integer,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`evaluation_id`, `match_idx`, `call_idx`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `judge_calls_keyed` (`evaluation_id`, `match_idx`, `call_idx`, `order`, `scores`, `raw`, `expected`, `spread`, `unheld`, `parse_retried`, `endpoint`, `model`, `revision`, `seed`, `prompt_tokens`, `completion_tokens`)
	SELECT `evaluation_id`, `match_idx`, `call_idx`, `order`, `scores`, `raw`, `expected`, `spread`, `unheld`, `parse_retried`, `endpoint`, `model`, `revision`, `seed`, `prompt_tokens`, `completion_tokens` FROM `judge_calls`;
--> statement-breakpoint
DROP TABLE `judge_calls`;
--> statement-breakpoint
ALTER TABLE `judge_calls_keyed` RENAME TO `judge_calls`;
