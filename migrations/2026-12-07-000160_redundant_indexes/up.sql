-- Indexes that another index of their table already serves: each repeats the columns
-- that lead a unique key, which a read fixing `operator_id` scans backwards for the
-- newest first. Every insert wrote them, and every ticket update that moves an indexed
-- column. A store test keeps any index from repeating another.
DROP INDEX flight_tickets_by_operator;
DROP INDEX flight_settlement_reports_newest;
