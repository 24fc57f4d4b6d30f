CREATE TABLE `idempotency_keys` (
	`tenant` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer,
	`body` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`tenant`, `key`)
);
--> statement-breakpoint
CREATE TABLE `webhook_secrets` (
	`tenant` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_until` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
DROP INDEX `evaluations_tenant_created`;--> statement-breakpoint
CREATE INDEX `evaluations_tenant_created` ON `evaluations` (`tenant`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rate_limit_per_minute` integer;