-- The due index in the claim's own order, `(next_attempt_at, id)`: a claim reads it
-- from the oldest due delivery and stops at its limit, with no sort of the backlog
-- between the index and the limit, whatever the planner's statistics say of the table.
DROP INDEX webhook_deliveries_due_idx;
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
