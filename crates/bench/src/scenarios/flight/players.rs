//! The flight scenarios' players: launched into the flight product over HTTP (the
//! operator's launch, then the page's session), and the two calls a page makes with
//! them, buying a ticket and cashing it out.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use reqwest::Method;
use serde_json::json;

use crate::api::{Api, CallError, text_field};
use crate::scenarios::Bench;
use crate::scenarios::flight::STAKE;

/// Players with an open flight session each.
#[derive(Clone)]
pub struct FlightPlayers {
    sessions: Arc<Vec<String>>,
}

/// A ticket as its purchase answered.
#[derive(Debug, Clone)]
pub struct Bought {
    /// `tkt_…`
    pub id: String,
    /// `active` when its debit was applied during boarding.
    pub status: String,
}

impl FlightPlayers {
    /// Launches `count` players of the bench's operator into flight, several at a time.
    pub async fn launch(bench: &Bench<'_>, count: usize) -> anyhow::Result<Self> {
        let next = Arc::new(AtomicUsize::new(0));
        let key = bench.operator().full_key.clone();
        let mut workers = Vec::new();
        for _ in 0..bench.settings.concurrency.max(1) {
            let (api, key, next) = (bench.api.clone(), key.clone(), next.clone());
            workers.push(tokio::spawn(async move {
                let mut opened = Vec::new();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        return Ok::<_, CallError>(opened);
                    }
                    let external = format!("bench-flyer-{index}");
                    let launch = api.launch_into(&key, &external, Some("flight")).await?;
                    opened.push((index, api.open_session(&launch).await?));
                }
            }));
        }
        let mut sessions = vec![String::new(); count];
        for worker in workers {
            for (index, session) in worker.await?? {
                sessions[index] = session;
            }
        }
        Ok(Self {
            sessions: Arc::new(sessions),
        })
    }

    /// How many players there are.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// The session of player `index` (modulo the count).
    pub fn session(&self, index: usize) -> &str {
        &self.sessions[index % self.sessions.len()]
    }

    /// Buys a ticket of the bench's stake as player `index`.
    pub async fn buy(&self, api: &Api, index: usize, client_ticket_id: &str) -> Result<Bought, CallError> {
        let body = json!({ "clientTicketId": client_ticket_id, "stake": STAKE });
        let ticket = api
            .call(
                Method::POST,
                "/api/player/flight/tickets",
                Some(self.session(index)),
                Some(&body),
            )
            .await?;
        Ok(Bought {
            id: text_field(&ticket, "id")?,
            status: text_field(&ticket, "status")?,
        })
    }

    /// Cashes player `index`'s ticket out; the ticket's status after it.
    pub async fn cash_out(&self, api: &Api, index: usize, ticket: &str) -> Result<String, CallError> {
        let path = format!("/api/player/flight/tickets/{ticket}/cash-out");
        let answer = api
            .call(Method::POST, &path, Some(self.session(index)), Some(&json!({})))
            .await?;
        text_field(&answer, "status")
    }
}
