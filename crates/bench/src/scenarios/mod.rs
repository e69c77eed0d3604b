//! The scenarios, each measured at the run's fixed concurrency with the service's
//! memory watched, and what they share.

pub mod flight;
pub mod healthz;
pub mod launch;
pub mod reads;
pub mod scaling;
pub mod trading;
pub mod webhook_fanout;
pub mod webhooks;

use crate::api::Api;
use crate::load::{self, LoadPlan, LoadReport, Request};
use crate::memory::MemoryWatch;
use crate::seed::Seeded;
use crate::settings::Settings;

/// What every scenario runs against.
pub struct Bench<'a> {
    /// The run's settings.
    pub settings: &'a Settings,
    /// The service's API.
    pub api: Api,
    /// The service's process id.
    pub service_pid: u32,
    /// The seeded operators and markets.
    pub seeded: &'a Seeded,
}

impl Bench<'_> {
    /// The standard plan: warm-up, then the measured time, bounded in requests.
    pub fn plan(&self) -> LoadPlan {
        LoadPlan {
            concurrency: self.settings.concurrency,
            warmup: self.settings.warmup,
            measure: self.settings.measure,
            max_requests: self.settings.max_requests,
            pace: None,
        }
    }

    /// Runs `request` under `plan` while watching the service's memory; the load
    /// figures and the peak RSS in KiB.
    pub async fn measure<R: Request>(&self, plan: LoadPlan, request: R) -> anyhow::Result<(LoadReport, u64)> {
        let watch = MemoryWatch::start(self.service_pid);
        let report = load::run(plan, request).await?;
        Ok((report, watch.finish()))
    }

    /// The operator the scenarios load (the first seeded).
    pub fn operator(&self) -> &crate::seed::SeededOperator {
        &self.seeded.operators[0]
    }
}

/// Prints one scenario's headline as it finishes.
pub fn announce(name: &str, load: &LoadReport) {
    println!(
        "  {name}: {:.0}/s, p50 {:.2} ms, p99 {:.2} ms, {} ok, {} errors{}",
        load.per_second,
        load.p50_ms,
        load.p99_ms,
        load.ok,
        load.errors,
        load.first_error
            .as_deref()
            .map_or(String::new(), |error| format!(" (first: {error})"))
    );
}
