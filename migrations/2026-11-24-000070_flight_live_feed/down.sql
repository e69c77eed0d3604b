DROP INDEX flight_tickets_of_flight;
