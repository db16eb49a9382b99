//! What an operator's commands (`status`, `parked list|retry|skip`) need of a store, on either engine:
//! the SQLite file, or a Postgres deployment (every partition's rows at once, over a connection of the
//! command's own, while the workers run).

use crate::error::Error;
use crate::store::{Counts, Db, Parked};

pub trait Operate {
    fn counts(&mut self) -> Result<Counts, Error>;
    /// Parked firings, oldest first, at most `limit`; with `all`, also the ones retried or skipped.
    fn parked(&mut self, all: bool, limit: usize) -> Result<Vec<Parked>, Error>;
    /// False when no firing `id` is parked.
    fn retry_parked(&mut self, id: i64) -> Result<bool, Error>;
    /// False when no firing `id` is parked or waiting for its retry.
    fn skip_parked(&mut self, id: i64) -> Result<bool, Error>;
}

impl Operate for Db {
    fn counts(&mut self) -> Result<Counts, Error> {
        Db::counts(self)
    }
    fn parked(&mut self, all: bool, limit: usize) -> Result<Vec<Parked>, Error> {
        Db::parked(self, all, limit)
    }
    fn retry_parked(&mut self, id: i64) -> Result<bool, Error> {
        Db::retry_parked(self, id)
    }
    fn skip_parked(&mut self, id: i64) -> Result<bool, Error> {
        Db::skip_parked(self, id)
    }
}

impl Operate for postgres::Client {
    fn counts(&mut self) -> Result<Counts, Error> {
        super::partition_store::counts(self)
    }
    fn parked(&mut self, all: bool, limit: usize) -> Result<Vec<Parked>, Error> {
        super::partition_store::parked(self, all, limit)
    }
    fn retry_parked(&mut self, id: i64) -> Result<bool, Error> {
        super::partition_store::retry_parked(self, id)
    }
    fn skip_parked(&mut self, id: i64) -> Result<bool, Error> {
        super::partition_store::skip_parked(self, id)
    }
}
