DROP INDEX flight_tickets_open_of_flight;
CREATE INDEX flight_tickets_open_of_flight ON flight_tickets (flight_id, status)
    WHERE status IN ('pending', 'active');
