ALTER TABLE player_sessions DROP COLUMN product;
ALTER TABLE launches DROP COLUMN product;
DROP TABLE flight_tickets;
DROP TABLE flight_terms;
DROP TABLE flight_enablements;
DROP TABLE flights;
DROP TABLE flight_chains;
