-- Sealed secrets cannot be opened without the data key, so going back is refused while
-- any endpoint keeps one.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE secret_sealed IS NOT NULL OR previous_secret_sealed IS NOT NULL) THEN
        RAISE EXCEPTION 'webhook endpoints hold sealed secrets; they cannot be written back in clear by a migration';
    END IF;
END
$$;

DROP INDEX webhook_endpoints_clear_secrets;
ALTER TABLE webhook_endpoints
    DROP CONSTRAINT webhook_endpoints_previous_secret_pair,
    DROP CONSTRAINT webhook_endpoints_one_secret,
    DROP COLUMN previous_secret_sealed,
    DROP COLUMN secret_sealed,
    ALTER COLUMN secret SET NOT NULL,
    ADD CONSTRAINT webhook_endpoints_previous_secret_pair CHECK (
        (previous_secret IS NULL) = (previous_secret_expires_at IS NULL)
        AND (previous_secret IS NULL OR previous_secret LIKE 'whsec\_%')
    );
