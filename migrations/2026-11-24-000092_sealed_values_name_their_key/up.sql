-- Sealed values name the data key that sealed them: `v2.<key id>.<base64>`, the key id
-- 16 lower-case hex digits. Values written before (`v1.<base64>`) stay valid until a
-- rotation re-seals them. Webhook endpoint secrets get the same shape check.
ALTER TABLE wallet_adapters
    DROP CONSTRAINT wallet_adapters_secrets_sealed,
    ADD CONSTRAINT wallet_adapters_secrets_sealed CHECK (
        secret_sealed ~ '^(v1|v2\.[0-9a-f]{16})\.[A-Za-z0-9+/]+=*$'
        AND (previous_secret_sealed IS NULL OR previous_secret_sealed ~ '^(v1|v2\.[0-9a-f]{16})\.[A-Za-z0-9+/]+=*$')
    );

ALTER TABLE flight_chains
    DROP CONSTRAINT flight_chains_seed_sealed,
    ADD CONSTRAINT flight_chains_seed_sealed CHECK (terminal_seed_sealed ~ '^(v1|v2\.[0-9a-f]{16})\.[A-Za-z0-9+/]+=*$');

ALTER TABLE webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_secrets_sealed CHECK (
        (secret_sealed IS NULL OR secret_sealed ~ '^v2\.[0-9a-f]{16}\.[A-Za-z0-9+/]+=*$')
        AND (previous_secret_sealed IS NULL OR previous_secret_sealed ~ '^v2\.[0-9a-f]{16}\.[A-Za-z0-9+/]+=*$')
    );
