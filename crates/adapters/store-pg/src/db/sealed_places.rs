//! Every sealed column of the database, and the place each of its values is bound to
//! (the associated data of its seal). The adapters that write a column and the data key
//! rotation that re-seals it both name places through here, so a re-sealed value stays
//! bound to exactly the place it was bound to before.

use uuid::Uuid;

/// A wallet adapter's signing secret, `slot` `current` or `previous`.
pub(crate) fn wallet_adapter_secret(operator: Uuid, slot: &str) -> String {
    format!("wallet_adapters:{operator}:{slot}")
}

/// A flight chain's terminal seed.
pub(crate) fn flight_chain_seed(chain: Uuid) -> String {
    format!("flight_chains:{chain}:terminal_seed")
}

/// A finalized statement's player key.
pub(crate) fn statement_player_key(operator: Uuid, report: Uuid) -> String {
    format!("flight_report_proofs:{operator}:{report}:player_key")
}

/// A webhook endpoint's signing secret, `slot` `current` or `previous`.
pub(crate) fn webhook_endpoint_secret(operator: Uuid, endpoint: Uuid, slot: &str) -> String {
    format!("webhook_endpoints:{operator}:{endpoint}:{slot}")
}

/// A column of sealed values: its table, the columns of the table's primary key (one or
/// two uuids) and the place of the value in a row with that key.
pub(crate) struct SealedColumn {
    /// The table.
    pub(crate) table: &'static str,
    /// The sealed column.
    pub(crate) column: &'static str,
    /// The primary key's columns, in order.
    pub(crate) key: &'static [&'static str],
    /// The place of the value in the row with these key values.
    pub(crate) place: fn(&[Uuid]) -> String,
}

/// Every sealed column.
pub(crate) const SEALED_COLUMNS: &[SealedColumn] = &[
    SealedColumn {
        table: "wallet_adapters",
        column: "secret_sealed",
        key: &["operator_id"],
        place: |key| wallet_adapter_secret(key[0], "current"),
    },
    SealedColumn {
        table: "wallet_adapters",
        column: "previous_secret_sealed",
        key: &["operator_id"],
        place: |key| wallet_adapter_secret(key[0], "previous"),
    },
    SealedColumn {
        table: "webhook_endpoints",
        column: "secret_sealed",
        key: &["operator_id", "id"],
        place: |key| webhook_endpoint_secret(key[0], key[1], "current"),
    },
    SealedColumn {
        table: "webhook_endpoints",
        column: "previous_secret_sealed",
        key: &["operator_id", "id"],
        place: |key| webhook_endpoint_secret(key[0], key[1], "previous"),
    },
    SealedColumn {
        table: "flight_chains",
        column: "terminal_seed_sealed",
        key: &["id"],
        place: |key| flight_chain_seed(key[0]),
    },
    SealedColumn {
        table: "flight_report_proofs",
        column: "player_key_sealed",
        key: &["operator_id", "report_id"],
        place: |key| statement_player_key(key[0], key[1]),
    },
];
