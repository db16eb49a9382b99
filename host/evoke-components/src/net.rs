//! The `net` grant: which `host:port` pairs a body may reach, by TCP or HTTP, and which names it may look up.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Host {
    /// A DNS name, lower-case, without a trailing dot.
    Name(String),
    Ip(IpAddr),
}

/// The granted pairs, with the addresses each granted name resolved to, looked up once per run when
/// first needed.
#[derive(Debug, Default)]
pub(crate) struct NetGrants {
    pairs: Vec<(Host, u16)>,
    resolved: Mutex<HashMap<(String, u16), Vec<IpAddr>>>,
}

fn host(text: &str) -> Host {
    let bare = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or(text);
    match bare.parse::<IpAddr>() {
        Ok(ip) => Host::Ip(ip.to_canonical()),
        Err(_) => Host::Name(bare.trim_end_matches('.').to_ascii_lowercase()),
    }
}

impl NetGrants {
    /// Reads `["api.example.com:443", "192.168.1.20:80", "[::1]:8080"]`, placeholders already filled.
    pub(crate) fn parse(net: &[String]) -> Result<NetGrants, super::error::ComponentError> {
        let mut pairs = Vec::new();
        for pair in net {
            let parsed = pair
                .rsplit_once(':')
                .filter(|(h, _)| !h.is_empty() && !h.contains('{'))
                .and_then(|(h, p)| Some((host(h), p.parse::<u16>().ok().filter(|p| *p > 0)?)));
            match parsed {
                Some(p) => pairs.push(p),
                None => return Err(super::error::ComponentError::NetGrant { pair: pair.clone() }),
            }
        }
        Ok(NetGrants { pairs, resolved: Mutex::default() })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Whether the body may look `name` up: a granted name, or an address written as one (looking it up
    /// asks no one).
    pub(crate) fn allows_lookup(&self, name: &str) -> bool {
        match host(name) {
            Host::Ip(_) => true,
            wanted => self.pairs.iter().any(|(h, _)| *h == wanted),
        }
    }

    /// Whether an HTTP request may go to `host` (a name or an address, IPv6 in brackets or not) at `port`.
    pub(crate) fn allows_authority(&self, host_text: &str, port: u16) -> bool {
        let wanted = host(host_text);
        self.pairs.iter().any(|(h, p)| *h == wanted && *p == port)
    }

    /// Whether a TCP connection may go to `addr`: a granted address and port, or an address a granted
    /// name resolves to, at its port.
    pub(crate) async fn allows_connect(self: Arc<Self>, addr: SocketAddr) -> bool {
        let (ip, port) = (addr.ip().to_canonical(), addr.port());
        let mut names = Vec::new();
        for (h, p) in &self.pairs {
            match h {
                _ if *p != port => {}
                Host::Ip(granted) if *granted == ip => return true,
                Host::Ip(_) => {}
                Host::Name(name) => names.push(name.clone()),
            }
        }
        for name in names {
            if self.addresses(name, port).await.contains(&ip) {
                return true;
            }
        }
        false
    }

    async fn addresses(&self, name: String, port: u16) -> Vec<IpAddr> {
        let key = (name, port);
        if let Some(found) = self.resolved.lock().unwrap().get(&key) {
            return found.clone();
        }
        let (name, _) = key.clone();
        let found: Vec<IpAddr> = tokio::task::spawn_blocking(move || {
            (name.as_str(), port)
                .to_socket_addrs()
                .map(|addrs| addrs.map(|a| a.ip().to_canonical()).collect())
                .unwrap_or_default()
        })
        .await
        .unwrap_or_default();
        self.resolved.lock().unwrap().insert(key, found.clone());
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grants(pairs: &[&str]) -> Arc<NetGrants> {
        Arc::new(NetGrants::parse(&pairs.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap())
    }

    #[test]
    fn pairs_read() {
        assert!(NetGrants::parse(&["api.example.com".into()]).is_err());
        assert!(NetGrants::parse(&[":443".into()]).is_err());
        assert!(NetGrants::parse(&["{bridge}:443".into()]).is_err());
        let g = grants(&["API.Example.com.:443", "[::1]:8080", "10.0.0.2:80"]);
        assert!(g.allows_authority("api.example.com", 443));
        assert!(!g.allows_authority("api.example.com", 80));
        assert!(g.allows_authority("[::1]", 8080));
        assert!(g.allows_authority("10.0.0.2", 80));
        assert!(!g.allows_authority("example.com", 443));
        assert!(g.allows_lookup("api.example.com"));
        assert!(!g.allows_lookup("evil.example.com"));
        assert!(g.allows_lookup("10.9.9.9"));
    }

    #[tokio::test]
    async fn connect_checks_address_and_port() {
        let g = grants(&["127.0.0.1:8080", "localhost:9090"]);
        assert!(g.clone().allows_connect("127.0.0.1:8080".parse().unwrap()).await);
        assert!(!g.clone().allows_connect("127.0.0.1:8081".parse().unwrap()).await);
        assert!(!g.clone().allows_connect("127.0.0.2:8080".parse().unwrap()).await);
        assert!(g.clone().allows_connect("127.0.0.1:9090".parse().unwrap()).await);
        assert!(g.clone().allows_connect("[::ffff:127.0.0.1]:8080".parse().unwrap()).await);
    }
}
