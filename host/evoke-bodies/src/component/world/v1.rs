//! `evoke:reflex@1.0.0` (`wit/reflex/v1`): its bindings, and a body of this version called through them.

use evoke_components::StoreData;
use wasmtime::Store;

wasmtime::component::bindgen!({
    path: "../../wit/reflex/v1",
    world: "evoke:reflex/body@1.0.0",
    exports: { default: async },
});

/// The version of the package, as it appears in import and export names.
pub(crate) const VERSION: &str = "1.0.0";

/// Instantiates `pre` in `store` and calls its `run`; the inner `String` is the WIT `string` of its error.
pub(crate) async fn run(
    pre: &BodyPre<StoreData>,
    store: &mut Store<StoreData>,
    args: &[(String, evoke::reflex::types::Value)],
    ctx: &evoke::reflex::types::Context,
) -> wasmtime::Result<Result<evoke::reflex::types::Output, String>> {
    let body = pre.instantiate_async(&mut *store).await?;
    body.call_run(&mut *store, args, ctx).await
}
