//! An evoke WIT package (`evoke:reflex`, `evoke:adapter`) and the versions of it a host runs: which one a
//! component was built for, read from the names it imports and exports (`evoke:reflex/types@1.0.0`), and
//! how any other version is refused. Bodies and adapters keep their worlds side by side, one file per
//! version, and read the version the same way.

/// `evoke:reflex`, and the versions of it this host runs. Kept with the host because every linker links
/// the world's `types` interface, which holds no function, by version; each version's bindings, and how a
/// body of it is called, are evoke-bodies' (`component/world/`), which checks that its list is this one.
pub const REFLEX: WitPackage = WitPackage { name: "evoke:reflex", known: &["1.0.0"] };

/// A package and the versions of it this host runs, oldest first.
#[derive(Debug, Clone, Copy)]
pub struct WitPackage {
    /// `evoke:reflex`.
    pub name: &'static str,
    /// `["1.0.0"]`.
    pub known: &'static [&'static str],
}

impl WitPackage {
    /// The known version that `names` carry, `None` when none of them is of this package. A version this
    /// host does not know, a name without a version, or two versions at once is refused, naming them.
    pub fn version_in<'a>(&self, names: impl Iterator<Item = &'a str>) -> Result<Option<&'static str>, WorldRefused> {
        match versions(names, self.name).as_slice() {
            [] => Ok(None),
            [v] => match self.known.iter().find(|known| *known == v) {
                Some(known) => Ok(Some(known)),
                None => Err(self.refusal(&[v])),
            },
            several => Err(self.refusal(several)),
        }
    }

    /// Why a component whose names carry `versions` of this package is refused.
    pub fn refusal(&self, versions: &[&str]) -> WorldRefused {
        WorldRefused {
            package: self.name,
            versions: versions.iter().map(|v| v.to_string()).collect(),
            known: self.known_list(),
        }
    }

    /// The known worlds as the refusals name them: `evoke:reflex@1.0.0`.
    pub fn worlds(&self) -> Vec<String> {
        self.known.iter().map(|v| format!("{}@{v}", self.name)).collect()
    }

    /// [`worlds`](Self::worlds), joined.
    pub fn known_list(&self) -> String {
        self.worlds().join(", ")
    }
}

/// A component built for versions of a package this host does not run: an unknown one, none (`""`), or
/// several at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldRefused {
    /// `evoke:reflex`.
    pub package: &'static str,
    /// The versions the component's names carry, `""` for a name without one.
    pub versions: Vec<String>,
    /// The worlds this host runs, as the refusal names them.
    pub known: String,
}

impl std::fmt::Display for WorldRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (package, known) = (self.package, &self.known);
        match self.versions.as_slice() {
            [v] if v.is_empty() => {
                write!(
                    f,
                    "refused: this component was built for an unversioned {package} world; this evoke runs {known}"
                )
            }
            [v] => write!(
                f,
                "refused: this component was built for {package}@{v}, a world this evoke does not know; it runs {known}"
            ),
            several => write!(
                f,
                "refused: this component mixes {package} versions ({}); this evoke runs {known}",
                several.join(", ")
            ),
        }
    }
}

impl std::error::Error for WorldRefused {}

/// The versions of `package` that `names` carry, each once, sorted; `""` for a name without one.
fn versions<'a>(names: impl Iterator<Item = &'a str>, package: &str) -> Vec<&'a str> {
    let prefix = format!("{package}/");
    let mut versions: Vec<&str> = names
        .filter_map(|name| name.strip_prefix(prefix.as_str()))
        .map(|rest| rest.split_once('@').map_or("", |(_, v)| v))
        .collect();
    versions.sort_unstable();
    versions.dedup();
    versions
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFLEX: WitPackage = WitPackage { name: "evoke:reflex", known: &["1.0.0"] };

    #[test]
    fn the_version_is_read_from_the_package_names_alone() {
        let names = ["evoke:reflex/types@1.0.0", "wasi:io/streams@0.2.0", "evoke:reflex/body@1.0.0", "run"];
        assert_eq!(REFLEX.version_in(names.into_iter()), Ok(Some("1.0.0")));
        assert_eq!(REFLEX.version_in(["wasi:io/streams@0.2.0", "run"].into_iter()), Ok(None));
    }

    #[test]
    fn another_version_none_or_two_are_refused_by_name() {
        let other = REFLEX.version_in(["evoke:reflex/types@2.0.0"].into_iter()).unwrap_err();
        assert_eq!(other.versions, ["2.0.0"]);
        assert!(other.to_string().contains("evoke:reflex@2.0.0, a world this evoke does not know"), "{other}");
        let bare = REFLEX.version_in(["evoke:reflex/types"].into_iter()).unwrap_err();
        assert_eq!(bare.versions, [""]);
        assert!(bare.to_string().contains("unversioned evoke:reflex world"), "{bare}");
        let mixed = REFLEX.version_in(["evoke:reflex/types@1.0.0", "evoke:reflex/body@2.0.0"].into_iter()).unwrap_err();
        assert_eq!(mixed.versions, ["1.0.0", "2.0.0"]);
        assert!(mixed.to_string().contains("mixes evoke:reflex versions (1.0.0, 2.0.0)"));
    }
}
