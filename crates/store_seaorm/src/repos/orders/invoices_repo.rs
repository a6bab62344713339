//! Invoices and credit notes: issuing one takes the next number of its series and stores the
//! document in a single transaction, so numbers run without gaps however many are issued at
//! once (PostgreSQL locks the series' counter row until the document is in; SQLite has one
//! writer at a time), and an order never gets two documents of a kind.

use crate::entity::{document_counter, invoice};
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{RepoError, UserId};
use orders::{DocumentKind, Invoice, InvoiceRepository, NewDocument};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set, TransactionTrait};

fn to_invoice(row: invoice::Model) -> Result<Invoice, RepoError> {
    let kind =
        DocumentKind::parse(&row.kind).ok_or_else(|| RepoError::Backend(format!("invoice {} has kind {:?}", row.id, row.kind).into()))?;
    let body = serde_json::from_value(row.document)
        .map_err(|err| RepoError::Backend(format!("invoice {} cannot be read: {err}", row.id).into()))?;
    Ok(Invoice {
        id: row.id,
        kind,
        number: row.number,
        sequence: row.sequence,
        order_id: row.order_id,
        owner: UserId::new(row.user_id),
        issued_at: row.issued_at,
        body,
    })
}

fn to_invoices(rows: Vec<invoice::Model>) -> Result<Vec<Invoice>, RepoError> {
    rows.into_iter().map(to_invoice).collect()
}

async fn of_kind(db: &impl ConnectionTrait, order_id: i64, kind: DocumentKind) -> Result<Option<Invoice>, RepoError> {
    invoice::Entity::find()
        .filter(invoice::Column::OrderId.eq(order_id))
        .filter(invoice::Column::Kind.eq(kind.as_str()))
        .one(db)
        .await
        .map_err(repo_err)?
        .map(to_invoice)
        .transpose()
}

#[async_trait]
impl InvoiceRepository for SeaStore {
    async fn issue(&self, new: &NewDocument) -> Result<Invoice, RepoError> {
        if let Some(issued) = of_kind(&self.db, new.order_id, new.kind).await? {
            return Ok(issued);
        }
        let series = new.kind.series();
        let document = serde_json::to_value(&new.body).map_err(|err| RepoError::Backend(Box::new(err)))?;
        let txn = self.db.begin().await.map_err(repo_err)?;
        // Taking the number locks the counter until the document is stored (or rolled back).
        document_counter::Entity::update_many()
            .col_expr(document_counter::Column::LastValue, Expr::col(document_counter::Column::LastValue).add(1))
            .filter(document_counter::Column::Series.eq(series))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        let sequence = document_counter::Entity::find_by_id(series.to_owned())
            .one(&txn)
            .await
            .map_err(repo_err)?
            .ok_or_else(|| RepoError::Backend(format!("the document series {series} has no counter").into()))?
            .last_value;
        let inserted = invoice::ActiveModel {
            kind: Set(new.kind.as_str().to_owned()),
            series: Set(series.to_owned()),
            sequence: Set(sequence),
            number: Set(new.kind.number(sequence)),
            order_id: Set(new.order_id),
            user_id: Set(new.owner.get()),
            issued_at: Set(utc(new.issued_at)),
            total_cents: Set(new.body.total_cents),
            document: Set(document),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(repo_err);
        match inserted {
            Ok(row) => {
                txn.commit().await.map_err(repo_err)?;
                to_invoice(row)
            }
            // Another issuer stored this order's document first: the number taken here goes
            // back with the rollback, and theirs is the one.
            Err(RepoError::Duplicate(_)) => {
                drop(txn);
                of_kind(&self.db, new.order_id, new.kind)
                    .await?
                    .ok_or_else(|| RepoError::Backend("a document was refused as a duplicate and is not there".into()))
            }
            Err(err) => Err(err),
        }
    }

    async fn of_order(&self, order_id: i64) -> Result<Vec<Invoice>, RepoError> {
        let rows = invoice::Entity::find()
            .filter(invoice::Column::OrderId.eq(order_id))
            .order_by_asc(invoice::Column::Id)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        to_invoices(rows)
    }

    async fn by_number(&self, number: &str) -> Result<Option<Invoice>, RepoError> {
        invoice::Entity::find()
            .filter(invoice::Column::Number.eq(number))
            .one(&self.db)
            .await
            .map_err(repo_err)?
            .map(to_invoice)
            .transpose()
    }

    async fn owned(&self, owner: UserId) -> Result<Vec<Invoice>, RepoError> {
        let rows = invoice::Entity::find()
            .filter(invoice::Column::UserId.eq(owner.get()))
            .order_by_desc(invoice::Column::Id)
            .limit(500)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        to_invoices(rows)
    }

    async fn recent(&self, limit: u64) -> Result<Vec<Invoice>, RepoError> {
        let rows = invoice::Entity::find().order_by_desc(invoice::Column::Id).limit(limit).all(&self.db).await.map_err(repo_err)?;
        to_invoices(rows)
    }
}

impl SeaStore {
    /// The invoices port.
    pub fn invoices(&self) -> std::sync::Arc<dyn InvoiceRepository> {
        std::sync::Arc::new(self.clone())
    }
}
