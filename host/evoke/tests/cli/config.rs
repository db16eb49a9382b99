//! `evoke config NAME key=value` and `key --env VAR`.

use crate::support::World;

#[test]
fn a_setting_is_written_into_the_project_file() {
    let world = World::unconfigured_lamp();
    let run = world.evoke(&["config", "lamp", "bridge=10.0.0.2"]);
    assert_eq!(run.code, 0, "{}", run.seen());
    let file: toml_edit::DocumentMut = world.read("evoke.toml").parse().unwrap();
    assert_eq!(file["config"]["lamp"]["bridge"].as_str(), Some("10.0.0.2"), "{file}");
    insta::assert_snapshot!(run.seen());
}

#[test]
fn a_secret_is_named_by_its_variable_and_its_value_never_written() {
    let world = World::unconfigured_lamp();
    let before = world.read("evoke.toml");
    let refused = world.evoke(&["config", "lamp", "token=hunter2"]);
    assert_eq!(refused.code, 2, "{}", refused.seen());
    assert_eq!(world.read("evoke.toml"), before, "a refused setting leaves the file as it was");
    insta::assert_snapshot!("secret_refused", refused.seen());

    let named = world.evoke(&["config", "lamp", "token", "--env", "LAMP_TOKEN"]);
    assert_eq!(named.code, 0, "{}", named.seen());
    let text = world.read("evoke.toml");
    assert!(text.contains("LAMP_TOKEN") && !text.contains("hunter2"), "{text}");
    insta::assert_snapshot!("secret_named", named.seen());
}

#[test]
fn an_unknown_setting_or_reflex_is_refused_with_what_there_is() {
    let world = World::unconfigured_lamp();
    let before = world.read("evoke.toml");
    let setting = world.evoke(&["config", "lamp", "colour=red"]);
    assert_eq!(setting.code, 2, "{}", setting.seen());
    assert!(setting.stderr.contains("bridge, token"), "the settings there are are listed: {}", setting.stderr);
    insta::assert_snapshot!("unknown_setting", setting.seen());
    let reflex = world.evoke(&["config", "ghost", "bridge=1"]);
    assert_eq!(reflex.code, 2, "{}", reflex.seen());
    insta::assert_snapshot!("unknown_reflex", reflex.seen());
    assert_eq!(world.read("evoke.toml"), before);
}
