-- The v5 proof of finalized statements, kept so that a ticket's inclusion proof is made
-- on read without the lines: each line's leaf hash (by index, findable by ticket) and the
-- root of every complete block of 1 024 leaves, plus the statement's record: its tree's
-- root and size, its player key sealed under the data key (only the operator is given
-- it) and the exchange's raw answer when the statement froze a quote.
--
-- Finalization writes these before the report (the tree is built while the lines are
-- walked), keyed by the report id it is about to store; pieces of a report that was never
-- stored (another instance won, a crash) are invisible, since every read starts from a
-- stored report, and the losing finalization deletes them. Once the report is stored its
-- pieces never change: the database refuses it.
CREATE TABLE flight_report_proofs (
    operator_id       uuid NOT NULL REFERENCES operators (id),
    report_id         uuid NOT NULL,
    merkle_root       text NOT NULL CHECK (merkle_root ~ '^[0-9a-f]{64}$'),
    leaf_count        bigint NOT NULL CHECK (leaf_count >= 0),
    player_key_sealed text NOT NULL,
    exchange_answer   bytea NULL,
    PRIMARY KEY (operator_id, report_id)
);

CREATE TABLE flight_proof_leaves (
    operator_id uuid NOT NULL,
    report_id   uuid NOT NULL,
    leaf_index  bigint NOT NULL CHECK (leaf_index >= 0),
    ticket_id   uuid NOT NULL,
    leaf_hash   bytea NOT NULL CHECK (octet_length(leaf_hash) = 32),
    PRIMARY KEY (operator_id, report_id, leaf_index)
);

CREATE INDEX flight_proof_leaves_by_ticket ON flight_proof_leaves (operator_id, ticket_id);

CREATE TABLE flight_proof_blocks (
    operator_id uuid NOT NULL,
    report_id   uuid NOT NULL,
    block_index bigint NOT NULL CHECK (block_index >= 0),
    root        bytea NOT NULL CHECK (octet_length(root) = 32),
    PRIMARY KEY (operator_id, report_id, block_index)
);

CREATE FUNCTION flight_proof_pieces_never_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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

CREATE TRIGGER flight_report_proofs_never_changed
    BEFORE UPDATE OR DELETE ON flight_report_proofs
    FOR EACH ROW EXECUTE FUNCTION flight_proof_pieces_never_changed();

CREATE TRIGGER flight_proof_leaves_never_changed
    BEFORE UPDATE OR DELETE ON flight_proof_leaves
    FOR EACH ROW EXECUTE FUNCTION flight_proof_pieces_never_changed();

CREATE TRIGGER flight_proof_blocks_never_changed
    BEFORE UPDATE OR DELETE ON flight_proof_blocks
    FOR EACH ROW EXECUTE FUNCTION flight_proof_pieces_never_changed();
