-- Why a wallet operation is in manual review, so staff see it in `opinion admin review`:
-- an ambiguous answer, a lost answer, money owed that ran out of automatic sends, a
-- credit owed to the player that the wallet refused, or a reused key. Operations already
-- in review before this column existed get the reason their stored detail shows.
ALTER TABLE wallet_operations
    ADD COLUMN review_reason text,
    ADD CONSTRAINT wallet_operations_review_reason_known CHECK (review_reason IN (
        'ambiguous', 'lost_answer', 'retries_exhausted', 'refused_credit', 'key_reused'
    ));

UPDATE wallet_operations
SET review_reason = CASE
        WHEN detail = 'the answer to the call was lost' THEN 'lost_answer'
        WHEN detail = 'idempotency_key_reused' THEN 'key_reused'
        ELSE 'ambiguous'
    END
WHERE state IN ('manual_review', 'resolved_applied', 'resolved_not_applied');
