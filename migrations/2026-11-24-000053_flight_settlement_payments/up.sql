-- Payments platform staff record against finalized settlement reports: an amount in
-- the direction that is due, the day it was paid and the bank or transfer reference.
-- A reference is recorded once per operator (case and surrounding spaces aside), so a
-- transfer entered twice is refused. Each row keeps what remained due right after it.
-- Written once with its event, the report row locked, and never updated or deleted.
CREATE TABLE flight_settlement_payments (
    operator_id         uuid NOT NULL REFERENCES operators (id),
    id                  uuid NOT NULL,
    report_id           uuid NOT NULL,
    amount              bigint NOT NULL CHECK (amount > 0),
    direction           text NOT NULL CHECK (direction IN ('operator_to_platform', 'platform_to_operator')),
    paid_on             date NOT NULL,
    reference           text NOT NULL CHECK (length(btrim(reference)) BETWEEN 1 AND 200 AND reference = btrim(reference)),
    recorded_by         text NOT NULL CHECK (length(btrim(recorded_by)) > 0),
    remaining_due       bigint NOT NULL CHECK (remaining_due >= 0),
    remaining_direction text NOT NULL CHECK (remaining_direction IN ('operator_to_platform', 'platform_to_operator', 'none')
        AND (remaining_due = 0) = (remaining_direction = 'none')),
    recorded_at         timestamptz NOT NULL,
    PRIMARY KEY (operator_id, id),
    FOREIGN KEY (operator_id, report_id) REFERENCES flight_settlement_reports (operator_id, id)
);

CREATE UNIQUE INDEX flight_settlement_payments_reference_key ON flight_settlement_payments (operator_id, lower(reference));

CREATE INDEX flight_settlement_payments_by_report ON flight_settlement_payments (operator_id, report_id, id DESC);

CREATE TRIGGER flight_settlement_payments_never_changed
    BEFORE UPDATE OR DELETE ON flight_settlement_payments
    FOR EACH ROW EXECUTE FUNCTION flight_statements_never_changed();

CREATE TRIGGER flight_settlement_payments_never_truncated
    BEFORE TRUNCATE ON flight_settlement_payments
    FOR EACH STATEMENT EXECUTE FUNCTION flight_statements_never_changed();
