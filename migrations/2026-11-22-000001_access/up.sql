-- Access: operators (tenants), their API keys, their dashboard staff and the staff's
-- server-side sessions.
--
-- Sharding rule (DESIGN.md §3): every tenant-owned table carries operator_id, and its
-- primary key and every index lead with it, so the schema can be distributed by
-- operator_id (Citus) without rewriting keys. The two platform-wide UNIQUE constraints
-- below are the only, deliberate, exceptions; each says why.
--
-- Ids are the 128 bits of a ULID stored as uuid; ULIDs are time-ordered, so ordering by
-- id is creation order and keyset pagination needs nothing but the primary key.

CREATE TABLE operators (
    id uuid PRIMARY KEY,
    name text NOT NULL,
    created_at timestamptz NOT NULL,
    CONSTRAINT operators_name_length CHECK (length(name) BETWEEN 1 AND 200)
);

CREATE TABLE api_keys (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    name text NOT NULL,
    scopes text[] NOT NULL,
    hint text NOT NULL,
    secret_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NULL,
    revoked_at timestamptz NULL,
    last_used_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    -- Exception to operator-leading indexes: a presented key names its operator only
    -- through its hash, so authentication must find the hash across all operators.
    CONSTRAINT api_keys_secret_hash_key UNIQUE (secret_hash),
    CONSTRAINT api_keys_name_length CHECK (length(name) BETWEEN 1 AND 200),
    CONSTRAINT api_keys_scopes_present CHECK (
        cardinality(scopes) > 0 AND array_ndims(scopes) = 1 AND array_position(scopes, NULL) IS NULL
    ),
    CONSTRAINT api_keys_hint_length CHECK (length(hint) BETWEEN 1 AND 32),
    -- Only the lower-case hex SHA-256 of a secret is ever stored, never the secret.
    CONSTRAINT api_keys_secret_hash_is_sha256_hex CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
    CONSTRAINT api_keys_expiry_after_creation CHECK (expires_at IS NULL OR expires_at > created_at)
);

CREATE TABLE staff_members (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    email text NOT NULL,
    name text NOT NULL,
    scopes text[] NOT NULL,
    password_hash text NOT NULL,
    disabled boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    -- Exception to operator-leading indexes: logins are platform-wide (a member types
    -- an e-mail address, not an operator), so an address belongs to one member only.
    CONSTRAINT staff_members_email_key UNIQUE (email),
    CONSTRAINT staff_members_email_shape CHECK (length(email) BETWEEN 3 AND 254 AND position('@' IN email) > 1),
    CONSTRAINT staff_members_name_length CHECK (length(name) BETWEEN 1 AND 200),
    CONSTRAINT staff_members_scopes_present CHECK (
        cardinality(scopes) > 0 AND array_ndims(scopes) = 1 AND array_position(scopes, NULL) IS NULL
    ),
    -- A PHC string (`$argon2id$…`), never a plain password.
    CONSTRAINT staff_members_password_hash_is_phc CHECK (left(password_hash, 1) = '$' AND length(password_hash) > 1)
);

CREATE TABLE staff_sessions (
    operator_id uuid NOT NULL,
    id uuid NOT NULL,
    staff_id uuid NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    ended_at timestamptz NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, staff_id) REFERENCES staff_members (operator_id, id),
    CONSTRAINT staff_sessions_expiry_after_creation CHECK (expires_at > created_at)
);

-- Ending all of a member's sessions (disable, password reset).
CREATE INDEX staff_sessions_operator_staff_idx ON staff_sessions (operator_id, staff_id);
