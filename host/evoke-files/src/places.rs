//! The four places evoke keeps things (D9): config (the home project), data, cache and state (the log).
//! `EVOKE_HOME=DIR` puts all four under one directory, which tests and transcripts use.

use etcetera::{BaseStrategy, choose_base_strategy};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    pub config: PathBuf,
    pub data: PathBuf,
    pub cache: PathBuf,
    pub state: PathBuf,
}

impl Places {
    /// From the environment: `EVOKE_HOME`, else the platform's base directories (XDG on Linux).
    pub fn from_env() -> Result<Places, String> {
        if let Some(home) = std::env::var_os("EVOKE_HOME").filter(|v| !v.is_empty()) {
            return Ok(Places::under(Path::new(&home)));
        }
        let base = choose_base_strategy()
            .map_err(|e| format!("evoke has nowhere to keep its files ({e}); set EVOKE_HOME to a directory"))?;
        let state = base.state_dir().unwrap_or_else(|| base.data_dir());
        Ok(Places {
            config: base.config_dir().join("evoke"),
            data: base.data_dir().join("evoke"),
            cache: base.cache_dir().join("evoke"),
            state: state.join("evoke"),
        })
    }

    pub fn under(home: &Path) -> Places {
        Places {
            config: home.join("config"),
            data: home.join("data"),
            cache: home.join("cache"),
            state: home.join("state"),
        }
    }

    pub fn log(&self) -> PathBuf {
        self.state.join("log.jsonl")
    }
}
