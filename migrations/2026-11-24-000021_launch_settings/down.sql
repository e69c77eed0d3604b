DROP INDEX player_sessions_by_user;

ALTER TABLE player_sessions
    DROP CONSTRAINT player_sessions_locale_shape,
    DROP COLUMN locale;

ALTER TABLE launches
    DROP CONSTRAINT launches_metadata_is_an_object,
    DROP CONSTRAINT launches_locale_shape,
    DROP COLUMN metadata,
    DROP COLUMN locale;

DROP TABLE launch_hosts;
DROP TABLE launch_settings;
