-- API keys name their environment and remember where their last use came from.
--
-- `environment` is the tag of the key's own prefix (`opk_live_…`, `opk_test_…`,
-- `opk_dev_…`). Staging keys made before its tag became `test` carried `stg`; they are
-- marked `test` here so every row stays valid, but the service no longer accepts their
-- secrets (none was issued outside development before the change).
--
-- The last use is written as one unit (time, client address, user agent) at most once
-- a minute per key, so authentication stays one indexed read on the hot path. The user
-- agent is bounded by the domain (opinion-access, `RecordedUserAgent`) before it is
-- written; the check keeps the table honest if that ever changes.

ALTER TABLE api_keys
    ADD COLUMN environment text NULL,
    ADD COLUMN last_used_ip inet NULL,
    ADD COLUMN last_used_user_agent text NULL;

UPDATE api_keys
SET environment = CASE split_part(hint, '_', 2)
    WHEN 'live' THEN 'live'
    WHEN 'dev' THEN 'dev'
    ELSE 'test'
END;

ALTER TABLE api_keys
    ALTER COLUMN environment SET NOT NULL,
    ADD CONSTRAINT api_keys_environment_known CHECK (environment IN ('live', 'test', 'dev')),
    ADD CONSTRAINT api_keys_last_used_user_agent_length CHECK (
        last_used_user_agent IS NULL OR length(last_used_user_agent) BETWEEN 1 AND 256
    ),
    ADD CONSTRAINT api_keys_last_use_details_need_a_time CHECK (
        last_used_at IS NOT NULL OR (last_used_ip IS NULL AND last_used_user_agent IS NULL)
    );
