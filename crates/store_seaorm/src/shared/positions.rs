//! Page positions: a page of a ranked list (a value highest first, then the id) starts where the
//! page before it ended, when that page was read moments ago. The store remembers the last row
//! of every page it reads for `POSITION_TTL`; the next page is then read from that position in
//! the list's index (a keyset walk: a crawler going through the pages costs one page each),
//! never by skipping the rows before it (`OFFSET`). A page whose predecessor nobody read lately
//! is read by its offset, and its last row is remembered for the page after.
//!
//! Rows are always read as they are now; only where a page starts may be as it was up to
//! `POSITION_TTL` ago (a position counts from the offset read it was derived from, so a chain of
//! pages cannot drift), and a write this server takes forgets every position at once (the
//! count of writes it shares with the answer cache), as it forgets every kept answer.

use crate::repo_err;
use crate::shared::rows::SummaryRow;
use kernel::{PageRequest, RepoError, WriteGeneration};
use listings::ListingSummary;
use sea_orm::sea_query::{Expr, Order, SelectStatement};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, FromQueryResult, QueryFilter, QueryOrder, QueryResult, QuerySelect, QueryTrait,
    Select, Statement,
};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use time::OffsetDateTime;

/// How long a page's start is taken from the page before it, counted from the offset read the
/// position comes from: as long as the answer cache keeps an answer by default.
pub(crate) const POSITION_TTL: Duration = Duration::from_secs(1);

/// Positions kept at most: when full, the expired ones go, and if none had, all of them.
const MOST_POSITIONS: usize = 20_000;

/// The kind of value a list is ranked by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RankKind {
    /// A count (votes, views, follows): a 64-bit integer.
    Count,
    /// A 32-bit integer (a Domain Rating).
    Int32,
    /// A moment (the launch time).
    Time,
    /// A text (a name), in the database's order of texts.
    Text,
}

/// Which way a list runs through its values (ties by id, lowest first, either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    HighestFirst,
    LowestFirst,
}

/// The value of a row in a ranked list.
#[derive(Debug, Clone, PartialEq)]
enum RankValue {
    Count(i64),
    Time(OffsetDateTime),
    Text(String),
}

impl From<RankValue> for sea_orm::Value {
    fn from(value: RankValue) -> Self {
        match value {
            RankValue::Count(count) => count.into(),
            RankValue::Time(at) => crate::utc(at).into(),
            RankValue::Text(text) => text.into(),
        }
    }
}

/// Where a page starts: just after the row with this value and id.
#[derive(Debug, Clone)]
struct Position {
    value: RankValue,
    id: i64,
    /// When the offset read this position comes from was made.
    anchored: Instant,
    /// The count of this server's writes then.
    writes: u64,
}

/// The positions this server remembers, by list and offset.
#[derive(Debug, Default)]
pub struct PagePositions {
    kept: Mutex<HashMap<(String, u64), Position>>,
    writes: WriteGeneration,
}

impl PagePositions {
    /// The count of writes that forgets these positions (share it with the answer cache).
    pub(crate) fn writes(&self) -> WriteGeneration {
        self.writes.clone()
    }

    fn start(&self, list: &str, offset: u64, now: Instant) -> Option<Position> {
        let kept = self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let position = kept.get(&(list.to_owned(), offset))?.clone();
        (position.writes == self.writes.current() && now.duration_since(position.anchored) < POSITION_TTL).then_some(position)
    }

    /// Where the page at `offset` of `list` starts, as the latest read of the page before it
    /// found: `None` when that page was not full (or its last row had no value).
    fn set(&self, list: String, offset: u64, position: Option<Position>) {
        let mut kept = self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(position) = position else {
            kept.remove(&(list, offset));
            return;
        };
        if kept.len() >= MOST_POSITIONS {
            let now = Instant::now();
            kept.retain(|_, kept| now.duration_since(kept.anchored) < POSITION_TTL);
            if kept.len() >= MOST_POSITIONS {
                kept.clear();
            }
        }
        kept.insert((list, offset), position);
    }
}

/// A ranked list: the rows `base` finds (filtered, not ordered), by `by` in `direction`, then
/// by `id`, lowest first; `beside`, a column of the list's table read with each row (as
/// `PAGE_BESIDE`).
pub(crate) struct Ranked<E: EntityTrait> {
    pub base: Select<E>,
    pub by: E::Column,
    pub kind: RankKind,
    pub direction: Direction,
    pub id: E::Column,
    pub beside: Option<E::Column>,
}

const PAGE_ID: &str = "page_id";
const PAGE_PART: &str = "page_part";
/// The names of the ranked value (`by`) and of the `beside` column in a page's rows.
pub(crate) const PAGE_VALUE: &str = "page_value";
pub(crate) const PAGE_BESIDE: &str = "page_beside";

impl<E: EntityTrait> Ranked<E> {
    /// The rows `base` finds, `by` highest first, then by `id`.
    pub(crate) fn highest_first(base: Select<E>, by: E::Column, kind: RankKind, id: E::Column) -> Self {
        Self { base, by, kind, direction: Direction::HighestFirst, id, beside: None }
    }

    /// One page as listings' cards (the list's ids are listings').
    pub(crate) async fn cards(
        self,
        db: &sea_orm::DatabaseConnection,
        positions: &PagePositions,
        page: PageRequest,
    ) -> Result<Vec<ListingSummary>, RepoError> {
        let rows = self.page_of::<SummaryRow, _>(db, positions, page, SummaryRow::select()).await?;
        rows.into_iter().map(SummaryRow::into_summary).collect()
    }

    /// One page, each row read as `M` through `rows` (the columns `M` needs of the table the
    /// list's ids are ids of, with what they join, neither filtered nor ordered): the page and
    /// its rows in one statement.
    pub(crate) async fn page_of<M: FromQueryResult, R: EntityTrait>(
        self,
        db: &sea_orm::DatabaseConnection,
        positions: &PagePositions,
        page: PageRequest,
        rows: Select<R>,
    ) -> Result<Vec<M>, RepoError> {
        let rows = self.read(db, positions, page, rows).await?;
        rows.iter().map(|row| M::from_query_result(row, "").map_err(repo_err)).collect()
    }

    /// Reads `rows` of one page (with `PAGE_VALUE` and `PAGE_BESIDE` beside them), from
    /// its remembered position when there is one, and remembers where the next page starts.
    pub(crate) async fn read<R: EntityTrait>(
        &self,
        db: &sea_orm::DatabaseConnection,
        positions: &PagePositions,
        page: PageRequest,
        rows: Select<R>,
    ) -> Result<Vec<QueryResult>, RepoError> {
        let backend = db.get_database_backend();
        let per_page = u64::from(page.per_page());
        let list = {
            let statement = backend.build(&self.base.clone().into_query());
            format!("{:?}|{}|{:?}", self.by, statement.sql, statement.values)
        };
        let now = Instant::now();
        let writes = positions.writes.current();
        let start = (page.offset() > 0).then(|| positions.start(&list, page.offset(), now)).flatten();
        let (anchored, writes, statement) = match start {
            Some(start) => (start.anchored, start.writes, self.after(backend, start, per_page)),
            None => (now, writes, self.at_offset(backend, page)),
        };
        let rows = db.query_all_raw(joined(backend, statement, rows, self.direction, self.beside.is_some())?).await.map_err(repo_err)?;
        // A full page's last row starts the next one; a row without a value cannot (it is
        // ranked by the database's rule for missing values, which differs between them). The
        // latest read of a page decides: a page that is not full forgets where the next began.
        let mut next = None;
        if rows.len() as u64 == per_page
            && let Some(last) = rows.last()
        {
            let id: i64 = last.try_get("", PAGE_ID).map_err(repo_err)?;
            let value = match self.kind {
                RankKind::Count => last.try_get::<Option<i64>>("", PAGE_VALUE).map_err(repo_err)?.map(RankValue::Count),
                RankKind::Int32 => {
                    last.try_get::<Option<i32>>("", PAGE_VALUE).map_err(repo_err)?.map(|value| RankValue::Count(value.into()))
                }
                RankKind::Time => last.try_get::<Option<OffsetDateTime>>("", PAGE_VALUE).map_err(repo_err)?.map(RankValue::Time),
                RankKind::Text => last.try_get::<Option<String>>("", PAGE_VALUE).map_err(repo_err)?.map(RankValue::Text),
            };
            next = value.map(|value| Position { value, id, anchored, writes });
        }
        positions.set(list, page.offset() + per_page, next);
        Ok(rows)
    }

    /// The page `offset` rows in: the rows before it skipped in the list's index.
    fn at_offset(&self, backend: DbBackend, page: PageRequest) -> Statement {
        let ordered = self.columns(self.base.clone(), 0).order_by(self.by, self.order()).order_by(self.id, Order::Asc);
        page_statement(backend, ordered.into_query(), page)
    }

    /// The page after `start`: the rows that tie with it on the value and come after it by id,
    /// then the rows beyond its value, each a range of the list's index read from its start
    /// (one statement; a single condition with `OR` could not start the index walk at the
    /// position).
    fn after(&self, backend: DbBackend, start: Position, per_page: u64) -> Statement {
        let ties = self
            .columns(self.base.clone(), 0)
            .filter(self.by.eq(start.value.clone()))
            .filter(self.id.gt(start.id))
            .order_by(self.id, Order::Asc);
        let beyond = match self.direction {
            Direction::HighestFirst => self.by.lt(start.value),
            Direction::LowestFirst => self.by.gt(start.value),
        };
        let below = self.columns(self.base.clone(), 1).filter(beyond).order_by(self.by, self.order()).order_by(self.id, Order::Asc);
        let (ties, mut values) = with_limit(backend, &ties.into_query(), per_page, 0);
        let (below, more) = with_limit(backend, &below.into_query(), per_page, values.len());
        values.extend(more);
        let sql = format!(
            "SELECT * FROM ({ties}) AS ties UNION ALL SELECT * FROM ({below}) AS below \
             ORDER BY {PAGE_PART} ASC, {PAGE_VALUE} {}, {PAGE_ID} ASC LIMIT {per_page}",
            sql_order(self.direction)
        );
        Statement::from_sql_and_values(backend, sql, values)
    }

    fn order(&self) -> Order {
        match self.direction {
            Direction::HighestFirst => Order::Desc,
            Direction::LowestFirst => Order::Asc,
        }
    }

    /// `query` reading the id, the ranked value, which part of a keyset read a row is from, and
    /// the column beside.
    fn columns(&self, query: Select<E>, part: i32) -> Select<E> {
        let query = query
            .select_only()
            .column_as(self.id, PAGE_ID)
            .column_as(self.by, PAGE_VALUE)
            .column_as(Expr::cust(part.to_string()), PAGE_PART);
        match self.beside {
            Some(beside) => query.column_as(beside, PAGE_BESIDE),
            None => query,
        }
    }
}

fn sql_order(direction: Direction) -> &'static str {
    match direction {
        Direction::HighestFirst => "DESC",
        Direction::LowestFirst => "ASC",
    }
}

/// `rows` of `page` (a statement reading `PAGE_ID`, `PAGE_VALUE` and `PAGE_PART`; its ids are
/// ids of `rows`' table), in the page's order, with the page's id and value beside each.
fn joined<R: EntityTrait>(
    backend: DbBackend,
    page: Statement,
    rows: Select<R>,
    direction: Direction,
    beside: bool,
) -> Result<Statement, RepoError> {
    let table = R::default().table_name().to_owned();
    let from = format!(r#" FROM "{table}""#);
    let rows = backend.build(&rows.into_query());
    let (columns, joins) = match rows.sql.split_once(&from) {
        // Values in `rows` would need numbering after the page's; none is needed.
        Some(parts) if rows.values.as_ref().is_none_or(|values| values.0.is_empty()) => parts,
        _ => return Err(RepoError::Backend(format!("a page's rows must read {table} without values: {}", rows.sql).into())),
    };
    let beside = if beside { format!(r#", "page"."{PAGE_BESIDE}""#) } else { String::new() };
    let sql = format!(
        r#"{columns}, "page"."{PAGE_ID}", "page"."{PAGE_VALUE}"{beside} FROM ({page}) AS "page" JOIN "{table}" ON "{table}"."id" = "page"."{PAGE_ID}"{joins} ORDER BY "page"."{PAGE_PART}" ASC, "page"."{PAGE_VALUE}" {}, "page"."{PAGE_ID}" ASC"#,
        sql_order(direction),
        page = page.sql
    );
    Ok(Statement { sql, ..page })
}

/// One page of `query` (ordered, without a limit): the first page with its limit written into
/// the SQL (see [`with_limit`]), a later one by offset and limit sent as values (the offsets are
/// many; one statement text for each would crowd the connections' statement caches).
pub(crate) fn page_statement(backend: DbBackend, query: SelectStatement, page: PageRequest) -> Statement {
    let per_page = u64::from(page.per_page());
    if page.offset() > 0 {
        return backend.build(query.clone().offset(page.offset()).limit(per_page));
    }
    let (sql, values) = with_limit(backend, &query, per_page, 0);
    Statement::from_sql_and_values(backend, sql, values)
}

/// The name of the count a counted page reads beside its rows.
const PAGE_TOTAL: &str = "page_total";

/// One page of `query` (filtered and ordered, its columns chosen) and how many rows it finds in
/// all, counted beside the page's rows in the same statement (a scalar subquery, read once); a
/// page past the end, which reads no row and so no count, counts in a statement of its own.
pub(crate) async fn counted_page<E: EntityTrait>(
    db: &impl ConnectionTrait,
    query: Select<E>,
    page: PageRequest,
) -> Result<(Vec<QueryResult>, u64), RepoError> {
    let all = count_of(query.clone());
    counted_page_by(db, query, all, page).await
}

/// `SELECT COUNT(*)` of `from` (filtered, its order dropped): how `counted_page` counts its
/// query, and how a page whose joins add columns but never add nor drop rows (each award's
/// listing card) counts its base table alone, instead of reading a joined row per match.
pub(crate) fn count_of<E: EntityTrait>(from: Select<E>) -> SelectStatement {
    use sea_orm::sea_query::ExprTrait;
    let mut all = from.select_only().expr_as(Expr::col(sea_orm::sea_query::Asterisk).count(), PAGE_TOTAL).into_query();
    all.clear_order_by();
    all
}

/// `counted_page`, counting with `all` (a statement whose one column is the count, from
/// `count_of`).
pub(crate) async fn counted_page_by<E: EntityTrait>(
    db: &impl ConnectionTrait,
    query: Select<E>,
    all: SelectStatement,
    page: PageRequest,
) -> Result<(Vec<QueryResult>, u64), RepoError> {
    use sea_orm::sea_query::SubQueryStatement;
    let beside = Expr::SubQuery(None, Box::new(SubQueryStatement::SelectStatement(all.clone())));
    let backend = db.get_database_backend();
    let rows = db.query_all_raw(page_statement(backend, query.expr_as(beside, PAGE_TOTAL).into_query(), page)).await.map_err(repo_err)?;
    let read = |row: &QueryResult| row.try_get::<i64>("", PAGE_TOTAL).map_err(repo_err);
    let total = match rows.first() {
        Some(row) => read(row)?,
        None => db.query_one_raw(backend.build(&all)).await.map_err(repo_err)?.as_ref().map(read).transpose()?.unwrap_or(0),
    };
    Ok((rows, u64::try_from(total).unwrap_or(0)))
}

/// `query` as SQL with `LIMIT limit` written into the text, and its values, numbered from
/// `numbered` on (PostgreSQL numbers its placeholders; SQLite's are positional). A limit sent as
/// a parameter makes PostgreSQL plan the statement anew at every execution (it cannot cost a
/// generic plan for an unknown limit): about twice what running the read itself costs.
fn with_limit(backend: DbBackend, query: &SelectStatement, limit: u64, numbered: usize) -> (String, Vec<sea_orm::Value>) {
    let statement = backend.build(query);
    let values = statement.values.map(|values| values.0).unwrap_or_default();
    let sql = match backend {
        DbBackend::Postgres if numbered > 0 => renumbered(&statement.sql, numbered),
        _ => statement.sql,
    };
    (format!("{sql} LIMIT {limit}"), values)
}

/// PostgreSQL's placeholders (`$1`, `$2`, ...) moved on by `by`: the SQL sea-query writes has
/// every value as a placeholder, never a `$` in a literal, and quotes no name with one.
fn renumbered(sql: &str, by: usize) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<usize>() {
            Ok(number) => out.push_str(&(number + by).to_string()),
            Err(_) => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_move_on_and_nothing_else_changes() {
        assert_eq!(
            renumbered(r#"SELECT "a" FROM "t" WHERE "b" = $1 AND "c" > $2"#, 3),
            r#"SELECT "a" FROM "t" WHERE "b" = $4 AND "c" > $5"#
        );
        assert_eq!(renumbered("no placeholders", 3), "no placeholders");
        assert_eq!(renumbered("$10 $9", 1), "$11 $10");
    }
}
