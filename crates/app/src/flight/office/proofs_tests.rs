//! The v5 proof of a finalized statement: the root it signs is the root of its lines'
//! tree (players tagged with its player key), every ticket's proof read from the kept
//! pieces verifies against it, no ticket has one before finalization, a player reads
//! only its own, and one exchange quote is frozen for an operator reporting in another
//! currency than IDR.

use std::sync::Arc;

use opinion_core::TicketId;
use opinion_flight::TicketStatus;
use opinion_proof::{ExchangeEvidence, InclusionProof, TreeHash, check_proof_version, root_of};
use opinion_wallet::Currency;
use serde_json::json;
use time::macros::datetime;

use super::finalize_tests::{OCTOBER, finalized, store_with_tickets};
use crate::error::{AppError, ProblemCode};
use crate::flight::exchange::ExchangeAnswer;
use crate::flight::office::FlightOffice;
use crate::flight::office::proof_line;
use crate::test_support::flight::ManualClock;
use crate::test_support::flight_reads::ticket;
use crate::test_support::office::{MemoryKeys, MemoryOffice, office_with};
use crate::test_support::office_proofs::{FixedExchange, MemoryProofs, not_configured};
use crate::test_support::{NOW, OPERATOR};

async fn office(
    store: &Arc<MemoryOffice>,
    currency: Currency,
    exchange: Arc<FixedExchange>,
) -> (FlightOffice, Arc<MemoryProofs>) {
    let proofs = Arc::new(MemoryProofs::over(store.clone()));
    let office = office_with(
        1,
        Arc::new(MemoryKeys::default()),
        store.clone(),
        ManualClock::at(NOW),
        (proofs.clone(), currency, exchange),
    );
    office.register_signing_key().await.expect("key");
    (office, proofs)
}

fn proof_not_available(error: AppError) {
    match error {
        AppError::Conflict { code, .. } => assert_eq!(code, ProblemCode::ProofNotAvailable),
        other => panic!("not proof_not_available: {other:?}"),
    }
}

#[tokio::test]
async fn every_ticket_proof_read_from_the_kept_pieces_leads_to_the_signed_root() {
    let store = store_with_tickets(2_100);
    let (office, proofs) = office(&store, Currency::IDR, Arc::new(FixedExchange::new(not_configured()))).await;
    proof_not_available(
        office
            .ticket_proof(OPERATOR, TicketId::from_u128(5))
            .await
            .expect_err("open"),
    );
    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));
    let document = &report.statement.signed.document;
    assert_eq!(check_proof_version(document), Ok(()));
    assert_eq!(document["leafCount"], 2_100);
    assert_eq!(document["exchangeEvidence"], serde_json::Value::Null);

    let kept = proofs.kept.lock().expect("kept").proofs[0].clone();
    let lines = crate::flight::office::ports::OfficeStore::report_lines(
        store.as_ref(),
        OPERATOR,
        OCTOBER,
        datetime!(2026-11-01 00:00 UTC),
        None,
        u32::MAX,
    )
    .await
    .expect("lines");
    let leaves: Vec<TreeHash> = lines
        .iter()
        .map(|record| proof_line(record, &kept.player_key).leaf_hash().expect("leaf"))
        .collect();
    let root = root_of(&leaves);
    assert_eq!(document["merkleRoot"], root.to_hex());
    assert_eq!(
        proofs.kept.lock().expect("kept").blocks.len(),
        2,
        "2 100 leaves: two complete blocks"
    );

    for index in [0u64, 1, 1_023, 1_024, 1_500, 2_047, 2_048, 2_099] {
        let ticket = lines[index as usize].ticket_id;
        let read = office.ticket_proof(OPERATOR, ticket).await.expect("proof");
        assert_eq!(
            Some(read.proof.clone()),
            InclusionProof::from_leaf_hashes(&leaves, index)
        );
        assert_eq!(read.merkle_root, root);
        assert_eq!(read.line["ticketId"], ticket.to_string());
        assert_eq!(read.line["playerTag"], kept.player_key.tag("player-7").as_str());
        assert!(!read.line.to_string().contains("player-7"));
    }
}

#[tokio::test]
async fn a_player_reads_only_the_proof_of_its_own_ticket() {
    let store = store_with_tickets(3);
    {
        let mut memory = store.flight.memory();
        let mut other = ticket(40, TicketStatus::Lost);
        other.external_user_id = "player-8".into();
        other.created_at = OCTOBER + time::Duration::hours(5);
        memory.tickets.insert(other.id, other);
    }
    let (office, _) = office(&store, Currency::IDR, Arc::new(FixedExchange::new(not_configured()))).await;
    finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));
    let own = office
        .player_ticket_proof(OPERATOR, "player-8", TicketId::from_u128(40))
        .await
        .expect("own");
    assert_eq!(own.proof.tree_size, 4);
    let other = office
        .player_ticket_proof(OPERATOR, "player-8", TicketId::from_u128(1))
        .await
        .expect_err("another player's");
    assert!(matches!(other, AppError::NotFound("ticket")), "{other:?}");
}

#[tokio::test]
async fn an_operator_reporting_in_usd_gets_one_frozen_usdt_quote_and_idr_money() {
    let store = store_with_tickets(4);
    let quote = ExchangeAnswer {
        evidence: ExchangeEvidence::quoted(
            "127.0.0.1",
            "USDT/IDR".parse().expect("pair"),
            "16250.5".parse().expect("rate"),
            NOW,
            br#"{"ticker":{"last":"16250.5"}}"#,
        ),
        raw_answer: Some(br#"{"ticker":{"last":"16250.5"}}"#.to_vec()),
    };
    let exchange = Arc::new(FixedExchange::new(quote.clone()));
    let (office, proofs) = office(&store, "USD".parse().expect("usd"), exchange.clone()).await;
    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));
    let asked: Vec<String> = exchange
        .asked
        .lock()
        .expect("asked")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(asked, ["USDT/IDR"]);
    let document = &report.statement.signed.document;
    assert_eq!(document["exchangeEvidence"], json!(quote.evidence));
    assert_eq!(document["exchangeEvidence"]["use"], "comparison_only");
    assert_eq!(
        document["stakes"],
        json!([{"amount": report.totals.stakes.to_string(), "currency": "IDR"}])
    );
    let kept = proofs.kept.lock().expect("kept");
    assert_eq!(kept.proofs[0].exchange_answer, quote.raw_answer);
}
