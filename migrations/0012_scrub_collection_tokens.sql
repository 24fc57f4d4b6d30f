-- Data only, no schema change (drizzle-kit generate --custom): earlier versions kept the whole response
-- of an idempotent POST /v1/collections and POST /v1/collections/:id/close, whose publicToken and embed
-- snippets hold the collection's public token in the clear. A replay now has both null (the owner reads
-- them with GET /v1/collections/:id), and so do the responses kept before.
UPDATE `idempotency_keys` SET `body` = json_set(`body`, '$.publicToken', json('null'), '$.embed', json('null'))
WHERE `body` LIKE '%"publicToken":"pc\_%' ESCAPE '\' AND json_valid(`body`);
