CREATE TABLE `lti_logins` (
	`state` text PRIMARY KEY NOT NULL,
	`nonce` text NOT NULL,
	`platform_id` text NOT NULL,
	`login_hint` text NOT NULL,
	`message_hint` text,
	`target_link_uri` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `lti_logins_expires` ON `lti_logins` (`expires_at`);--> statement-breakpoint
CREATE TABLE `lti_platforms` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`deployment_ids` text NOT NULL,
	`auth_login_url` text NOT NULL,
	`access_token_url` text NOT NULL,
	`jwks_url` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_platforms_issuer_client` ON `lti_platforms` (`issuer`,`client_id`);--> statement-breakpoint
CREATE INDEX `lti_platforms_tenant` ON `lti_platforms` (`tenant`);