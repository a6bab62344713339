//! Triggers written once and rendered for SQLite and PostgreSQL (the kept directory counts of
//! migrations 18 and 19).

/// What a trigger does.
pub(crate) enum Body {
    /// These statements, in order.
    Run(Vec<String>),
    /// Refuses the write with this message.
    Refuse(&'static str),
    /// Refuses the write with this message when the condition holds (PostgreSQL allows no
    /// subquery in a trigger's own condition).
    RefuseIf(&'static str, &'static str),
}

/// One trigger, written once for both backends.
pub(crate) struct Trigger {
    pub name: &'static str,
    /// `AFTER INSERT`, `BEFORE DELETE`, `AFTER UPDATE OF status`, ...
    pub when_fired: &'static str,
    pub table: &'static str,
    /// The row condition, if any.
    pub only_if: Option<&'static str>,
    pub body: Body,
}

/// Whether the listing of the link in `NEW` or `OLD` is live: counts change only for live listings.
macro_rules! live {
    ($row:literal) => {
        concat!("EXISTS (SELECT 1 FROM listings WHERE id = ", $row, ".listing_id AND status = 'live')")
    };
}

/// `+1` when the updated listing became live, `-1` when it stopped being live.
macro_rules! step {
    () => {
        "CASE WHEN NEW.status = 'live' THEN 1 ELSE -1 END"
    };
}

pub(crate) use {live, step};

pub(crate) fn run(statements: &[&str]) -> Body {
    Body::Run(statements.iter().map(|statement| (*statement).to_owned()).collect())
}

pub(crate) fn sqlite_trigger(trigger: &Trigger) -> String {
    let only_if = trigger.only_if.map(|only_if| format!(" WHEN {only_if}")).unwrap_or_default();
    let body = match &trigger.body {
        Body::Run(statements) => statements.iter().map(|statement| format!("{statement};")).collect::<Vec<_>>().join(" "),
        Body::Refuse(message) => format!("SELECT RAISE(ABORT, '{message}');"),
        Body::RefuseIf(condition, message) => format!("SELECT RAISE(ABORT, '{message}') WHERE {condition};"),
    };
    format!("CREATE TRIGGER {} {} ON {} FOR EACH ROW{only_if} BEGIN {body} END", trigger.name, trigger.when_fired, trigger.table)
}

/// PostgreSQL runs writing transactions side by side, and a trigger's statements would see
/// each other's uncommitted links and statuses only after commit: a listing going live while
/// another transaction links it to a category would be counted by neither. So every counting
/// trigger first takes this transaction-scoped lock: the transactions that change counts run
/// their counting one after the other (each statement then sees the others' commits), and
/// no two can lock the count rows in opposite orders. SQLite has one writer at a time anyway.
pub(crate) const COUNTS_LOCK: i64 = 0x6c61_756e_6368; // "launch"

pub(crate) fn postgres_trigger(trigger: &Trigger) -> [String; 2] {
    // A BEFORE trigger that returns NULL cancels the row's write; the others ignore it.
    let result = if trigger.when_fired.starts_with("BEFORE") { "OLD" } else { "NULL" };
    let body = match &trigger.body {
        Body::Run(statements) => std::iter::once(format!("PERFORM pg_advisory_xact_lock({COUNTS_LOCK})"))
            .chain(statements.iter().cloned())
            .map(|statement| format!("{statement};"))
            .collect::<Vec<_>>()
            .join("\n"),
        Body::Refuse(message) => format!("RAISE EXCEPTION '{message}';"),
        Body::RefuseIf(condition, message) => format!("IF {condition} THEN RAISE EXCEPTION '{message}'; END IF;"),
    };
    // `IS NOT` is SQLite's spelling of a null-safe difference.
    let only_if =
        trigger.only_if.map(|only_if| format!(" WHEN ({})", only_if.replace(" IS NOT ", " IS DISTINCT FROM "))).unwrap_or_default();
    [
        format!("CREATE FUNCTION {}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN\n{body}\nRETURN {result};\nEND $$", trigger.name),
        format!(
            "CREATE TRIGGER {name} {} ON {} FOR EACH ROW{only_if} EXECUTE FUNCTION {name}()",
            trigger.when_fired,
            trigger.table,
            name = trigger.name
        ),
    ]
}

/// The statements that create these triggers on `backend`.
pub(crate) fn create_statements(backend: sea_orm_migration::sea_orm::DatabaseBackend, triggers: &[Trigger]) -> Vec<String> {
    use sea_orm_migration::sea_orm::DatabaseBackend;
    triggers
        .iter()
        .flat_map(|trigger| match backend {
            DatabaseBackend::Postgres => postgres_trigger(trigger).to_vec(),
            _ => vec![sqlite_trigger(trigger)],
        })
        .collect()
}

/// The statements that replace a row trigger with one of the same name (another column list,
/// another body): on SQLite a pooled connection reads the schema first (as in migration 29).
pub(crate) fn replace_statements(manager: &sea_orm_migration::SchemaManager<'_>, old: Trigger, new: Trigger) -> Vec<String> {
    let backend = manager.get_database_backend();
    let mut statements = Vec::new();
    if backend != sea_orm_migration::sea_orm::DatabaseBackend::Postgres {
        statements.push("SELECT COUNT(*) FROM sqlite_master".to_owned());
    }
    statements.extend(drop_statements(backend, &[old]));
    statements.extend(create_statements(backend, &[new]));
    statements
}

/// The statements that drop these triggers (and their functions) on `backend`.
pub(crate) fn drop_statements(backend: sea_orm_migration::sea_orm::DatabaseBackend, triggers: &[Trigger]) -> Vec<String> {
    use sea_orm_migration::sea_orm::DatabaseBackend;
    triggers
        .iter()
        .flat_map(|trigger| match backend {
            DatabaseBackend::Postgres => {
                vec![format!("DROP TRIGGER {} ON {}", trigger.name, trigger.table), format!("DROP FUNCTION {}()", trigger.name)]
            }
            _ => vec![format!("DROP TRIGGER {}", trigger.name)],
        })
        .collect()
}

/// A migration's up: fills the kept values with `fill`, then creates `triggers` to keep them.
pub(crate) async fn fill_and_keep(
    manager: &sea_orm_migration::SchemaManager<'_>,
    fill: &[&str],
    triggers: &[Trigger],
) -> Result<(), sea_orm_migration::DbErr> {
    use sea_orm_migration::sea_orm::ConnectionTrait;
    let db = manager.get_connection();
    for statement in fill {
        db.execute_unprepared(statement).await?;
    }
    for statement in create_statements(manager.get_database_backend(), triggers) {
        db.execute_unprepared(&statement).await?;
    }
    Ok(())
}

/// A migration's down: drops `triggers` (and their functions).
pub(crate) async fn drop_triggers(
    manager: &sea_orm_migration::SchemaManager<'_>,
    triggers: &[Trigger],
) -> Result<(), sea_orm_migration::DbErr> {
    use sea_orm_migration::sea_orm::ConnectionTrait;
    let db = manager.get_connection();
    for statement in drop_statements(manager.get_database_backend(), triggers) {
        db.execute_unprepared(&statement).await?;
    }
    Ok(())
}

/// Runs statements that drop and create triggers: one by one on PostgreSQL; on SQLite as one
/// script on one connection, so a pooled connection that has not seen the schema since an
/// earlier migration changed it reads it first (the script starts with a read of
/// `sqlite_master`) and does not refuse (migrations 19, 20 and 28).
pub(crate) async fn run_script(
    manager: &sea_orm_migration::SchemaManager<'_>,
    statements: Vec<String>,
) -> Result<(), sea_orm_migration::DbErr> {
    use sea_orm_migration::sea_orm::{ConnectionTrait, DatabaseBackend};
    let db = manager.get_connection();
    match manager.get_database_backend() {
        DatabaseBackend::Postgres => {
            for statement in statements {
                db.execute_unprepared(&statement).await?;
            }
            Ok(())
        }
        _ => db.execute_unprepared(&statements.join(";\n")).await.map(|_| ()),
    }
}
