//! `OperationalStore`: the platform-wide figures a metrics scrape reads, in one round
//! trip; `PoolWatch`: the store's connection pool. Both counts use partial indexes (`webhook_deliveries_due_idx`,
//! `wallet_operations_in_review`), so a scrape costs what the backlog and the review
//! queue hold, not what the tables hold.

use async_trait::async_trait;
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Nullable, Timestamptz};
use diesel_async::RunQueryDsl;
use opinion_app::operations::ports::{OperationalStore, PlatformFigures, PoolFigures, PoolWatch};
use opinion_app::ports::StoreError;
use time::OffsetDateTime;

use crate::db::error::from_diesel;
use crate::db::pool::PgStore;

const FIGURES: &str = "
    SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS webhook_backlog,
           (SELECT min(created_at) FROM webhook_deliveries WHERE status = 'pending') AS oldest_undelivered_at,
           (SELECT count(*) FROM wallet_operations WHERE state = 'manual_review') AS manual_reviews_open";

/// The answer of `FIGURES`.
#[derive(QueryableByName)]
struct FiguresRow {
    #[diesel(sql_type = BigInt)]
    webhook_backlog: i64,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    oldest_undelivered_at: Option<OffsetDateTime>,
    #[diesel(sql_type = BigInt)]
    manual_reviews_open: i64,
}

#[async_trait]
impl OperationalStore for PgStore {
    async fn platform_figures(&self) -> Result<PlatformFigures, StoreError> {
        let mut conn = self.conn().await?;
        let row: FiguresRow = diesel::sql_query(FIGURES)
            .get_result(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(PlatformFigures {
            webhook_backlog: row.webhook_backlog.unsigned_abs(),
            oldest_undelivered_at: row.oldest_undelivered_at,
            manual_reviews_open: row.manual_reviews_open.unsigned_abs(),
        })
    }
}

impl PoolWatch for PgStore {
    fn pool_figures(&self) -> PoolFigures {
        self.checkout_figures()
    }
}
