//! The result of a run: every scenario's figures and their ratios to the baselines of
//! the same run, written as `bench/results/latest.json` and `latest.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::cpu::CpuPerRequest;
use crate::database::StatementCost;
use crate::load::LoadReport;
use crate::pgbench::PgbenchReport;
use crate::targets::{self, GrowthCurve, TargetCheck};

/// The database baseline a scenario is compared with.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Baseline {
    /// pgbench select-only: one indexed read.
    #[serde(rename = "pgbenchSelectOnly")]
    SelectOnly,
    /// pgbench's default read-write transaction: one commit.
    #[serde(rename = "pgbenchReadWrite")]
    ReadWrite,
    /// pgbench running the trades page's own SQL, first page.
    #[serde(rename = "pgbenchTradesFirstPage")]
    TradesFirstPage,
    /// pgbench running the trades page's own SQL, the deep page.
    #[serde(rename = "pgbenchTradesDeepPage")]
    TradesDeepPage,
}

/// One scenario's result.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    /// Short name, e.g. `reads.first_page`.
    pub name: String,
    /// What was measured.
    pub description: String,
    /// The load figures, when it could run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<LoadReport>,
    /// Why it could not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_available: Option<String>,
    /// Peak resident memory of the service during the scenario, KiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_rss_kib: Option<u64>,
    /// The database baseline it is compared with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Baseline>,
    /// Throughput over the database baseline's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio_to_database: Option<f64>,
    /// Throughput over `/healthz`'s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio_to_healthz: Option<f64>,
    /// Scenario-specific figures (commits per buy, deep/first page cost, …).
    pub figures: BTreeMap<String, f64>,
    /// Where its database time went, statement by statement, when profiled.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub statements: Vec<StatementCost>,
    /// Whether its per-second figure counts requests, so that ratios to the baselines'
    /// requests mean something (not for rows exported or events delivered).
    #[serde(skip)]
    pub requests_per_second: bool,
}

impl Scenario {
    /// A measured scenario.
    pub fn measured(
        name: &str,
        description: &str,
        load: LoadReport,
        peak_rss_kib: u64,
        baseline: Option<Baseline>,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            load: Some(load),
            not_available: None,
            peak_rss_kib: Some(peak_rss_kib),
            baseline,
            ratio_to_database: None,
            ratio_to_healthz: None,
            figures: BTreeMap::new(),
            statements: Vec::new(),
            requests_per_second: true,
        }
    }

    /// The same scenario, whose per-second figure counts something else than requests
    /// (rows, events): no ratio to the baselines.
    pub fn counting_other_than_requests(mut self) -> Self {
        self.requests_per_second = false;
        self
    }

    /// A scenario that could not run, and why.
    pub fn not_available(name: &str, description: &str, reason: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            load: None,
            not_available: Some(reason.into()),
            peak_rss_kib: None,
            baseline: None,
            ratio_to_database: None,
            ratio_to_healthz: None,
            figures: BTreeMap::new(),
            statements: Vec::new(),
            requests_per_second: true,
        }
    }

    /// Adds a scenario-specific figure.
    pub fn with_figure(mut self, name: &str, value: f64) -> Self {
        self.figures.insert(name.into(), value);
        self
    }
}

/// The baselines of the run.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Baselines {
    /// pgbench `-S`.
    pub pgbench_select_only: Option<PgbenchReport>,
    /// pgbench default transaction.
    pub pgbench_read_write: Option<PgbenchReport>,
    /// `GET /healthz` under the same load.
    pub healthz: Option<LoadReport>,
    /// pgbench running the first trades page's SQL (prepared, the operator a variable).
    pub pgbench_trades_first_page: Option<PgbenchReport>,
    /// pgbench running the deep trades page's SQL.
    pub pgbench_trades_deep_page: Option<PgbenchReport>,
    /// Whether the page SQL was checked against the statement the service ran
    /// (`pg_stat_statements`): `None` when not loaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_sql_verified: Option<bool>,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    /// When the run started, RFC 3339 UTC.
    pub started_at: String,
    /// Wall time of the whole run, seconds.
    pub total_seconds: f64,
    /// CPUs the machine offers.
    pub cpus: usize,
    /// Requests in flight at once (and pgbench clients).
    pub concurrency: usize,
    /// Measured seconds per scenario.
    pub seconds_per_scenario: u64,
    /// Trades seeded before the read scenarios.
    pub seeded_trades: usize,
    /// Operators seeded.
    pub seeded_operators: usize,
    /// The baselines.
    pub baselines: Baselines,
    /// The scenarios.
    pub scenarios: Vec<Scenario>,
    /// Every performance target, checked.
    pub targets: Vec<TargetCheck>,
    /// The growth curves.
    pub curves: Vec<GrowthCurve>,
}

impl RunReport {
    /// Fills every scenario's ratios from the baselines, then checks the targets and
    /// draws the growth curves.
    pub fn compute(&mut self) {
        self.compute_ratios();
        self.targets = targets::evaluate(self);
        self.curves = targets::curves(self);
    }

    /// Fills every scenario's ratios from the baselines.
    fn compute_ratios(&mut self) {
        let healthz = self.baselines.healthz.as_ref().map(|load| load.per_second);
        for scenario in &mut self.scenarios {
            let Some(load) = &scenario.load else { continue };
            if !scenario.requests_per_second {
                continue;
            }
            let database = match scenario.baseline {
                Some(Baseline::SelectOnly) => self.baselines.pgbench_select_only.as_ref(),
                Some(Baseline::ReadWrite) => self.baselines.pgbench_read_write.as_ref(),
                Some(Baseline::TradesFirstPage) => self.baselines.pgbench_trades_first_page.as_ref(),
                Some(Baseline::TradesDeepPage) => self.baselines.pgbench_trades_deep_page.as_ref(),
                None => None,
            };
            scenario.ratio_to_database = database.map(|base| load.per_second / base.per_second);
            scenario.ratio_to_healthz = healthz.map(|base| load.per_second / base);
        }
    }

    /// Writes `latest.json` and `latest.md` into `dir`.
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join("latest.json"), serde_json::to_string_pretty(self)? + "\n")?;
        std::fs::write(dir.join("latest.md"), self.markdown())?;
        Ok(())
    }

    /// The short markdown table.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Benchmark results\n\nRun {} on {} CPUs, {} requests in flight, {} s measured per scenario, {} trades seeded over {} operators; took {:.0} s.\n",
            self.started_at,
            self.cpus,
            self.concurrency,
            self.seconds_per_scenario,
            self.seeded_trades,
            self.seeded_operators,
            self.total_seconds
        );
        out.push_str(
            "| scenario | per second | p50 ms | p99 ms | errors | peak RSS MiB | vs database | vs /healthz |\n",
        );
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        if let Some(select) = &self.baselines.pgbench_select_only {
            let _ = writeln!(
                out,
                "| baseline: pgbench select-only | {:.0} | {:.2} (mean) | | | | 1 | |",
                select.per_second, select.mean_ms
            );
        }
        if let Some(write) = &self.baselines.pgbench_read_write {
            let _ = writeln!(
                out,
                "| baseline: pgbench read-write | {:.0} | {:.2} (mean) | | | | 1 | |",
                write.per_second, write.mean_ms
            );
        }
        for (name, page) in [
            ("first trades page's SQL", &self.baselines.pgbench_trades_first_page),
            ("deep trades page's SQL", &self.baselines.pgbench_trades_deep_page),
        ] {
            if let Some(page) = page {
                let _ = writeln!(
                    out,
                    "| baseline: pgbench, the {name} | {:.0} | {:.2} (mean) | | | | 1 | |",
                    page.per_second, page.mean_ms
                );
            }
        }
        if let Some(healthz) = &self.baselines.healthz {
            let _ = writeln!(
                out,
                "| baseline: GET /healthz | {:.0} | {:.2} | {:.2} | {} | | | 1 |",
                healthz.per_second, healthz.p50_ms, healthz.p99_ms, healthz.errors
            );
        }
        for scenario in &self.scenarios {
            match &scenario.load {
                Some(load) => {
                    let _ = writeln!(
                        out,
                        "| {} | {:.0} | {:.2} | {:.2} | {} | {} | {} | {} |",
                        scenario.name,
                        load.per_second,
                        load.p50_ms,
                        load.p99_ms,
                        load.errors,
                        scenario
                            .peak_rss_kib
                            .map_or(String::new(), |kib| format!("{:.1}", kib as f64 / 1024.0)),
                        ratio(scenario.ratio_to_database),
                        ratio(scenario.ratio_to_healthz),
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "| {} | not available: {} | | | | | | |",
                        scenario.name,
                        scenario.not_available.as_deref().unwrap_or("")
                    );
                }
            }
        }
        self.targets_markdown(&mut out);
        self.cpu_markdown(&mut out);
        self.curves_markdown(&mut out);
        let figures: Vec<String> = self
            .scenarios
            .iter()
            .flat_map(|scenario| {
                scenario
                    .figures
                    .iter()
                    .map(move |(name, value)| format!("- {}: {name} = {value:.3}", scenario.name))
            })
            .collect();
        if !figures.is_empty() {
            out.push_str("\nFigures:\n\n");
            out.push_str(&figures.join("\n"));
            out.push('\n');
        }
        for scenario in self.scenarios.iter().filter(|scenario| !scenario.statements.is_empty()) {
            let _ = writeln!(
                out,
                "\n{} database time by statement (executing and planning):\n\n| statement | calls per buy | plans per buy | mean ms | ms per buy |\n|---|---:|---:|---:|---:|",
                scenario.name
            );
            for statement in &scenario.statements {
                let _ = writeln!(
                    out,
                    "| `{}` | {:.2} | {:.2} | {:.3} | {:.3} |",
                    statement.query.replace('|', "\\|"),
                    statement.calls_per_buy,
                    statement.plans_per_buy,
                    statement.mean_ms,
                    statement.ms_per_buy
                );
            }
        }
        out
    }
}

impl RunReport {
    /// The targets section.
    fn targets_markdown(&self, out: &mut String) {
        if self.targets.is_empty() {
            return;
        }
        out.push_str(
            "\n## Targets\n\n| target | figure | baseline | measured | target | met |\n|---|---:|---:|---:|---|---|\n",
        );
        for check in &self.targets {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                check.name,
                number(check.figure),
                number(check.baseline),
                ratio(check.value),
                check.target,
                match check.met {
                    Some(true) => "met",
                    Some(false) => "**not met**",
                    None => "not measured",
                }
            );
        }
        out.push('\n');
        for check in &self.targets {
            let _ = writeln!(out, "- {}: {}", check.name, check.note);
        }
        if let Some(verified) = self.baselines.page_sql_verified {
            let _ = writeln!(
                out,
                "- the page SQL run by pgbench {} the statement the service ran (pg_stat_statements)",
                if verified { "is" } else { "is NOT" }
            );
        }
    }

    /// The CPU section: what each party spent on a request (a transaction, for pgbench).
    fn cpu_markdown(&self, out: &mut String) {
        let baselines = [
            ("baseline: pgbench select-only", &self.baselines.pgbench_select_only),
            ("baseline: pgbench read-write", &self.baselines.pgbench_read_write),
            (
                "baseline: pgbench, the first trades page's SQL",
                &self.baselines.pgbench_trades_first_page,
            ),
            (
                "baseline: pgbench, the deep trades page's SQL",
                &self.baselines.pgbench_trades_deep_page,
            ),
        ]
        .into_iter()
        .filter_map(|(name, report)| Some((name.to_owned(), report.as_ref()?.cpu?)));
        let healthz = self
            .baselines
            .healthz
            .as_ref()
            .and_then(|load| load.cpu)
            .map(|cpu| ("baseline: GET /healthz".to_owned(), cpu));
        let scenarios = self
            .scenarios
            .iter()
            .filter_map(|scenario| Some((scenario.name.clone(), scenario.load.as_ref()?.cpu?)));
        let rows: Vec<(String, CpuPerRequest)> = baselines.chain(healthz).chain(scenarios).collect();
        if rows.is_empty() {
            return;
        }
        out.push_str(
            "\n## CPU per request\n\nCPU milliseconds each party spent per request of the measured run (per transaction \
             for pgbench, whose client is the load), from `/proc`; other is the rest of the machine's busy time.\n\n\
             | run | service ms | database ms | load ms | other ms | machine idle |\n|---|---:|---:|---:|---:|---:|\n",
        );
        for (name, cpu) in rows {
            let _ = writeln!(
                out,
                "| {name} | {:.3} | {:.3} | {:.3} | {:.3} | {:.0}% |",
                cpu.service_ms,
                cpu.database_ms,
                cpu.load_ms,
                cpu.other_ms,
                cpu.idle_share * 100.0
            );
        }
    }

    /// The growth curves section.
    fn curves_markdown(&self, out: &mut String) {
        if self.curves.is_empty() {
            return;
        }
        out.push_str("\n## Growth curves\n\n| curve | points | last / first | flat |\n|---|---|---:|---|\n");
        for curve in &self.curves {
            let points: Vec<String> = curve
                .points
                .iter()
                .map(|point| format!("{:.0}: {:.2}", point.at, point.value))
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                curve.name,
                if points.is_empty() {
                    "not measured".to_owned()
                } else {
                    points.join(", ")
                },
                ratio(curve.change),
                match curve.flat {
                    Some(true) => "flat",
                    Some(false) => "**not flat**",
                    None => "one point",
                }
            );
        }
    }
}

/// A figure with two decimals, or blank.
fn number(value: Option<f64>) -> String {
    value.map_or(String::new(), |value| format!("{value:.2}"))
}

/// A ratio with two decimals, or blank.
fn ratio(value: Option<f64>) -> String {
    value.map_or(String::new(), |value| format!("{value:.2}"))
}

#[cfg(test)]
impl RunReport {
    /// A run of `scenarios` against `baselines` on two CPUs, 16 in flight, 12 s each,
    /// nothing seeded and nothing computed yet: what the tests of its tables and targets
    /// start from.
    pub fn of(scenarios: Vec<Scenario>, baselines: Baselines) -> Self {
        Self {
            started_at: String::new(),
            total_seconds: 0.0,
            cpus: 2,
            concurrency: 16,
            seconds_per_scenario: 12,
            seeded_trades: 0,
            seeded_operators: 0,
            baselines,
            scenarios,
            targets: Vec::new(),
            curves: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Baselines, RunReport, Scenario};
    use crate::cpu::CpuPerRequest;
    use crate::load::LoadReport;

    #[test]
    fn the_cpu_section_lists_every_watched_run_and_only_those() {
        let cpu = CpuPerRequest {
            service_ms: 0.25,
            database_ms: 0.194,
            load_ms: 0.043,
            other_ms: 0.01,
            idle_share: 0.06,
        };
        let load = |cpu| LoadReport {
            ok: 10,
            errors: 0,
            first_error: None,
            seconds: 1.0,
            per_second: 10.0,
            p50_ms: 1.0,
            p99_ms: 2.0,
            max_ms: 3.0,
            cpu,
        };
        let report = RunReport::of(
            vec![
                Scenario::measured("reads.first_page", "", load(Some(cpu)), 1024, None),
                Scenario::measured("webhooks", "", load(None), 1024, None),
            ],
            Baselines::default(),
        );
        let markdown = report.markdown();
        assert!(markdown.contains("## CPU per request"), "{markdown}");
        assert!(
            markdown.contains("| reads.first_page | 0.250 | 0.194 | 0.043 | 0.010 | 6% |"),
            "{markdown}"
        );
        let section = &markdown[markdown.find("## CPU per request").unwrap_or(0)..];
        assert!(!section.contains("| webhooks |"), "{section}");
    }
}
