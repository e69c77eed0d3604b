//! Who a use case acts for. A hosted-app request names its player by a session token; the
//! token's signature is checked at once, but whether its session is still live is a
//! database read, and a use case that opens with a transaction of its own (an order's
//! opening) makes that read inside it: one round trip of the request's transaction
//! instead of a commit of its own, and a session ended before the request started is
//! still refused, on every instance.

use std::future::Future;

use opinion_core::{OperatorId, PlayerSessionId};
use opinion_wallet::Product;

use crate::access::AuthFailure;
use crate::error::{AppError, ProblemCode};
use crate::players::{PlayerPrincipal, Players};

/// The player a use case acts for, made sure of when the use case asks: at once for a
/// player already known (a simulated user, a test), inside the use case's first step for
/// a session token.
pub trait ActingPlayer: Sync {
    /// The player's operator, known before the player is made sure of (a session token
    /// names it under its signature).
    fn operator_id(&self) -> OperatorId;

    /// The player, or the refusal of a session that is not live (ended, expired, of
    /// another product, on another operator's launch host).
    fn confirm(&self) -> impl Future<Output = Result<PlayerPrincipal, AppError>> + Send;
}

impl ActingPlayer for PlayerPrincipal {
    fn operator_id(&self) -> OperatorId {
        self.operator_id
    }

    async fn confirm(&self) -> Result<PlayerPrincipal, AppError> {
        Ok(self.clone())
    }
}

/// A session token whose signature holds, with what its request must match: its session
/// is not yet known to be live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionCredential {
    operator_id: OperatorId,
    session_id: PlayerSessionId,
    /// The request's `Host`, which must not be another operator's launch host.
    host: Option<String>,
    /// The product the route serves, when it serves one.
    product: Option<Product>,
}

impl SessionCredential {
    /// The operator the token was issued under.
    pub fn operator_id(&self) -> OperatorId {
        self.operator_id
    }
}

/// A session credential with the service that makes sure of it: the acting player of a
/// hosted-app request.
pub struct SessionPlayer<'a> {
    players: &'a Players,
    credential: SessionCredential,
}

impl ActingPlayer for SessionPlayer<'_> {
    fn operator_id(&self) -> OperatorId {
        self.credential.operator_id
    }

    fn confirm(&self) -> impl Future<Output = Result<PlayerPrincipal, AppError>> + Send {
        self.players.confirm_session(&self.credential)
    }
}

impl Players {
    /// The credential of a session `token` presented on `host` (the request's `Host`) for
    /// a route of `product`, if its signature holds; nothing is read.
    pub fn session_credential(
        &self,
        token: &str,
        host: Option<&str>,
        product: Option<Product>,
    ) -> Result<SessionCredential, AppError> {
        let (operator_id, session_id) = self
            .settings
            .tokens
            .verify_session(token)
            .ok_or(AppError::Unauthenticated(AuthFailure::InvalidSession))?;
        Ok(SessionCredential {
            operator_id,
            session_id,
            host: host.map(str::to_owned),
            product,
        })
    }

    /// The acting player of `credential`, made sure of by the use case it is given to.
    pub fn session_player(&self, credential: SessionCredential) -> SessionPlayer<'_> {
        SessionPlayer {
            players: self,
            credential,
        }
    }

    /// The player of `credential` if its session is live, the request's host is not
    /// another operator's launch host and the session was opened for the route's product.
    pub async fn confirm_session(&self, credential: &SessionCredential) -> Result<PlayerPrincipal, AppError> {
        let SessionCredential {
            operator_id,
            session_id,
            ref host,
            product,
        } = *credential;
        self.check_arrival(host.as_deref(), operator_id).await?;
        let (session, user) = self
            .ports
            .store
            .find_player_session(operator_id, session_id)
            .await?
            .ok_or(AppError::Unauthenticated(AuthFailure::InvalidSession))?;
        if !session.is_live(self.ports.clock.now()) {
            return Err(AppError::Unauthenticated(AuthFailure::SessionEnded));
        }
        match product {
            Some(product) if product != session.product => Err(wrong_product(session.product, product)),
            _ => Ok(PlayerPrincipal {
                operator_id,
                user,
                session_id,
            }),
        }
    }
}

/// The refusal of a live session opened for `launched` on a route of `product`, so a
/// player launched into one product does not play another with that session.
fn wrong_product(launched: Product, product: Product) -> AppError {
    AppError::Conflict {
        code: ProblemCode::WrongProduct,
        detail: format!(
            "this player session was opened for {launched}, not {product}; launch the player into {product}"
        ),
    }
}
