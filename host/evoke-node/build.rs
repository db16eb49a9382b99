//! Links the addon as Node expects: its symbols resolved by the node process that loads it.

fn main() {
    napi_build::setup();
}
