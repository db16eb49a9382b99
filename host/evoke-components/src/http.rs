//! Outgoing `wasi:http` requests: let through only those to a granted `host:port`.

use super::limits::BODY_CHUNK_BYTES;
use super::net::NetGrants;
use http_body_util::BodyExt;
use std::future::Future;
use std::sync::Arc;
use wasmtime_wasi_http::{Error, RequestOptions, WasiBody, WasiHttpHooks};

/// The hooks of one run: every request goes through [`NetGrants::allows_authority`] before anything is
/// sent; a refused one answers `HttpRequestDenied` to the body.
pub(crate) struct HttpGate {
    pub(crate) net: Arc<NetGrants>,
}

type Sent = Box<dyn Future<Output = Result<(), Error>> + Send>;

impl HttpGate {
    fn allows(&self, uri: &http::Uri) -> bool {
        let Some(authority) = uri.authority() else { return false };
        let port = authority.port_u16().unwrap_or(match uri.scheme_str() {
            Some("https") => 443,
            _ => 80,
        });
        self.net.allows_authority(authority.host(), port)
    }
}

impl WasiHttpHooks for HttpGate {
    // One chunk of a bounded size is what an outgoing body keeps in the host until it is sent.
    fn p2_outgoing_body_buffer_chunks(&mut self) -> usize {
        1
    }

    fn p2_outgoing_body_chunk_size(&mut self) -> usize {
        BODY_CHUNK_BYTES
    }

    fn send_request(
        &mut self,
        request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        fut: Sent,
    ) -> Box<dyn Future<Output = Result<(http::Response<WasiBody>, Sent), Error>> + Send> {
        drop(fut);
        if !self.allows(request.uri()) {
            return Box::new(async { Err(Error::HttpRequestDenied) });
        }
        Box::new(async move {
            let (response, io) = wasmtime_wasi_http::default_send_request(request, options).await?;
            Ok((response.map(BodyExt::boxed_unsync), Box::new(io) as Sent))
        })
    }
}
