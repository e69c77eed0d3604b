//! Authenticated reads: `GET /api/operator/trades?limit=50` with a restricted
//! (`trades:read`) key over the seeded million trades, first page and a deep page.

use reqwest::Method;
use serde_json::Value;

use crate::api::{Api, CallError};
use crate::load::Request;
use crate::report::{Baseline, Scenario};
use crate::scenarios::{Bench, announce};

/// The page every request asks for.
const FIRST_PAGE: &str = "/api/operator/trades?limit=50";

const FIRST_DESCRIPTION: &str = "GET /api/operator/trades?limit=50, first page, restricted key";
const DEEP_DESCRIPTION: &str = "GET /api/operator/trades?limit=50&cursor=…, a page deep in the keyset";

/// Whether the route is built, asked with the restricted key; `Err` carries the reason.
pub async fn availability(bench: &Bench<'_>) -> Result<(), String> {
    match bench
        .api
        .call(Method::GET, FIRST_PAGE, Some(&bench.operator().read_key), None)
        .await
    {
        Ok(_) => Ok(()),
        Err(error) if error.is_not_implemented() => Err(format!("the service does not serve it yet ({error})")),
        Err(error) => Err(format!("the probe failed: {error}")),
    }
}

/// Which run of the read scenarios: the standard one, compared with pgbench running the
/// page's SQL, or the growth curve's second point, with more trades seeded.
#[derive(Debug, Clone, Copy)]
pub enum Reads {
    /// `reads.first_page` and `reads.deep_page`.
    Standard,
    /// `growth.reads.first_page` and `growth.reads.deep_page`.
    Grown,
}

impl Reads {
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Self::Standard => ("reads.first_page", "reads.deep_page"),
            Self::Grown => ("growth.reads.first_page", "growth.reads.deep_page"),
        }
    }

    fn baselines(self) -> (Option<Baseline>, Option<Baseline>) {
        match self {
            Self::Standard => (Some(Baseline::TradesFirstPage), Some(Baseline::TradesDeepPage)),
            Self::Grown => (None, None),
        }
    }
}

/// Both read scenarios, with `trades_seeded` trades in the table; the deep page is
/// `settings.deep_page` pages in.
pub async fn run(bench: &Bench<'_>, reads: Reads, trades_seeded: usize) -> anyhow::Result<Vec<Scenario>> {
    let (first_name, deep_name) = reads.names();
    let (first_baseline, deep_baseline) = reads.baselines();
    let key = bench.operator().read_key.clone();
    let deep = match deep_cursor(&bench.api, &key, bench.settings.deep_page).await {
        Ok(cursor) => cursor,
        Err(error) => {
            return Ok(vec![
                Scenario::not_available(first_name, FIRST_DESCRIPTION, error.to_string()),
                Scenario::not_available(deep_name, DEEP_DESCRIPTION, error.to_string()),
            ]);
        }
    };
    let first = page(
        bench,
        first_name,
        FIRST_DESCRIPTION,
        FIRST_PAGE.to_owned(),
        &key,
        first_baseline,
    )
    .await?
    .with_figure("trades_seeded", trades_seeded as f64);
    let deep_path = format!("{FIRST_PAGE}&cursor={deep}");
    let deep = page(bench, deep_name, DEEP_DESCRIPTION, deep_path, &key, deep_baseline)
        .await?
        .with_figure("trades_seeded", trades_seeded as f64);
    let cost = match (&first.load, &deep.load) {
        (Some(first), Some(deep)) => Some(deep.p50_ms / first.p50_ms),
        _ => None,
    };
    let deep = match cost {
        Some(cost) => deep
            .with_figure("deep_over_first_p50", cost)
            .with_figure("pages_deep", bench.settings.deep_page as f64),
        None => deep,
    };
    Ok(vec![first, deep])
}

/// Measures one page.
async fn page(
    bench: &Bench<'_>,
    name: &str,
    description: &str,
    path: String,
    key: &str,
    baseline: Option<Baseline>,
) -> anyhow::Result<Scenario> {
    let request = Page {
        api: bench.api.clone(),
        path,
        key: key.to_owned(),
    };
    let (load, rss) = bench.measure(bench.plan(), request).await?;
    announce(name, &load);
    Ok(Scenario::measured(name, description, load, rss, baseline))
}

/// Follows `nextCursor` for `pages` pages; the cursor of the page after them.
async fn deep_cursor(api: &Api, key: &str, pages: usize) -> Result<String, CallError> {
    let mut cursor: Option<String> = None;
    for _ in 0..pages {
        let path = match &cursor {
            Some(cursor) => format!("{FIRST_PAGE}&cursor={cursor}"),
            None => FIRST_PAGE.to_owned(),
        };
        let page = api.call(Method::GET, &path, Some(key), None).await?;
        cursor = Some(
            page.get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| CallError {
                    status: None,
                    detail: "the list ended before the deep page".into(),
                })?,
        );
    }
    cursor.ok_or_else(|| CallError {
        status: None,
        detail: "no pages were read".into(),
    })
}

/// One page request.
struct Page {
    api: Api,
    path: String,
    key: String,
}

impl Request for Page {
    async fn call(&self, _worker: usize, _sequence: u64) -> Result<(), String> {
        self.api
            .get_status(&self.path, Some(&self.key))
            .await
            .map_err(|e| e.to_string())
    }
}
