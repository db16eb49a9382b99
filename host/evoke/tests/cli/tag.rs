//! `--tag TAG`: only reflexes with that tag take part.

use crate::support::World;

#[test]
fn a_reflex_without_the_tag_takes_no_part() {
    let world = World::lamp();
    let tagged = world.evoke(&["--recording", "recording.toml", "--tag", "home", "try", "turn off the den lamp"]);
    assert_eq!(tagged.code, 0, "{}", tagged.seen());
    assert!(tagged.stdout.contains("lamp room=\"den\" state=\"off\""), "{}", tagged.stdout);
    let other = world.evoke(&["--recording", "recording.toml", "--tag", "garden", "turn off the den lamp"]);
    assert_eq!(other.code, 4, "no reflex carries the tag: {}", other.seen());
    insta::assert_snapshot!(other.seen());
}
