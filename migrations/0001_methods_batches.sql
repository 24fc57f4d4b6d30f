CREATE TABLE `batches` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`total` integer NOT NULL,
	`webhook_url` text,
	`metadata` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `batches_tenant_created` ON `batches` (`tenant`,`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_matches` (
	`evaluation_id` text NOT NULL,
	`idx` integer NOT NULL,
	`round` integer NOT NULL,
	`a` text NOT NULL,
	`b` text,
	`score_a` real,
	`score_b` real,
	`winner` text,
	PRIMARY KEY(`evaluation_id`, `idx`)
);
--> statement-breakpoint
INSERT INTO `__new_matches`("evaluation_id", "idx", "round", "a", "b", "score_a", "score_b", "winner") SELECT "evaluation_id", "idx", "round", "a", "b", "score_a", "score_b", "winner" FROM `matches`;--> statement-breakpoint
DROP TABLE `matches`;--> statement-breakpoint
ALTER TABLE `__new_matches` RENAME TO `matches`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `answers` ADD `examinee` text;--> statement-breakpoint
ALTER TABLE `answers` ADD `strength` real;--> statement-breakpoint
ALTER TABLE `answers` ADD `criteria` text;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `rubric` text;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `batch_id` text;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `batch_index` integer;--> statement-breakpoint
CREATE INDEX `evaluations_batch` ON `evaluations` (`batch_id`);