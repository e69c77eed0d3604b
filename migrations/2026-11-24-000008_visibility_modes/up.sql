-- Market visibility modes. Each operator has a mode (`all`, `allowlist`, `blocklist`;
-- a missing row is `blocklist`, which is how the per-market switch always behaved), and
-- each market pool records the operator's per-market choice (`unset`, `shown`,
-- `hidden`) instead of a hidden flag. The rule combining the two is the domain's
-- (`opinion_market::VisibilityMode::shows`). `revision` counts every change of the mode
-- or of a choice: a change is written only over the revision it was computed from, so
-- the visibility events written with it are never stale.
CREATE TABLE market_visibility_settings (
    operator_id uuid PRIMARY KEY REFERENCES operators (id),
    mode text NOT NULL,
    revision bigint NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT market_visibility_settings_mode_known CHECK (mode IN ('all', 'allowlist', 'blocklist'))
);

ALTER TABLE market_pools ADD COLUMN choice text NOT NULL DEFAULT 'unset'
    CONSTRAINT market_pools_choice_known CHECK (choice IN ('unset', 'shown', 'hidden'));

UPDATE market_pools
SET choice = CASE
    WHEN hidden THEN 'hidden'
    WHEN visibility_changed_at IS NOT NULL THEN 'shown'
    ELSE 'unset'
END;

ALTER TABLE market_pools DROP COLUMN hidden;
