DROP TABLE simulator_markets;
DROP TABLE simulator_wallet_log;
DROP TABLE simulator_wallet_keys;
DROP TABLE simulator_users;
