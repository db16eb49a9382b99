//! `evoke adapter`: a name, a host or a file refused, each with its fix.

use crate::support::World;

fn refused(args: &[&str]) -> String {
    let run = World::empty().evoke(args);
    assert_eq!(run.code, 2, "{}", run.seen());
    assert!(run.stderr.contains("  = fix: "), "{}", run.stderr);
    run.seen()
}

#[test]
fn a_name_that_is_built_in_cannot_be_removed() {
    insta::assert_snapshot!(refused(&["adapter", "remove", "local"]));
}

#[test]
fn an_adapter_that_is_not_installed_cannot_be_removed() {
    insta::assert_snapshot!(refused(&["adapter", "remove", "ghost"]));
}

#[test]
fn a_file_that_does_not_read_is_named() {
    insta::assert_snapshot!(refused(&["adapter", "add", "mine", "nowhere.wasm"]));
}

#[test]
fn a_host_that_is_not_one_is_refused() {
    insta::assert_snapshot!(refused(&["adapter", "add", "mine", "x.wasm", "--allow-host", "http://a b"]));
}

#[test]
fn the_list_of_none_says_how_to_add_one() {
    let run = World::empty().evoke(&["adapter", "list"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    insta::assert_snapshot!(run.seen());
}
