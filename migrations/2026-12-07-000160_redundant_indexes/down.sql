CREATE INDEX flight_tickets_by_operator ON flight_tickets (operator_id, id DESC);
CREATE INDEX flight_settlement_reports_newest ON flight_settlement_reports (operator_id, period_start DESC);
