//! `GET /users`: the operator's players, and finding one by the operator's own id.

use opinion_core::{OperatorId, Page, PageRequest, UserKind};

use crate::error::AppError;
use crate::model::User;
use crate::opinion::reads::OperatorReads;
use crate::opinion::reads::filters::{external_user_id, optional_external_user_id, time_range};
use crate::opinion::reads::ports::UserFilter;

/// The players list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserQuery {
    /// `externalUserId`: only this player.
    pub external_user_id: Option<String>,
    /// `from`: first launched at or after (RFC 3339).
    pub from: Option<String>,
    /// `to`: first launched before (RFC 3339).
    pub to: Option<String>,
}

impl UserQuery {
    fn filter(&self) -> Result<UserFilter, AppError> {
        Ok(UserFilter {
            external_user_id: optional_external_user_id(self.external_user_id.as_deref())?,
            created: time_range(self.from.as_deref(), self.to.as_deref())?,
        })
    }
}

impl OperatorReads {
    /// One page of the operator's players, newest first.
    pub async fn list_users(
        &self,
        operator: OperatorId,
        query: &UserQuery,
        page: PageRequest<UserKind>,
    ) -> Result<Page<User, UserKind>, AppError> {
        let filter = query.filter()?;
        Ok(self.ports.reads.list_users(operator, &filter, page).await?)
    }

    /// The operator's player known by `external`; 404 when the operator has none.
    pub async fn user_by_external_id(&self, operator: OperatorId, external: &str) -> Result<User, AppError> {
        let external = external_user_id("externalUserId", external)?;
        self.ports
            .reads
            .find_user_by_external_id(operator, &external)
            .await?
            .ok_or(AppError::NotFound("user"))
    }
}

#[cfg(test)]
mod tests {
    use opinion_core::{PageRequest, UserKind};

    use super::UserQuery;
    use crate::error::AppError;
    use crate::test_support::reads::*;
    use crate::test_support::{NOW, OPERATOR};

    #[tokio::test]
    async fn filters_reach_the_store_for_the_callers_operator() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_list_users()
            .times(1)
            .returning(|operator, filter, _| {
                assert_eq!(operator, OPERATOR);
                assert_eq!(filter.external_user_id.as_deref(), Some("p-1"));
                assert_eq!(filter.created.from, Some(NOW));
                assert!(filter.created.to.is_none());
                Ok(empty_page())
            });
        let query = UserQuery {
            external_user_id: Some("p-1".into()),
            from: Some("2026-11-22T12:00:00Z".into()),
            to: None,
        };
        let page = mocks
            .build()
            .list_users(OPERATOR, &query, PageRequest::<UserKind>::default())
            .await
            .expect("listed");
        assert!(page.items.is_empty());
    }

    #[tokio::test]
    async fn a_bad_filter_is_refused_before_the_store() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_list_users().never();
        let reads = mocks.build();
        for (query, field) in [
            (
                UserQuery {
                    from: Some("soon".into()),
                    ..UserQuery::default()
                },
                "from",
            ),
            (
                UserQuery {
                    external_user_id: Some(String::new()),
                    ..UserQuery::default()
                },
                "externalUserId",
            ),
        ] {
            let error = reads
                .list_users(OPERATOR, &query, PageRequest::default())
                .await
                .expect_err("refused");
            assert!(
                matches!(error, AppError::Invalid { field: f, .. } if f == field),
                "{error:?}"
            );
        }
    }

    #[tokio::test]
    async fn an_unknown_player_is_not_found() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_find_user_by_external_id()
            .returning(|operator, external| {
                assert_eq!(operator, OPERATOR, "the caller's operator");
                assert_eq!(external, "ghost", "the external id asked for");
                Ok(None)
            });
        let error = mocks
            .build()
            .user_by_external_id(OPERATOR, "ghost")
            .await
            .expect_err("missing");
        assert!(matches!(error, AppError::NotFound("user")));
    }
}
