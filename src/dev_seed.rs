//! The development demo operator: created on first start, its credentials kept in
//! `<data dir>/dev-credentials.json` (readable by the owner only) and printed at start.

use std::path::{Path, PathBuf};

use anyhow::Context;
use opinion_app::access::{Access, NewStaff};
use opinion_core::OperatorId;
use serde::{Deserialize, Serialize};

use crate::private_file::write_private_file;

/// What a developer needs to call the local service.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DevCredentials {
    /// The demo operator.
    pub operator_id: OperatorId,
    /// Its full-access API key.
    pub api_key: String,
    /// A full-access staff member's login.
    pub staff_email: String,
    /// That member's password.
    pub staff_password: String,
}

/// Where the credentials are kept.
pub fn credentials_path(data_dir: &Path) -> PathBuf {
    data_dir.join("dev-credentials.json")
}

/// Returns the demo operator's credentials, creating the operator if this database has none.
pub async fn ensure_demo_operator(access: &Access, data_dir: &Path) -> anyhow::Result<DevCredentials> {
    let path = credentials_path(data_dir);
    if let Some(existing) = read(&path)
        && access.find_operator(existing.operator_id).await.is_ok()
    {
        return Ok(existing);
    }
    let created = access.create_operator("Demo operator", "USD").await?;
    let operator_id = created.operator.id;
    let suffix = operator_id.to_string();
    let email = format!("admin.{}@demo.opinion.test", &suffix[suffix.len() - 8..]);
    let staff = access
        .create_first_staff(
            operator_id,
            NewStaff {
                email: email.clone(),
                name: "Demo admin".into(),
                scopes: vec!["*".into()],
                password: None,
            },
        )
        .await?;
    let credentials = DevCredentials {
        operator_id,
        api_key: created.first_key.secret.expose().to_owned(),
        staff_email: email,
        staff_password: staff
            .generated_password
            .context("the demo admin's password was not generated")?,
    };
    write(&path, &credentials)?;
    Ok(credentials)
}

fn read(path: &Path) -> Option<DevCredentials> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn write(path: &Path, credentials: &DevCredentials) -> anyhow::Result<()> {
    write_private_file(path, &serde_json::to_vec_pretty(credentials)?)
}
