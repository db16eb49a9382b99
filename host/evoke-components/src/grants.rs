//! A body's grants, turned into the only world it sees: a `WasiCtx` built from nothing.
//!
//! Everything not added here is absent: no argument, no stdin, no directory but the granted ones, no
//! network but the granted pairs, and five environment variables.

use super::error::ComponentError;
use super::net::NetGrants;
use super::stdio::{Stdio, Tail};
use evoke_core::manifest::{Access, Grants};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wasmtime_wasi::sockets::SocketAddrUse;
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxBuilder};

/// The environment a body sees: these, with the values evoke has, and nothing else; the same five a
/// process body keeps (evoke-bodies' `KEPT_VARIABLES` is this list), so a body sees the same environment
/// however it is built.
pub const ENVIRONMENT: [&str; 5] = ["PATH", "HOME", "TMPDIR", "LANG", "TERM"];

/// Where a granted path lies on this machine: an absolute path as written, a relative one in the
/// reflex's directory.
pub(crate) fn host_path(dir: &Path, granted: &str) -> PathBuf {
    let path = Path::new(granted);
    if path.is_absolute() { path.to_path_buf() } else { dir.join(path) }
}

/// The context of one run of a body under `grants`, its relative paths read from `dir` (the reflex's
/// directory). A granted directory appears to the body under the path the grant names, so the path a
/// body reads from its config is the one it opens.
pub(crate) fn wasi_ctx(
    grants: &Grants,
    dir: &Path,
    net: &Arc<NetGrants>,
    stdio: &Stdio,
    tail: &Tail,
) -> Result<WasiCtx, ComponentError> {
    let mut b = WasiCtxBuilder::new();

    for key in ENVIRONMENT {
        if let Some(value) = std::env::var_os(key).and_then(|v| v.into_string().ok()) {
            b.env(key, value);
        }
    }

    // Both to evoke's stderr (or the capture), so that a stray line never reaches the result.
    let (stdout, stderr) = stdio.streams(tail);
    b.stdout(stdout).stderr(stderr);

    for (granted, access) in &grants.files {
        if granted.contains('{') {
            return Err(ComponentError::FileGrantPlaceholder { granted: granted.clone() });
        }
        let perms = match access {
            Access::Read => FsPerms::ReadOnly,
            Access::Write => FsPerms::ReadWrite,
        };
        let on_disk = host_path(dir, granted);
        b.preopened_dir(&on_disk, granted, perms)
            .map_err(|reason| ComponentError::GrantedDir { dir: on_disk.clone(), reason })?;
    }

    // Sockets: TCP only, and only to the granted pairs; the implicit bind a connect makes (any address,
    // port 0) is let through, a listen or an accept never is. UDP is off.
    let gate = net.clone();
    b.allow_tcp(!net.is_empty()).allow_udp(false).allow_ip_name_lookup(!net.is_empty()).socket_addr_check(
        move |addr, use_| {
            let gate = gate.clone();
            Box::pin(async move {
                match use_ {
                    SocketAddrUse::TcpConnect => gate.allows_connect(addr).await,
                    SocketAddrUse::TcpBind => addr.ip().is_unspecified() && addr.port() == 0,
                    _ => false,
                }
            })
        },
    );

    Ok(b.build())
}
