-- Wallet adapters (docs/operator/wallet-adapter.md): where and how the platform calls each
-- operator's wallet. At most one per operator, so the operator is the whole primary key.
--
-- Signing secrets are never stored in the clear: each is sealed with AES-256-GCM under
-- the service's data key (OPINION_DATA_KEY), bound to its operator and its slot, and
-- written as `v1.<base64 of nonce, ciphertext and tag>`. The hint is the only part of the
-- current secret that can be read back. A replaced secret keeps signing until
-- previous_secret_signs_until (the rotation overlap).
--
-- revision counts changes; a change is written only if the revision it read is still
-- the stored one, so two concurrent changes cannot both win.

CREATE TABLE wallet_adapters (
    operator_id uuid PRIMARY KEY REFERENCES operators (id),
    base_url text NOT NULL,
    timeout_ms integer NOT NULL,
    secret_sealed text NOT NULL,
    secret_hint text NOT NULL,
    previous_secret_sealed text NULL,
    previous_secret_signs_until timestamptz NULL,
    revision bigint NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT wallet_adapters_base_url_shape CHECK (
        length(base_url) BETWEEN 1 AND 2048 AND base_url ~ '^https?://' AND right(base_url, 1) <> '/'
    ),
    CONSTRAINT wallet_adapters_timeout_bounds CHECK (timeout_ms BETWEEN 1000 AND 30000),
    CONSTRAINT wallet_adapters_secrets_sealed CHECK (
        secret_sealed ~ '^v1\.[A-Za-z0-9+/]+=*$'
        AND (previous_secret_sealed IS NULL OR previous_secret_sealed ~ '^v1\.[A-Za-z0-9+/]+=*$')
    ),
    CONSTRAINT wallet_adapters_previous_whole CHECK (
        (previous_secret_sealed IS NULL) = (previous_secret_signs_until IS NULL)
    ),
    CONSTRAINT wallet_adapters_hint_length CHECK (length(secret_hint) BETWEEN 1 AND 32),
    CONSTRAINT wallet_adapters_revision_positive CHECK (revision > 0),
    CONSTRAINT wallet_adapters_updated_after_creation CHECK (updated_at >= created_at)
);
