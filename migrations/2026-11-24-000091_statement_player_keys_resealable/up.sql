-- A finalized statement's proof record still never changes, with one exception: its
-- player key is sealed under the data key, and rotating the data key seals it again
-- (the same key, under the new data key). Every other column stays as written.
CREATE FUNCTION flight_report_proofs_only_resealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE'
        AND (NEW.operator_id, NEW.report_id, NEW.merkle_root, NEW.leaf_count, NEW.exchange_answer)
            IS NOT DISTINCT FROM (OLD.operator_id, OLD.report_id, OLD.merkle_root, OLD.leaf_count, OLD.exchange_answer)
    THEN
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' OR EXISTS (
        SELECT 1 FROM flight_settlement_reports r
        WHERE r.operator_id = OLD.operator_id AND r.id = OLD.report_id
    ) THEN
        RAISE EXCEPTION '% of a finalized statement never changes', TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END;
$$;

DROP TRIGGER flight_report_proofs_never_changed ON flight_report_proofs;
CREATE TRIGGER flight_report_proofs_only_resealed
    BEFORE UPDATE OR DELETE ON flight_report_proofs
    FOR EACH ROW EXECUTE FUNCTION flight_report_proofs_only_resealed();
