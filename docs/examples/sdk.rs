//! Opens docs/examples/home under a recording, decides one sentence, prints its JSON line, and runs it
//! through a person who says yes to every confirm (docs/sdk.md). Its project must be trusted first:
//! `evoke -C docs/examples/home trust`.

use evoke::{Evoke, OpenOptions, Person, Question};
use evoke_core::decision::{Missing, Value};

struct SaysYes;

impl Person for SaysYes {
    fn present(&self) -> bool {
        true
    }
    fn confirm(&self, _: Question<'_>) -> bool {
        true
    }
    fn ask(&self, _: &Missing) -> Option<Value> {
        None
    }
}

fn main() -> Result<(), evoke::Error> {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples");
    let recording = Some(format!("{examples}/sdk.recording.toml").into());
    let evoke = Evoke::open(format!("{examples}/home").as_ref(), OpenOptions { recording, home: None })?;
    let decision = evoke.decide("turn on the kitchen lights")?;
    println!("{}", decision.to_json_line());
    let ran = evoke.run(&decision, &SaysYes)?;
    println!("{}", ran.text().or(ran.failure()).unwrap_or_default());
    Ok(())
}
