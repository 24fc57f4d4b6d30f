CREATE TABLE `audit_log` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant` text NOT NULL,
	`at` integer NOT NULL,
	`who` text NOT NULL,
	`what` text NOT NULL,
	`evaluation_id` text,
	`answer_id` text,
	`collection_id` text,
	`key_id` text,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_tenant_at` ON `audit_log` (`tenant`,`at`,`seq`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `scopes` text DEFAULT '["read","write"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `collection_id` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` integer;