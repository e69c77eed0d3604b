DROP TRIGGER flight_report_proofs_only_resealed ON flight_report_proofs;
CREATE TRIGGER flight_report_proofs_never_changed
    BEFORE UPDATE OR DELETE ON flight_report_proofs
    FOR EACH ROW EXECUTE FUNCTION flight_proof_pieces_never_changed();
DROP FUNCTION flight_report_proofs_only_resealed();
