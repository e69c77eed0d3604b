//! The platform's performance targets, each a ratio to a baseline of the same run, checked
//! against a finished run; and the growth curves (one figure as the data or the load
//! grows), each flagged when it is not flat. A target whose figures the run could not
//! measure is reported as not measured, never as met.

use serde::Serialize;

use crate::pgbench::PgbenchReport;
use crate::report::{RunReport, Scenario};
use crate::scenarios::webhooks::{AT_RATE, ONE_ENDPOINT};

/// Largest peak resident memory of the service in any scenario, MiB.
const RSS_LIMIT_MIB: f64 = 64.0;

/// Commits per buy are judged to this many per buy, the figure's precision as reported:
/// the idle service's own commits, about 400 over the probe's 8,000 buys, are subtracted
/// at their idle rate, which leaves a few either way (2.001 read as 2.00). A third commit
/// on one buy in a hundred still reads 2.01.
const COMMITS_RESOLUTION: f64 = 0.01;

/// A latency curve is flat while its last point is at most this many times its first.
const FLAT_LATENCY_GROWTH: f64 = 1.5;

/// A throughput curve is flat while its last point is at least this share of its first.
const FLAT_THROUGHPUT_SHARE: f64 = 0.67;

/// One target checked.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetCheck {
    /// What is targeted.
    pub name: String,
    /// The figure measured (per second, ms, MiB or a count, as `note` says).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub figure: Option<f64>,
    /// The baseline it is divided by, when it is a ratio.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<f64>,
    /// The value compared with the target: the ratio, or the figure itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// The target, e.g. `>= 0.40`.
    pub target: String,
    /// Whether it is met; `None` when not measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub met: Option<bool>,
    /// What the figure and the baseline are, or why nothing was measured.
    pub note: String,
}

/// Which way a target's value must lie.
#[derive(Debug, Clone, Copy)]
enum Bound {
    AtLeast(f64),
    AtMost(f64),
    Below(f64),
}

impl Bound {
    fn holds(self, value: f64) -> bool {
        match self {
            Self::AtLeast(bound) => value >= bound,
            Self::AtMost(bound) => value <= bound,
            Self::Below(bound) => value < bound,
        }
    }

    fn text(self) -> String {
        match self {
            Self::AtLeast(bound) => format!(">= {bound}"),
            Self::AtMost(bound) => format!("<= {bound}"),
            Self::Below(bound) => format!("< {bound}"),
        }
    }
}

/// A ratio target: `figure / baseline` against `bound`, not measured when either is missing.
fn ratio(name: &str, figure: Option<f64>, baseline: Option<f64>, bound: Bound, note: &str) -> TargetCheck {
    let value = figure.zip(baseline).filter(|(_, base)| *base > 0.0).map(|(f, b)| f / b);
    TargetCheck {
        name: name.into(),
        figure,
        baseline,
        value,
        target: format!("{} x", bound.text()),
        met: value.map(|value| bound.holds(value)),
        note: note.into(),
    }
}

/// An absolute target: `figure` against `bound`.
fn absolute(name: &str, figure: Option<f64>, bound: Bound, unit: &str, note: &str) -> TargetCheck {
    TargetCheck {
        name: name.into(),
        figure,
        baseline: None,
        value: figure,
        target: format!("{} {unit}", bound.text()),
        met: figure.map(|figure| bound.holds(figure)),
        note: note.into(),
    }
}

/// Commits per buy rounded to [`COMMITS_RESOLUTION`].
fn to_commits_resolution(per_buy: f64) -> f64 {
    (per_buy / COMMITS_RESOLUTION).round() * COMMITS_RESOLUTION
}

/// The scenario named `name`, when it was measured.
fn measured<'a>(report: &'a RunReport, name: &str) -> Option<&'a Scenario> {
    report
        .scenarios
        .iter()
        .find(|scenario| scenario.name == name && scenario.load.is_some())
}

/// A measured scenario's per-second figure.
fn per_second(report: &RunReport, name: &str) -> Option<f64> {
    measured(report, name)
        .and_then(|scenario| scenario.load.as_ref())
        .map(|load| load.per_second)
}

/// A measured scenario's p99, milliseconds.
fn p99(report: &RunReport, name: &str) -> Option<f64> {
    measured(report, name)
        .and_then(|scenario| scenario.load.as_ref())
        .map(|load| load.p99_ms)
}

/// One of a measured scenario's own figures.
fn figure(report: &RunReport, name: &str, figure: &str) -> Option<f64> {
    measured(report, name).and_then(|scenario| scenario.figures.get(figure).copied())
}

/// Every target against `report`.
pub fn evaluate(report: &RunReport) -> Vec<TargetCheck> {
    let read_write = report.baselines.pgbench_read_write.as_ref().map(|base| base.per_second);
    let mut checks = vec![
        throughput(
            report,
            "buy vs pgbench read-write",
            "trading.buy",
            report.baselines.pgbench_read_write.as_ref(),
            Bound::AtLeast(0.4),
            "trading.buy per second over pgbench read-write tps",
        ),
        absolute(
            "commits per buy",
            figure(report, "trading.buy", "commits_per_buy").map(to_commits_resolution),
            Bound::AtMost(2.0),
            "commits",
            "trading.buy commits_per_buy",
        ),
        ratio(
            "webhook delivery vs pgbench read-write",
            per_second(report, AT_RATE),
            read_write,
            Bound::AtLeast(0.45),
            "webhooks.at_rate deliveries made per second while offered at a share of pgbench read-write's tps, \
             over that tps",
        ),
        lag(report, AT_RATE, "webhook lag p99 at that rate"),
        backlog(report, AT_RATE, "webhook backlog bounded at that rate"),
        lag(report, ONE_ENDPOINT, "webhook lag p99, one endpoint"),
        backlog(report, ONE_ENDPOINT, "webhook backlog bounded, one endpoint"),
        ratio(
            "healthy endpoints' lag p99 with a slow endpoint",
            p99(report, "webhooks.fanout_with_slow"),
            p99(report, "webhooks.fanout"),
            Bound::AtMost(FLAT_LATENCY_GROWTH),
            "the healthy endpoints' lag p99 with the slow endpoint over without it (1.5 x: unchanged within noise)",
        ),
        throughput(
            report,
            "trades first page vs its SQL in pgbench",
            "reads.first_page",
            report.baselines.pgbench_trades_first_page.as_ref(),
            Bound::AtLeast(0.6),
            "reads.first_page per second over pgbench running the page's SQL",
        ),
        throughput(
            report,
            "trades deep page vs its SQL in pgbench",
            "reads.deep_page",
            report.baselines.pgbench_trades_deep_page.as_ref(),
            Bound::AtLeast(0.6),
            "reads.deep_page per second over pgbench running the deep page's SQL",
        ),
        ratio(
            "replay vs reads",
            per_second(report, "trading.replay"),
            per_second(report, "reads.first_page"),
            Bound::AtLeast(0.8),
            "trading.replay per second over reads.first_page per second",
        ),
        two_instances(report),
    ];
    checks.push(memory(report));
    checks
}

/// The webhook lag of `scenario`, from the business commit to arrival, stays under half a
/// second at p99.
fn lag(report: &RunReport, scenario: &str, name: &str) -> TargetCheck {
    absolute(
        name,
        p99(report, scenario),
        Bound::Below(500.0),
        "ms",
        &format!("{scenario} lag from the business commit to arrival, p99"),
    )
}

/// The webhook backlog of `scenario` stays bounded: its largest value during the buys is
/// at most what half a second of production is (the lag target, by Little's law).
fn backlog(report: &RunReport, scenario: &str, name: &str) -> TargetCheck {
    let max = figure(report, scenario, "backlog_max");
    let produced = figure(report, scenario, "produced_per_second");
    let allowed = produced.map(|produced| produced * 0.5);
    let mut check = ratio(
        name,
        max,
        allowed,
        Bound::AtMost(1.0),
        &format!(
            "{scenario} backlog_max (deliveries produced, not yet made, sampled every 250 ms) over half a second of \
             production"
        ),
    );
    if let Some(last) = figure(report, scenario, "backlog_last") {
        check
            .note
            .push_str(&format!("; backlog at the end of the buys: {last:.0}"));
    }
    check
}

/// A throughput target: `scenario`'s requests a second over its pgbench `baseline`'s
/// transactions, its note saying what each party spent on a request against a transaction
/// of the baseline, and the ratio the run's cores would allow if the service cost nothing:
/// whether a change to the service alone can meet it.
fn throughput(
    report: &RunReport,
    name: &str,
    scenario: &str,
    baseline: Option<&PgbenchReport>,
    bound: Bound,
    note: &str,
) -> TargetCheck {
    let mut check = ratio(
        name,
        per_second(report, scenario),
        baseline.map(|base| base.per_second),
        bound,
        note,
    );
    let Some(cpu) = measured(report, scenario).and_then(|scenario| scenario.load.as_ref()?.cpu) else {
        return check;
    };
    check.note.push_str(&format!(
        "; CPU a request: the service {:.3} ms, the database {:.3} ms, the load {:.3} ms, other {:.3} ms, \
         the machine {:.0}% idle",
        cpu.service_ms,
        cpu.database_ms,
        cpu.load_ms,
        cpu.other_ms,
        cpu.idle_share * 100.0
    ));
    let Some(baseline) = baseline else { return check };
    if let Some(base) = baseline.cpu {
        check.note.push_str(&format!(
            "; a pgbench transaction: the database {:.3} ms, pgbench {:.3} ms",
            base.database_ms, base.load_ms
        ));
    }
    if let Some(ceiling) = cpu.ceiling_without_service(report.cpus) {
        check.note.push_str(&format!(
            "; with a service that cost nothing, these cores would allow at most {:.2} x",
            ceiling / baseline.per_second
        ));
    }
    check
}

/// Two instances: 1.6 x one, unless the database's commit rate is at pgbench read-write's.
/// Its note also says how idle the machine was: whether its cores were the limit.
fn two_instances(report: &RunReport) -> TargetCheck {
    let mut check = ratio(
        "two instances vs one, buys",
        per_second(report, "trading.buy_two_instances"),
        per_second(report, "trading.buy"),
        Bound::AtLeast(1.6),
        "trading.buy_two_instances per second over trading.buy",
    );
    let commits = figure(report, "trading.buy_two_instances", "commits_per_second");
    let limit = report.baselines.pgbench_read_write.as_ref().map(|base| base.per_second);
    if let (Some(false), Some(commits), Some(limit)) = (check.met, commits, limit) {
        let saturated = commits >= limit;
        check.note.push_str(&format!(
            "; the database commits {commits:.0}/s against pgbench read-write's {limit:.0} tps: {}",
            if saturated {
                "its commit limit is reached"
            } else {
                "not saturated"
            }
        ));
        if saturated {
            check.met = Some(true);
        }
    }
    if let Some(cpu) = measured(report, "trading.buy_two_instances").and_then(|scenario| scenario.load.as_ref()?.cpu) {
        check.note.push_str(&format!(
            "; the machine {:.0}% idle, CPU a buy: the instances {:.3} ms, the database {:.3} ms",
            cpu.idle_share * 100.0,
            cpu.service_ms,
            cpu.database_ms
        ));
    }
    check
}

/// The service's peak RSS in the worst scenario.
fn memory(report: &RunReport) -> TargetCheck {
    let worst = report
        .scenarios
        .iter()
        .filter_map(|scenario| scenario.peak_rss_kib.map(|kib| (scenario, kib as f64 / 1024.0)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let over: Vec<String> = report
        .scenarios
        .iter()
        .filter_map(|scenario| {
            let mib = scenario.peak_rss_kib? as f64 / 1024.0;
            (mib > RSS_LIMIT_MIB).then(|| format!("{} {mib:.1}", scenario.name))
        })
        .collect();
    let note = match (worst, over.is_empty()) {
        (Some((scenario, _)), true) => format!("the service's peak RSS, largest in {}", scenario.name),
        (Some(_), false) => format!("the service's peak RSS; over in: {}", over.join(", ")),
        (None, _) => "no scenario was measured".into(),
    };
    absolute(
        "peak RSS in every scenario",
        worst.map(|(_, mib)| mib),
        Bound::AtMost(RSS_LIMIT_MIB),
        "MiB",
        &note,
    )
}

/// One point of a growth curve.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CurvePoint {
    /// Where on the axis (trades seeded, operators active, endpoints).
    pub at: f64,
    /// The figure there.
    pub value: f64,
    /// The scenario it comes from.
    pub scenario: String,
}

/// A figure as the data or the load grows.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrowthCurve {
    /// What grows and what is plotted.
    pub name: String,
    /// The points, in growing order; fewer than two when the run skipped a point.
    pub points: Vec<CurvePoint>,
    /// The last point over the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<f64>,
    /// Whether the curve is flat (`None` with fewer than two points).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flat: Option<bool>,
}

/// Which figure of a scenario a curve plots.
#[derive(Clone, Copy)]
enum Plotted {
    P99,
    PerSecond,
}

/// Whether a scenario's name is `pattern`, or starts with it when it ends with `*`.
fn named(name: &str, pattern: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == pattern,
    }
}

/// A curve over the scenarios named by `patterns` (each with its axis value in the figure
/// `axis`).
fn curve(report: &RunReport, name: &str, patterns: &[&str], axis: &str, plotted: Plotted) -> GrowthCurve {
    let mut points: Vec<CurvePoint> = report
        .scenarios
        .iter()
        .filter(|scenario| patterns.iter().any(|pattern| named(&scenario.name, pattern)))
        .filter_map(|scenario| {
            let at = *scenario.figures.get(axis)?;
            let load = scenario.load.as_ref()?;
            let value = match plotted {
                Plotted::P99 => load.p99_ms,
                Plotted::PerSecond => load.per_second,
            };
            Some(CurvePoint {
                at,
                value,
                scenario: scenario.name.clone(),
            })
        })
        .collect();
    points.sort_by(|a, b| a.at.total_cmp(&b.at));
    let change = match (points.first(), points.last()) {
        (Some(first), Some(last)) if points.len() > 1 && first.value > 0.0 => Some(last.value / first.value),
        _ => None,
    };
    let flat = change.map(|change| match plotted {
        Plotted::P99 => change <= FLAT_LATENCY_GROWTH,
        Plotted::PerSecond => change >= FLAT_THROUGHPUT_SHARE,
    });
    GrowthCurve {
        name: name.into(),
        points,
        change,
        flat,
    }
}

/// Every growth curve of `report`.
pub fn curves(report: &RunReport) -> Vec<GrowthCurve> {
    vec![
        curve(
            report,
            "reads.first_page p99 ms by trades seeded",
            &["reads.first_page", "growth.reads.first_page"],
            "trades_seeded",
            Plotted::P99,
        ),
        curve(
            report,
            "reads.deep_page p99 ms by trades seeded",
            &["reads.deep_page", "growth.reads.deep_page"],
            "trades_seeded",
            Plotted::P99,
        ),
        curve(
            report,
            "buys per second by operators active",
            &["trading.buy", "growth.buys.operators_*"],
            "operators_active",
            Plotted::PerSecond,
        ),
        curve(
            report,
            "webhook deliveries per second by endpoints",
            &["webhooks", "growth.webhooks.endpoints"],
            "endpoints",
            Plotted::PerSecond,
        ),
        curve(
            report,
            "webhook lag p99 ms by endpoints",
            &["webhooks", "growth.webhooks.endpoints"],
            "endpoints",
            Plotted::P99,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::{curves, evaluate};
    use crate::cpu::CpuPerRequest;
    use crate::load::LoadReport;
    use crate::pgbench::PgbenchReport;
    use crate::report::{Baselines, RunReport, Scenario};

    fn load(per_second: f64, p99_ms: f64) -> LoadReport {
        LoadReport {
            ok: 1,
            errors: 0,
            first_error: None,
            seconds: 1.0,
            per_second,
            p50_ms: p99_ms / 2.0,
            p99_ms,
            max_ms: p99_ms,
            cpu: None,
        }
    }

    fn cpu(service_ms: f64, database_ms: f64, load_ms: f64, other_ms: f64, idle_share: f64) -> CpuPerRequest {
        CpuPerRequest {
            service_ms,
            database_ms,
            load_ms,
            other_ms,
            idle_share,
        }
    }

    fn report(scenarios: Vec<Scenario>) -> RunReport {
        RunReport::of(
            scenarios,
            Baselines {
                pgbench_read_write: Some(PgbenchReport {
                    per_second: 1000.0,
                    mean_ms: 1.0,
                    cpu: Some(cpu(0.0, 0.3, 0.1, 0.0, 0.05)),
                }),
                ..Baselines::default()
            },
        )
    }

    fn check(report: &RunReport, name: &str) -> (Option<f64>, Option<bool>, String) {
        let check = evaluate(report)
            .into_iter()
            .find(|check| check.name == name)
            .expect("the target is checked");
        (check.value, check.met, check.note)
    }

    #[test]
    fn a_ratio_target_is_met_at_its_bound_and_not_below() {
        let at = report(vec![Scenario::measured(
            "trading.buy",
            "",
            load(400.0, 1.0),
            1024,
            None,
        )]);
        assert_eq!(check(&at, "buy vs pgbench read-write").1, Some(true));
        let below = report(vec![Scenario::measured(
            "trading.buy",
            "",
            load(399.0, 1.0),
            1024,
            None,
        )]);
        assert_eq!(check(&below, "buy vs pgbench read-write").1, Some(false));
    }

    #[test]
    fn commits_per_buy_are_judged_as_reported_to_the_hundredth() {
        let probe = |per_buy: f64| {
            report(vec![
                Scenario::measured("trading.buy", "", load(1.0, 1.0), 1024, None)
                    .with_figure("commits_per_buy", per_buy),
            ])
        };
        assert_eq!(check(&probe(2.001), "commits per buy").1, Some(true));
        assert_eq!(check(&probe(1.97), "commits per buy").1, Some(true));
        let (value, met, _) = check(&probe(2.006), "commits per buy");
        assert_eq!(met, Some(false));
        assert!(value.is_some_and(|value| (value - 2.01).abs() < 1e-9), "{value:?}");
        assert_eq!(check(&probe(3.0), "commits per buy").1, Some(false));
    }

    #[test]
    fn webhook_delivery_is_judged_on_the_paced_scenario_with_its_own_lag_and_backlog() {
        let run = |delivered: f64, p99: f64, backlog_max: f64| {
            report(vec![
                Scenario::measured("webhooks", "", load(100.0, 50.0), 1024, None)
                    .with_figure("produced_per_second", 100.0)
                    .with_figure("backlog_max", 5.0)
                    .with_figure("backlog_last", 1.0),
                Scenario::measured("webhooks.at_rate", "", load(delivered, p99), 1024, None)
                    .with_figure("produced_per_second", 500.0)
                    .with_figure("backlog_max", backlog_max)
                    .with_figure("backlog_last", 3.0),
            ])
        };
        let kept_up = run(480.0, 120.0, 40.0);
        assert_eq!(check(&kept_up, "webhook delivery vs pgbench read-write").0, Some(0.48));
        assert_eq!(check(&kept_up, "webhook delivery vs pgbench read-write").1, Some(true));
        assert_eq!(check(&kept_up, "webhook lag p99 at that rate").1, Some(true));
        let (value, met, note) = check(&kept_up, "webhook backlog bounded at that rate");
        assert_eq!((value, met), (Some(0.16), Some(true)));
        assert!(note.starts_with("webhooks.at_rate backlog_max"), "{note}");
        assert!(note.ends_with("backlog at the end of the buys: 3"), "{note}");
        assert_eq!(check(&kept_up, "webhook lag p99, one endpoint").0, Some(50.0));
        assert_eq!(check(&kept_up, "webhook backlog bounded, one endpoint").0, Some(0.1));

        let fell_behind = run(440.0, 900.0, 600.0);
        assert_eq!(
            check(&fell_behind, "webhook delivery vs pgbench read-write").1,
            Some(false)
        );
        assert_eq!(check(&fell_behind, "webhook lag p99 at that rate").1, Some(false));
        assert_eq!(
            check(&fell_behind, "webhook backlog bounded at that rate").1,
            Some(false)
        );
    }

    #[test]
    fn a_target_without_its_scenario_is_not_measured() {
        let (value, met, _) = check(&report(Vec::new()), "replay vs reads");
        assert_eq!((value, met), (None, None));
    }

    #[test]
    fn two_instances_short_of_the_ratio_meet_the_target_only_at_the_commit_limit() {
        let two = |commits: f64| {
            report(vec![
                Scenario::measured("trading.buy", "", load(100.0, 1.0), 1024, None),
                Scenario::measured("trading.buy_two_instances", "", load(120.0, 1.0), 1024, None)
                    .with_figure("commits_per_second", commits),
            ])
        };
        let (_, met, note) = check(&two(1000.0), "two instances vs one, buys");
        assert_eq!(met, Some(true), "{note}");
        assert!(note.contains("commit limit is reached"), "{note}");
        let (_, met, note) = check(&two(999.0), "two instances vs one, buys");
        assert_eq!(met, Some(false), "{note}");
        assert!(note.contains("not saturated"), "{note}");
    }

    #[test]
    fn a_throughput_target_says_what_each_party_spent_and_what_a_free_service_would_reach() {
        let mut buys = load(150.0, 1.0);
        buys.cpu = Some(cpu(1.0, 2.0, 0.5, 0.25, 0.04));
        let run = report(vec![Scenario::measured("trading.buy", "", buys, 1024, None)]);
        let (_, met, note) = check(&run, "buy vs pgbench read-write");
        assert_eq!(met, Some(false));
        assert!(
            note.ends_with(
                "; CPU a request: the service 1.000 ms, the database 2.000 ms, the load 0.500 ms, other 0.250 ms, \
                 the machine 4% idle; a pgbench transaction: the database 0.300 ms, pgbench 0.100 ms; with a \
                 service that cost nothing, these cores would allow at most 0.80 x"
            ),
            "{note}"
        );
        let unwatched = report(vec![Scenario::measured(
            "trading.buy",
            "",
            load(150.0, 1.0),
            1024,
            None,
        )]);
        let (_, _, note) = check(&unwatched, "buy vs pgbench read-write");
        assert_eq!(note, "trading.buy per second over pgbench read-write tps");
    }

    #[test]
    fn two_instances_short_of_the_ratio_say_how_idle_the_machine_was() {
        let mut two = load(120.0, 1.0);
        two.cpu = Some(cpu(1.5, 2.0, 0.2, 0.0, 0.03));
        let run = report(vec![
            Scenario::measured("trading.buy", "", load(100.0, 1.0), 1024, None),
            Scenario::measured("trading.buy_two_instances", "", two, 1024, None)
                .with_figure("commits_per_second", 240.0),
        ]);
        let (_, met, note) = check(&run, "two instances vs one, buys");
        assert_eq!(met, Some(false));
        assert!(
            note.ends_with(
                "not saturated; the machine 3% idle, CPU a buy: the instances 1.500 ms, the database 2.000 ms"
            ),
            "{note}"
        );
    }

    #[test]
    fn the_memory_target_names_every_scenario_over_it() {
        let run = report(vec![
            Scenario::measured("reads.first_page", "", load(1.0, 1.0), 20 * 1024, None),
            Scenario::measured("flight.live_fanout", "", load(1.0, 1.0), 112 * 1024, None),
        ]);
        let (value, met, note) = check(&run, "peak RSS in every scenario");
        assert_eq!((value, met), (Some(112.0), Some(false)));
        assert!(note.contains("flight.live_fanout 112.0"), "{note}");
        assert!(!note.contains("reads.first_page"), "{note}");
    }

    #[test]
    fn a_curve_is_flagged_when_its_latency_grows_past_half_again() {
        let run = |p99: f64| {
            report(vec![
                Scenario::measured("reads.first_page", "", load(1.0, 10.0), 1024, None)
                    .with_figure("trades_seeded", 1e6),
                Scenario::measured("growth.reads.first_page", "", load(1.0, p99), 1024, None)
                    .with_figure("trades_seeded", 1e7),
            ])
        };
        let flat = |run: &RunReport| curves(run)[0].flat;
        assert_eq!(flat(&run(15.0)), Some(true));
        assert_eq!(flat(&run(15.1)), Some(false));
        assert_eq!(curves(&report(Vec::new()))[0].flat, None);
    }
}
