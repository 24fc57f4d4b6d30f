CREATE TABLE `tenant_settings` (
	`tenant` text PRIMARY KEY NOT NULL,
	`retention_days` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `batches` ADD `retention_days` integer;--> statement-breakpoint
ALTER TABLE `collections` ADD `retention_days` integer;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `retention_days` integer;