-- Data only, no schema change (drizzle-kit generate --custom): earlier versions kept the response of an
-- idempotent POST /v1/evaluations/:id/share, {"url","token"}, a share token in the clear. Only the fact
-- that the request was done stays; a retry with its key is then a 409 (the token is shown once).
UPDATE `idempotency_keys` SET `body` = NULL WHERE `body` LIKE '%"token":"sh\_%' ESCAPE '\';
