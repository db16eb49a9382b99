//! Opens docs/examples/home under a recording, decides one sentence, prints its JSON line, and runs it
//! through a confirm callback that says yes (docs/sdk.md). Trust the project first:
//! `evoke -C docs/examples/home trust`.

use evoke::{ConfirmWith, Evoke, OpenOptions};

fn main() -> Result<(), evoke::Error> {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples");
    let recording = Some(format!("{examples}/sdk.recording.toml").into());
    let evoke = Evoke::open(format!("{examples}/home").as_ref(), OpenOptions { recording, ..Default::default() })?;
    let decision = evoke.decide("turn on the kitchen lights")?;
    println!("{}", decision.to_json_line());
    // A confirm is shown to the program's person; this one says yes to every question.
    let ran = evoke.run(&decision, &ConfirmWith::new(|_| true))?;
    println!("{}", ran.text().or(ran.failure()).unwrap_or_default());
    Ok(())
}
