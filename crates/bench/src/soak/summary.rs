//! The run's summary: what ran, the counts of both reconciliations, each instance's
//! memory, and every failure; printed as Markdown (the form `docs/reliability.md` keeps).

use std::fmt::Write;

use crate::Drained;
use crate::deployment::Life;
use crate::load::LoadCounts;
use crate::memory::Verdict;
use crate::reconcile::{EventFindings, MoneyFindings};
use crate::settings::Settings;
use crate::wallet::AppliedMutations;

/// At most this many failures are printed of each kind of finding.
const FAILURES_SHOWN: usize = 30;

/// Everything the run found.
pub struct Summary {
    /// What it was asked to do.
    pub settings: Settings,
    /// How long load ran, seconds.
    pub load_seconds: f64,
    /// Kills of the second instance.
    pub kills: u32,
    /// What was left after the drain.
    pub drained: Drained,
    /// What the load did.
    pub load: LoadCounts,
    /// What the wallet's ledger holds.
    pub ledger: AppliedMutations,
    /// The money reconciliation.
    pub money: MoneyFindings,
    /// The event reconciliation.
    pub events: EventFindings,
    /// Each instance's lives.
    pub lives: Vec<Life>,
    /// The memory verdicts, one per life.
    pub memory: Vec<Verdict>,
}

impl Summary {
    /// Whether anything was lost, doubled, stuck or grew.
    pub fn failed(&self) -> bool {
        !self.money.failures.is_empty()
            || !self.events.failures.is_empty()
            || self.memory.iter().any(|verdict| verdict.grew)
    }

    /// The summary as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "## Soak summary\n");
        let _ = writeln!(out, "Settings:\n\n```\n{}\n```\n", self.settings.describe());
        let _ = writeln!(
            out,
            "Load ran {:.0} s; the second instance was killed {} times; the drain took {:.0} s and left {} wallet operations in flight, {} owed and waiting for their next send, {} deliveries pending.\n",
            self.load_seconds,
            self.kills,
            self.drained.seconds,
            self.drained.wallet_in_flight,
            self.drained.wallet_owed,
            self.drained.deliveries_pending
        );
        let _ = writeln!(out, "### Load\n\n| outcome | count |\n|---|---|");
        let _ = writeln!(out, "| sessions opened | {} |", self.load.sessions);
        for (outcome, count) in &self.load.orders {
            let _ = writeln!(out, "| order {outcome} | {count} |");
        }
        let _ = writeln!(
            out,
            "| players renewed (every market blocked by manual review) | {} |",
            self.load.renewed_players
        );
        let _ = writeln!(out, "| requests resent after no answer | {} |", self.load.resent);
        let _ = writeln!(out, "| requests no instance answered | {} |\n", self.load.unanswered);

        let _ = writeln!(out, "### Money: the wallet's ledger against the operator API\n");
        let _ = writeln!(out, "| figure | count |\n|---|---|");
        let _ = writeln!(
            out,
            "| mutation requests the wallet received | {} |",
            self.ledger.requests
        );
        let _ = writeln!(out, "| of which carried a fault | {} |", self.ledger.faulted);
        let _ = writeln!(out, "| keys the wallet applied | {} |", self.money.wallet_applied);
        for (operation, count) in &self.money.operations {
            let _ = writeln!(out, "| balance operations {operation} | {count} |");
        }
        for (trade, count) in &self.money.trades {
            let _ = writeln!(out, "| trades {trade} | {count} |");
        }
        let _ = writeln!(
            out,
            "| in manual review, applied by the wallet | {} |",
            self.money.review_applied
        );
        let _ = writeln!(
            out,
            "| in manual review, not applied by the wallet | {} |",
            self.money.review_not_applied
        );
        let _ = writeln!(
            out,
            "| failures (lost, doubled, phantom, mismatched, stuck) | {} |\n",
            self.money.failures.len()
        );

        let _ = writeln!(out, "### Events: the outbox against the receivers\n");
        let _ = writeln!(out, "| figure | count |\n|---|---|");
        let _ = writeln!(out, "| events in the outbox | {} |", self.events.events);
        let _ = writeln!(
            out,
            "| deliveries expected (event × subscribed endpoint) | {} |",
            self.events.expected
        );
        let _ = writeln!(
            out,
            "| of which accepted by their receiver | {} |",
            self.events.received
        );
        let _ = writeln!(
            out,
            "| duplicates accepted (at least once allows them) | {} |",
            self.events.duplicates
        );
        let _ = writeln!(
            out,
            "| attempts the receivers refused on purpose | {} |",
            self.events.refused
        );
        for (status, count) in &self.events.deliveries {
            let _ = writeln!(out, "| deliveries {status} | {count} |");
        }
        let _ = writeln!(
            out,
            "| failures (lost, bad signatures) | {} |\n",
            self.events.failures.len()
        );

        let _ = writeln!(out, "### Memory (RSS, MiB)\n");
        let _ = writeln!(
            out,
            "| instance | life | seconds | ended by | start | warm | peak | end | allowed | verdict |\n|---|---|---|---|---|---|---|---|---|---|"
        );
        let mib = |kib: u64| format!("{:.1}", kib as f64 / 1024.0);
        let maybe = |kib: Option<u64>| kib.map_or_else(|| "–".to_owned(), mib);
        for (life, verdict) in self.lives.iter().zip(&self.memory) {
            let judged = match (verdict.grew, verdict.allowed_kib) {
                (true, _) => "GREW",
                (false, Some(_)) => "flat",
                (false, None) => "too short to judge",
            };
            let _ = writeln!(
                out,
                "| {} | {} | {:.0} | {} | {} | {} | {} | {} | {} | {judged} |",
                life.instance,
                life.number,
                life.seconds(),
                if life.killed { "SIGKILL" } else { "end of run" },
                mib(life.start_kib()),
                maybe(verdict.warm_kib),
                mib(life.peak_kib()),
                mib(life.end_kib()),
                maybe(verdict.allowed_kib),
            );
        }
        for (kind, failures) in [("money", &self.money.failures), ("events", &self.events.failures)] {
            if failures.is_empty() {
                continue;
            }
            let _ = writeln!(out, "\n### Failures: {kind} ({})\n", failures.len());
            for failure in failures.iter().take(FAILURES_SHOWN) {
                let _ = writeln!(out, "- {failure}");
            }
            if failures.len() > FAILURES_SHOWN {
                let _ = writeln!(out, "- … and {} more", failures.len() - FAILURES_SHOWN);
            }
        }
        out
    }
}
