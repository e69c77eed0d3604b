-- Reverts the access schema, dependants first.
DROP TABLE staff_sessions;
DROP TABLE staff_members;
DROP TABLE api_keys;
DROP TABLE operators;
