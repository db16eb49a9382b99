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
pub fn check_name(name: &str) -> Result<(), String> {
    if RESERVED.contains(&name) {
        return Err(format!("`{name}` is built into evoke; an installed adapter may not take its name"));
    }
    let mut chars = name.chars();
    let good = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.len() <= 64;
    if good {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not an adapter name: a lower-case letter, then lower-case letters, digits, `-` and `_` (at most 64)"
        ))
    }
}

/// A host the user allows, as a `host:port` pair: `api.example.com` (port 443), `api.example.com:8443`,
/// `127.0.0.1:8080`, `[::1]:11434`. A name is lower-cased; a scheme, a path or a wildcard is refused.
pub fn host_pair(text: &str) -> Result<String, String> {
    let refuse = || {
        format!(
            "`{text}` is not a host: write a name or an address, with `:PORT` unless it is 443 (api.example.com, 127.0.0.1:8080, [::1]:11434)"
        )
    };
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
pub fn read(data: &Path, name: &str) -> Result<Option<Installed>, String> {
    if check_name(name).is_err() {
        return Ok(None);
    }
    let dir = dir(data, name);
    let path = dir.join(RECORD);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{} cannot be read: {e}", path.display())),
    };
    let bad = |why: &str| {
        format!("{} {why}; add the adapter again (evoke adapter add {name} FILE --allow-host HOST)", path.display())
    };
    let table: toml::Table = text.parse().map_err(|e| bad(&format!("is not TOML ({e})")))?;
    let string = |key: &str| table.get(key).and_then(|v| v.as_str()).map(str::to_string);
    let sha256 = string("sha256")
        .filter(|h| h.len() == 64 && h.chars().all(|c| c.is_ascii_hexdigit()))
        .ok_or_else(|| bad("has no `sha256`"))?;
    let id = string("id").unwrap_or_default();
    let mut allow_hosts = Vec::new();
    for host in table.get("allow_hosts").and_then(|v| v.as_array()).ok_or_else(|| bad("has no `allow_hosts`"))? {
        let host = host.as_str().ok_or_else(|| bad("lists a host that is not a string"))?;
        allow_hosts.push(host_pair(host).map_err(|e| bad(&e))?);
    }
    if let Some(unknown) = table.keys().find(|k| !["sha256", "allow_hosts", "id"].contains(&k.as_str())) {
        return Err(bad(&format!("holds `{unknown}`, which evoke does not know")));
    }
    Ok(Some(Installed { name: name.to_string(), dir, sha256, allow_hosts, id }))
}

/// Every adapter installed, by name. A directory without its record is left out; a record that does not
/// read is an error.
pub fn list(data: &Path) -> Result<Vec<Installed>, String> {
    let root = root(data);
    let entries = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{} cannot be read: {e}", root.display())),
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
        for bad in ["local", "openai", "replay", "", "Keywords", "2fast", "a/b", "../x", ".hidden"] {
            assert!(check_name(bad).is_err(), "{bad}");
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
            assert!(host_pair(bad).is_err(), "{bad}");
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
}
