//! Buys as the deployment and the tenants grow: through two instances of the service on
//! one database (against one instance's buys), and with more operators active at once
//! (the buys spread over their players).

use crate::api::Api;
use crate::memory::MemoryWatch;
use crate::report::{Baseline, Scenario};
use crate::scenarios::trading::{NewBuy, Traders};
use crate::scenarios::{Bench, announce};

const TWO: &str = "trading.buy_two_instances";
const TWO_DESCRIPTION: &str =
    "POST /api/player/orders as trading.buy, the workers split over two instances on one database";
const OPERATORS_DESCRIPTION: &str =
    "POST /api/player/orders as trading.buy, the buys spread over the players of several operators";

/// Buys through the bench's instance and `second` (process `second_pid`), half the
/// workers each; `commits_per_buy` (from trading.buy) gives the database's commit rate.
pub async fn two_instances(
    bench: &Bench<'_>,
    second: &Api,
    second_pid: u32,
    traders: &Result<Traders, String>,
    commits_per_buy: Option<f64>,
) -> anyhow::Result<Scenario> {
    let traders = match traders {
        Ok(traders) => traders.clone(),
        Err(reason) => return Ok(Scenario::not_available(TWO, TWO_DESCRIPTION, reason.clone())),
    };
    let buys = NewBuy {
        apis: vec![bench.api.clone(), second.clone()],
        traders,
        prefix: "bench-two".into(),
    };
    let second_watch = MemoryWatch::start(second_pid);
    let parties = bench.parties.with_instance(second_pid);
    let (load, rss) = bench.measure_charging(&parties, bench.plan(), buys).await?;
    let rss = rss.max(second_watch.finish());
    announce(TWO, &load);
    let mut scenario = Scenario::measured(TWO, TWO_DESCRIPTION, load.clone(), rss, Some(Baseline::ReadWrite))
        .with_figure("instances", 2.0);
    if let Some(per_buy) = commits_per_buy {
        scenario = scenario.with_figure("commits_per_second", load.per_second * per_buy);
    }
    Ok(scenario)
}

/// The operator counts of the buys curve beyond the first (trading.buy's one), within
/// the operators seeded.
pub fn operator_counts(seeded: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = [10, 100].into_iter().map(|count| count.min(seeded)).collect();
    counts.dedup();
    counts.retain(|count| *count > 1);
    counts
}

/// Buys spread over `operators` operators' players (`traders`).
pub async fn operators_active(
    bench: &Bench<'_>,
    operators: usize,
    traders: &Result<Traders, String>,
) -> anyhow::Result<Scenario> {
    let name = format!("growth.buys.operators_{operators}");
    let traders = match traders {
        Ok(traders) => traders.clone(),
        Err(reason) => return Ok(Scenario::not_available(&name, OPERATORS_DESCRIPTION, reason.clone())),
    };
    let buys = NewBuy {
        apis: vec![bench.api.clone()],
        traders,
        prefix: format!("bench-operators-{operators}"),
    };
    let (load, rss) = bench.measure(bench.plan(), buys).await?;
    announce(&name, &load);
    Ok(
        Scenario::measured(&name, OPERATORS_DESCRIPTION, load, rss, Some(Baseline::ReadWrite))
            .with_figure("operators_active", operators as f64),
    )
}
