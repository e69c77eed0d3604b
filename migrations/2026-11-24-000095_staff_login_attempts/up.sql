-- Staff login throttling counters, shared by every instance: one row per e-mail address
-- typed at a login (known or not) and per client address, keyed by the SHA-256 of the
-- normalised value so neither is kept in clear. The rule that moves them lives in
-- `opinion-access` (`login_throttle.rs`); a login locks its rows (`FOR UPDATE`), applies the
-- rule and writes the result in one transaction, so instances count into one row. Not a
-- tenant table: e-mail addresses are platform-wide logins. Rows untouched for the
-- policy's forgetting time are pruned by the logins themselves (`updated_at` index).
CREATE TABLE staff_login_attempts (
    kind              text NOT NULL CHECK (kind IN ('email', 'address')),
    key_hash          bytea NOT NULL CHECK (octet_length(key_hash) = 32),
    window_started_at timestamptz NOT NULL,
    attempts          integer NOT NULL CHECK (attempts >= 0),
    locked_until      timestamptz NULL,
    lockouts          integer NOT NULL CHECK (lockouts >= 0),
    updated_at        timestamptz NOT NULL,
    PRIMARY KEY (kind, key_hash)
);

CREATE INDEX staff_login_attempts_updated_idx ON staff_login_attempts (updated_at);
