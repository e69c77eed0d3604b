-- Signed corrections of finalized settlement statements. A correction is its own signed
-- document in the operator's chain (`flight_statements`, kind 'correction'), amending
-- one finalized report by a signed change of what the operator owes the platform, with
-- its reason and the staff member who issued it. Written once with its document and
-- event; never updated or deleted.
CREATE TABLE flight_statement_corrections (
    operator_id       uuid NOT NULL REFERENCES operators (id),
    id                uuid NOT NULL,
    report_id         uuid NOT NULL,
    statement_hash    text NOT NULL CHECK (statement_hash ~ '^[0-9a-f]{64}$'),
    amount_change     bigint NOT NULL CHECK (amount_change <> 0),
    reason            text NOT NULL CHECK (length(btrim(reason)) BETWEEN 1 AND 1000),
    issued_by         text NOT NULL CHECK (length(btrim(issued_by)) > 0),
    document_sequence bigint NOT NULL,
    issued_at         timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT flight_statement_corrections_document_key UNIQUE (operator_id, document_sequence),
    FOREIGN KEY (operator_id, report_id) REFERENCES flight_settlement_reports (operator_id, id),
    FOREIGN KEY (operator_id, document_sequence) REFERENCES flight_statements (operator_id, sequence)
);

CREATE INDEX flight_statement_corrections_by_report ON flight_statement_corrections (operator_id, report_id, id DESC);

CREATE TRIGGER flight_statement_corrections_never_changed
    BEFORE UPDATE OR DELETE ON flight_statement_corrections
    FOR EACH ROW EXECUTE FUNCTION flight_statements_never_changed();

CREATE TRIGGER flight_statement_corrections_never_truncated
    BEFORE TRUNCATE ON flight_statement_corrections
    FOR EACH STATEMENT EXECUTE FUNCTION flight_statements_never_changed();
