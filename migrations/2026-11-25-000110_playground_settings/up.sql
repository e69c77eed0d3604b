-- What the documentation's playground console may send for an operator in production:
-- reads only (no row, or `read_only`) or everything the pasted key's scopes allow.
CREATE TABLE playground_settings (
    operator_id uuid PRIMARY KEY REFERENCES operators (id),
    console text NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT playground_settings_console_known CHECK (console IN ('read_only', 'read_write'))
);
