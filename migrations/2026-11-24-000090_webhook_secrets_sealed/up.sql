-- Webhook signing secrets are sealed under the data key, like wallet adapter secrets.
-- A migration has no data key, so this only makes room: the service seals the clear
-- values when it starts (`opinion admin data-key rotate` does too), and every write
-- stores sealed values only. Until then the read path opens a sealed value or takes the
-- clear one, never both: a row keeps exactly one form of each secret.
ALTER TABLE webhook_endpoints
    ADD COLUMN secret_sealed text NULL,
    ADD COLUMN previous_secret_sealed text NULL,
    ALTER COLUMN secret DROP NOT NULL,
    DROP CONSTRAINT webhook_endpoints_previous_secret_pair,
    ADD CONSTRAINT webhook_endpoints_one_secret CHECK ((secret IS NULL) <> (secret_sealed IS NULL)),
    ADD CONSTRAINT webhook_endpoints_previous_secret_pair CHECK (
        (previous_secret IS NULL AND previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL)
        AND (previous_secret IS NULL OR previous_secret_sealed IS NULL)
        AND (previous_secret IS NULL OR previous_secret LIKE 'whsec\_%')
    );

-- Finds what is still in clear without reading the whole table.
CREATE INDEX webhook_endpoints_clear_secrets ON webhook_endpoints (operator_id, id)
    WHERE secret IS NOT NULL OR previous_secret IS NOT NULL;
