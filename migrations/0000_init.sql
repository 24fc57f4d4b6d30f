CREATE TABLE `answers` (
	`evaluation_id` text NOT NULL,
	`answer_id` text NOT NULL,
	`position` integer NOT NULL,
	`text` text NOT NULL,
	`score` real,
	`scores` text,
	`eliminated_in_round` integer,
	`rank` integer,
	PRIMARY KEY(`evaluation_id`, `answer_id`)
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `evaluations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`status` text NOT NULL,
	`method` text NOT NULL,
	`debias` integer NOT NULL,
	`template` text NOT NULL,
	`max_score` real NOT NULL,
	`seed` integer NOT NULL,
	`question` text NOT NULL,
	`reference` text,
	`judge_model` text,
	`judge_temperature` real,
	`webhook_url` text,
	`metadata` text,
	`champion` text,
	`error` text,
	`judge_calls` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`retries` integer DEFAULT 0 NOT NULL,
	`parse_failures` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`completed_at` integer
);
--> statement-breakpoint
CREATE INDEX `evaluations_tenant_created` ON `evaluations` (`tenant`,`created_at`);--> statement-breakpoint
CREATE TABLE `judge_calls` (
	`evaluation_id` text NOT NULL,
	`match_idx` integer NOT NULL,
	`call_idx` integer NOT NULL,
	`order` text NOT NULL,
	`scores` text NOT NULL,
	`raw` text NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`evaluation_id`, `match_idx`, `call_idx`)
);
--> statement-breakpoint
CREATE TABLE `matches` (
	`evaluation_id` text NOT NULL,
	`idx` integer NOT NULL,
	`round` integer NOT NULL,
	`a` text NOT NULL,
	`b` text NOT NULL,
	`score_a` real,
	`score_b` real,
	`winner` text,
	PRIMARY KEY(`evaluation_id`, `idx`)
);
