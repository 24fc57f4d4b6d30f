ALTER TABLE `evaluations` ADD `adaptive_debias` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `score_from` text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `byes` text;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `grade_boundaries` text;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `extra_call_budget` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `extra_calls` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `evaluations` ADD `calls_saved` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `judge_calls` ADD `expected` text;--> statement-breakpoint
ALTER TABLE `judge_calls` ADD `spread` text;--> statement-breakpoint
ALTER TABLE `judge_calls` ADD `parse_retried` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `matches` ADD `tie` text;--> statement-breakpoint
ALTER TABLE `matches` ADD `orders_disagree` integer;--> statement-breakpoint
ALTER TABLE `matches` ADD `extra` integer DEFAULT false NOT NULL;