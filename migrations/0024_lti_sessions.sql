CREATE TABLE `lti_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`tenant` text NOT NULL,
	`platform_id` text NOT NULL,
	`deployment_id` text NOT NULL,
	`collection_id` text,
	`sub` text NOT NULL,
	`name` text,
	`context_id` text,
	`context_title` text,
	`return_url` text,
	`data` text,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `lti_sessions_expires` ON `lti_sessions` (`expires_at`);--> statement-breakpoint
CREATE INDEX `lti_sessions_sub` ON `lti_sessions` (`sub`);