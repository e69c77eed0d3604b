ALTER TABLE wallet_operations DROP COLUMN review_reason;
