//! The few service calls the scenarios make, over one shared HTTP client, each failing
//! with the status and body the service answered.

use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};

/// The service's HTTP API at one base URL.
#[derive(Clone)]
pub struct Api {
    client: Client,
    base: String,
}

/// Why a call failed: the service's status (if it answered) and body.
#[derive(Debug, Clone)]
pub struct CallError {
    /// The answer's status, `None` when there was no answer.
    pub status: Option<StatusCode>,
    /// The answer's body or the transport error.
    pub detail: String,
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            Some(status) => write!(f, "{status}: {}", self.detail),
            None => write!(f, "{}", self.detail),
        }
    }
}

impl std::error::Error for CallError {}

impl CallError {
    /// Whether the service says this route is not built yet.
    pub fn is_not_implemented(&self) -> bool {
        self.status == Some(StatusCode::NOT_IMPLEMENTED) || self.status == Some(StatusCode::NOT_FOUND)
    }
}

impl Api {
    /// A client of the service at `base` (`http://127.0.0.1:<port>`).
    pub fn new(base: &str) -> anyhow::Result<Self> {
        let client = Client::builder().pool_max_idle_per_host(1024).build()?;
        Ok(Self {
            client,
            base: base.to_owned(),
        })
    }

    /// `http://127.0.0.1:<port>`, for the few requests made with another client.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// One call with an optional bearer credential and JSON body; the JSON answer (or
    /// `null` for an empty one).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        bearer: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Value, CallError> {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(bearer) = bearer {
            request = request.bearer_auth(bearer);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await.map_err(|e| CallError {
            status: None,
            detail: e.to_string(),
        })?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(|e| CallError {
            status: Some(status),
            detail: e.to_string(),
        })?;
        if !status.is_success() {
            return Err(CallError {
                status: Some(status),
                detail: problem_summary(&bytes),
            });
        }
        if bytes.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&bytes).map_err(|e| CallError {
            status: Some(status),
            detail: format!("not JSON: {e}"),
        })
    }

    /// `GET path` reading only the status, for the cheapest possible request.
    pub async fn get_status(&self, path: &str, bearer: Option<&str>) -> Result<(), CallError> {
        self.get_body(path, bearer).await.map(drop)
    }

    /// The service's `GET /metrics` exposition (served without a token outside
    /// production, as the bench runs it).
    pub async fn metrics_text(&self) -> Result<String, CallError> {
        let body = self.get_body("/metrics", None).await?;
        String::from_utf8(body.as_ref().to_vec()).map_err(|e| CallError {
            status: None,
            detail: format!("not UTF-8: {e}"),
        })
    }

    /// `GET path` with an optional bearer credential: the body of a successful answer.
    async fn get_body(&self, path: &str, bearer: Option<&str>) -> Result<impl AsRef<[u8]>, CallError> {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(bearer) = bearer {
            request = request.bearer_auth(bearer);
        }
        let response = request.send().await.map_err(|e| CallError {
            status: None,
            detail: e.to_string(),
        })?;
        let status = response.status();
        let body = response.bytes().await.map_err(|e| CallError {
            status: Some(status),
            detail: e.to_string(),
        })?;
        if status.is_success() {
            Ok(body)
        } else {
            Err(CallError {
                status: Some(status),
                detail: problem_summary(&body),
            })
        }
    }

    /// Launches (creating or updating) the player `external_user_id`; its launch token.
    pub async fn launch(&self, operator_key: &str, external_user_id: &str) -> Result<String, CallError> {
        self.launch_into(operator_key, external_user_id, None).await
    }

    /// Launches the player into `product` (Opinion when `None`); its launch token.
    pub async fn launch_into(
        &self,
        operator_key: &str,
        external_user_id: &str,
        product: Option<&str>,
    ) -> Result<String, CallError> {
        let mut body = json!({ "externalUserId": external_user_id });
        if let Some(product) = product {
            body["product"] = json!(product);
        }
        let launched = self
            .call(Method::POST, "/api/operator/launch", Some(operator_key), Some(&body))
            .await?;
        text_field(&launched, "launchToken")
    }

    /// Exchanges a launch token for a player session token.
    pub async fn open_session(&self, launch_token: &str) -> Result<String, CallError> {
        let body = json!({ "launchToken": launch_token });
        let opened = self
            .call(Method::POST, "/api/player/sessions", None, Some(&body))
            .await?;
        text_field(&opened, "sessionToken")
    }

    /// Buys "yes" for `value` minor units; the trade's status.
    pub async fn buy(
        &self,
        session: &str,
        market: &str,
        client_order_id: &str,
        value: u64,
    ) -> Result<String, CallError> {
        let body = json!({
            "clientOrderId": client_order_id,
            "marketId": market,
            "side": "buy",
            "outcome": "yes",
            "kind": "amount",
            "value": value.to_string(),
        });
        let trade = self
            .call(Method::POST, "/api/player/orders", Some(session), Some(&body))
            .await?;
        text_field(&trade, "status")
    }
}

impl Api {
    /// Registers a webhook endpoint at `url` for `event_types`, with the service's default
    /// time limit or `timeout_seconds`; its id.
    pub async fn create_webhook_endpoint(
        &self,
        operator_key: &str,
        url: &str,
        event_types: &[&str],
        timeout_seconds: Option<u32>,
    ) -> Result<String, CallError> {
        let mut body = json!({ "url": url, "eventTypes": event_types });
        if let Some(timeout) = timeout_seconds {
            body["timeoutSeconds"] = json!(timeout);
        }
        let created = self
            .call(
                Method::POST,
                "/api/operator/webhooks/endpoints",
                Some(operator_key),
                Some(&body),
            )
            .await?;
        text_field(&created, "id")
    }

    /// Deletes the webhook endpoint `id`: nothing more is delivered to it.
    pub async fn delete_webhook_endpoint(&self, operator_key: &str, id: &str) -> Result<(), CallError> {
        self.call(
            Method::DELETE,
            &format!("/api/operator/webhooks/endpoints/{id}"),
            Some(operator_key),
            None,
        )
        .await
        .map(drop)
    }
}

/// A string field of an answer, or an error naming it.
pub fn text_field(value: &Value, name: &str) -> Result<String, CallError> {
    value
        .get(name)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| CallError {
            status: None,
            detail: format!("the answer has no `{name}`: {value}"),
        })
}

/// A problem body's `code` and `detail`, or the start of any other body.
fn problem_summary(body: &[u8]) -> String {
    let problem: Option<Value> = serde_json::from_slice(body).ok();
    let field = |name: &str| {
        problem
            .as_ref()
            .and_then(|problem| problem.get(name))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    match (field("code"), field("detail")) {
        (Some(code), Some(detail)) => format!("{code}: {detail}"),
        (Some(code), None) => code,
        _ => String::from_utf8_lossy(body).chars().take(200).collect(),
    }
}
