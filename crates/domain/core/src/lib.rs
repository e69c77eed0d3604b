//! Shared domain vocabulary of the Opinion platform: typed prefixed identifiers,
//! opaque keyset cursors and page sizes. Pure: no I/O, no clock, no randomness.

#![warn(missing_docs)]

mod cursor;
mod external_user_id;
mod id;
mod label;
mod page;
mod wire_enum;

pub use cursor::{Cursor, CursorError};
pub use external_user_id::{ExternalUserId, ExternalUserIdError};
pub use id::{ApiKeyId, MarketId, OperatorId, RedemptionId, StaffId, StaffSessionId, TradeId, WalletOperationId};
pub use id::{ApiKeyKind, Id, IdKind, OperatorKind, ParseIdError, StaffKind, StaffSessionKind};
pub use id::{EventId, EventKind, WebhookDeliveryId, WebhookDeliveryKind, WebhookEndpointId, WebhookEndpointKind};
pub use id::{
    FlightChainId, FlightChainKind, FlightId, FlightKind, FlightTermsId, FlightTermsKind, TicketId, TicketKind,
};
pub use id::{LaunchId, LaunchKind, PlayerSessionId, PlayerSessionKind, UserId, UserKind};
pub use id::{MarketKind, RedemptionKind, TradeKind, WalletOperationKind};
pub use id::{ProductionAuthorizationId, ProductionAuthorizationKind};
pub use id::{
    SettlementPaymentId, SettlementPaymentKind, SettlementReportId, SettlementReportKind, StatementCorrectionId,
    StatementCorrectionKind,
};
pub use id::{SimulatorLogId, SimulatorLogKind, SimulatorUserId, SimulatorUserKind};
pub use id::{WalletTestRunId, WalletTestRunKind};
pub use label::{Label, LabelError};
pub use page::{Page, PageLimit, PageLimitError, PageRequest};
pub use wire_enum::UnknownName;
