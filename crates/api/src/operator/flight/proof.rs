//! A settled ticket's v5 inclusion proof, once its settlement report is finalized:
//! `{"proofVersion": 5, "merkleRoot", "treeSize", "leafIndex", "auditPath", "line"}`. The
//! operator reads any of its tickets' proofs (`GET /api/operator/flight/tickets/{id}/proof`,
//! the ticket read's scopes); a player reads its own (`GET
//! /api/player/flight/tickets/{id}/proof`). Before finalization: 404 `proof_not_available`.
//! The proof names the player by its tag only; `merkleRoot` and `treeSize` are to be taken
//! from the signed statement, not from here.

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::flight::office::TicketProof;
use opinion_proof::PROOF_VERSION;
use serde::Serialize;
use utoipa::ToSchema;

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::path_id;
use crate::http::player_auth::FlightPlayer;
use crate::http::problem_responses::{InvalidRequest, ProofNotAvailable};
use crate::state::ApiState;

/// A ticket's inclusion proof in its finalized statement.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketProofBody {
    /// Always 5.
    pub proof_version: u64,
    /// The statement's tree root (64 hex digits); check it against the signed statement.
    pub merkle_root: String,
    /// The statement's leaf count; check it against the signed statement's `leafCount`.
    pub tree_size: u64,
    /// The ticket's leaf, from 0, in the statement's ticket order.
    pub leaf_index: u64,
    /// RFC 6962 audit path, from the leaf's sibling up (64 hex digits each).
    pub audit_path: Vec<String>,
    /// The ticket's line, exactly as hashed into its leaf.
    #[schema(value_type = Object)]
    pub line: serde_json::Value,
}

impl From<TicketProof> for TicketProofBody {
    fn from(proof: TicketProof) -> Self {
        Self {
            proof_version: PROOF_VERSION,
            merkle_root: proof.merkle_root.to_hex(),
            tree_size: proof.proof.tree_size,
            leaf_index: proof.proof.leaf_index,
            audit_path: proof.proof.audit_path.iter().map(|hash| hash.to_hex()).collect(),
            line: proof.line,
        }
    }
}

/// One of the operator's tickets' inclusion proof, once its report is finalized.
#[utoipa::path(
    get,
    path = RouteId::FlightTicketProof.spec().path,
    params(("id" = String, Path, description = "`tkt_…`")),
    responses(
        (status = 200, description = "the ticket's inclusion proof", body = TicketProofBody),
        InvalidRequest,
        ProofNotAvailable,
    ),
)]
pub async fn operator_ticket_proof(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let proof = state.office.ticket_proof(caller.0.operator_id, path_id(&id)?).await?;
    Ok(HttpResponse::Ok().json(TicketProofBody::from(proof)))
}

/// The player's own ticket's inclusion proof, once its report is finalized.
pub async fn player_ticket_proof(
    state: web::Data<ApiState>,
    player: FlightPlayer,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let principal = &player.0;
    let proof = state
        .office
        .player_ticket_proof(principal.operator_id, &principal.user.external_user_id, path_id(&id)?)
        .await?;
    Ok(HttpResponse::Ok().json(TicketProofBody::from(proof)))
}
