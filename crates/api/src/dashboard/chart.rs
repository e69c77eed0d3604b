//! The dashboard's charts, drawn on the server as inline SVG (classes only, so the
//! policy's `style-src 'self'` holds): the overview's volume chart, one bar per UTC day,
//! each with its figures as a tooltip, the first, middle and last days labelled; and the
//! flight overview's money bars, one labelled horizontal bar per figure.

use maud::{Markup, html};
use opinion_app::opinion::reads::ports::DailyTrading;
use opinion_wallet::Currency;

use crate::dashboard::format::amount;

const WIDTH: i64 = 700;
const HEIGHT: i64 = 180;
const BOTTOM: i64 = 24;
const TOP: i64 = 8;

/// Bars of each day's volume, tallest at the chart's height.
pub fn volume_chart(days: &[DailyTrading], currency: Currency) -> Markup {
    let count = i64::try_from(days.len()).unwrap_or(1).max(1);
    let slot = WIDTH / count;
    let bar = (slot * 7 / 10).max(2);
    let tallest = days.iter().map(|d| d.volume.max(0)).max().unwrap_or(0).max(1);
    let plot = HEIGHT - BOTTOM - TOP;
    let labelled = |index: usize| index == 0 || index + 1 == days.len() || index == days.len() / 2;
    html! {
        svg.chart viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) role="img"
            aria-label=(format!("Executed volume per day over the last {} days", days.len())) {
            line.axis x1="0" y1=(HEIGHT - BOTTOM) x2=(WIDTH) y2=(HEIGHT - BOTTOM) {}
            @for (index, day) in days.iter().enumerate() {
                @let position = i64::try_from(index).unwrap_or(0);
                @let height = if day.volume > 0 { (day.volume.max(0) * plot / tallest).max(2) } else { 0 };
                @let x = position * slot + (slot - bar) / 2;
                rect.bar x=(x) y=(HEIGHT - BOTTOM - height) width=(bar) height=(height) {
                    title { (day.day) ": " (amount(day.volume, currency)) ", " (day.trades) " trades, " (day.players) " players" }
                }
                @if labelled(index) {
                    @let (anchor, at) = if index == 0 {
                        ("start", x)
                    } else if index + 1 == days.len() {
                        ("end", x + bar)
                    } else {
                        ("middle", x + bar / 2)
                    };
                    text x=(at) y=(HEIGHT - 6) text-anchor=(anchor) { (day.day) }
                }
            }
        }
    }
}

/// Height of one bar of `money_bars`, and the room under it.
const ROW: i64 = 34;
/// Where `money_bars`' bars start (their labels are left of it).
const LABEL: i64 = 90;

/// One horizontal bar per `(label, amount)`, the largest amount at full width; a negative
/// amount drawn in the warning colour, every bar with its amount written beside it.
pub fn money_bars(bars: &[(&str, i64)], currency: Currency, description: &str) -> Markup {
    let rows = i64::try_from(bars.len()).unwrap_or(0);
    let height = rows * ROW + 4;
    let widest = bars
        .iter()
        .map(|(_, value)| value.saturating_abs())
        .max()
        .unwrap_or(0)
        .max(1);
    let room = WIDTH - LABEL - 160;
    html! {
        svg.chart viewBox=(format!("0 0 {WIDTH} {height}")) role="img" aria-label=(description) {
            @for (index, (label, value)) in bars.iter().enumerate() {
                @let y = i64::try_from(index).unwrap_or(0) * ROW + 4;
                @let width = if *value == 0 { 0 } else { (value.saturating_abs() * room / widest).max(2) };
                text x="0" y=(y + 18) { (label) }
                rect class=(if *value < 0 { "bar negative" } else { "bar" }) x=(LABEL) y=(y + 4) width=(width) height=(ROW - 12) {
                    title { (label) ": " (amount(*value, currency)) }
                }
                text x=(LABEL + width + 8) y=(y + 18) { (amount(*value, currency)) }
            }
        }
    }
}
