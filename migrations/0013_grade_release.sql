CREATE TABLE `answer_releases` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant` text NOT NULL,
	`evaluation_id` text NOT NULL,
	`answer_id` text NOT NULL,
	`action` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `answer_releases_answer` ON `answer_releases` (`evaluation_id`,`answer_id`,`seq`);--> statement-breakpoint
ALTER TABLE `evaluations` ADD `grade_step` real;