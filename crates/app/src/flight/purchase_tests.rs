//! A ticket purchase makes sure of its player inside its opening step, so the session's
//! read shares the purchase's transaction, and refuses an ended session before judging
//! the order; what it is decided on, read together, is judged in a fixed order; a
//! repeat of a purchase returns its ticket, also once the cap is reached, boarding has
//! closed or the product was disabled, and so does a purchase whose twin committed after
//! its reads; a new purchase does not look for its client ticket id. The
//! purchase's other rules are tested with the game that drives it
//! (`production_authorization_tests`, the HTTP tests).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use opinion_core::TicketId;
use opinion_flight::{AuthorizationRequirement, Rupiah, TicketStatus};

use crate::access::AuthFailure;
use crate::error::{AppError, ProblemCode};
use crate::flight::model::TicketRecord;
use crate::flight::production_authorization_tests::{STAFF, authorization, enablement, game, order};
use crate::test_support::OPERATOR;
use crate::test_support::trading::{EndedSession, PlayerInSteps, WatchedSteps, player};

#[tokio::test]
async fn the_player_is_made_sure_of_inside_the_purchase_step() {
    let mut t = game(AuthorizationRequirement::NotRequired).await;
    let steps = WatchedSteps::default();
    t.game.ports.transactions = Arc::new(steps.clone());
    let player = PlayerInSteps {
        steps: steps.clone(),
        confirmed_inside: Arc::default(),
    };

    let ticket = t.game.buy_ticket(&player, &order("c-1")).await.expect("bought");

    assert_eq!(ticket.status, TicketStatus::Active);
    assert!(player.confirmed_inside.load(Ordering::SeqCst));
    assert_eq!(steps.count.load(Ordering::SeqCst), 1, "one step opened the purchase");
}

#[tokio::test]
async fn an_ended_session_is_refused_before_the_order_is_judged_and_nothing_is_stored() {
    let t = game(AuthorizationRequirement::NotRequired).await;

    for client_ticket_id in ["c-1", "not an id!"] {
        let error = t
            .game
            .buy_ticket(&EndedSession, &order(client_ticket_id))
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Unauthenticated(AuthFailure::SessionEnded)),
            "{client_ticket_id}: {error:?}"
        );
    }
    let memory = t.store.memory();
    assert!(memory.tickets.is_empty());
    assert!(memory.operations.is_empty());
}

#[tokio::test]
async fn a_purchase_refused_on_several_counts_answers_enablement_then_authorization_then_boarding() {
    let t = game(AuthorizationRequirement::Required).await;
    let switched = |enabled| {
        t.store.memory().enablements.insert(OPERATOR, enablement(enabled));
    };
    let refusal = async || match t.game.buy_ticket(&player(), &order("c-1")).await {
        Err(AppError::Conflict { code, .. }) => code,
        other => panic!("expected a refusal, got {other:?}"),
    };
    t.clock.advance_ms(60_000);
    switched(false);

    assert_eq!(refusal().await, ProblemCode::ProductNotEnabled);
    switched(true);
    assert_eq!(refusal().await, ProblemCode::ProductionAuthorizationMissing);
    t.game
        .authorize_production(OPERATOR, &authorization("CHG-7", None), STAFF)
        .await
        .expect("authorized");
    assert_eq!(refusal().await, ProblemCode::BoardingClosed);
    assert!(t.store.memory().tickets.is_empty());
}

#[tokio::test]
async fn a_new_purchase_does_not_look_for_its_client_ticket_id_and_a_repeat_does() {
    let t = game(AuthorizationRequirement::NotRequired).await;

    let first = t.game.buy_ticket(&player(), &order("c-1")).await.expect("bought");
    let lookups_to_buy = t.store.memory().client_ticket_lookups;
    let repeated = t.game.buy_ticket(&player(), &order("c-1")).await.expect("repeated");

    assert_eq!(lookups_to_buy, 0);
    assert_eq!(repeated, first);
    assert_eq!(t.store.memory().client_ticket_lookups, 1);
    assert_eq!(t.calls().len(), 1, "the repeat sent no debit");
}

#[tokio::test]
async fn repeating_the_purchase_that_reached_the_cap_returns_its_ticket() {
    let t = game(AuthorizationRequirement::NotRequired).await;
    t.game.buy_ticket(&player(), &order("c-1")).await.expect("first");
    let second = t.game.buy_ticket(&player(), &order("c-2")).await.expect("second");

    let repeated = t.game.buy_ticket(&player(), &order("c-2")).await.expect("repeated");

    assert_eq!(repeated.id, second.id);
}

#[tokio::test]
async fn a_repeated_purchase_returns_its_ticket_after_boarding_closed_and_the_product_was_disabled() {
    let t = game(AuthorizationRequirement::NotRequired).await;
    let first = t.game.buy_ticket(&player(), &order("c-1")).await.expect("bought");
    t.clock.advance_ms(60_000);
    t.store.memory().enablements.insert(OPERATOR, enablement(false));

    let repeated = t.game.buy_ticket(&player(), &order("c-1")).await.expect("repeated");
    let mut other_stake = order("c-1");
    other_stake.stake = Rupiah::new(20_000).expect("stake");
    let reused = t.game.buy_ticket(&player(), &other_stake).await;
    let new = t.game.buy_ticket(&player(), &order("c-2")).await;

    let refusal = |answer: Result<TicketRecord, AppError>| match answer {
        Err(AppError::Conflict { code, .. }) => code,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert_eq!(repeated, first);
    assert_eq!(refusal(reused), ProblemCode::ClientTicketIdReused);
    assert_eq!(refusal(new), ProblemCode::ProductNotEnabled);
    assert_eq!(t.store.memory().tickets.len(), 1);
}

/// A ticket the player bought under `client_ticket_id`, as a twin purchase stores it.
fn twin(first: &TicketRecord, client_ticket_id: &str, id: u128) -> TicketRecord {
    TicketRecord {
        id: TicketId::from_ulid(ulid::Ulid(id)),
        client_ticket_id: client_ticket_id.into(),
        ..first.clone()
    }
}

#[tokio::test]
async fn a_twin_that_committed_after_the_reads_answers_the_purchase_its_key_or_the_cap_refused() {
    let t = game(AuthorizationRequirement::NotRequired).await;
    let first = t.game.buy_ticket(&player(), &order("c-1")).await.expect("first");
    let refused_by_its_key = twin(&first, "c-2", 1);
    t.store.memory().arriving_twin = Some(refused_by_its_key.clone());
    let answer_to_key = t.game.buy_ticket(&player(), &order("c-2")).await;
    let at_the_cap = twin(&first, "c-3", 2);
    t.store.memory().arriving_twin = Some(at_the_cap.clone());
    let answer_at_cap = t.game.buy_ticket(&player(), &order("c-3")).await;
    let mut other_stake = order("c-4");
    other_stake.stake = Rupiah::new(20_000).expect("stake");
    t.store.memory().arriving_twin = Some(twin(&first, "c-4", 3));
    let reused = t.game.buy_ticket(&player(), &other_stake).await;
    let capped = t.game.buy_ticket(&player(), &order("c-5")).await;

    let refusal = |answer: Result<TicketRecord, AppError>| match answer {
        Err(AppError::Conflict { code, .. }) => code,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert_eq!(answer_to_key.expect("the twin refused by the key"), refused_by_its_key);
    assert_eq!(answer_at_cap.expect("the twin that reached the cap"), at_the_cap);
    assert_eq!(refusal(reused), ProblemCode::ClientTicketIdReused);
    assert_eq!(refusal(capped), ProblemCode::TicketCapReached);
    assert_eq!(t.calls().len(), 1, "only the first purchase was debited");
    assert_eq!(t.store.memory().tickets.len(), 4);
}
