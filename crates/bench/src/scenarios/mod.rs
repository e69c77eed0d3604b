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
use crate::cpu::{CpuReading, Parties};
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
    /// The processes charged with a scenario's CPU: this service and the database.
    pub parties: Parties,
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

    /// Runs `request` under `plan` while watching the service's memory and the parties'
    /// CPU; the load figures (with the CPU per request) and the peak RSS in KiB.
    pub async fn measure<R: Request>(&self, plan: LoadPlan, request: R) -> anyhow::Result<(LoadReport, u64)> {
        self.measure_charging(&self.parties, plan, request).await
    }

    /// [`Bench::measure`], charging the CPU to `parties` (another instance of the service
    /// with this one).
    pub async fn measure_charging<R: Request>(
        &self,
        parties: &Parties,
        plan: LoadPlan,
        request: R,
    ) -> anyhow::Result<(LoadReport, u64)> {
        let watch = MemoryWatch::start(self.service_pid);
        let (mut report, started) = load::run_watched(plan, request, || CpuReading::take(parties)).await?;
        report.cpu = CpuReading::take(parties).per_request_since(&started, report.ok);
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
