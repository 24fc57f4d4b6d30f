CREATE TABLE `collection_answers` (
	`collection_id` text NOT NULL,
	`answer_id` text NOT NULL,
	`position` integer NOT NULL,
	`text` text NOT NULL,
	`name` text,
	`receipt_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`collection_id`, `answer_id`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collection_answers_receipt_hash_unique` ON `collection_answers` (`receipt_hash`);--> statement-breakpoint
CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`public_token` text NOT NULL,
	`settings` text NOT NULL,
	`allowed_origins` text NOT NULL,
	`deadline` integer,
	`max_answers` integer,
	`webhook_url` text,
	`status` text NOT NULL,
	`closed_at` integer,
	`closed_by` text,
	`evaluation_id` text,
	`error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collections_public_token_unique` ON `collections` (`public_token`);--> statement-breakpoint
CREATE INDEX `collections_tenant_created` ON `collections` (`tenant`,`created_at`);--> statement-breakpoint
CREATE TABLE `share_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`evaluation_id` text NOT NULL,
	`tenant` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE INDEX `share_links_evaluation` ON `share_links` (`evaluation_id`);