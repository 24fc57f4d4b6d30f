CREATE TABLE `erased_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`erasure_id` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `erasures` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`kind` text NOT NULL,
	`state` text NOT NULL,
	`by` text NOT NULL,
	`within` text,
	`requested_at` integer NOT NULL,
	`erased_at` integer
);
--> statement-breakpoint
CREATE INDEX `erasures_within` ON `erasures` (`within`);