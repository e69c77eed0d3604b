DROP TABLE statement_keys;
DROP FUNCTION statement_keys_only_retired();
