-- Reverting keeps every wallet operation: it fails while a flight operation exists (the
-- narrower flow check and a required market_id cannot hold), rather than dropping money
-- records.

DROP TABLE wallet_test_runs;

DROP INDEX wallet_operations_by_ticket;

ALTER TABLE wallet_operations
    DROP CONSTRAINT wallet_operations_flight_in_idr,
    DROP CONSTRAINT wallet_operations_one_subject,
    DROP CONSTRAINT wallet_operations_flow_known,
    ADD CONSTRAINT wallet_operations_flow_known CHECK (flow IN ('buy', 'sell', 'buy_compensation', 'redemption')),
    DROP COLUMN ticket_id,
    DROP COLUMN flight_id,
    ALTER COLUMN market_id SET NOT NULL;
