CREATE TABLE `lti_learners` (
	`collection_id` text NOT NULL,
	`sub` text NOT NULL,
	`platform_id` text NOT NULL,
	`name` text,
	`answer_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`collection_id`, `sub`)
);
--> statement-breakpoint
CREATE INDEX `lti_learners_answer` ON `lti_learners` (`collection_id`,`answer_id`);--> statement-breakpoint
CREATE TABLE `lti_links` (
	`collection_id` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`platform_id` text NOT NULL,
	`deployment_id` text NOT NULL,
	`context_id` text,
	`context_title` text,
	`resource_link_id` text,
	`line_item_url` text,
	`line_items_url` text,
	`ags_scopes` text,
	`memberships_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `lti_links_resource` ON `lti_links` (`platform_id`,`resource_link_id`);--> statement-breakpoint
CREATE INDEX `lti_links_tenant` ON `lti_links` (`tenant`);