-- Scheduling flight terms: a scheduled version may be cancelled once, before it takes
-- effect, naming who cancelled it; no version is ever edited or deleted, and the
-- database refuses it, whatever the code does.
ALTER TABLE flight_terms ADD COLUMN cancelled_by text NULL;
ALTER TABLE flight_terms
    ADD CONSTRAINT flight_terms_cancellation_whole CHECK ((cancelled_at IS NULL) = (cancelled_by IS NULL));

CREATE FUNCTION flight_terms_never_edited() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'flight terms versions are never deleted'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF OLD.cancelled_at IS NOT NULL
        OR NEW.cancelled_at IS NULL
        OR NEW.cancelled_at >= OLD.effective_from
        OR (NEW.operator_id, NEW.id, NEW.effective_from, NEW.share_bps, NEW.min_stake, NEW.max_stake,
            NEW.max_payout, NEW.tickets_per_flight, NEW.settlement_period, NEW.payment_due_days,
            NEW.created_at, NEW.created_by)
           IS DISTINCT FROM
           (OLD.operator_id, OLD.id, OLD.effective_from, OLD.share_bps, OLD.min_stake, OLD.max_stake,
            OLD.max_payout, OLD.tickets_per_flight, OLD.settlement_period, OLD.payment_due_days,
            OLD.created_at, OLD.created_by)
    THEN
        RAISE EXCEPTION 'flight terms versions are never edited; a scheduled one is cancelled once, before it takes effect'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER flight_terms_never_edited
    BEFORE UPDATE OR DELETE ON flight_terms
    FOR EACH ROW EXECUTE FUNCTION flight_terms_never_edited();
