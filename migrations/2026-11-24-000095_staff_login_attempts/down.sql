DROP TABLE staff_login_attempts;
