-- Production authorizations of the flight product: platform staff record one per
-- signed-off change (who, when, its reference, an optional expiry). A record is never
-- edited or deleted: revoking stamps it once (when and by whom), a renewal is a new
-- record, so every authorization ever given stays readable. The database refuses any
-- other change, whatever the code does.
CREATE TABLE flight_production_authorizations (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    reference text NOT NULL,
    recorded_at timestamptz NOT NULL,
    recorded_by text NOT NULL,
    expires_at timestamptz NULL,
    revoked_at timestamptz NULL,
    revoked_by text NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT flight_production_authorizations_reference_named
        CHECK (length(reference) BETWEEN 1 AND 200),
    CONSTRAINT flight_production_authorizations_recorded_by_named
        CHECK (length(recorded_by) BETWEEN 1 AND 200),
    CONSTRAINT flight_production_authorizations_expiry_after_recording
        CHECK (expires_at IS NULL OR expires_at > recorded_at),
    CONSTRAINT flight_production_authorizations_revocation_whole
        CHECK ((revoked_at IS NULL) = (revoked_by IS NULL)),
    CONSTRAINT flight_production_authorizations_revoked_by_named
        CHECK (revoked_by IS NULL OR length(revoked_by) BETWEEN 1 AND 200),
    CONSTRAINT flight_production_authorizations_revoked_after_recording
        CHECK (revoked_at IS NULL OR revoked_at >= recorded_at)
);

CREATE FUNCTION flight_production_authorizations_never_edited() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'production authorizations are never deleted'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF OLD.revoked_at IS NOT NULL
        OR NEW.revoked_at IS NULL
        OR (NEW.operator_id, NEW.id, NEW.reference, NEW.recorded_at, NEW.recorded_by, NEW.expires_at)
           IS DISTINCT FROM
           (OLD.operator_id, OLD.id, OLD.reference, OLD.recorded_at, OLD.recorded_by, OLD.expires_at)
    THEN
        RAISE EXCEPTION 'production authorizations are never edited; one is revoked once'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER flight_production_authorizations_never_edited
    BEFORE UPDATE OR DELETE ON flight_production_authorizations
    FOR EACH ROW EXECUTE FUNCTION flight_production_authorizations_never_edited();
