//! How a store port fails, in the use cases' terms. Uniqueness and compare-and-set
//! outcomes are enums, so a use case matches on what was refused, never on a string,
//! and translates it into the caller's terms itself.

use opinion_access::OperatorCap;
use std::fmt;

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique constraint refused the write.
    #[error("duplicate {0}")]
    Duplicate(UniqueKey),
    /// A compare-and-set precondition no longer held (someone changed the row first).
    /// Nothing was written: read again and retry.
    #[error("{0} changed concurrently")]
    Conflict(ChangedRecord),
    /// The database could not be reached or failed; the message is for logs only.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// A time limit passed: the statement was cancelled (nothing of it was written), the
    /// session ended, or no connection was free in time.
    #[error("store timed out: {0}")]
    TimedOut(TimeLimit),
    /// The operator already holds as many of these as it may; nothing was written.
    #[error("{0}")]
    CapReached(OperatorCap),
}

/// Which time limit of the store passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeLimit {
    /// A statement ran longer than `statement_timeout`.
    Statement,
    /// A statement waited for a lock longer than `lock_timeout`.
    Lock,
    /// A transaction sat open, idle, past `idle_in_transaction_session_timeout`, and the
    /// database ended its session.
    IdleInTransaction,
    /// No pooled connection was free within the pool's wait.
    PoolAcquire,
}

impl TimeLimit {
    /// The limit in words, for logs.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Statement => "the statement time limit",
            Self::Lock => "the lock wait limit",
            Self::IdleInTransaction => "the idle-in-transaction limit",
            Self::PoolAcquire => "the wait for a pooled connection",
        }
    }
}

impl fmt::Display for TimeLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// What a unique constraint protects, as a refused write names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UniqueKey {
    /// A staff e-mail, unique per operator.
    StaffEmail,
    /// The hash of an API key secret.
    ApiKeyHash,
    /// An operator id.
    OperatorId,
    /// An API key id.
    ApiKeyId,
    /// A launch host, which serves one operator only.
    LaunchHost,
    /// A staff member id.
    StaffId,
    /// A staff session id.
    StaffSessionId,
    /// A player's client order id.
    ClientOrder,
    /// A player's client ticket id.
    ClientTicket,
    /// The one open trade a player may have on a market.
    OpenTrade,
    /// A wallet operation's idempotency key.
    IdempotencyKey,
    /// The one wallet adapter of an operator.
    WalletAdapter,
    /// A simulated user's external user id.
    SimulatedUser,
    /// A settlement payment's bank or transfer reference, unique per operator.
    PaymentReference,
    /// A constraint the store does not name.
    Other,
}

impl UniqueKey {
    /// The protected thing in words, for a refusal's detail.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::StaffEmail => "staff e-mail",
            Self::ApiKeyHash => "API key secret",
            Self::OperatorId => "operator id",
            Self::ApiKeyId => "API key id",
            Self::LaunchHost => "launch host",
            Self::StaffId => "staff member id",
            Self::StaffSessionId => "staff session id",
            Self::ClientOrder => "client order id",
            Self::ClientTicket => "client ticket id",
            Self::OpenTrade => "open trade on this market",
            Self::IdempotencyKey => "idempotency key",
            Self::WalletAdapter => "wallet adapter",
            Self::SimulatedUser => "simulated user",
            Self::PaymentReference => "payment reference",
            Self::Other => "record",
        }
    }
}

impl fmt::Display for UniqueKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The record whose compare-and-set failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangedRecord {
    /// A market's liquidity pool.
    Pool,
    /// A market's status.
    Market,
    /// A trade: its status moved on.
    Trade,
    /// A trade on the market is pending or in manual review.
    OpenTrade,
    /// A player's position.
    Position,
    /// A redemption.
    Redemption,
    /// A wallet operation.
    WalletOperation,
    /// A simulated user.
    SimulatedUser,
    /// An operator's market visibility (its mode or a per-market choice).
    Visibility,
    /// A settlement report's balance: a correction or payment landed meanwhile.
    SettlementBalance,
}

impl ChangedRecord {
    /// The record in words, for a refusal's detail and the log.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Pool => "pool",
            Self::Market => "market",
            Self::Trade => "trade",
            Self::OpenTrade => "open trade",
            Self::Position => "position",
            Self::Redemption => "redemption",
            Self::WalletOperation => "wallet operation",
            Self::SimulatedUser => "simulated user",
            Self::Visibility => "market visibility",
            Self::SettlementBalance => "settlement report's balance",
        }
    }
}

impl fmt::Display for ChangedRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}
