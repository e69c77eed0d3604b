-- Launch settings: the host names an operator points at the service for its players,
-- and the origins allowed to frame the hosted app there; and what a launch carries for
-- its session (a locale) and for the operator's webhook events (an opaque object, which
-- the events of the player read through its sessions).
--
-- The rules (lower-case DNS names, https origins, at most ten of each, the locale's
-- shape, the metadata's 4 KiB) live in opinion-launch; the checks below keep the
-- tables honest if a writer ever bypassed them.

CREATE TABLE launch_settings (
    operator_id uuid PRIMARY KEY REFERENCES operators (id),
    frame_origins text[] NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT launch_settings_frame_origins_bounded CHECK (
        cardinality(frame_origins) <= 10 AND array_position(frame_origins, NULL) IS NULL
    ),
    CONSTRAINT launch_settings_frame_origins_https CHECK (
        cardinality(frame_origins) = 0 OR
        array_to_string(frame_origins, ' ') ~ '^(https://[a-z0-9.-]+(:[0-9]{1,5})?)( https://[a-z0-9.-]+(:[0-9]{1,5})?)*$'
    )
);

-- One row per launch host, in the order the operator gave them. The primary key is the
-- host alone, a deliberate exception to operator-leading keys: a request names its host,
-- not its operator, and a host belongs to one operator only.
CREATE TABLE launch_hosts (
    host text PRIMARY KEY,
    operator_id uuid NOT NULL REFERENCES launch_settings (operator_id),
    position smallint NOT NULL,
    CONSTRAINT launch_hosts_shape CHECK (host ~ '^[a-z0-9-]+(\.[a-z0-9-]+)+$' AND length(host) <= 253),
    CONSTRAINT launch_hosts_position_bounded CHECK (position BETWEEN 0 AND 9),
    CONSTRAINT launch_hosts_one_per_position UNIQUE (operator_id, position)
);

ALTER TABLE launches
    ADD COLUMN locale text NULL,
    ADD COLUMN metadata jsonb NULL,
    ADD CONSTRAINT launches_locale_shape CHECK (
        locale IS NULL OR (length(locale) <= 35 AND locale ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$')
    ),
    ADD CONSTRAINT launches_metadata_is_an_object CHECK (metadata IS NULL OR jsonb_typeof(metadata) = 'object');

-- The player's most recent session, whose launch's metadata the player's events echo
-- (session ids are ULIDs, so the highest id is the latest).
CREATE INDEX player_sessions_by_user ON player_sessions (operator_id, user_id, id);

-- A session keeps its launch's locale, so reading a session needs no other row.
ALTER TABLE player_sessions
    ADD COLUMN locale text NULL,
    ADD CONSTRAINT player_sessions_locale_shape CHECK (
        locale IS NULL OR (length(locale) <= 35 AND locale ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$')
    );
