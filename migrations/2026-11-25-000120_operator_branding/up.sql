-- Each operator's brand in the hosted app (`PUT /api/operator/branding`), one row,
-- replaced whole. The checks repeat the domain's rules so no other writer can store what
-- a page could not show safely.
CREATE TABLE operator_branding (
    operator_id uuid PRIMARY KEY REFERENCES operators (id),
    name text NOT NULL,
    logo_url text,
    primary_color text NOT NULL,
    accent_color text NOT NULL,
    default_language text NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT operator_branding_name_bounded CHECK (char_length(name) BETWEEN 1 AND 60),
    CONSTRAINT operator_branding_logo_https CHECK (
        logo_url IS NULL OR (logo_url LIKE 'https://%' AND char_length(logo_url) <= 512)
    ),
    CONSTRAINT operator_branding_colors CHECK (
        primary_color ~ '^#[0-9a-f]{6}$' AND accent_color ~ '^#[0-9a-f]{6}$'
    ),
    CONSTRAINT operator_branding_language CHECK (default_language IN ('en', 'id'))
);
