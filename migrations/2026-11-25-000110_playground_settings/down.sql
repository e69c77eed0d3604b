DROP TABLE playground_settings;
