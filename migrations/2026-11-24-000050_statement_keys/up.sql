-- The platform's statement signing keys, public halves only: the secret seed stays in
-- configuration (or the development data directory). One key is current (retired_at
-- NULL); a retired key keeps verifying what it signed before retired_at. A key is never
-- deleted, and the only change ever made to one is its retirement, once.
CREATE TABLE statement_keys (
    key_id     text PRIMARY KEY,
    public_key text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    retired_at timestamptz NULL,
    CONSTRAINT statement_keys_id_shape CHECK (key_id ~ '^ed25519:[0-9a-f]{16}$'),
    CONSTRAINT statement_keys_public_key_shape CHECK (public_key ~ '^[0-9a-f]{64}$'),
    CONSTRAINT statement_keys_retired_after_created CHECK (retired_at IS NULL OR retired_at >= created_at)
);

CREATE UNIQUE INDEX statement_keys_one_current ON statement_keys ((true)) WHERE retired_at IS NULL;

CREATE FUNCTION statement_keys_only_retired() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'statement keys are never deleted'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF OLD.retired_at IS NOT NULL
        OR NEW.retired_at IS NULL
        OR (NEW.key_id, NEW.public_key, NEW.created_at) IS DISTINCT FROM (OLD.key_id, OLD.public_key, OLD.created_at)
    THEN
        RAISE EXCEPTION 'a statement key is only ever retired, once'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER statement_keys_only_retired
    BEFORE UPDATE OR DELETE ON statement_keys
    FOR EACH ROW EXECUTE FUNCTION statement_keys_only_retired();
