-- The flight product's money moves through the same wallet engine as Opinion's
-- (docs/operator/wallet-adapter.md): its operations are rows of wallet_operations too, naming a
-- flight and its ticket where Opinion's name a market. Every operation names exactly one
-- product subject, and its flow says which: Opinion's flows a market (and a trade or a
-- redemption), the flight product's a flight and a ticket and nothing of Opinion's.
-- Flight money is IDR whatever the operator's Opinion currency; one purchase, one payout
-- and one refund per ticket follow from the unique key (flow and ticket).
--
-- The flights and tickets tables belong to the flight engine; the foreign keys of
-- flight_id and ticket_id come with them.

ALTER TABLE wallet_operations
    ALTER COLUMN market_id DROP NOT NULL,
    ADD COLUMN flight_id uuid NULL,
    ADD COLUMN ticket_id uuid NULL,
    DROP CONSTRAINT wallet_operations_flow_known,
    ADD CONSTRAINT wallet_operations_flow_known CHECK (flow IN (
        'buy', 'sell', 'buy_compensation', 'redemption',
        'flight_ticket_purchase', 'flight_ticket_payout', 'flight_ticket_refund'
    )),
    ADD CONSTRAINT wallet_operations_one_subject CHECK (
        CASE WHEN flow IN ('flight_ticket_purchase', 'flight_ticket_payout', 'flight_ticket_refund')
            THEN flight_id IS NOT NULL AND ticket_id IS NOT NULL
                AND market_id IS NULL AND trade_id IS NULL AND redemption_id IS NULL
            ELSE market_id IS NOT NULL AND flight_id IS NULL AND ticket_id IS NULL
        END
    ),
    ADD CONSTRAINT wallet_operations_flight_in_idr CHECK (
        flow NOT IN ('flight_ticket_purchase', 'flight_ticket_payout', 'flight_ticket_refund') OR currency = 'IDR'
    );

-- A ticket's operations (at most its purchase, payout and refund).
CREATE INDEX wallet_operations_by_ticket ON wallet_operations (operator_id, ticket_id) WHERE ticket_id IS NOT NULL;

-- Every run of the full-contract wallet test, kept with what it ran against and its
-- verdict per product: enabling the flight product needs the latest run against the
-- adapter as configured now to have passed the flight section. The report is the whole
-- answer the operator received.
CREATE TABLE wallet_test_runs (
    operator_id uuid NOT NULL REFERENCES operators (id),
    id uuid NOT NULL,
    ran_at timestamptz NOT NULL,
    base_url text NOT NULL,
    opinion_passed boolean NOT NULL,
    flight_passed boolean NOT NULL,
    report jsonb NOT NULL,
    PRIMARY KEY (operator_id, id),
    CONSTRAINT wallet_test_runs_report_object CHECK (jsonb_typeof(report) = 'object')
);
CREATE INDEX wallet_test_runs_latest ON wallet_test_runs (operator_id, ran_at DESC, id DESC);
