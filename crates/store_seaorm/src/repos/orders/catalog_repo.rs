//! `ProductRepository` and `InterviewQuestionRepository` over SeaORM.

use crate::entity::{interview_question, product};
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use content::{InterviewQuestion, InterviewQuestionRepository};
use kernel::{Cents, RepoError};
use orders::{Product, ProductRepository, WeekRule};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};

#[async_trait]
impl ProductRepository for SeaStore {
    async fn list_active(&self) -> Result<Vec<Product>, RepoError> {
        product::Entity::find()
            .filter(product::Column::Active.eq(true))
            .order_by_asc(product::Column::Position)
            .order_by_asc(product::Column::Code)
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|row| {
                let week_rule = WeekRule::parse(&row.week_rule)
                    .ok_or_else(|| RepoError::Backend(format!("products.week_rule holds {:?}", row.week_rule).into()))?;
                Ok(Product {
                    code: row.code,
                    name: row.name,
                    description: row.description,
                    price: Cents::new(row.price_cents),
                    needs_listing: row.needs_listing,
                    week_rule,
                    options: row.options,
                })
            })
            .collect()
    }

    async fn set_price(&self, code: &str, price: Cents) -> Result<bool, RepoError> {
        let changed = product::Entity::update_many()
            .col_expr(product::Column::PriceCents, sea_orm::sea_query::Expr::value(price.get()))
            .filter(product::Column::Code.eq(code))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(changed.rows_affected == 1)
    }
}

#[async_trait]
impl InterviewQuestionRepository for SeaStore {
    async fn list_active(&self) -> Result<Vec<InterviewQuestion>, RepoError> {
        Ok(interview_question::Entity::find()
            .filter(interview_question::Column::Active.eq(true))
            .order_by_asc(interview_question::Column::Position)
            .order_by_asc(interview_question::Column::Id)
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|row| InterviewQuestion { id: row.id, position: row.position, question: row.question, hint: row.hint })
            .collect())
    }
}
