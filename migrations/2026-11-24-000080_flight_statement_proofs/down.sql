DROP TABLE flight_proof_blocks;
DROP TABLE flight_proof_leaves;
DROP TABLE flight_report_proofs;
DROP FUNCTION flight_proof_pieces_never_changed();
