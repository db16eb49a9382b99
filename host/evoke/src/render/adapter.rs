//! `evoke adapter`'s report: an adapter added, the list, one removed. An adapter's id and hosts are the
//! component's own words: each is shown escaped.

use evoke_adapters::component::installed::Installed;
use evoke_core::adapter::Gate;
use evoke_core::text::escape_outside;

fn reach(hosts: &[String]) -> String {
    if hosts.is_empty() { "no host".into() } else { escape_outside(&hosts.join(", ")).into_owned() }
}

/// An adapter added, or `replaced`: its id, its gate, the hosts it may reach (and those it could reach
/// `before`, when they differ), and how a project names it.
pub fn adapter_added(
    added: &Installed,
    id: &str,
    gate: Option<Gate>,
    replaced: bool,
    before: Option<&[String]>,
) -> String {
    let verb = if replaced { "replaced" } else { "added" };
    let mut out = format!("{verb} adapter {}: {}\n", escape_outside(&added.name), escape_outside(&added.id));
    out.push_str(&format!("  id        {}\n", escape_outside(id)));
    let gate = match gate {
        Some(g) => {
            let fits = g.fits.map(|f| format!(" · fits {f}")).unwrap_or_default();
            format!("route {}{fits} · read {} · write {}", g.route, g.read, g.write)
        }
        None => "none: every complete call confirms".into(),
    };
    out.push_str(&format!("  gate      {gate}\n"));
    out.push_str(&format!("  may reach {}\n", reach(&added.allow_hosts)));
    if let Some(before) = before {
        out.push_str(&format!("  (it could reach {} before)\n", reach(before)));
    }
    out.push_str(&format!("name it in a project's evoke.toml: adapter = \"{}\"\n", added.name));
    out
}

/// Every installed component adapter with its id, its hash and the hosts it may reach; then the built-in ones.
pub fn adapter_list(found: &[Installed], builtin: &[&str]) -> String {
    let mut out = String::new();
    if found.is_empty() {
        out.push_str(
            "no component adapter is installed; add one with: evoke adapter add NAME FILE --allow-host HOST\n",
        );
    }
    let width = found.iter().map(|i| i.name.chars().count()).max().unwrap_or(0);
    let ids = found.iter().map(|i| i.id.chars().count()).max().unwrap_or(0);
    for i in found {
        out.push_str(&format!(
            "{:<width$}  {:<ids$}  sha256:{}  may reach {}\n",
            escape_outside(&i.name),
            escape_outside(&i.id),
            &i.sha256[..12],
            reach(&i.allow_hosts)
        ));
    }
    out.push_str(&format!("built in: {}\n", builtin.join(", ")));
    out
}

pub fn adapter_removed(name: &str) -> String {
    format!("removed adapter {name}\n")
}
