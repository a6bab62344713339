//! `IdempotencyStore` over SeaORM: one row per (principal, operation, key), unique, so two
//! requests racing with one key cannot both run.

use crate::entity::idempotency_key;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{IdempotencyScope, IdempotencyStore, RepoError, Reservation, StoredResponse};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use time::{OffsetDateTime, UtcOffset};

fn scoped(scope: &IdempotencyScope) -> sea_orm::Condition {
    sea_orm::Condition::all()
        .add(idempotency_key::Column::Principal.eq(&scope.principal))
        .add(idempotency_key::Column::Operation.eq(&scope.operation))
        .add(idempotency_key::Column::Key.eq(&scope.key))
}

#[async_trait]
impl IdempotencyStore for SeaStore {
    async fn reserve(
        &self,
        scope: &IdempotencyScope,
        fingerprint: &str,
        now: OffsetDateTime,
        expired_before: OffsetDateTime,
        abandoned_before: OffsetDateTime,
    ) -> Result<Reservation, RepoError> {
        for _ in 0..3 {
            if let Some(row) = idempotency_key::Entity::find().filter(scoped(scope)).one(&self.db).await.map_err(repo_err)? {
                let stale = row.created_at < expired_before || (row.state == "in_flight" && row.created_at < abandoned_before);
                if !stale {
                    return Ok(match (row.state.as_str(), row.response_status, row.response_body) {
                        ("done", Some(status), Some(body)) => Reservation::Finished {
                            fingerprint: row.fingerprint,
                            response: StoredResponse { status: u16::try_from(status).unwrap_or(200), body },
                        },
                        _ => Reservation::InFlight { fingerprint: row.fingerprint },
                    });
                }
                // Expired or abandoned: forget it, and take the key anew.
                idempotency_key::Entity::delete_many()
                    .filter(idempotency_key::Column::Id.eq(row.id))
                    .exec(&self.db)
                    .await
                    .map_err(repo_err)?;
            }
            let inserted = idempotency_key::ActiveModel {
                principal: Set(scope.principal.clone()),
                operation: Set(scope.operation.clone()),
                key: Set(scope.key.clone()),
                fingerprint: Set(fingerprint.to_owned()),
                state: Set("in_flight".into()),
                response_status: Set(None),
                response_body: Set(None),
                created_at: Set(now.to_offset(UtcOffset::UTC)),
                ..Default::default()
            }
            .insert(&self.db)
            .await
            .map_err(repo_err);
            match inserted {
                Ok(_) => return Ok(Reservation::Reserved),
                // Another request took the key between our read and insert: read it again.
                Err(RepoError::Duplicate(_)) => continue,
                Err(err) => return Err(err),
            }
        }
        Err(RepoError::Backend("the idempotency key kept changing".into()))
    }

    async fn finish(&self, scope: &IdempotencyScope, response: &StoredResponse) -> Result<(), RepoError> {
        idempotency_key::Entity::update_many()
            .col_expr(idempotency_key::Column::State, Expr::value("done"))
            .col_expr(idempotency_key::Column::ResponseStatus, Expr::value(i32::from(response.status)))
            .col_expr(idempotency_key::Column::ResponseBody, Expr::value(response.body.clone()))
            .filter(scoped(scope))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn release(&self, scope: &IdempotencyScope) -> Result<(), RepoError> {
        idempotency_key::Entity::delete_many().filter(scoped(scope)).exec(&self.db).await.map_err(repo_err)?;
        Ok(())
    }
}
