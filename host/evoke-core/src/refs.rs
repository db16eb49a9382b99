//! Refs: where a remote reflex comes from, and the version tag that pins it.
//!
//! ```text
//! ref    = ( "https://" host [":" port] "/" path | "ssh://" [user "@"] host [":" port] "/" path
//!          | user "@" host ":" path ) [ "//" subdir ]
//! host   = DNS name: labels of [a-z0-9-], dot-separated; no IP literal, no credentials
//! path   = segment { "/" segment } [ ".git" ]     segment = [A-Za-z0-9._-]+, never "." or ".."
//! subdir = segment { "/" segment }
//! ```
//!
//! No query, fragment, percent-escape, whitespace or `file://`. The tag is given apart, or after the last
//! `@` (`REF@v1.2.0`); a version tag is `v` followed by a semantic version.

use serde::Serialize;
use std::cmp::Ordering;
use std::fmt;

/// How a repository is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    Https,
    Ssh,
}

/// A ref that passed the grammar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ref {
    /// The repository as written, without the subdirectory: what is fetched, once per tag.
    pub repository: String,
    pub transport: Transport,
    pub host: String,
    /// The reflex's directory inside the repository; `None` is the repository's root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subdir: Option<String>,
}

impl Ref {
    /// The ref as written in `evoke.toml` and the lock: the repository, then `//subdir` when there is one.
    pub fn text(&self) -> String {
        match &self.subdir {
            Some(subdir) => format!("{}//{subdir}", self.repository),
            None => self.repository.clone(),
        }
    }
}

impl fmt::Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// Why a ref or a tag is refused. Each names what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum RefFault {
    /// Not `https://`, `ssh://` or `user@host:path` (`http://`, `git://`, `file://`, a local path).
    Scheme,
    /// A `?`, `#`, `%`, whitespace or a control character.
    ForbiddenCharacter,
    /// A password, or a user in an `https://` ref.
    Credentials,
    /// A host that is not a DNS name (upper case, an empty label, a bad character).
    BadHost,
    /// An IP address instead of a name.
    IpHost,
    BadPort,
    BadUser,
    /// No path, or a segment that is empty, `.`, `..` or holds a character outside `[A-Za-z0-9._-]`.
    BadPath,
    /// The same rules, after `//`.
    BadSubdir,
    /// A tag that is not `v` followed by a semantic version.
    BadTag,
}

impl RefFault {
    pub fn message(&self) -> &'static str {
        match self {
            RefFault::Scheme => {
                "a ref is https://host/path, ssh://[user@]host/path or user@host:path; nothing else is fetched"
            }
            RefFault::ForbiddenCharacter => {
                "a ref holds no query, fragment, percent-escape, whitespace or control character"
            }
            RefFault::Credentials => "a ref carries no password, and an https ref no user",
            RefFault::BadHost => "the host must be a DNS name: lower-case labels of a-z, 0-9 and -, separated by dots",
            RefFault::IpHost => "the host must be a name, not an IP address",
            RefFault::BadPort => "the port must be a number from 1 to 65535",
            RefFault::BadUser => "the user must be letters, digits, '.', '_' or '-', not starting with '-'",
            RefFault::BadPath => {
                "the path must be segments of A-Z, a-z, 0-9, '.', '_' and '-', none of them '.' or '..'"
            }
            RefFault::BadSubdir => {
                "the directory after // must be segments of A-Z, a-z, 0-9, '.', '_' and '-', none of them '.' or '..'"
            }
            RefFault::BadTag => "a version tag is v and a semantic version: v1.2.0",
        }
    }
}

impl fmt::Display for RefFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// Splits `REF[@TAG]` at the last `@` when what follows it holds no `/` and no `:` (so `git@host:path`
/// keeps its user), then reads both.
pub fn parse_ref_and_tag(text: &str) -> Result<(Ref, Option<Version>), RefFault> {
    let (reference, tag) = match text.rsplit_once('@') {
        Some((before, after)) if !after.contains('/') && !after.contains(':') => (before, Some(after)),
        _ => (text, None),
    };
    let reference = parse_ref(reference)?;
    let tag = tag.map(parse_version_tag).transpose()?;
    Ok((reference, tag))
}

/// Reads a ref by the grammar of refs (docs/files.md).
pub fn parse_ref(text: &str) -> Result<Ref, RefFault> {
    if text.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '%')) {
        return Err(RefFault::ForbiddenCharacter);
    }
    if let Some(rest) = text.strip_prefix("https://") {
        let (authority, path) = rest.split_once('/').ok_or(RefFault::BadPath)?;
        if authority.contains('@') {
            return Err(RefFault::Credentials);
        }
        let host = host_and_port(authority)?;
        let (repo_path, subdir) = path_and_subdir(path)?;
        return Ok(Ref {
            repository: format!("https://{authority}/{repo_path}"),
            transport: Transport::Https,
            host,
            subdir,
        });
    }
    if let Some(rest) = text.strip_prefix("ssh://") {
        let (authority, path) = rest.split_once('/').ok_or(RefFault::BadPath)?;
        let host_part = match authority.rsplit_once('@') {
            Some((user, host)) => {
                check_user(user)?;
                host
            }
            None => authority,
        };
        let host = host_and_port(host_part)?;
        let (repo_path, subdir) = path_and_subdir(path)?;
        return Ok(Ref {
            repository: format!("ssh://{authority}/{repo_path}"),
            transport: Transport::Ssh,
            host,
            subdir,
        });
    }
    if text.contains("://") {
        return Err(RefFault::Scheme);
    }
    // user@host:path, the scp-like form.
    let Some((user, rest)) = text.split_once('@') else { return Err(RefFault::Scheme) };
    let Some((host, path)) = rest.split_once(':') else { return Err(RefFault::Scheme) };
    check_user(user)?;
    check_host(host)?;
    let (repo_path, subdir) = path_and_subdir(path)?;
    Ok(Ref {
        repository: format!("{user}@{host}:{repo_path}"),
        transport: Transport::Ssh,
        host: host.to_string(),
        subdir,
    })
}

fn check_user(user: &str) -> Result<(), RefFault> {
    if user.contains(':') {
        return Err(RefFault::Credentials);
    }
    let ok = !user.is_empty()
        && !user.starts_with('-')
        && user.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok { Ok(()) } else { Err(RefFault::BadUser) }
}

/// `host[:port]`: the host, checked.
fn host_and_port(authority: &str) -> Result<String, RefFault> {
    if authority.starts_with('[') {
        return Err(RefFault::IpHost);
    }
    let (host, port) = match authority.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (authority, None),
    };
    check_host(host)?;
    if let Some(port) = port {
        let ok = !port.is_empty()
            && port.len() <= 5
            && port.bytes().all(|b| b.is_ascii_digit())
            && !port.starts_with('0')
            && port.parse::<u32>().is_ok_and(|p| (1..=65535).contains(&p));
        if !ok {
            return Err(RefFault::BadPort);
        }
    }
    Ok(host.to_string())
}

/// A DNS name: labels of `[a-z0-9-]`, none empty, none starting or ending with `-`, at most 63 bytes
/// each and 253 in all. A name whose last label is all digits reads as an IP address.
fn check_host(host: &str) -> Result<(), RefFault> {
    if host.is_empty() || host.len() > 253 {
        return Err(RefFault::BadHost);
    }
    let labels: Vec<&str> = host.split('.').collect();
    for label in &labels {
        let ok = !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !ok {
            return Err(RefFault::BadHost);
        }
    }
    if labels.last().is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit())) {
        return Err(RefFault::IpHost);
    }
    Ok(())
}

/// The path after the host, split at the first `//` into the repository's path and the subdirectory.
fn path_and_subdir(path: &str) -> Result<(&str, Option<String>), RefFault> {
    let (repo, subdir) = match path.split_once("//") {
        Some((repo, subdir)) => (repo, Some(subdir)),
        None => (path, None),
    };
    if !segments_ok(repo) {
        return Err(RefFault::BadPath);
    }
    match subdir {
        Some(subdir) if !segments_ok(subdir) => Err(RefFault::BadSubdir),
        Some(subdir) => Ok((repo, Some(subdir.to_string()))),
        None => Ok((repo, None)),
    }
}

fn segments_ok(path: &str) -> bool {
    !path.is_empty()
        && path.split('/').all(|s| {
            !s.is_empty()
                && s != "."
                && s != ".."
                && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        })
}

/// A semantic version (semver.org 2.0.0), read from a tag `vMAJOR.MINOR.PATCH[-PRE][+BUILD]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<String>,
    pub build: Option<String>,
}

impl Version {
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version { major, minor, patch, pre: Vec::new(), build: None }
    }

    pub fn is_prerelease(&self) -> bool {
        !self.pre.is_empty()
    }

    /// The tag: `v` and the version.
    pub fn tag(&self) -> String {
        self.to_string()
    }

    /// Precedence (semver §11): numbers, then a pre-release below its release, identifiers compared
    /// numerically when both are numbers; build metadata never counts.
    pub fn precedence(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch)).then_with(|| {
            match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => {
                    for (a, b) in self.pre.iter().zip(&other.pre) {
                        let order = match (a.parse::<u64>(), b.parse::<u64>()) {
                            (Ok(a), Ok(b)) => a.cmp(&b),
                            (Ok(_), Err(_)) => Ordering::Less,
                            (Err(_), Ok(_)) => Ordering::Greater,
                            (Err(_), Err(_)) => a.cmp(b),
                        };
                        if order != Ordering::Equal {
                            return order;
                        }
                    }
                    self.pre.len().cmp(&other.pre.len())
                }
            }
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        if let Some(build) = &self.build {
            write!(f, "+{build}")?;
        }
        Ok(())
    }
}

/// Reads a version tag: `v`, then a semantic version with no leading zeros.
pub fn parse_version_tag(tag: &str) -> Result<Version, RefFault> {
    let rest = tag.strip_prefix('v').ok_or(RefFault::BadTag)?;
    let (rest, build) = match rest.split_once('+') {
        Some((rest, build)) => {
            if !identifiers_ok(build, false) {
                return Err(RefFault::BadTag);
            }
            (rest, Some(build.to_string()))
        }
        None => (rest, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => {
            if !identifiers_ok(pre, true) {
                return Err(RefFault::BadTag);
            }
            (core, pre.split('.').map(str::to_string).collect())
        }
        None => (rest, Vec::new()),
    };
    let numbers: Vec<&str> = core.split('.').collect();
    if numbers.len() != 3 || !numbers.iter().all(|n| numeric_ok(n)) {
        return Err(RefFault::BadTag);
    }
    let number = |n: &str| n.parse::<u64>().map_err(|_| RefFault::BadTag);
    Ok(Version { major: number(numbers[0])?, minor: number(numbers[1])?, patch: number(numbers[2])?, pre, build })
}

fn numeric_ok(n: &str) -> bool {
    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && (n == "0" || !n.starts_with('0'))
}

/// Dot-separated identifiers of `[0-9A-Za-z-]`; in a pre-release, a numeric one has no leading zero.
fn identifiers_ok(text: &str, pre: bool) -> bool {
    text.split('.').all(|id| {
        !id.is_empty()
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && (!pre || !id.bytes().all(|b| b.is_ascii_digit()) || numeric_ok(id))
    })
}

/// The newest release among tags: the highest precedence of those that are version tags and not
/// pre-releases. Other tags are ignored.
pub fn newest_release<'a>(tags: impl IntoIterator<Item = &'a str>) -> Option<Version> {
    tags.into_iter()
        .filter_map(|t| parse_version_tag(t).ok())
        .filter(|v| !v.is_prerelease())
        .max_by(|a, b| a.precedence(b))
}

/// The `refs` vector function: `REF[@TAG]` in, the ref read (with `tag` when one was given) or the fault.
pub fn vector_case(input: &serde_json::Value) -> Result<serde_json::Value, crate::conform::CaseError> {
    let text = input.as_str().ok_or(crate::conform::CaseError::InputNotAString)?;
    Ok(match parse_ref_and_tag(text) {
        Ok((reference, tag)) => {
            let mut out = serde_json::to_value(&reference)?;
            if let Some(tag) = tag {
                out["tag"] = serde_json::json!(tag.tag());
            }
            out
        }
        Err(fault) => serde_json::json!({ "fault": fault }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_tag_after_scp_user() {
        let (r, tag) = parse_ref_and_tag("git@example.com:owner/repo.git//lights@v1.2.0").unwrap();
        assert_eq!(r.repository, "git@example.com:owner/repo.git");
        assert_eq!(r.subdir.as_deref(), Some("lights"));
        assert_eq!(tag.unwrap().tag(), "v1.2.0");
        let (r, tag) = parse_ref_and_tag("git@example.com:owner/repo").unwrap();
        assert_eq!(r.host, "example.com");
        assert!(tag.is_none());
    }

    #[test]
    fn precedence() {
        let v = |t| parse_version_tag(t).unwrap();
        assert_eq!(v("v1.10.0").precedence(&v("v1.9.0")), Ordering::Greater);
        assert_eq!(v("v1.0.0-alpha").precedence(&v("v1.0.0")), Ordering::Less);
        assert_eq!(v("v1.0.0-alpha.2").precedence(&v("v1.0.0-alpha.10")), Ordering::Less);
        assert_eq!(newest_release(["v1.2.0", "v1.10.0", "v2.0.0-rc.1", "latest"]).unwrap().tag(), "v1.10.0");
    }
}
