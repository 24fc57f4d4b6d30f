-- Issue 29: D1 bills rows written, and a judge call was a row of judge_calls, a table keyed by three
-- columns: two rows written a call (the row and its key's entry), 1.93 calls a graded answer. A match
-- now carries its calls, in call order, in `calls` (a JSON array of the calls as the API shows them:
-- order, scores, raw, expected, spread, unheld, parseRetried, endpoint, model, revision, seed, judge,
-- votes, a null or false field left out and read back as absent), so a match writes two rows
-- whatever its calls, and judge_calls goes. About 5.1 rows written an answer instead of 8.
--
-- matches is rebuilt as a rowid table (0026 had made it WITHOUT ROWID, when its rows were small): its
-- rows now carry the judge's words, hundreds of bytes to a few KB, and a WITHOUT ROWID row of more
-- than about a thousand bytes spills to an overflow page of its own, about twice the storage, billed
-- every month, where a rowid table keeps a row on its page up to about 4 KB. That costs one row written a
-- match (its key's entry), once.
--
-- judge_calls' prompt_tokens and completion_tokens were never written (always 0): a call's tokens are
-- in its evaluation's usage. A nonzero one would be kept (promptTokens, completionTokens).
CREATE TABLE `matches_with_calls` (
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
	`calls` text DEFAULT '[]' NOT NULL,
	PRIMARY KEY(`evaluation_id`, `idx`)
);
--> statement-breakpoint
INSERT INTO `matches_with_calls` (`evaluation_id`, `idx`, `round`, `a`, `b`, `score_a`, `score_b`, `winner`, `tie`, `orders_disagree`, `extra`, `calls`)
	SELECT m.`evaluation_id`, m.`idx`, m.`round`, m.`a`, m.`b`, m.`score_a`, m.`score_b`, m.`winner`, m.`tie`, m.`orders_disagree`, m.`extra`,
		(SELECT json_group_array(json_patch('{}', json_object(
				'order', json(c.`order`),
				'scores', json(c.`scores`),
				'raw', c.`raw`,
				'expected', json(c.`expected`),
				'spread', json(c.`spread`),
				'unheld', json(c.`unheld`),
				'parseRetried', CASE WHEN c.`parse_retried` THEN json('true') END,
				'endpoint', c.`endpoint`,
				'model', c.`model`,
				'revision', c.`revision`,
				'seed', c.`seed`,
				'judge', c.`judge`,
				'votes', json(c.`votes`),
				'promptTokens', nullif(c.`prompt_tokens`, 0),
				'completionTokens', nullif(c.`completion_tokens`, 0)
			)) ORDER BY c.`call_idx`)
			FROM `judge_calls` c WHERE c.`evaluation_id` = m.`evaluation_id` AND c.`match_idx` = m.`idx`)
	FROM `matches` m;
--> statement-breakpoint
DROP TABLE `matches`;
--> statement-breakpoint
ALTER TABLE `matches_with_calls` RENAME TO `matches`;
--> statement-breakpoint
DROP TABLE `judge_calls`;
