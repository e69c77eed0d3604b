DROP INDEX flight_tickets_by_purchase;
DROP TABLE flight_settlement_reports;
DROP TABLE flight_statements;
DROP FUNCTION flight_statements_never_changed();
