//! `OrderRepository` over SeaORM. Settling a payment is one
//! transaction: the event's row under its unique key, the order read (locked on PostgreSQL),
//! the domain's decision, the status compare-and-set and the fulfilment jobs.

use crate::entity::{order, order_line, order_task, payment_event};
use crate::shared::rows::job_row;
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{Cents, CountryCode, ListingId, PageRequest, Paged, RepoError, UserId, Week};
use orders::{
    Amounts, Billing, Line, NewOrder, Order, OrderLine, OrderNumber, OrderRepository, OrderStatus, OrderTask, Settled, Settlement,
    VatNumberCheck, VatRate, VatSummary, VatTreatment,
};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionTrait,
};
use time::OffsetDateTime;

pub(super) fn corrupt(what: &str, value: &str) -> RepoError {
    RepoError::Backend(format!("{what} holds {value:?}").into())
}

fn to_line(row: order_line::Model) -> Result<OrderLine, RepoError> {
    let categories = serde_json::from_value(row.categories).map_err(|err| corrupt("order_lines.categories", &err.to_string()))?;
    Ok(OrderLine {
        id: row.id,
        line: Line {
            product_code: row.product_code,
            product_name: row.product_name,
            listing_id: row.listing_id.map(ListingId::new),
            week: row.week.map(Week::containing),
            amount: row.amount_cents.map(Cents::new),
            categories,
            options: row.options,
            amounts: Amounts {
                subtotal: Cents::new(row.subtotal_cents),
                vat: Cents::new(row.vat_cents),
                total: Cents::new(row.total_cents),
            },
        },
        fulfilled: row.fulfilled,
        fulfilled_at: row.fulfilled_at,
        outcome: row.outcome,
    })
}

fn to_order(row: order::Model, lines: Vec<order_line::Model>) -> Result<Order, RepoError> {
    Ok(Order {
        id: row.id,
        status: OrderStatus::parse(&row.status).ok_or_else(|| corrupt("orders.status", &row.status))?,
        number: OrderNumber::from_stored(row.number),
        owner: UserId::new(row.user_id),
        status_reason: row.status_reason,
        totals: Amounts { subtotal: Cents::new(row.subtotal_cents), vat: Cents::new(row.vat_cents), total: Cents::new(row.total_cents) },
        vat: VatSummary {
            rate: VatRate::from_basis_points(u32::try_from(row.vat_rate_basis_points).unwrap_or(u32::MAX))
                .ok_or_else(|| corrupt("orders.vat_rate_basis_points", &row.vat_rate_basis_points.to_string()))?,
            treatment: VatTreatment::parse(&row.vat_treatment).ok_or_else(|| corrupt("orders.vat_treatment", &row.vat_treatment))?,
            check: VatNumberCheck::parse(&row.vat_number_check).ok_or_else(|| corrupt("orders.vat_number_check", &row.vat_number_check))?,
        },
        billing: Billing {
            name: row.billing_name,
            address: row.billing_address,
            country: row.billing_country.as_deref().and_then(|country| CountryCode::parse(country).ok()),
            vat_number: row.vat_number,
        },
        lines: lines.into_iter().map(to_line).collect::<Result<_, _>>()?,
        provider: row.provider,
        provider_session: row.provider_session,
        payment_id: row.payment_id,
        paid_amount: row.paid_cents.map(Cents::new),
        created_at: row.created_at,
        expires_at: row.expires_at,
        paid_at: row.paid_at,
        refunded_at: row.refunded_at,
    })
}

/// The orders of `rows` with their lines, in the order given.
async fn with_lines(db: &impl ConnectionTrait, rows: Vec<order::Model>) -> Result<Vec<Order>, RepoError> {
    let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let mut lines = order_line::Entity::find()
        .filter(order_line::Column::OrderId.is_in(ids))
        .order_by_asc(order_line::Column::OrderId)
        .order_by_asc(order_line::Column::Position)
        .all(db)
        .await
        .map_err(repo_err)?;
    rows.into_iter()
        .map(|row| {
            let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut lines).into_iter().partition(|line| line.order_id == row.id);
            lines = rest;
            to_order(row, mine)
        })
        .collect()
}

async fn order_by_number(db: &impl ConnectionTrait, number: &str, lock: bool) -> Result<Option<order::Model>, RepoError> {
    let mut query = order::Entity::find().filter(order::Column::Number.eq(number));
    // PostgreSQL: concurrent settlements of one order take turns; SQLite serialises writers anyway.
    if lock && db.get_database_backend() == DbBackend::Postgres {
        query = query.lock_exclusive();
    }
    query.one(db).await.map_err(repo_err)
}

/// The compare-and-set of a status move: from whichever of `from` the machine lets become `to`.
fn status_move(
    id: i64,
    from: &[OrderStatus],
    to: OrderStatus,
    reason: Option<&str>,
    now: OffsetDateTime,
) -> sea_orm::UpdateMany<order::Entity> {
    let from: Vec<&str> = from.iter().filter(|status| status.may_become(to)).map(|status| status.as_str()).collect();
    order::Entity::update_many()
        .col_expr(order::Column::Status, Expr::value(to.as_str()))
        .col_expr(order::Column::StatusReason, Expr::value(reason.map(str::to_owned)))
        .col_expr(order::Column::UpdatedAt, Expr::value(utc(now)))
        .filter(order::Column::Id.eq(id))
        .filter(order::Column::Status.is_in(from))
}

fn vat_columns(model: &mut order::ActiveModel, vat: &VatSummary, totals: Amounts) {
    model.subtotal_cents = Set(totals.subtotal.get());
    model.vat_cents = Set(totals.vat.get());
    model.total_cents = Set(totals.total.get());
    model.vat_rate_basis_points = Set(i32::try_from(vat.rate.basis_points()).unwrap_or(i32::MAX));
    model.vat_treatment = Set(vat.treatment.as_str().to_owned());
    model.reverse_charge = Set(vat.treatment == VatTreatment::ReverseCharge);
    model.vat_number_check = Set(vat.check.as_str().to_owned());
}

#[async_trait]
impl OrderRepository for SeaStore {
    async fn insert(&self, new: &NewOrder) -> Result<Order, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        let mut model = order::ActiveModel {
            number: Set(new.number.as_str().to_owned()),
            user_id: Set(new.owner.get()),
            status: Set(OrderStatus::Pending.as_str().to_owned()),
            status_reason: Set(None),
            currency: Set(Order::CURRENCY.to_owned()),
            billing_name: Set(new.billing.name.clone()),
            billing_address: Set(new.billing.address.clone()),
            billing_country: Set(new.billing.country.as_ref().map(|country| country.as_str().to_owned())),
            vat_number: Set(new.billing.vat_number.clone()),
            token_hash: Set(new.token_hash.clone()),
            provider: Set(None),
            provider_session: Set(None),
            payment_id: Set(None),
            paid_cents: Set(None),
            paid_currency: Set(None),
            created_at: Set(utc(new.created_at)),
            updated_at: Set(utc(new.created_at)),
            expires_at: Set(utc(new.expires_at)),
            paid_at: Set(None),
            refunded_at: Set(None),
            ..Default::default()
        };
        vat_columns(&mut model, &new.vat, new.totals);
        let row = model.insert(&txn).await.map_err(repo_err)?;
        for (position, line) in new.lines.iter().enumerate() {
            order_line::ActiveModel {
                order_id: Set(row.id),
                position: Set(i32::try_from(position).unwrap_or(i32::MAX)),
                product_code: Set(line.product_code.clone()),
                product_name: Set(line.product_name.clone()),
                listing_id: Set(line.listing_id.map(ListingId::get)),
                week: Set(line.week.map(Week::monday)),
                amount_cents: Set(line.amount.map(Cents::get)),
                categories: Set(serde_json::json!(line.categories)),
                options: Set(line.options.clone()),
                subtotal_cents: Set(line.amounts.subtotal.get()),
                vat_cents: Set(line.amounts.vat.get()),
                total_cents: Set(line.amounts.total.get()),
                fulfilled: Set(false),
                fulfilled_at: Set(None),
                outcome: Set(None),
                ..Default::default()
            }
            .insert(&txn)
            .await
            .map_err(repo_err)?;
        }
        let order = with_lines(&txn, vec![row]).await?.pop().ok_or_else(|| RepoError::Backend("the new order vanished".into()))?;
        txn.commit().await.map_err(repo_err)?;
        Ok(order)
    }

    async fn owned(&self, owner: UserId, page: PageRequest) -> Result<Paged<Order>, RepoError> {
        let query = order::Entity::find().filter(order::Column::UserId.eq(owner.get()));
        let total = query.clone().count(&self.db).await.map_err(repo_err)?;
        let rows = query
            .order_by_desc(order::Column::Id)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(Paged::new(with_lines(&self.db, rows).await?, page, total))
    }

    async fn all(&self, status: Option<OrderStatus>, limit: u64) -> Result<Vec<Order>, RepoError> {
        let mut query = order::Entity::find();
        if let Some(status) = status {
            query = query.filter(order::Column::Status.eq(status.as_str()));
        }
        let rows = query.order_by_desc(order::Column::Id).limit(limit).all(&self.db).await.map_err(repo_err)?;
        with_lines(&self.db, rows).await
    }

    async fn by_id(&self, id: i64) -> Result<Option<Order>, RepoError> {
        let Some(row) = order::Entity::find_by_id(id).one(&self.db).await.map_err(repo_err)? else { return Ok(None) };
        Ok(with_lines(&self.db, vec![row]).await?.pop())
    }

    async fn buyer_email(&self, owner: UserId) -> Result<Option<kernel::Email>, RepoError> {
        let row = crate::entity::user::Entity::find_by_id(owner.get()).one(&self.db).await.map_err(repo_err)?;
        Ok(row.and_then(|user| kernel::Email::parse(&user.email).ok()))
    }

    async fn by_number(&self, number: &OrderNumber) -> Result<Option<(Order, String)>, RepoError> {
        let Some(row) = order_by_number(&self.db, number.as_str(), false).await? else { return Ok(None) };
        let token_hash = row.token_hash.clone();
        Ok(with_lines(&self.db, vec![row]).await?.pop().map(|order| (order, token_hash)))
    }

    async fn reprice(
        &self,
        id: i64,
        billing: &Billing,
        vat: &VatSummary,
        lines: &[Amounts],
        totals: Amounts,
        now: OffsetDateTime,
    ) -> Result<bool, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        let mut model = order::ActiveModel {
            billing_name: Set(billing.name.clone()),
            billing_address: Set(billing.address.clone()),
            billing_country: Set(billing.country.as_ref().map(|country| country.as_str().to_owned())),
            vat_number: Set(billing.vat_number.clone()),
            // A session opened at the old price is closed by the caller; the order has none now.
            provider_session: Set(None),
            updated_at: Set(utc(now)),
            ..Default::default()
        };
        vat_columns(&mut model, vat, totals);
        let changed = order::Entity::update_many()
            .set(model)
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::Status.eq(OrderStatus::Pending.as_str()))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        if changed.rows_affected != 1 {
            return Ok(false);
        }
        let rows = order_line::Entity::find()
            .filter(order_line::Column::OrderId.eq(id))
            .order_by_asc(order_line::Column::Position)
            .all(&txn)
            .await
            .map_err(repo_err)?;
        for (row, amounts) in rows.into_iter().zip(lines) {
            order_line::Entity::update_many()
                .col_expr(order_line::Column::VatCents, Expr::value(amounts.vat.get()))
                .col_expr(order_line::Column::TotalCents, Expr::value(amounts.total.get()))
                .filter(order_line::Column::Id.eq(row.id))
                .exec(&txn)
                .await
                .map_err(repo_err)?;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(true)
    }

    async fn set_token_hash(&self, id: i64, token_hash: &str) -> Result<(), RepoError> {
        order::Entity::update_many()
            .col_expr(order::Column::TokenHash, Expr::value(token_hash))
            .filter(order::Column::Id.eq(id))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn set_session(&self, id: i64, provider: &str, session: &str, now: OffsetDateTime) -> Result<bool, RepoError> {
        let changed = order::Entity::update_many()
            .col_expr(order::Column::Provider, Expr::value(provider))
            .col_expr(order::Column::ProviderSession, Expr::value(session))
            .col_expr(order::Column::UpdatedAt, Expr::value(utc(now)))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::Status.eq(OrderStatus::Pending.as_str()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(changed.rows_affected == 1)
    }

    async fn settle(
        &self,
        provider: &str,
        event_id: &str,
        event_kind: &str,
        order_number: Option<&str>,
        decide: &(dyn for<'o> Fn(&'o Order) -> Settlement + Send + Sync),
        now: OffsetDateTime,
    ) -> Result<Settled, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        // The event's key first: a duplicate (or a concurrent twin) stops here.
        let event = payment_event::ActiveModel {
            provider: Set(provider.to_owned()),
            event_id: Set(event_id.to_owned()),
            order_id: Set(None),
            kind: Set(event_kind.chars().take(60).collect()),
            received_at: Set(utc(now)),
            ..Default::default()
        };
        let event = match event.insert(&txn).await.map_err(repo_err) {
            Ok(event) => event,
            Err(RepoError::Duplicate(_)) => return Ok(Settled::Duplicate),
            Err(err) => return Err(err),
        };
        let Some(row) = (match order_number {
            Some(number) => order_by_number(&txn, number, true).await?,
            None => None,
        }) else {
            txn.commit().await.map_err(repo_err)?;
            return Ok(if order_number.is_some() {
                Settled::UnknownOrder
            } else {
                Settled::Applied(Settlement::Nothing("no order named".into()))
            });
        };
        payment_event::Entity::update_many()
            .col_expr(payment_event::Column::OrderId, Expr::value(row.id))
            .filter(payment_event::Column::Id.eq(event.id))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        let order = with_lines(&txn, vec![row]).await?.pop().ok_or_else(|| RepoError::Backend("the order vanished".into()))?;
        let settlement = decide(&order);
        let (to, payment, reason) = match &settlement {
            Settlement::Paid { payment, .. } => (Some(OrderStatus::Paid), Some(payment), None),
            Settlement::NeedsReview { payment, reason } => (Some(OrderStatus::NeedsReview), Some(payment), Some(reason.clone())),
            Settlement::Nothing(_) | Settlement::Refund { .. } => (None, None, None),
        };
        if let (Some(to), Some(payment)) = (to, payment) {
            let moved = order::Entity::update_many()
                .col_expr(order::Column::Status, Expr::value(to.as_str()))
                .col_expr(order::Column::StatusReason, Expr::value(reason))
                .col_expr(order::Column::PaymentId, Expr::value(payment.payment_id.clone()))
                .col_expr(order::Column::ProviderSession, Expr::value(payment.session_id.clone()))
                .col_expr(order::Column::Provider, Expr::value(provider))
                .col_expr(order::Column::PaidCents, Expr::value(payment.amount.get()))
                .col_expr(order::Column::PaidCurrency, Expr::value(payment.currency.to_uppercase()))
                .col_expr(order::Column::PaidAt, Expr::value(utc(now)))
                .col_expr(order::Column::UpdatedAt, Expr::value(utc(now)))
                .filter(order::Column::Id.eq(order.id))
                .filter(order::Column::Status.eq(order.status.as_str()))
                .exec(&txn)
                .await
                .map_err(repo_err)?;
            if moved.rows_affected != 1 {
                return Err(RepoError::Backend(format!("order {} moved while it was being settled", order.number).into()));
            }
        }
        let jobs: &[kernel::NewJob] = match &settlement {
            Settlement::Paid { jobs, .. } => jobs,
            Settlement::Refund { job, .. } => std::slice::from_ref(job),
            _ => &[],
        };
        for job in jobs {
            let inserted = crate::entity::job::Entity::insert(job_row(job, now))
                .on_conflict_do_nothing_on([crate::entity::job::Column::UniqueKey])
                .exec(&txn)
                .await
                .map_err(repo_err)?;
            let _ = inserted;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(Settled::Applied(settlement))
    }

    async fn transition(
        &self,
        id: i64,
        from: &[OrderStatus],
        to: OrderStatus,
        reason: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<bool, RepoError> {
        let moved = status_move(id, from, to, reason, now).exec(&self.db).await.map_err(repo_err)?;
        Ok(moved.rows_affected == 1)
    }

    async fn line(&self, line_id: i64) -> Result<Option<(Order, OrderLine)>, RepoError> {
        let Some(line) = order_line::Entity::find_by_id(line_id).one(&self.db).await.map_err(repo_err)? else { return Ok(None) };
        let Some(row) = order::Entity::find_by_id(line.order_id).one(&self.db).await.map_err(repo_err)? else { return Ok(None) };
        let order = with_lines(&self.db, vec![row]).await?.pop().ok_or_else(|| RepoError::Backend("the order vanished".into()))?;
        let line =
            order.lines.iter().find(|line| line.id == line_id).cloned().ok_or_else(|| RepoError::Backend("the line vanished".into()))?;
        Ok(Some((order, line)))
    }

    async fn fulfil_line(&self, line_id: i64, outcome: &str, now: OffsetDateTime) -> Result<(), RepoError> {
        order_line::Entity::update_many()
            .col_expr(order_line::Column::Fulfilled, Expr::value(true))
            .col_expr(order_line::Column::FulfilledAt, Expr::value(utc(now)))
            .col_expr(order_line::Column::Outcome, Expr::value(outcome))
            .filter(order_line::Column::Id.eq(line_id))
            .filter(order_line::Column::Fulfilled.eq(false))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn note_line(&self, line_id: i64, outcome: &str) -> Result<(), RepoError> {
        order_line::Entity::update_many()
            .col_expr(order_line::Column::Outcome, Expr::value(outcome))
            .filter(order_line::Column::Id.eq(line_id))
            .filter(order_line::Column::Outcome.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn complete_if_fulfilled(&self, order_id: i64, now: OffsetDateTime) -> Result<bool, RepoError> {
        let open = order_line::Entity::find()
            .filter(order_line::Column::OrderId.eq(order_id))
            .filter(order_line::Column::Fulfilled.eq(false))
            .count(&self.db)
            .await
            .map_err(repo_err)?;
        if open > 0 {
            return Ok(false);
        }
        self.transition(order_id, &[OrderStatus::Paid], OrderStatus::Fulfilled, None, now).await
    }

    async fn open_task(&self, line_id: i64, kind: &str, now: OffsetDateTime) -> Result<(), RepoError> {
        let row = order_task::ActiveModel {
            order_line_id: Set(line_id),
            kind: Set(kind.to_owned()),
            status: Set("open".into()),
            created_at: Set(utc(now)),
            done_at: Set(None),
            ..Default::default()
        };
        order_task::Entity::insert(row)
            .on_conflict_do_nothing_on([order_task::Column::OrderLineId, order_task::Column::Kind])
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn tasks(&self, open_only: bool) -> Result<Vec<OrderTask>, RepoError> {
        let mut query = order_task::Entity::find();
        if open_only {
            query = query.filter(order_task::Column::Status.eq("open"));
        }
        let rows = query.order_by_desc(order_task::Column::Id).limit(500).all(&self.db).await.map_err(repo_err)?;
        let mut tasks = Vec::with_capacity(rows.len());
        for row in rows {
            tasks.push(self.task_of(row).await?);
        }
        tasks.sort_by_key(|task| task.done);
        Ok(tasks)
    }

    async fn finish_task(&self, id: i64, now: OffsetDateTime) -> Result<Option<(OrderTask, bool)>, RepoError> {
        let finished = order_task::Entity::update_many()
            .col_expr(order_task::Column::Status, Expr::value("done"))
            .col_expr(order_task::Column::DoneAt, Expr::value(utc(now)))
            .filter(order_task::Column::Id.eq(id))
            .filter(order_task::Column::Status.eq("open"))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected
            == 1;
        let Some(row) = order_task::Entity::find_by_id(id).one(&self.db).await.map_err(repo_err)? else { return Ok(None) };
        Ok(Some((self.task_of(row).await?, finished)))
    }

    async fn open_tasks_of_line(&self, line_id: i64) -> Result<u64, RepoError> {
        order_task::Entity::find()
            .filter(order_task::Column::OrderLineId.eq(line_id))
            .filter(order_task::Column::Status.eq("open"))
            .count(&self.db)
            .await
            .map_err(repo_err)
    }

    async fn expire_due(&self, now: OffsetDateTime) -> Result<u64, RepoError> {
        let expired = order::Entity::update_many()
            .col_expr(order::Column::Status, Expr::value(OrderStatus::Expired.as_str()))
            .col_expr(order::Column::StatusReason, Expr::value("not paid within 24 hours"))
            .col_expr(order::Column::UpdatedAt, Expr::value(utc(now)))
            .filter(order::Column::Status.eq(OrderStatus::Pending.as_str()))
            .filter(order::Column::ExpiresAt.lte(utc(now)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(expired.rows_affected)
    }

    async fn mark_refunded(&self, id: i64, reason: &str, now: OffsetDateTime) -> Result<bool, RepoError> {
        let moved = status_move(id, &OrderStatus::ALL, OrderStatus::Refunded, Some(reason), now)
            .col_expr(order::Column::RefundedAt, Expr::value(utc(now)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(moved.rows_affected == 1)
    }
}

impl SeaStore {
    async fn task_of(&self, row: order_task::Model) -> Result<OrderTask, RepoError> {
        let line = order_line::Entity::find_by_id(row.order_line_id)
            .one(&self.db)
            .await
            .map_err(repo_err)?
            .ok_or_else(|| RepoError::Backend("a task's line vanished".into()))?;
        let order = order::Entity::find_by_id(line.order_id)
            .one(&self.db)
            .await
            .map_err(repo_err)?
            .ok_or_else(|| RepoError::Backend("a task's order vanished".into()))?;
        Ok(OrderTask {
            id: row.id,
            order_line_id: row.order_line_id,
            order_number: OrderNumber::from_stored(order.number),
            kind: row.kind,
            listing_id: line.listing_id,
            done: row.status == "done",
            created_at: row.created_at,
            done_at: row.done_at,
        })
    }
}
