//! Launch: `POST /api/operator/launch` for a new player each time (the operator's
//! full-access key), which writes the player and the launch.

use crate::api::Api;
use crate::load::Request;
use crate::report::{Baseline, Scenario};
use crate::scenarios::{Bench, announce};

const NAME: &str = "launch";
const DESCRIPTION: &str = "POST /api/operator/launch, a new player each time";

/// One launch of a never-seen player.
struct Launch {
    api: Api,
    key: String,
}

impl Request for Launch {
    async fn call(&self, _worker: usize, sequence: u64) -> Result<(), String> {
        self.api
            .launch(&self.key, &format!("bench-launch-{sequence}"))
            .await
            .map(drop)
            .map_err(|e| e.to_string())
    }
}

/// Measures launches.
pub async fn run(bench: &Bench<'_>) -> anyhow::Result<Scenario> {
    let key = bench.operator().full_key.clone();
    if let Err(error) = bench.api.launch(&key, "bench-launch-probe").await {
        let reason = if error.is_not_implemented() {
            format!("the service does not serve it yet ({error})")
        } else {
            format!("the probe failed: {error}")
        };
        return Ok(Scenario::not_available(NAME, DESCRIPTION, reason));
    }
    let request = Launch {
        api: bench.api.clone(),
        key,
    };
    let (load, rss) = bench.measure(bench.plan(), request).await?;
    announce(NAME, &load);
    Ok(Scenario::measured(
        NAME,
        DESCRIPTION,
        load,
        rss,
        Some(Baseline::ReadWrite),
    ))
}
