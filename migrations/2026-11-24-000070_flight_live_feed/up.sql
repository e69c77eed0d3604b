-- The live feed reads a flight's tickets across operators, once per batch per instance:
-- its counts (players, tickets that fly, cash-outs) and its latest cash-outs by instant.
CREATE INDEX flight_tickets_of_flight ON flight_tickets (flight_id, status, cashed_out_at)
    INCLUDE (operator_id, user_id);
