ALTER TABLE market_pools ADD COLUMN hidden boolean NOT NULL DEFAULT false;
UPDATE market_pools SET hidden = (choice = 'hidden');
ALTER TABLE market_pools DROP COLUMN choice;
DROP TABLE market_visibility_settings;
