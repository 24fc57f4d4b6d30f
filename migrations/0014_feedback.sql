CREATE TABLE `feedback_edits` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant` text NOT NULL,
	`evaluation_id` text NOT NULL,
	`answer_id` text NOT NULL,
	`text` text NOT NULL,
	`edited_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `feedback_edits_answer` ON `feedback_edits` (`evaluation_id`,`answer_id`,`seq`);--> statement-breakpoint
ALTER TABLE `answers` ADD `feedback` text;--> statement-breakpoint
ALTER TABLE `answers` ADD `feedback_error` text;--> statement-breakpoint
ALTER TABLE `answers` ADD `feedback_at` integer;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `feedback` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `feedback_calls` integer DEFAULT 0 NOT NULL;