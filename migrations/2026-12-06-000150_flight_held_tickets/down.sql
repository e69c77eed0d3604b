CREATE INDEX flight_tickets_of_player ON flight_tickets (operator_id, user_id, flight_id);
DROP TABLE flight_held_tickets;
