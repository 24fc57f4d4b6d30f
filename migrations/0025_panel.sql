ALTER TABLE `evaluations` ADD `judge_panel_mode` text;--> statement-breakpoint
ALTER TABLE `judge_calls` ADD `judge` text;--> statement-breakpoint
ALTER TABLE `judge_calls` ADD `votes` text;