ALTER TABLE `evaluations` ADD `judge_max_tokens` integer;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `judge_panel` text;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `prompt_version` text;--> statement-breakpoint
ALTER TABLE `judge_calls` ADD `model` text;--> statement-breakpoint
ALTER TABLE `judge_calls` ADD `revision` text;--> statement-breakpoint
ALTER TABLE `judge_calls` ADD `seed` integer;