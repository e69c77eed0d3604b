DROP TABLE operator_branding;
