//! Validation of the operator's list filters: each refusal names the query parameter
//! as the client wrote it, so the answer is a 400 that says which one is wrong.

use opinion_core::{ExternalUserId, Id, IdKind};
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

use crate::error::AppError;
use crate::opinion::reads::ports::TimeRange;

/// A player's operator id as a filter or path value, by the domain's rule.
pub(crate) fn external_user_id(field: &'static str, text: &str) -> Result<String, AppError> {
    ExternalUserId::parse(text)
        .map(ExternalUserId::into_string)
        .map_err(|problem| AppError::invalid(field, problem))
}

/// An optional player filter.
pub(crate) fn optional_external_user_id(text: Option<&str>) -> Result<Option<String>, AppError> {
    text.map(|text| external_user_id("externalUserId", text)).transpose()
}

/// A prefixed id of the expected kind.
pub(crate) fn id<K: IdKind>(field: &'static str, text: &str) -> Result<Id<K>, AppError> {
    text.parse().map_err(|problem| AppError::invalid(field, problem))
}

/// An optional prefixed id.
pub(crate) fn optional_id<K: IdKind>(field: &'static str, text: Option<&str>) -> Result<Option<Id<K>>, AppError> {
    text.map(|text| id(field, text)).transpose()
}

/// One of a closed set of names (`all`, named by `name`).
pub(crate) fn one_of<T: Copy>(
    field: &'static str,
    text: Option<&str>,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<Option<T>, AppError> {
    let Some(text) = text else {
        return Ok(None);
    };
    all.iter()
        .copied()
        .find(|value| name(*value) == text)
        .map(Some)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|value| name(*value)).collect();
            AppError::invalid(field, format!("must be one of {}", names.join(", ")))
        })
}

/// `[from, to)` from RFC 3339 times; `from` must be before `to`.
pub(crate) fn time_range(from: Option<&str>, to: Option<&str>) -> Result<TimeRange, AppError> {
    let range = TimeRange {
        from: from.map(|text| instant("from", text)).transpose()?,
        to: to.map(|text| instant("to", text)).transpose()?,
    };
    if let (Some(from), Some(to)) = (range.from, range.to)
        && from >= to
    {
        return Err(AppError::invalid("to", "must be later than `from`"));
    }
    Ok(range)
}

fn instant(field: &'static str, text: &str) -> Result<OffsetDateTime, AppError> {
    OffsetDateTime::parse(text, &Rfc3339)
        .map(|at| at.to_offset(UtcOffset::UTC))
        .map_err(|_| AppError::invalid(field, "must be an RFC 3339 time such as 2026-11-22T10:00:00Z"))
}

#[cfg(test)]
mod tests {
    use opinion_core::{MarketId, TradeId};
    use opinion_market::Side;
    use time::macros::datetime;

    use super::*;

    fn field_of(error: AppError) -> &'static str {
        match error {
            AppError::Invalid { field, .. } => field,
            other => panic!("not a validation error: {other:?}"),
        }
    }

    #[test]
    fn time_ranges_are_rfc3339_in_utc_and_ordered() {
        let range = time_range(Some("2026-11-22T12:00:00+02:00"), Some("2026-11-23T00:00:00Z")).expect("valid");
        assert_eq!(range.from, Some(datetime!(2026-11-22 10:00 UTC)));
        assert_eq!(range.from.map(|at| at.offset()), Some(UtcOffset::UTC));
        assert_eq!(time_range(None, None).expect("open"), TimeRange::default());
        assert_eq!(field_of(time_range(Some("yesterday"), None).unwrap_err()), "from");
        assert_eq!(field_of(time_range(None, Some("2026-11-22")).unwrap_err()), "to");
        let same = "2026-11-22T10:00:00Z";
        assert_eq!(field_of(time_range(Some(same), Some(same)).unwrap_err()), "to");
    }

    #[test]
    fn names_must_be_known_and_the_refusal_lists_them() {
        let side = one_of("side", Some("sell"), &[Side::Buy, Side::Sell], Side::as_str);
        assert_eq!(side.expect("valid"), Some(Side::Sell));
        assert_eq!(one_of("side", None, &[Side::Buy], Side::as_str).expect("absent"), None);
        match one_of("side", Some("SELL"), &[Side::Buy, Side::Sell], Side::as_str) {
            Err(AppError::Invalid { field, message }) => {
                assert_eq!(field, "side");
                assert!(message.contains("buy, sell"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ids_and_external_ids_are_checked() {
        let market = MarketId::from_u128(5);
        assert_eq!(
            optional_id("marketId", Some(&market.to_string())).expect("valid"),
            Some(market)
        );
        let trade = TradeId::from_u128(5).to_string();
        assert_eq!(
            field_of(optional_id::<opinion_core::MarketKind>("marketId", Some(&trade)).unwrap_err()),
            "marketId"
        );
        assert_eq!(
            optional_external_user_id(Some("p-1")).expect("valid").as_deref(),
            Some("p-1")
        );
        assert_eq!(
            field_of(optional_external_user_id(Some("")).unwrap_err()),
            "externalUserId"
        );
        let long = "x".repeat(ExternalUserId::MAX_CHARS + 1);
        assert_eq!(
            field_of(external_user_id("externalUserId", &long).unwrap_err()),
            "externalUserId"
        );
        assert!(external_user_id("externalUserId", &"é".repeat(ExternalUserId::MAX_CHARS)).is_ok());
    }
}
