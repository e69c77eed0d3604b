-- A purchase asks two questions of a player's tickets, and each now has an answer the
-- planner cannot misread. The boarding flight is never in the statistics (and a young
-- database's know no ticket), so the planner estimates one row for any index led by the
-- player's or the flight's columns, and among such ties it took one that read every
-- ticket the operator sold on the flight to count one player's, or every ticket the
-- player ever bought to find one.
--
-- The cap's count: how many tickets each player holds on the flight it last bought on
-- (every ticket but a rejected one), read by key under the player's lock. A purchase
-- adds one, a ticket rejected later gives its place back.
CREATE TABLE flight_held_tickets (
    operator_id uuid NOT NULL,
    user_id uuid NOT NULL,
    flight_id uuid NOT NULL REFERENCES flights (id),
    held smallint NOT NULL,
    PRIMARY KEY (operator_id, user_id),
    FOREIGN KEY (operator_id, user_id) REFERENCES users (operator_id, id),
    CONSTRAINT flight_held_tickets_held_not_negative CHECK (held >= 0)
);
INSERT INTO flight_held_tickets (operator_id, user_id, flight_id, held)
SELECT DISTINCT ON (t.operator_id, t.user_id) t.operator_id, t.user_id, t.flight_id,
       count(*) FILTER (WHERE t.status <> 'rejected')
FROM flight_tickets t JOIN flights f ON f.id = t.flight_id
GROUP BY t.operator_id, t.user_id, t.flight_id, f.boarding_at
ORDER BY t.operator_id, t.user_id, f.boarding_at DESC;

-- The repeat's lookup by client ticket id: the unique key `flight_tickets_client_id`,
-- which also serves every read of one player's tickets. The player's index tied with it
-- and added nothing the unique key does not cover.
DROP INDEX flight_tickets_of_player;
