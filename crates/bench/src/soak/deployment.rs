//! The deployment under test: two instances of the service over one database, with the
//! same session secret, data key and statement signing key (one deployment), each on its
//! own port running every worker. The second is killed with SIGKILL and restarted every
//! few minutes; the first runs throughout. Each instance's resident memory is sampled
//! over each of its lives.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use opinion_bench::memory::rss_kib;
use opinion_bench::service::Service;
use rand::RngCore;

/// How often each instance's RSS is read.
const SAMPLE_EVERY: Duration = Duration::from_secs(2);

/// One instance's life: from a start to its kill or the end of the run.
#[derive(Debug, Clone)]
pub struct Life {
    /// Which instance (0 or 1).
    pub instance: usize,
    /// Which of its lives (0 first).
    pub number: usize,
    /// `(seconds since this life began, RSS KiB)`.
    pub samples: Vec<(f64, u64)>,
    /// Whether it ended with a SIGKILL.
    pub killed: bool,
}

impl Life {
    /// The first sample's RSS, KiB.
    pub fn start_kib(&self) -> u64 {
        self.samples.first().map_or(0, |sample| sample.1)
    }

    /// The highest RSS, KiB.
    pub fn peak_kib(&self) -> u64 {
        self.samples.iter().map(|sample| sample.1).max().unwrap_or(0)
    }

    /// The last sample's RSS, KiB.
    pub fn end_kib(&self) -> u64 {
        self.samples.last().map_or(0, |sample| sample.1)
    }

    /// How long it lived, seconds.
    pub fn seconds(&self) -> f64 {
        self.samples.last().map_or(0.0, |sample| sample.0)
    }

    /// The RSS right after `warmup` (the first sample from then on), KiB.
    pub fn after_warmup_kib(&self, warmup: Duration) -> Option<u64> {
        let warmup = warmup.as_secs_f64();
        self.samples
            .iter()
            .find(|sample| sample.0 >= warmup)
            .map(|sample| sample.1)
    }
}

/// A running instance and its current life.
struct Slot {
    service: Option<Service>,
    base_url: String,
    life: Life,
    began: Instant,
}

/// The two instances.
pub struct Deployment {
    binary: PathBuf,
    database_url: String,
    scratch: PathBuf,
    env: Vec<(&'static str, String)>,
    slots: Vec<Arc<Mutex<Option<Slot>>>>,
    lives: Arc<Mutex<Vec<Life>>>,
}

impl Deployment {
    /// Starts both instances of `binary` over `database_url`, data and logs in `scratch`.
    pub fn start(binary: &Path, database_url: &str, scratch: &Path) -> anyhow::Result<Self> {
        let key = |bytes: usize| {
            let mut random = vec![0_u8; bytes];
            rand::thread_rng().fill_bytes(&mut random);
            random.iter().map(|byte| format!("{byte:02x}")).collect::<String>()
        };
        let env = vec![
            ("OPINION_SESSION_SECRET", key(32)),
            ("OPINION_DATA_KEY", key(32)),
            ("OPINION_STATEMENT_SIGNING_KEY", key(32)),
            ("OPINION_WEBHOOK_WORKERS", "4".to_owned()),
            ("OPINION_WEBHOOK_POLL_INTERVAL_MS", "500".to_owned()),
            ("OPINION_WALLET_WORKER_INTERVAL_MS", "1000".to_owned()),
            ("OPINION_FLIGHT_DRIVER", "false".to_owned()),
            ("OPINION_OPERATOR_RATE_LIMIT_PER_MINUTE", "1000000".to_owned()),
        ];
        let deployment = Self {
            binary: binary.to_owned(),
            database_url: database_url.to_owned(),
            scratch: scratch.to_owned(),
            env,
            slots: vec![Arc::new(Mutex::new(None)), Arc::new(Mutex::new(None))],
            lives: Arc::new(Mutex::new(Vec::new())),
        };
        // One after the other: the first applies the migrations.
        for instance in 0..2 {
            deployment.start_instance(instance, 0)?;
        }
        Ok(deployment)
    }

    fn start_instance(&self, instance: usize, number: usize) -> anyhow::Result<()> {
        let data_dir = self.scratch.join(format!("instance-{instance}"));
        let log = self.scratch.join(format!("instance-{instance}.log"));
        let service = Service::start_logged(&self.binary, &self.database_url, &data_dir, &log, &self.env)?;
        let base_url = service.base_url().to_owned();
        *lock(&self.slots[instance]) = Some(Slot {
            service: Some(service),
            base_url,
            life: Life {
                instance,
                number,
                samples: Vec::new(),
                killed: false,
            },
            began: Instant::now(),
        });
        Ok(())
    }

    /// The base URLs of the instances up now.
    pub fn up(&self) -> Vec<String> {
        self.slots
            .iter()
            .filter_map(|slot| lock(slot).as_ref().map(|slot| slot.base_url.clone()))
            .collect()
    }

    /// Reads every running instance's RSS once.
    pub fn sample(&self) {
        for slot in &self.slots {
            if let Some(slot) = lock(slot).as_mut()
                && let Some(service) = &slot.service
                && let Some(kib) = rss_kib(service.pid())
            {
                slot.life.samples.push((slot.began.elapsed().as_secs_f64(), kib));
            }
        }
    }

    /// Kills `instance` with SIGKILL and records its life; it serves nothing until restarted.
    pub fn kill(&self, instance: usize) {
        let taken = lock(&self.slots[instance]).take();
        if let Some(mut slot) = taken {
            if let Some(service) = slot.service.take() {
                service.kill();
            }
            slot.life.killed = true;
            lock(&self.lives).push(slot.life);
        }
    }

    /// Starts `instance` again (its next life).
    pub fn restart(&self, instance: usize) -> anyhow::Result<()> {
        let number = lock(&self.lives)
            .iter()
            .filter(|life| life.instance == instance)
            .count();
        self.start_instance(instance, number)
    }

    /// Stops every instance gracefully; every life, in order of instance and life.
    pub fn stop(&self) -> Vec<Life> {
        self.sample();
        for slot in &self.slots {
            let taken = lock(slot).take();
            if let Some(mut slot) = taken {
                if let Some(service) = slot.service.take() {
                    service.stop();
                }
                lock(&self.lives).push(slot.life);
            }
        }
        let mut lives = lock(&self.lives).clone();
        lives.sort_by_key(|life| (life.instance, life.number));
        lives
    }

    /// Samples RSS every couple of seconds until dropped.
    pub fn spawn_sampler(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let deployment = self.clone();
        tokio::spawn(async move {
            loop {
                deployment.sample();
                tokio::time::sleep(SAMPLE_EVERY).await;
            }
        })
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
