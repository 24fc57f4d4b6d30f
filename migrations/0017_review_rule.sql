ALTER TABLE `evaluations` ADD `review_share` real DEFAULT 0.15 NOT NULL;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `review_threshold` real;