//! The flight product for a player: launch only once the operator is enabled, a ticket
//! bought on the boarding flight, and the player's tickets.

use serde_json::json;

use crate::flight_support::{boarding_flight, enable_flight, flight_player, simulated_idr_user, spawn_flight_app};
use crate::helpers::{assert_problem, json_with_status};

#[tokio::test]
async fn an_enabled_operators_player_launches_into_flight_and_buys_a_ticket_on_the_boarding_flight() {
    let app = spawn_flight_app().await;
    let refused = app
        .post(
            "/api/operator/launch",
            &app.operator.key,
            &json!({"externalUserId": "rina", "product": "flight"}),
        )
        .await;
    assert_problem(refused, 409, "product_not_enabled").await;

    enable_flight(&app, &app.operator).await;
    simulated_idr_user(&app, &app.operator.key, "rina", 100_000).await;
    let session = flight_player(&app, &app.operator, "rina").await;
    let flight = boarding_flight(&app, &session).await;

    let ticket = json_with_status(
        app.post(
            "/api/player/flight/tickets",
            &session,
            &json!({"clientTicketId": "first", "stake": "10000", "autoCashOut": "1.50"}),
        )
        .await,
        200,
    )
    .await;
    assert_eq!(ticket["flightId"], flight["id"], "{ticket}");
    assert_eq!(ticket["stake"], "10000", "{ticket}");
    assert_eq!(ticket["currency"], "IDR", "{ticket}");
    assert_eq!(ticket["autoCashOut"], "1.50", "{ticket}");

    let mine = json_with_status(app.get("/api/player/flight/tickets", &session).await, 200).await;
    assert_eq!(mine["data"][0]["id"], ticket["id"], "{mine}");
}
