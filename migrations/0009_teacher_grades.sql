CREATE TABLE `teacher_grades` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant` text NOT NULL,
	`evaluation_id` text NOT NULL,
	`answer_id` text NOT NULL,
	`score` real,
	`note` text,
	`graded_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `teacher_grades_answer` ON `teacher_grades` (`evaluation_id`,`answer_id`,`seq`);