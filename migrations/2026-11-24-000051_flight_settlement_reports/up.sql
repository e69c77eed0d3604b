-- Finalized flight settlement reports and the signed documents of each operator's
-- statement chain. An open report is computed from the tickets when read and never
-- stored. A finalized report is written once with its signed statement, in one
-- transaction; one report per operator and period and one document per operator and
-- sequence make two instances finalizing at once end with one of each. Nothing here is
-- ever updated or deleted, and the database refuses it, whatever the code does.
CREATE TABLE flight_statements (
    operator_id   uuid NOT NULL REFERENCES operators (id),
    sequence      bigint NOT NULL CHECK (sequence >= 1),
    id            uuid NOT NULL,
    kind          text NOT NULL CHECK (kind IN ('statement', 'correction')),
    document      text NOT NULL,
    document_hash text NOT NULL CHECK (document_hash ~ '^[0-9a-f]{64}$'),
    previous_hash text NULL CHECK (previous_hash ~ '^[0-9a-f]{64}$'),
    key_id        text NOT NULL REFERENCES statement_keys (key_id),
    signature     text NOT NULL,
    issued_at     timestamptz NOT NULL,
    PRIMARY KEY (operator_id, sequence),
    CONSTRAINT flight_statements_id_key UNIQUE (operator_id, id),
    CONSTRAINT flight_statements_first_has_no_previous CHECK ((sequence = 1) = (previous_hash IS NULL))
);

CREATE TABLE flight_settlement_reports (
    operator_id        uuid NOT NULL REFERENCES operators (id),
    id                 uuid NOT NULL,
    period_start       timestamptz NOT NULL,
    period_end         timestamptz NOT NULL CHECK (period_end > period_start),
    ticket_count       bigint NOT NULL CHECK (ticket_count >= 0),
    stakes             bigint NOT NULL,
    payouts            bigint NOT NULL,
    refunds            bigint NOT NULL,
    ggr                bigint NOT NULL CHECK (ggr = stakes - payouts - refunds),
    share              bigint NOT NULL,
    amount_due         bigint NOT NULL CHECK (amount_due = abs(share)),
    direction          text NOT NULL CHECK (direction = CASE
        WHEN share > 0 THEN 'operator_to_platform'
        WHEN share < 0 THEN 'platform_to_operator'
        ELSE 'none' END),
    due_date           date NOT NULL,
    lines_sha256       text NOT NULL CHECK (lines_sha256 ~ '^[0-9a-f]{64}$'),
    statement_sequence bigint NOT NULL,
    finalized_at       timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT flight_settlement_reports_period_key UNIQUE (operator_id, period_start),
    CONSTRAINT flight_settlement_reports_statement_key UNIQUE (operator_id, statement_sequence),
    FOREIGN KEY (operator_id, statement_sequence) REFERENCES flight_statements (operator_id, sequence)
);

CREATE INDEX flight_settlement_reports_newest ON flight_settlement_reports (operator_id, period_start DESC);

CREATE FUNCTION flight_statements_never_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is never updated or deleted: a finalized statement never changes; a correction is a new document', TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER flight_statements_never_changed
    BEFORE UPDATE OR DELETE ON flight_statements
    FOR EACH ROW EXECUTE FUNCTION flight_statements_never_changed();

CREATE TRIGGER flight_settlement_reports_never_changed
    BEFORE UPDATE OR DELETE ON flight_settlement_reports
    FOR EACH ROW EXECUTE FUNCTION flight_statements_never_changed();

CREATE TRIGGER flight_statements_never_truncated
    BEFORE TRUNCATE ON flight_statements
    FOR EACH STATEMENT EXECUTE FUNCTION flight_statements_never_changed();

CREATE TRIGGER flight_settlement_reports_never_truncated
    BEFORE TRUNCATE ON flight_settlement_reports
    FOR EACH STATEMENT EXECUTE FUNCTION flight_statements_never_changed();

-- A period's tickets in purchase order, walked in keyset chunks when a report is
-- finalized or its lines exported.
CREATE INDEX flight_tickets_by_purchase ON flight_tickets (operator_id, created_at, id);
