ALTER TABLE `evaluations` ADD `pairing` text DEFAULT 'round' NOT NULL;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `shared_prefix_tokens` integer DEFAULT 0 NOT NULL;