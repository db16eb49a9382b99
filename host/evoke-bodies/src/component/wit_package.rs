//! Which version of an evoke WIT package a component was built for, read from the names it imports and
//! exports (`evoke:reflex/types@1.0.0`), and how a version the host does not know is refused. Bodies and
//! adapters keep their versions side by side and read them the same way.

/// The versions of `package` (`evoke:reflex`) that `names` carry, each once, sorted; `""` for a name
/// without one.
pub fn package_versions<'a>(names: impl Iterator<Item = &'a str>, package: &str) -> Vec<&'a str> {
    let prefix = format!("{package}/");
    let mut versions: Vec<&str> = names
        .filter_map(|name| name.strip_prefix(prefix.as_str()))
        .map(|rest| rest.split_once('@').map_or("", |(_, v)| v))
        .collect();
    versions.sort_unstable();
    versions.dedup();
    versions
}

/// Why a component whose names carry `versions` of `package` is refused by a host that knows `known`.
/// The caller handles the empty list and the versions it knows.
pub fn refusal(package: &str, known: &[&str], versions: &[&str]) -> String {
    let known = known_list(package, known);
    match versions {
        [""] => {
            format!("refused: this component was built for an unversioned {package} world; this evoke runs {known}")
        }
        [v] => format!(
            "refused: this component was built for {package}@{v}, a world this evoke does not know; it runs {known}"
        ),
        several => format!(
            "refused: this component mixes {package} versions ({}); this evoke runs {known}",
            several.join(", ")
        ),
    }
}

/// The known versions as the refusals name them.
pub fn known_list(package: &str, known: &[&str]) -> String {
    known.iter().map(|v| format!("{package}@{v}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_refusals() {
        let names = ["evoke:reflex/types@1.0.0", "wasi:io/streams@0.2.0", "evoke:reflex/body@1.0.0", "run"];
        assert_eq!(package_versions(names.into_iter(), "evoke:reflex"), ["1.0.0"]);
        assert!(
            refusal("evoke:reflex", &["1.0.0"], &["2.0.0"])
                .contains("evoke:reflex@2.0.0, a world this evoke does not know")
        );
        assert!(refusal("evoke:adapter", &["1.0.0"], &["1.0.0", "2.0.0"]).contains("mixes"));
    }
}
