//! `PgStore`: the pool of `diesel_async` connections every port implementation draws
//! from. Waiting for a connection is bounded, so a database that stops answering makes
//! requests fail with `Unavailable` instead of piling up.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::QueryableByName;
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::pooled_connection::{AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::operations::ports::PoolFigures;
use opinion_app::ports::{StoreError, TimeLimit};

use crate::db::error::{from_diesel, unavailable};
use crate::db::pool_waits::PoolWaits;
use crate::db::sealing::DataKey;
use crate::db::target::DatabaseTarget;
use crate::db::transactions::{Conn, Pooled, SharedConn, StoreConn, shared_step_connection, step_connection};
use crate::webhooks::AttemptBatches;

/// How long a request waits for a connection (creating one included) before giving up,
/// unless the store is given its own wait (`PgStore::with_acquire_timeout`).
pub const DEFAULT_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// The answer of [`PgStore::uses_tls`]'s query.
#[derive(QueryableByName)]
struct Encrypted {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    ssl: bool,
}

/// The PostgreSQL implementation of every store port. Cloning shares the pool, so one
/// store can be handed to every use case. Tables holding signing secrets also need the
/// data key that seals them ([`PgStore::with_data_key`]).
#[derive(Clone)]
pub struct PgStore {
    pool: Pool<AsyncPgConnection>,
    data_key: Option<Arc<DataKey>>,
    acquire_timeout: Duration,
    waits: Arc<PoolWaits>,
    attempt_batches: Option<AttemptBatches>,
}

impl PgStore {
    /// Opens a pool of at most `max_connections` connections to `database_url`, with the
    /// TLS its `sslmode` and `sslrootcert` ask for and no other CA (see
    /// [`PgStore::connect_to`]).
    pub async fn connect(database_url: &str, max_connections: usize) -> Result<PgStore, StoreError> {
        Self::connect_to(&DatabaseTarget::new(database_url, None)?, max_connections).await
    }

    /// Opens a pool of at most `max_connections` connections to `target` and proves the
    /// database answers, so a wrong `DATABASE_URL` or a refused certificate fails at
    /// start-up rather than on the first request. Fails with `Unavailable` when it does
    /// not answer within a few seconds.
    pub async fn connect_to(target: &DatabaseTarget, max_connections: usize) -> Result<PgStore, StoreError> {
        // A connection goes back to the pool unchecked (a broken one is still dropped):
        // verifying it would cost a round trip on every checkout, and authentication
        // alone checks out twice per request.
        let mut config = ManagerConfig::default();
        config.recycling_method = RecyclingMethod::Fast;
        let target = target.clone();
        config.custom_setup = Box::new(move |_| {
            let target = target.clone();
            Box::pin(async move { target.connect().await })
        });
        // The manager's URL only reaches `custom_setup`, which connects to `target`.
        let manager = AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config("", config);
        let pool = Pool::builder(manager)
            .max_size(max_connections.max(1))
            .build()
            .map_err(|error| unavailable("cannot build the connection pool", &error))?;
        let store = PgStore {
            pool,
            data_key: None,
            acquire_timeout: DEFAULT_ACQUIRE_TIMEOUT,
            waits: Arc::default(),
            attempt_batches: None,
        };
        store.select_one().await?;
        Ok(store)
    }

    /// The same store, waiting at most `wait` for a pooled connection.
    pub fn with_acquire_timeout(self, wait: Duration) -> Self {
        Self {
            acquire_timeout: wait,
            ..self
        }
    }

    /// The same store, sealing and opening secrets at rest with `key`.
    pub fn with_data_key(self, key: DataKey) -> Self {
        Self {
            data_key: Some(Arc::new(key)),
            ..self
        }
    }

    /// The same store, recording webhook attempts together: each finished attempt waits
    /// in a queue that a few writers, started here on the running Tokio runtime, record in
    /// batches, one transaction each. Meant for the delivery workers' own store, whose
    /// attempts finish in bursts; a store records each attempt alone otherwise.
    pub fn with_attempt_batches(self) -> Self {
        let batches = AttemptBatches::start(self.clone());
        Self {
            attempt_batches: Some(batches),
            ..self
        }
    }

    /// Where the store's attempts wait to be recorded together, if it records them so.
    pub(crate) fn attempt_batches(&self) -> Option<&AttemptBatches> {
        self.attempt_batches.as_ref()
    }

    /// The data key, or `Unavailable` when the store was built without one.
    pub(crate) fn data_key(&self) -> Result<&DataKey, StoreError> {
        self.data_key.as_deref().ok_or_else(|| {
            unavailable(
                "cannot reach sealed secrets",
                &"the store has no data key (OPINION_DATA_KEY)",
            )
        })
    }

    /// The connection a store call uses: the running step's when the task runs one
    /// (`Transactions`), otherwise one from the pool.
    pub(crate) async fn conn(&self) -> Result<Conn, StoreError> {
        self.step_or_pooled(step_connection().await).await
    }

    /// The connection a read of one statement uses, shared with the reads its step sends
    /// meanwhile (see [`SharedConn`]); otherwise one from the pool.
    pub(crate) async fn shared_conn(&self) -> Result<SharedConn, StoreError> {
        self.step_or_pooled(shared_step_connection().await).await
    }

    /// The step's connection as `step` holds it, or one from the pool when there is none.
    async fn step_or_pooled<G>(&self, step: Option<G>) -> Result<StoreConn<G>, StoreError> {
        match step {
            Some(held) => Ok(StoreConn::InStep(held)),
            None => self.pooled().await.map(|conn| StoreConn::Pooled(Box::new(conn))),
        }
    }

    /// A connection from the pool, waiting at most the store's acquire timeout.
    pub(crate) async fn pooled(&self) -> Result<Pooled, StoreError> {
        let started = Instant::now();
        let got = tokio::time::timeout(self.acquire_timeout, self.pool.get()).await;
        match &got {
            Ok(Ok(_)) => self.waits.acquired(started.elapsed()),
            _ => self.waits.gave_up(started.elapsed()),
        }
        match got {
            Ok(Ok(conn)) => Ok(conn),
            Ok(Err(error)) => Err(unavailable("cannot get a database connection", &error)),
            Err(_) => {
                tracing::error!(wait = ?self.acquire_timeout, "no pooled database connection was free in time");
                Err(StoreError::TimedOut(TimeLimit::PoolAcquire))
            }
        }
    }

    /// The pool's size now and its checkouts since start-up.
    pub(crate) fn checkout_figures(&self) -> PoolFigures {
        let status = self.pool.status();
        let (acquired_total, timed_out_total, wait_total) = self.waits.totals();
        PoolFigures {
            max_size: status.max_size as u64,
            open: status.size as u64,
            idle: status.available as u64,
            waiting: status.waiting as u64,
            acquired_total,
            timed_out_total,
            wait_total,
        }
    }

    /// Whether this store's connections are encrypted, as the server sees a pooled one
    /// (`pg_stat_ssl`): what start-up reports, so a deployment can tell its `sslmode`
    /// took effect.
    pub async fn uses_tls(&self) -> Result<bool, StoreError> {
        let mut conn = self.conn().await?;
        let answer: Encrypted = diesel::sql_query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            .get_result(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(answer.ssl)
    }

    /// `SELECT 1` on a pooled connection: the database is reachable and answers.
    pub(crate) async fn select_one(&self) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::sql_query("SELECT 1")
            .execute(&mut conn)
            .await
            .map(drop)
            .map_err(from_diesel)
    }
}

impl fmt::Debug for PgStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = self.pool.status();
        f.debug_struct("PgStore")
            .field("max_size", &status.max_size)
            .field("size", &status.size)
            .field("available", &status.available)
            .field("data_key", &self.data_key.is_some())
            .field("acquire_timeout", &self.acquire_timeout)
            .field("attempt_batches", &self.attempt_batches.is_some())
            .finish()
    }
}
