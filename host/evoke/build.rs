//! Links the `evoke` binary with its relative relocations packed (DT_RELR): the loader then applies them
//! in one pass instead of rewriting 270,000 pointers one by one at every start (docs/performance.md).

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.contains("linux-gnu") {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
