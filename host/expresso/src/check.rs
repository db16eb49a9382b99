//! `expresso check FILE`: each agent's inferred effect against its ceiling, the minimal grant set, the
//! over-grants, and which leaves need a generative provider.

use crate::exit::Exit;
use crate::load;
use std::path::Path;

pub fn check(path: &Path) -> Exit {
    let (_, compiled) = match load::program(path) {
        Ok(read) => read,
        Err(exit) => return exit,
    };
    let file = path.display().to_string();
    for agent in &compiled.report.agents {
        println!(
            "agent \"{}\": effect {} (at most {}) · needs {{{}}}",
            agent.name,
            agent.effect.as_str(),
            agent.ceiling.as_str(),
            agent.needs.join(", ")
        );
        if !agent.over_granted.is_empty() {
            println!("  over-granted: {{{}}}", agent.over_granted.join(", "));
        }
        for leaf in &agent.leaves {
            if leaf.closed {
                println!("  leaf {}: closed, evoke's engines answer it without minting a value", leaf.name);
            } else {
                println!("  leaf {}: open, needs a generative provider (openai)", leaf.name);
            }
        }
    }
    let warnings = compiled.report.diagnostics.len();
    println!(
        "{file}: checks · {} agent{} · {warnings} warning{}",
        compiled.report.agents.len(),
        if compiled.report.agents.len() == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    );
    Exit::Done
}
