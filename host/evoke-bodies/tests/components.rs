//! The component reflexes of `reflexes/`, run as the CLI runs them: the manifest's grants filled from the
//! config, the values as a decision hands them over. And the refusals of what is not a body of a known world.

mod support;

use evoke_bodies::BodyValue;
use evoke_bodies::Call;
use evoke_bodies::component::{ComponentHost, Source, known_worlds};
use evoke_core::manifest::{Grants, read_manifest};
use evoke_core::recognize::{DateReading, PickValue};
use serde_json::json;
use std::path::Path;
use support::*;

/// The reflex's grants, `{key}` filled from `config`, as the CLI does before a run.
fn grants_of(dir: &Path, config: &[(&str, &str)]) -> Grants {
    let text = std::fs::read_to_string(dir.join("reflex.toml")).unwrap();
    let has = |p: &str| dir.join(p).is_file();
    let manifest = read_manifest("reflex.toml", &text, &has).value.expect("the manifest reads");
    let fill = |s: &str| config.iter().fold(s.to_string(), |s, (k, v)| s.replace(&format!("{{{k}}}"), v));
    Grants {
        files: manifest.grants.files.iter().map(|(p, a)| (fill(p), *a)).collect(),
        net: manifest.grants.net.iter().map(|p| fill(p)).collect(),
    }
}

fn with_config(mut call: Call, config: &[(&str, &str)]) -> Call {
    call.config = config.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    call
}

#[tokio::test]
async fn convert_is_a_pure_body() {
    let Some((dir, wasm)) = built("reflexes/convert", "convert.wasm") else { return };
    let c =
        call(&dir, &[("quantity", number(10_f64)), ("from", option("km")), ("to", option("mi"))], grants_of(&dir, &[]));
    let out = ok(host().run(&c, &wasm).await);
    assert_eq!(out.text, "10 km is 6.21 mi");
    assert_eq!(out.data.as_ref().unwrap()["unit"], "mi");

    let c = call(&dir, &[("quantity", number(72_f64)), ("from", option("f")), ("to", option("kg"))], Grants::default());
    let f = failed(host().run(&c, &wasm).await);
    assert_eq!(f.message, "cannot convert a temperature (°F) to a mass (kg)");
}

#[tokio::test]
async fn notes_reads_only_the_granted_folder() {
    let Some((dir, wasm)) = built("reflexes/notes", "notes.wasm") else { return };
    let folder = scratch("notes");
    std::fs::write(folder.join("groceries.md"), "bread\nmilk\n").unwrap();
    std::fs::write(folder.join("ideas.txt"), "a reflex for the kettle\n").unwrap();
    std::fs::write(folder.join("photo.jpg"), "not a note").unwrap();
    let secret = scratch("notes-beside");
    std::fs::write(secret.join("diary.md"), "private").unwrap();
    let folder_text = folder.display().to_string();
    let config = [("folder", folder_text.as_str())];
    let grants = grants_of(&dir, &config);
    assert_eq!(grants.files, vec![(folder_text.clone(), evoke_core::manifest::Access::Read)]);

    let out = ok(host().run(&with_config(call(&dir, &[], grants.clone()), &config), &wasm).await);
    assert_eq!(out.text, "2 notes: groceries, ideas");
    assert_eq!(out.data, Some(json!(["groceries", "ideas"])));

    let out = ok(host()
        .run(&with_config(call(&dir, &[("name", BodyValue::text("groceries"))], grants.clone()), &config), &wasm)
        .await);
    assert_eq!(out.text, "bread\nmilk");

    // The same body, pointed at a folder it was not granted, finds nothing there.
    let beside = secret.display().to_string();
    let config = [("folder", beside.as_str())];
    let f = failed(
        host().run(&with_config(call(&dir, &[("name", BodyValue::text("diary"))], grants), &config), &wasm).await,
    );
    assert_eq!(f.message, "there is no note \"diary\"");
}

#[tokio::test]
async fn weather_calls_the_granted_station_on_loopback() {
    let Some((dir, wasm)) = built("reflexes/weather", "weather.wasm") else { return };
    // The manifest grants `{station}:8080`: the station gets a loopback address of its own on port 8080.
    let pid = std::process::id();
    let station = format!("127.{}.{}.{}", 100 + pid % 100, (pid / 100) % 250 + 1, (pid / 25_000) % 250 + 1);
    let addr = serve(&format!("{station}:8080"), 1, |path| {
        assert!(path.starts_with("/forecast?place=group%207&date="), "{path}");
        r#"{"summary":"light rain","high":18,"low":9}"#.to_string()
    });
    assert_eq!(addr.port(), 8080);
    let config = [("station", station.as_str())];
    let grants = grants_of(&dir, &config);
    assert_eq!(grants.net, vec![format!("{station}:8080")]);

    let c = with_config(
        call(
            &dir,
            &[
                ("place", BodyValue::Word("group 7".into())),
                ("day", BodyValue::Pick(PickValue::Date(DateReading::Offset { days: 1 }))),
            ],
            grants.clone(),
        ),
        &config,
    );
    let out = ok(host().run(&c, &wasm).await);
    assert!(out.text.starts_with("group 7, "), "{}", out.text);
    assert!(out.text.ends_with(": light rain, 9° to 18°"), "{}", out.text);
    let data = out.data.unwrap();
    assert_eq!(data["summary"], "light rain");
    assert_eq!(data["date"].as_str().unwrap().len(), 10);

    // A station the config names but the grant does not cover is refused before anything is sent.
    let config = [("station", "127.0.0.1")];
    let f = failed(
        host()
            .run(&with_config(call(&dir, &[("place", BodyValue::Word("home".into()))], grants), &config), &wasm)
            .await,
    );
    assert_eq!(f.message, "the request failed: HttpRequestDenied");
}

#[tokio::test]
async fn a_python_body_runs() {
    let Some((dir, wasm)) = built("reflexes/tip", "tip.wasm") else { return };
    let bill = amount(4200, "EUR");
    let out = ok(host().run(&call(&dir, &[("bill", bill.clone())], Grants::default()), &wasm).await);
    assert_eq!(out.text, "a 15% tip on €42.00 is €6.30; €48.30 in all");
    assert_eq!(out.data, Some(json!({"tip": 630, "total": 4830, "currency": "EUR", "percent": 15.0})));

    let args = [("bill", bill), ("percent", number(20_f64)), ("round", BodyValue::Flag)];
    let out = ok(host().run(&call(&dir, &args, Grants::default()), &wasm).await);
    assert_eq!(out.text, "a 20% tip on €42.00 is €9.00; €51.00 in all");

    let f = failed(
        host()
            .run(&call(&dir, &[("bill", amount(100, "USD")), ("percent", number(120_f64))], Grants::default()), &wasm)
            .await,
    );
    assert_eq!(f.message, "a tip of 120 percent is out of range");
}

#[tokio::test]
async fn a_javascript_body_runs() {
    let Some((dir, wasm)) = built("reflexes/split", "split.wasm") else { return };
    let bill = amount(6000, "EUR");
    let out = ok(host().run(&call(&dir, &[("bill", bill), ("people", number(3_f64))], Grants::default()), &wasm).await);
    assert_eq!(out.text, "€60.00 split 3 ways is €20.00 each");
    assert_eq!(out.data, Some(json!({"share": 2000, "people": 3, "over": 0, "currency": "EUR"})));

    // A share is rounded up to the cent, or with the flag to a whole unit, and the surplus is said.
    let bill = amount(10000, "USD");
    let out = ok(host()
        .run(&call(&dir, &[("bill", bill.clone()), ("people", number(3_f64))], Grants::default()), &wasm)
        .await);
    assert_eq!(out.text, "$100.00 split 3 ways is $33.34 each; $0.02 over the bill");
    let args = [("bill", bill), ("people", number(3_f64)), ("round", BodyValue::Flag)];
    let out = ok(host().run(&call(&dir, &args, Grants::default()), &wasm).await);
    assert_eq!(out.text, "$100.00 split 3 ways is $34.00 each; $2.00 over the bill");
    assert_eq!(out.data, Some(json!({"share": 3400, "people": 3, "over": 200, "currency": "USD"})));

    // An `s64` beyond a double's exact integers arrives whole (a BigInt), and thousands are grouped.
    let bill = amount(123_456_789_012_345_678_i64, "JPY");
    let out = ok(host().run(&call(&dir, &[("bill", bill), ("people", number(2_f64))], Grants::default()), &wasm).await);
    assert_eq!(out.text, "¥123,456,789,012,345,678 split 2 ways is ¥61,728,394,506,172,839 each");
    assert_eq!(out.data.unwrap()["share"], json!(61_728_394_506_172_839_i64));

    // What the body throws is the failure's message.
    let bill = amount(500, "CHF");
    let f =
        failed(host().run(&call(&dir, &[("bill", bill), ("people", number(2.5_f64))], Grants::default()), &wasm).await);
    assert_eq!(f.message, "a bill cannot be split between 2.5 people");
}

#[tokio::test]
async fn a_world_this_evoke_does_not_know_is_refused_by_name() {
    let Some((dir, wasm)) = built("host/evoke-bodies/tests/future", "future.wasm") else { return };
    let f = failed(host().run(&call(&dir, &[], Grants::default()), &wasm).await);
    assert_eq!(
        f.message,
        "refused: this component was built for evoke:reflex@2.0.0, a world this evoke does not know; it runs evoke:reflex@1.0.0"
    );
    assert_eq!(known_worlds(), vec!["evoke:reflex@1.0.0".to_string()]);
}

#[tokio::test]
async fn what_is_not_a_component_is_refused() {
    let dir = scratch("not-a-component");
    let wasm = dir.join("body.wasm");
    std::fs::write(&wasm, b"\0asm\x01\0\0\0").unwrap(); // a core module, empty
    let f = failed(host().run(&call(&dir, &[], Grants::default()), &wasm).await);
    assert!(f.message.starts_with("refused: the file is not a component this evoke can run: "), "{}", f.message);

    let f = failed(host().run(&call(&dir, &[], Grants::default()), &dir.join("missing.wasm")).await);
    assert!(f.message.starts_with("refused: the component "), "{}", f.message);
}

#[tokio::test]
async fn a_compiled_component_is_cached_on_disk_and_in_memory() {
    let Some((dir, wasm)) = built("reflexes/convert", "convert.wasm") else { return };
    let cache = scratch("cache");
    let args = [("quantity", number(1_f64)), ("from", option("kg")), ("to", option("lb"))];
    let c = call(&dir, &args, Grants::default());

    let first = ComponentHost::new(&cache).unwrap();
    let (ran, source) = first.run_traced(&c, &wasm).await;
    assert_eq!(ok(ran).text, "1 kg is 2.2 lb");
    assert_eq!(source, Some(Source::Compiled));
    let (_, source) = first.run_traced(&c, &wasm).await;
    assert_eq!(source, Some(Source::Memory));
    let files: Vec<_> = std::fs::read_dir(first.cache_dir()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(first.cache_dir().starts_with(cache.join("components")));

    let second = ComponentHost::new(&cache).unwrap();
    let (ran, source) = second.run_traced(&c, &wasm).await;
    assert_eq!(ok(ran).text, "1 kg is 2.2 lb");
    assert_eq!(source, Some(Source::Disk));
}

#[tokio::test]
async fn a_cancelled_run_says_so() {
    let Some((dir, wasm)) = probe() else { return };
    warm(&dir, &wasm).await;
    let c = call(&dir, &[("action", option("spin"))], Grants::default());
    let ran = host().run_until(&c, &wasm, tokio::time::sleep(std::time::Duration::from_millis(300))).await;
    assert!(ran.cancelled);
    assert_eq!(ran.contained, evoke_bodies::Contained::Full);
}

/// The one compiled file in a host's cache.
fn compiled_file(host: &ComponentHost) -> std::path::PathBuf {
    let files: Vec<_> = std::fs::read_dir(host.cache_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

#[tokio::test]
async fn a_compiled_file_put_in_another_ones_place_never_runs() {
    let Some((dir, wasm)) = built("reflexes/convert", "convert.wasm") else { return };
    let Some((probe_dir, probe_wasm)) = probe() else { return };
    let args = [("quantity", number(1_f64)), ("from", option("kg")), ("to", option("lb"))];
    let c = call(&dir, &args, Grants::default());

    // Each component compiled into a cache of its own.
    let convert_cache = scratch("tamper-convert");
    let first = ComponentHost::new(&convert_cache).unwrap();
    assert_eq!(ok(first.run_traced(&c, &wasm).await.0).text, "1 kg is 2.2 lb");
    let probe_cache = scratch("tamper-probe");
    let other = ComponentHost::new(&probe_cache).unwrap();
    ok(other.run(&probe_call(&probe_dir, "env", "", Grants::default()), &probe_wasm).await);

    // The attack: the probe's compiled file, written where convert's is kept.
    let target = compiled_file(&first);
    std::fs::copy(compiled_file(&other), &target).unwrap();
    let next = ComponentHost::new(&convert_cache).unwrap();
    let (ran, source) = next.run_traced(&c, &wasm).await;
    assert_eq!(ok(ran).text, "1 kg is 2.2 lb", "the planted file ran");
    assert_eq!(source, Some(Source::Compiled));

    // A changed byte fails the same way, and the file compiled again is used from then on.
    let mut bytes = std::fs::read(&target).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&target, bytes).unwrap();
    let (ran, source) = ComponentHost::new(&convert_cache).unwrap().run_traced(&c, &wasm).await;
    assert_eq!(ok(ran).text, "1 kg is 2.2 lb");
    assert_eq!(source, Some(Source::Compiled));
    let (_, source) = ComponentHost::new(&convert_cache).unwrap().run_traced(&c, &wasm).await;
    assert_eq!(source, Some(Source::Disk));
}

/// The kinds travel with the call: a manifest edited on disk after the decision changes nothing about
/// what the body receives, and a body without a manifest beside it receives the same.
#[tokio::test]
async fn the_kinds_come_with_the_call_not_from_the_manifest_on_disk() {
    let Some((_, wasm)) = probe() else { return };
    let dir = scratch("kinds-travel");
    let copy = dir.join("probe.wasm");
    std::fs::copy(&wasm, &copy).unwrap();
    let c = probe_call(&dir, "env", "", Grants::default());
    assert!(ok(host().run(&c, &copy).await).text.contains("PATH"));

    // The same argument declared a text now: a host that read the kinds from here would hand the body a
    // text where it asks for an option's key.
    std::fs::write(
        dir.join("reflex.toml"),
        "reflex = 1\ndescription = \"Edited after the decision.\"\neffect = \"read\"\nrun = \"probe.wasm\"\n\n\
         [args.action]\nask = \"What?\"\npick = \"text\"\n",
    )
    .unwrap();
    assert!(ok(host().run(&c, &copy).await).text.contains("PATH"));
}
