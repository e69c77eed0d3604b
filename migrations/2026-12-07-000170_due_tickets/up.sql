-- The driver's tick in the air reads only the tickets whose auto cash-out target the
-- curve has reached: the open tickets of a flight are kept in order of their target, so
-- the read is a range of this index, however many tickets are flying. It replaces the
-- index on (flight_id, status) it extends; settling and cancelling still read its prefix.
DROP INDEX flight_tickets_open_of_flight;
CREATE INDEX flight_tickets_open_of_flight ON flight_tickets (flight_id, status, auto_cash_out)
    WHERE status IN ('pending', 'active');
