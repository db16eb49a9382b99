//! Component adapters as the user installed them: `<data>/adapters/NAME/`, holding the component
//! (`adapter.wasm`) and `adapter.toml`, which records its content hash, the hosts it may reach and the id
//! it described itself with. Only `evoke adapter add` writes there; a project never does.

use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Names an installed adapter may not take: the built-ins, and `replay`.
pub const RESERVED: [&str; 3] = ["replay", "local", "openai"];

/// The component's file in an adapter's directory.
pub const WASM: &str = "adapter.wasm";

/// The record beside it.
pub const RECORD: &str = "adapter.toml";

/// A name an adapter may not be installed under.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadName {
    #[error("`{name}` is built into evoke; an installed adapter may not take its name")]
    Reserved { name: String },
    #[error(
        "`{name}` is not an adapter name: a lower-case letter, then lower-case letters, digits, `-` and `_` (at most 64)"
    )]
    Malformed { name: String },
}

/// A host the user allows that is not a `host:port` pair evoke can hold a component to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a host: write a name or an address, with `:PORT` unless it is 443 (api.example.com, 127.0.0.1:8080, [::1]:11434)"
)]
pub struct NotAHost {
    pub text: String,
}

/// An installed adapter's record, or the place they are kept, does not read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{} cannot be read: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    /// The record is there but wrong: adding the adapter again writes it anew.
    #[error("{} {fault}; add the adapter again (evoke adapter add {name} FILE --allow-host HOST)", path.display())]
    Malformed { path: PathBuf, name: String, fault: RecordFault },
}

/// What is wrong inside an `adapter.toml`, naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordFault {
    /// Not TOML at all: the TOML reader's message.
    #[error("is not TOML ({0})")]
    NotToml(String),
    #[error("has no `{0}`")]
    Missing(&'static str),
    #[error("lists a host that is not a string")]
    HostNotAString,
    #[error("{0}")]
    Host(NotAHost),
    #[error("holds `{0}`, which evoke does not know")]
    UnknownKey(String),
}

/// One installed adapter, as its `adapter.toml` records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub name: String,
    pub dir: PathBuf,
    /// The SHA-256 of `adapter.wasm`, in hex.
    pub sha256: String,
    /// `host:port` pairs its `wasi:http` requests may go to.
    pub allow_hosts: Vec<String>,
    /// The id the component described itself with when it was added (for `evoke adapter list`; a
    /// decision asks the component again).
    pub id: String,
}

impl Installed {
    pub fn wasm(&self) -> PathBuf {
        self.dir.join(WASM)
    }

    /// The text of its `adapter.toml`.
    pub fn record(&self) -> String {
        let hosts: Vec<String> = self.allow_hosts.iter().map(|h| toml::Value::from(h.as_str()).to_string()).collect();
        format!(
            "# Written by `evoke adapter add`. The component is refused if its content no longer has this hash.\n\
             sha256 = {}\nallow_hosts = [{}]\nid = {}\n",
            toml::Value::from(self.sha256.as_str()),
            hosts.join(", "),
            toml::Value::from(self.id.as_str()),
        )
    }
}

/// Where installed adapters live.
pub fn root(data: &Path) -> PathBuf {
    data.join("adapters")
}

/// The directory of the adapter called `name`.
pub fn dir(data: &Path, name: &str) -> PathBuf {
    root(data).join(name)
}

/// The SHA-256 of `bytes`, in hex.
pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// A name an adapter may be installed under: a lower-case letter, then lower-case letters, digits, `-`
/// and `_`, at most 64 in all, and not a built-in's.
pub fn check_name(name: &str) -> Result<(), BadName> {
    if RESERVED.contains(&name) {
        return Err(BadName::Reserved { name: name.to_string() });
    }
    let mut chars = name.chars();
    let good = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.len() <= 64;
    if good { Ok(()) } else { Err(BadName::Malformed { name: name.to_string() }) }
}

/// A host the user allows, as a `host:port` pair: `api.example.com` (port 443), `api.example.com:8443`,
/// `127.0.0.1:8080`, `[::1]:11434`. A name is lower-cased; a scheme, a path or a wildcard is refused.
pub fn host_pair(text: &str) -> Result<String, NotAHost> {
    let refuse = || NotAHost { text: text.to_string() };
    let text = text.trim();
    if text.is_empty() || text.contains("://") || text.contains(['/', '*', '@', '?', '#', ' ']) {
        return Err(refuse());
    }
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (inside, after) = rest.split_once(']').ok_or_else(refuse)?;
        inside.parse::<std::net::Ipv6Addr>().map_err(|_| refuse())?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':').ok_or_else(refuse)?),
        };
        (format!("[{}]", inside.to_ascii_lowercase()), port)
    } else if text.parse::<std::net::Ipv6Addr>().is_ok() {
        (format!("[{}]", text.to_ascii_lowercase()), None)
    } else {
        match text.rsplit_once(':') {
            Some((h, p)) => (h.to_ascii_lowercase(), Some(p)),
            None => (text.to_ascii_lowercase(), None),
        }
    };
    let host = host.trim_end_matches('.').to_string();
    let name_ok = host.starts_with('[')
        || (!host.is_empty()
            && host.split('.').all(|l| {
                !l.is_empty() && !l.starts_with('-') && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            }));
    if !name_ok {
        return Err(refuse());
    }
    let port = match port {
        None => 443,
        Some(p) => p.parse::<u16>().ok().filter(|p| *p > 0).ok_or_else(refuse)?,
    };
    Ok(format!("{host}:{port}"))
}

/// The adapter installed under `name`, or `None` when there is none.
pub fn read(data: &Path, name: &str) -> Result<Option<Installed>, RecordError> {
    if check_name(name).is_err() {
        return Ok(None);
    }
    let dir = dir(data, name);
    let path = dir.join(RECORD);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(RecordError::Unreadable { path, source }),
    };
    let bad = |fault: RecordFault| RecordError::Malformed { path: path.clone(), name: name.to_string(), fault };
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| bad(RecordFault::NotToml(e.to_string())))?;
    let string = |key: &str| table.get(key).and_then(|v| v.as_str()).map(str::to_string);
    let sha256 = string("sha256")
        .filter(|h| h.len() == 64 && h.chars().all(|c| c.is_ascii_hexdigit()))
        .ok_or_else(|| bad(RecordFault::Missing("sha256")))?;
    let id = string("id").unwrap_or_default();
    let mut allow_hosts = Vec::new();
    for host in
        table.get("allow_hosts").and_then(|v| v.as_array()).ok_or_else(|| bad(RecordFault::Missing("allow_hosts")))?
    {
        let host = host.as_str().ok_or_else(|| bad(RecordFault::HostNotAString))?;
        allow_hosts.push(host_pair(host).map_err(|e| bad(RecordFault::Host(e)))?);
    }
    if let Some(unknown) = table.keys().find(|k| !["sha256", "allow_hosts", "id"].contains(&k.as_str())) {
        return Err(bad(RecordFault::UnknownKey(unknown.clone())));
    }
    Ok(Some(Installed { name: name.to_string(), dir, sha256, allow_hosts, id }))
}

/// Every adapter installed, by name. A directory without its record is left out; a record that does not
/// read is an error.
pub fn list(data: &Path) -> Result<Vec<Installed>, RecordError> {
    let root = root(data);
    let entries = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(RecordError::Unreadable { path: root, source }),
    };
    let mut names: Vec<String> = entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect();
    names.sort();
    let mut found = Vec::new();
    for name in names {
        if let Some(installed) = read(data, &name)? {
            found.push(installed);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(check_name("keywords").is_ok());
        assert!(check_name("my-engine_2").is_ok());
        for reserved in ["local", "openai", "replay"] {
            assert_eq!(check_name(reserved), Err(BadName::Reserved { name: reserved.into() }));
        }
        for bad in ["", "Keywords", "2fast", "a/b", "../x", ".hidden"] {
            assert_eq!(check_name(bad), Err(BadName::Malformed { name: bad.into() }), "{bad}");
        }
    }

    #[test]
    fn hosts() {
        assert_eq!(host_pair("API.example.com").unwrap(), "api.example.com:443");
        assert_eq!(host_pair("api.example.com.:8443").unwrap(), "api.example.com:8443");
        assert_eq!(host_pair("127.0.0.1:8080").unwrap(), "127.0.0.1:8080");
        assert_eq!(host_pair("[::1]:11434").unwrap(), "[::1]:11434");
        assert_eq!(host_pair("::1").unwrap(), "[::1]:443");
        for bad in [
            "https://api.example.com",
            "api.example.com/v1",
            "*.example.com",
            "host:0",
            "host:x",
            "",
            "a..b",
            "user@host",
        ] {
            assert_eq!(host_pair(bad), Err(NotAHost { text: bad.into() }), "{bad}");
        }
    }

    #[test]
    fn a_record_reads_back() {
        let data = tempfile::tempdir().unwrap();
        let installed = Installed {
            name: "keywords".into(),
            dir: dir(data.path(), "keywords"),
            sha256: "ab".repeat(32),
            allow_hosts: vec!["127.0.0.1:8080".into(), "api.example.com:443".into()],
            id: "keywords/1 \"quoted\"".into(),
        };
        std::fs::create_dir_all(&installed.dir).unwrap();
        std::fs::write(installed.dir.join(RECORD), installed.record()).unwrap();
        assert_eq!(read(data.path(), "keywords").unwrap(), Some(installed.clone()));
        assert_eq!(list(data.path()).unwrap(), vec![installed]);
        assert_eq!(read(data.path(), "other").unwrap(), None);
        assert_eq!(read(data.path(), "local").unwrap(), None);
    }

    #[test]
    fn a_record_that_does_not_read_names_the_key_and_the_fix() {
        let data = tempfile::tempdir().unwrap();
        let place = dir(data.path(), "keywords");
        std::fs::create_dir_all(&place).unwrap();
        std::fs::write(place.join(RECORD), format!("sha256 = \"{}\"\nallow_hosts = [\"a b\"]\n", "ab".repeat(32)))
            .unwrap();
        let e = read(data.path(), "keywords").unwrap_err();
        assert!(
            matches!(&e, RecordError::Malformed { fault: RecordFault::Host(NotAHost { text }), .. } if text == "a b")
        );
        assert!(
            e.to_string().ends_with("; add the adapter again (evoke adapter add keywords FILE --allow-host HOST)"),
            "{e}"
        );
        std::fs::write(place.join(RECORD), "allow_hosts = []\n").unwrap();
        let e = list(data.path()).unwrap_err();
        assert!(matches!(e, RecordError::Malformed { fault: RecordFault::Missing("sha256"), .. }));
    }
}
