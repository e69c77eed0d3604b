-- A player belongs to one operator, so `operator_id = $1 AND user_id = $2` selects no
-- fewer trades than `user_id = $2` alone. Without this statistic the planner multiplies
-- the two selectivities, estimates under one trade per player, and a cached (generic)
-- plan of the client-order lookup walks every trade of the player by `trades_by_user`
-- instead of taking the one row of `trades_client_order_key`: a replay check whose cost
-- grew with the player's history. Filled by the next ANALYZE (autovacuum's included).
CREATE STATISTICS trades_player_of_one_operator (dependencies) ON operator_id, user_id FROM trades;
