#![no_main]

// Expresso source: parsed, every diagnostic rendered, and checked when it parses; never a panic.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = expresso_lang::fuzz::fuzz(data);
});
