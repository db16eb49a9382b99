//! An outside tester's round against `expresso held`: a state place that holds no store is named as
//! such, never made into an empty one that lists nothing held.

use std::process::Command;

#[test]
fn held_on_a_place_without_a_store_says_so_and_makes_none() {
    let dir = std::env::temp_dir().join(format!("expresso-attack-held-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let typo = dir.join("stat");
    for args in [&["list"][..], &["show", "k"], &["release", "k"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_expresso"))
            .arg("held")
            .args(args)
            .args(["--state", typo.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("no expresso.db") && stderr.contains(typo.to_str().unwrap()), "{stderr}");
        assert!(!typo.exists(), "{args:?} made a store at {}", typo.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
