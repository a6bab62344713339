//! `AdminRepository` over SeaORM: the admin role and blocking on `users`, the audit log in
//! `admin_audit`. Searches are case-insensitive substring matches on both databases (`LOWER`).

use crate::entity::{admin_audit, user};
use crate::shared::rows::to_user;
use crate::{SeaStore, lower_contains, repo_err, utc};
use accounts::{AdminRepository, AuditEntry, NewAuditEntry, User};
use async_trait::async_trait;
use kernel::{Email, PageRequest, Paged, RepoError, UserId};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use std::collections::HashMap;

#[async_trait]
impl AdminRepository for SeaStore {
    async fn set_admin(&self, email: &Email, admin: bool) -> Result<bool, RepoError> {
        let changed = user::Entity::update_many()
            .col_expr(user::Column::IsAdmin, Expr::value(admin))
            .filter(user::Column::Email.eq(email.as_str()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(changed.rows_affected == 1)
    }

    async fn set_blocked(&self, user_id: UserId, blocked: bool) -> Result<bool, RepoError> {
        let changed = user::Entity::update_many()
            .col_expr(user::Column::Blocked, Expr::value(blocked))
            .filter(user::Column::Id.eq(user_id.get()))
            .filter(user::Column::Blocked.ne(blocked))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(changed.rows_affected == 1)
    }

    async fn users(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<User>, RepoError> {
        let mut query = user::Entity::find();
        if let Some(search) = search {
            query = query.filter(
                Condition::any()
                    .add(lower_contains(user::Column::Email, search.trim()))
                    .add(lower_contains(user::Column::DisplayName, search.trim())),
            );
        }
        let total = query.clone().count(&self.db).await.map_err(repo_err)?;
        let rows = query
            .order_by_desc(user::Column::Id)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let users = rows.into_iter().map(to_user).collect::<Result<Vec<_>, _>>()?;
        Ok(Paged::new(users, page, total))
    }

    async fn record(&self, entry: NewAuditEntry) -> Result<(), RepoError> {
        admin_audit::Entity::insert(admin_audit::ActiveModel {
            actor_user_id: Set(entry.actor.get()),
            action: Set(entry.action),
            target: Set(entry.target),
            detail: Set(entry.detail),
            created_at: Set(utc(entry.at)),
            ..Default::default()
        })
        .exec(&self.db)
        .await
        .map_err(repo_err)?;
        Ok(())
    }

    async fn audit(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<AuditEntry>, RepoError> {
        let mut query = admin_audit::Entity::find();
        if let Some(search) = search {
            query = query.filter(
                Condition::any()
                    .add(lower_contains(admin_audit::Column::Action, search.trim()))
                    .add(lower_contains(admin_audit::Column::Target, search.trim()))
                    .add(lower_contains(admin_audit::Column::Detail, search.trim())),
            );
        }
        let total = query.clone().count(&self.db).await.map_err(repo_err)?;
        let rows = query
            .order_by_desc(admin_audit::Column::Id)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let actors: HashMap<i64, String> = user::Entity::find()
            .select_only()
            .column(user::Column::Id)
            .column(user::Column::Email)
            .filter(user::Column::Id.is_in(rows.iter().map(|row| row.actor_user_id)))
            .into_tuple::<(i64, String)>()
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .collect();
        let entries = rows
            .into_iter()
            .map(|row| AuditEntry {
                id: row.id,
                actor: UserId::new(row.actor_user_id),
                actor_email: actors.get(&row.actor_user_id).cloned().unwrap_or_default(),
                action: row.action,
                target: row.target,
                detail: row.detail,
                at: row.created_at,
            })
            .collect();
        Ok(Paged::new(entries, page, total))
    }
}
