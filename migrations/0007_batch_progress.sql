ALTER TABLE `batches` ADD `completed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `batches` ADD `failed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `batches` ADD `cancelled` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- batches made before the counters: count their questions that have already ended
UPDATE `batches` SET
  `completed` = (SELECT COUNT(*) FROM `evaluations` e WHERE e.`batch_id` = `batches`.`id` AND e.`status` = 'completed'),
  `failed` = (SELECT COUNT(*) FROM `evaluations` e WHERE e.`batch_id` = `batches`.`id` AND e.`status` = 'failed'),
  `cancelled` = (SELECT COUNT(*) FROM `evaluations` e WHERE e.`batch_id` = `batches`.`id` AND e.`status` = 'cancelled');
