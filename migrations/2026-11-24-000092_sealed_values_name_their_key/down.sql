-- Going back is refused while a value names its key: the earlier shape cannot hold it.
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_secrets_sealed;

ALTER TABLE flight_chains
    DROP CONSTRAINT flight_chains_seed_sealed,
    ADD CONSTRAINT flight_chains_seed_sealed CHECK (terminal_seed_sealed ~ '^v1\.[A-Za-z0-9+/]+=*$');

ALTER TABLE wallet_adapters
    DROP CONSTRAINT wallet_adapters_secrets_sealed,
    ADD CONSTRAINT wallet_adapters_secrets_sealed CHECK (
        secret_sealed ~ '^v1\.[A-Za-z0-9+/]+=*$'
        AND (previous_secret_sealed IS NULL OR previous_secret_sealed ~ '^v1\.[A-Za-z0-9+/]+=*$')
    );
