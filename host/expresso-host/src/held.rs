//! `held list|show|release`: the receipts a sink refused for good (a 4xx, a redirect, a reflex that
//! needs a person, one that may have acted), which the host never sends again by itself.
//!
//! An operator lists them, looks at one, and releases it: a released receipt is `intent` again, due at
//! once, and goes through the write-ahead protocol like any other (sent with its own `Idempotency-Key`,
//! marked `done` once its sink takes it), so it is delivered once. Releasing says the operator wants it
//! sent, even one a reflex may have acted on. A receipt that is not `held` (released already, delivered,
//! or never made) is not touched, and the command says what it is.

use crate::error::Error;
use crate::store::Db;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use serde_json::Value;

/// Held receipts `held list` prints unless told.
pub const DEFAULT_LIST: usize = 1_000;

#[derive(clap::Subcommand, Clone, Debug)]
pub enum HeldAction {
    /// One JSON line per held receipt, oldest first: its key, event, capability, tries and reason.
    List {
        /// Receipts listed, at most.
        #[arg(long, default_value_t = DEFAULT_LIST)]
        limit: usize,
    },
    /// One receipt, held or not, with what its sink would be sent.
    Show { key: String },
    /// Send a held receipt again: it becomes `intent` and the running host (or the next `serve` or
    /// `drain`) delivers it once.
    Release { key: String },
}

/// A receipt of the world table as an operator sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeldReceipt {
    pub key: String,
    pub event: String,
    pub capability: String,
    /// `held`, or `intent` / `done` for `show` of one that is not.
    pub status: String,
    pub attempts: i64,
    /// Why it was held (the sink's last refusal).
    pub reason: Option<String>,
    /// What the sink is sent; `show` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receipt: Option<Value>,
}

/// What `release` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Released {
    /// It was held and is `intent` now.
    Released,
    /// It is not held: its status (`intent`, `done`).
    NotHeld(String),
    /// No receipt has this key.
    Unknown,
}

/// Opens the store `held` reads: an operator's command finds one, never makes one. A place without a store
/// (a mistyped `--state`) would otherwise be made into an empty one that holds nothing, and `list` would
/// say nothing is held.
pub fn open(state: &std::path::Path) -> Result<Db, Error> {
    if !state.join(crate::store::FILE_NAME).is_file() {
        return Err(Error::Store(format!(
            "no {} in {}: name the state directory of `serve` or `drain` with --state",
            crate::store::FILE_NAME,
            state.display()
        )));
    }
    Db::open(state)
}

/// Held receipts, oldest first, at most `limit`.
pub fn list(db: &mut Db, limit: usize) -> Result<Vec<HeldReceipt>, Error> {
    let conn = db.conn_mut();
    let mut stmt = conn.prepare_cached(
        "SELECT key, event, capability, status, attempts, last_error FROM world WHERE status = 'held' ORDER BY rowid LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit.min(i64::MAX as usize) as i64], |r| {
        Ok(HeldReceipt {
            key: r.get(0)?,
            event: r.get(1)?,
            capability: r.get(2)?,
            status: r.get(3)?,
            attempts: r.get(4)?,
            reason: r.get(5)?,
            receipt: None,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// One receipt by its key, whatever its status.
pub fn show(db: &mut Db, key: &str) -> Result<Option<HeldReceipt>, Error> {
    let row = db
        .conn_mut()
        .query_row(
            "SELECT key, event, capability, status, attempts, last_error, receipt FROM world WHERE key = ?1",
            [key],
            |r| {
                Ok((
                    HeldReceipt {
                        key: r.get(0)?,
                        event: r.get(1)?,
                        capability: r.get(2)?,
                        status: r.get(3)?,
                        attempts: r.get(4)?,
                        reason: r.get(5)?,
                        receipt: None,
                    },
                    r.get::<_, String>(6)?,
                ))
            },
        )
        .optional()?;
    let Some((mut held, receipt)) = row else { return Ok(None) };
    held.receipt = Some(
        serde_json::from_str(&receipt).map_err(|e| Error::Store(format!("the receipt of {key} is not JSON: {e}")))?,
    );
    Ok(Some(held))
}

/// Releases a held receipt: `intent` again, due at once (its at-most-once mark cleared, so a reflex runs
/// again). Nothing changes unless it is held, in one statement, so two releases release it once.
pub fn release(db: &mut Db, key: &str) -> Result<Released, Error> {
    let tx = db.conn_mut().transaction()?;
    let changed = tx.execute(
        "UPDATE world SET status = 'intent', next_try_ms = 0,
             last_error = 'released by an operator after: ' || COALESCE(last_error, '')
         WHERE key = ?1 AND status = 'held'",
        params![key],
    )?;
    let outcome = if changed == 1 {
        Released::Released
    } else {
        match tx.query_row("SELECT status FROM world WHERE key = ?1", [key], |r| r.get::<_, String>(0)).optional()? {
            Some(status) => Released::NotHeld(status),
            None => Released::Unknown,
        }
    };
    tx.commit()?;
    Ok(outcome)
}

/// Runs `held ACTION` on the store; prints JSON on stdout. Returns the exit code: 1 when the receipt
/// named is not there or not held.
pub fn run(db: &mut Db, action: HeldAction) -> Result<u8, Error> {
    match action {
        HeldAction::List { limit } => {
            for row in list(db, limit)? {
                println!("{}", line(&row)?);
            }
            Ok(0)
        }
        HeldAction::Show { key } => match show(db, &key)? {
            Some(row) => {
                println!("{}", line(&row)?);
                Ok(0)
            }
            None => {
                eprintln!("error: no receipt has the key {key} (see `held list`)");
                Ok(1)
            }
        },
        HeldAction::Release { key } => match release(db, &key)? {
            Released::Released => {
                println!("{}", serde_json::json!({ "key": key, "status": "intent" }));
                Ok(0)
            }
            Released::NotHeld(status) => {
                let what = match status.as_str() {
                    "intent" => "released already (or never held), it waits for its sink",
                    "done" => "its sink has taken it",
                    _ => "it is not held",
                };
                eprintln!("error: the receipt {key} is not held: it is {status} ({what}); nothing was changed");
                Ok(1)
            }
            Released::Unknown => {
                eprintln!("error: no receipt has the key {key} (see `held list`); nothing was changed");
                Ok(1)
            }
        },
    }
}

/// A value as one JSON line.
fn line<T: Serialize>(value: &T) -> Result<String, Error> {
    serde_json::to_string(value).map_err(|e| Error::Store(e.to_string()))
}
