//! The HTTP stack's ceiling: `GET /healthz`, which touches neither the database nor
//! authentication, under the same load as every scenario.

use crate::api::Api;
use crate::load::{LoadReport, Request};
use crate::scenarios::{Bench, announce};

/// One `GET /healthz`.
struct Healthz {
    api: Api,
}

impl Request for Healthz {
    async fn call(&self, _worker: usize, _sequence: u64) -> Result<(), String> {
        self.api.get_status("/healthz", None).await.map_err(|e| e.to_string())
    }
}

/// Measures the baseline.
pub async fn baseline(bench: &Bench<'_>) -> anyhow::Result<LoadReport> {
    let (load, _) = bench.measure(bench.plan(), Healthz { api: bench.api.clone() }).await?;
    announce("GET /healthz", &load);
    Ok(load)
}
