ALTER TABLE `judge_calls` ADD `unheld` text;
