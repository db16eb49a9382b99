//! `settle_thread_count` in a process of its own: it sets the environment, which only a process's one
//! thread may do, so this test has no harness and runs in `main`.

use evoke_embed::{THREADS_VARIABLE, settle_thread_count};

fn main() {
    // SAFETY: `main` runs alone; no other thread is started before the last line.
    unsafe { std::env::remove_var(THREADS_VARIABLE) };
    unsafe { settle_thread_count() };
    let set = std::env::var(THREADS_VARIABLE).expect("the count is set when nothing set it");
    let count: usize = set.parse().unwrap_or_else(|_| panic!("{THREADS_VARIABLE}={set:?} is not a number"));
    assert!(count >= 1, "{THREADS_VARIABLE}={count}");
    // The count is the machine's, as candle counts it when nothing is set: not a guess of ours.
    unsafe { std::env::remove_var(THREADS_VARIABLE) };
    assert_eq!(count, candle_core::utils::get_num_threads(), "the count candle would read");

    // A count the user set is kept.
    unsafe { std::env::set_var(THREADS_VARIABLE, "3") };
    unsafe { settle_thread_count() };
    assert_eq!(std::env::var(THREADS_VARIABLE).as_deref(), Ok("3"), "the user's count is kept");
    println!("test settle_thread_count ... ok");
    println!("test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out");
}
