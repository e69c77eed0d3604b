//! The reconciliation at the end of a run, from both sides' records:
//!
//! - money: every mutation the wallet applied (its ledger) against the balance operations
//!   and trades the operator API reports: same key, flow and amount, no key applied
//!   twice, no trade or compensated debit paid twice, nothing the service calls applied
//!   that the wallet did not apply, nothing the wallet applied that the service calls
//!   not applied; ambiguous ones in manual review, counted;
//! - events: every event in the service's outbox against what each subscribed receiver
//!   accepted; none lost, duplicates counted.

use std::collections::{BTreeMap, HashMap, HashSet};

use opinion_bench::api::Api;
use opinion_core::{EventId, WebhookEndpointId};
use reqwest::Method;
use serde_json::Value;
use tokio_postgres::Client;
use ulid::Ulid;

use crate::receivers::Received;
use crate::wallet::AppliedMutations;

/// States in which the service holds that the wallet applied the operation.
const APPLIED_STATES: [&str; 2] = ["applied", "resolved_applied"];

/// States in which the service holds that the wallet did not apply it.
const NOT_APPLIED_STATES: [&str; 3] = ["rejected", "resolved_not_applied", "abandoned"];

/// The money side's findings.
#[derive(Debug, Default)]
pub struct MoneyFindings {
    /// Balance operations by `flow/state`.
    pub operations: BTreeMap<String, u64>,
    /// Trades by `side/status`.
    pub trades: BTreeMap<String, u64>,
    /// Keys the wallet applied.
    pub wallet_applied: usize,
    /// Of the operations in manual review, those the wallet applied / did not apply.
    pub review_applied: u64,
    /// See `review_applied`.
    pub review_not_applied: u64,
    /// Every failure, one line each.
    pub failures: Vec<String>,
}

/// The event side's findings.
#[derive(Debug, Default)]
pub struct EventFindings {
    /// Events in the outbox.
    pub events: usize,
    /// Deliveries expected (event × subscribed endpoint).
    pub expected: usize,
    /// Of those, accepted by their receiver at least once.
    pub received: usize,
    /// Acceptances beyond the first.
    pub duplicates: u64,
    /// Deliveries by status, from the service's log.
    pub deliveries: BTreeMap<String, u64>,
    /// Deliveries the receivers refused on purpose.
    pub refused: u64,
    /// Every failure, one line each.
    pub failures: Vec<String>,
}

/// Every page of a list route of the operator API.
pub async fn list_all(api: &Api, key: &str, path: &str) -> anyhow::Result<Vec<Value>> {
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            Some(cursor) => format!("{path}?limit=200&cursor={cursor}"),
            None => format!("{path}?limit=200"),
        };
        let page = api
            .call(Method::GET, &url, Some(key), None)
            .await
            .map_err(|error| anyhow::anyhow!("GET {url}: {error}"))?;
        if let Some(data) = page["data"].as_array() {
            all.extend(data.iter().cloned());
        }
        match page["nextCursor"].as_str() {
            Some(next) if page["hasMore"].as_bool() == Some(true) => cursor = Some(next.to_owned()),
            _ => return Ok(all),
        }
    }
}

/// Reconciles the wallet's ledger with the operator API's balance operations and trades.
pub async fn money(api: &Api, key: &str, wallet: &AppliedMutations) -> anyhow::Result<MoneyFindings> {
    let operations = list_all(api, key, "/api/operator/balance-operations").await?;
    let trades = list_all(api, key, "/api/operator/trades").await?;
    let mut findings = MoneyFindings {
        wallet_applied: wallet.by_key.len(),
        ..MoneyFindings::default()
    };
    let text = |value: &Value, field: &str| value[field].as_str().unwrap_or_default().to_owned();
    let mut by_key: HashMap<String, &Value> = HashMap::new();
    for operation in &operations {
        let (flow, state) = (text(operation, "flow"), text(operation, "state"));
        *findings.operations.entry(format!("{flow}/{state}")).or_default() += 1;
        by_key.insert(text(operation, "idempotencyKey"), operation);
    }
    for (key, applied) in &wallet.by_key {
        if applied.times > 1 {
            findings
                .failures
                .push(format!("doubled: the wallet applied {key} {} times", applied.times));
        }
        let Some(operation) = by_key.get(key) else {
            findings.failures.push(format!(
                "unknown: the wallet applied {key}, which the API does not report"
            ));
            continue;
        };
        let amount: i64 = text(operation, "amount").parse().unwrap_or(-1);
        if amount != applied.amount || text(operation, "flow") != applied.flow {
            findings.failures.push(format!(
                "mismatch: {key} applied as {} {} of {}, reported as {} of {amount}",
                applied.flow,
                applied.direction,
                applied.amount,
                text(operation, "flow")
            ));
        }
        let state = text(operation, "state");
        if NOT_APPLIED_STATES.contains(&state.as_str()) {
            findings
                .failures
                .push(format!("lost: the wallet applied {key}, the service says {state}"));
        }
    }
    for operation in &operations {
        let key = text(operation, "idempotencyKey");
        let state = text(operation, "state");
        let in_wallet = wallet.by_key.contains_key(&key);
        if APPLIED_STATES.contains(&state.as_str()) && !in_wallet {
            findings.failures.push(format!(
                "phantom: the service says {key} {state}, the wallet never applied it"
            ));
        }
        match state.as_str() {
            "manual_review" if in_wallet => findings.review_applied += 1,
            "manual_review" => findings.review_not_applied += 1,
            "sent" => findings
                .failures
                .push(format!("stuck: {key} is still `sent` after the drain")),
            _ => {}
        }
    }
    double_payments(wallet, &mut findings);
    for trade in &trades {
        let (side, status) = (text(trade, "side"), text(trade, "status"));
        *findings.trades.entry(format!("{side}/{status}")).or_default() += 1;
        if status == "executed" {
            let key = format!("{side}:{}", text(trade, "id"));
            match by_key.get(&key) {
                Some(operation) if APPLIED_STATES.contains(&operation["state"].as_str().unwrap_or_default()) => {}
                _ => findings
                    .failures
                    .push(format!("executed trade {} has no applied {key}", text(trade, "id"))),
            }
        }
    }
    Ok(findings)
}

/// No trade paid twice (two applied buy or sell keys naming one trade), no debit given
/// back twice.
fn double_payments(wallet: &AppliedMutations, findings: &mut MoneyFindings) {
    let mut seen: HashSet<(String, String)> = HashSet::new();
    for (key, applied) in &wallet.by_key {
        let subject = match applied.flow.as_str() {
            "buy" | "sell" => applied.trade_id.clone(),
            "buy_compensation" => applied.compensated.clone(),
            "redemption" => applied.redemption_id.clone(),
            _ => None,
        };
        if let Some(subject) = subject
            && !seen.insert((applied.flow.clone(), subject.clone()))
        {
            findings
                .failures
                .push(format!("doubled: a second {} for {subject} ({key})", applied.flow));
        }
    }
}

/// Reconciles the outbox with what the receivers accepted; `receivers` pairs each
/// endpoint's wire id with its receiver's record.
pub async fn events(
    client: &Client,
    operator_uuid: &str,
    receivers: &[(String, Received)],
) -> anyhow::Result<EventFindings> {
    let mut findings = EventFindings::default();
    let events = client
        .query(
            "SELECT id::text, event_type, (extract(epoch FROM created_at) * 1000000)::bigint FROM webhook_events WHERE operator_id = $1::text::uuid",
            &[&operator_uuid],
        )
        .await?;
    findings.events = events.len();
    let endpoints = client
        .query(
            "SELECT id::text, event_types, (extract(epoch FROM created_at) * 1000000)::bigint FROM webhook_endpoints WHERE operator_id = $1::text::uuid",
            &[&operator_uuid],
        )
        .await?;
    let deliveries = client
        .query(
            "SELECT event_id::text, endpoint_id::text, status FROM webhook_deliveries WHERE operator_id = $1::text::uuid",
            &[&operator_uuid],
        )
        .await?;
    let mut delivery_status: HashMap<(String, String), String> = HashMap::new();
    for row in &deliveries {
        let status: String = row.get(2);
        *findings.deliveries.entry(status.clone()).or_default() += 1;
        delivery_status.insert((wire_event(row.get(0))?, wire_endpoint(row.get(1))?), status);
    }
    let received: HashMap<&str, &Received> = receivers.iter().map(|(id, r)| (id.as_str(), r)).collect();
    for record in received.values() {
        findings.refused += record.refused;
        findings.duplicates += record
            .accepted
            .values()
            .map(|count| u64::from(count.saturating_sub(1)))
            .sum::<u64>();
        if record.bad_signatures > 0 {
            findings
                .failures
                .push(format!("{} deliveries did not verify", record.bad_signatures));
        }
    }
    for endpoint in &endpoints {
        let endpoint_id = wire_endpoint(endpoint.get(0))?;
        let types: Vec<String> = endpoint.get(1);
        let since: i64 = endpoint.get(2);
        let Some(record) = received.get(endpoint_id.as_str()) else {
            continue;
        };
        for event in &events {
            let (event_type, created): (String, i64) = (event.get(1), event.get(2));
            if !types.contains(&event_type) || created < since {
                continue;
            }
            findings.expected += 1;
            let event_id = wire_event(event.get(0))?;
            if record.accepted.contains_key(&event_id) {
                findings.received += 1;
            } else {
                let status = delivery_status
                    .get(&(event_id.clone(), endpoint_id.clone()))
                    .map_or("no delivery", String::as_str);
                findings.failures.push(format!(
                    "lost: {event_type} {event_id} never reached {endpoint_id} (delivery: {status})"
                ));
            }
        }
    }
    Ok(findings)
}

/// The wire id (`evt_…`) of an event's uuid as PostgreSQL prints it.
fn wire_event(uuid: &str) -> anyhow::Result<String> {
    Ok(EventId::from_ulid(ulid_of(uuid)?).to_string())
}

/// The wire id (`whe_…`) of an endpoint's uuid.
fn wire_endpoint(uuid: &str) -> anyhow::Result<String> {
    Ok(WebhookEndpointId::from_ulid(ulid_of(uuid)?).to_string())
}

fn ulid_of(uuid: &str) -> anyhow::Result<Ulid> {
    Ok(Ulid(u128::from_str_radix(&uuid.replace('-', ""), 16)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uuid_reads_as_the_wire_id_of_its_ulid() {
        let ulid = Ulid::new();
        let uuid = format!("{:032x}", ulid.0);
        let dashed = format!(
            "{}-{}-{}-{}-{}",
            &uuid[..8],
            &uuid[8..12],
            &uuid[12..16],
            &uuid[16..20],
            &uuid[20..]
        );
        assert_eq!(wire_event(&dashed).ok(), Some(EventId::from_ulid(ulid).to_string()));
    }
}
