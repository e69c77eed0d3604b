DROP TRIGGER flight_terms_never_edited ON flight_terms;
DROP FUNCTION flight_terms_never_edited();
ALTER TABLE flight_terms DROP CONSTRAINT flight_terms_cancellation_whole;
ALTER TABLE flight_terms DROP COLUMN cancelled_by;
