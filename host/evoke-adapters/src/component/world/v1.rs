//! `evoke:adapter@1.0.0` (`wit/adapter/v1`): its bindings, and an adapter of this version called through
//! them.

use evoke_components::StoreData;
use wasmtime::Store;

wasmtime::component::bindgen!({
    path: "../../wit/adapter/v1",
    world: "evoke:adapter/adapter@1.0.0",
    exports: { default: async },
    // The world's one import is served by the component host's linker; its bindings are wasmtime's own.
    with: {
        "wasi:http": wasmtime_wasi_http::p2::bindings::http,
        "wasi:io": wasmtime_wasi::p2::bindings::io,
        "wasi:clocks": wasmtime_wasi::p2::bindings::clocks,
    },
});

use exports::evoke::adapter::engine::{Description, Distribution};

/// The version of the package, as it appears in export names.
pub(crate) const VERSION: &str = "1.0.0";

/// A fresh instance of `pre` in `store`, asked to describe itself.
pub(crate) async fn describe(
    pre: &AdapterPre<StoreData>,
    store: &mut Store<StoreData>,
) -> wasmtime::Result<Description> {
    let adapter = pre.instantiate_async(&mut *store).await?;
    adapter.evoke_adapter_engine().call_describe(&mut *store).await
}

/// A fresh instance of `pre` in `store`, asked to answer `questions` about `request`; the inner `String` is
/// the WIT `string` of its error.
pub(crate) async fn answer(
    pre: &AdapterPre<StoreData>,
    store: &mut Store<StoreData>,
    request: &str,
    questions: &str,
) -> wasmtime::Result<Result<Vec<Distribution>, String>> {
    let adapter = pre.instantiate_async(&mut *store).await?;
    adapter.evoke_adapter_engine().call_answer(&mut *store, request, questions).await
}
