ALTER TABLE api_keys
    DROP CONSTRAINT api_keys_last_use_details_need_a_time,
    DROP CONSTRAINT api_keys_last_used_user_agent_length,
    DROP CONSTRAINT api_keys_environment_known,
    DROP COLUMN last_used_user_agent,
    DROP COLUMN last_used_ip,
    DROP COLUMN environment;
