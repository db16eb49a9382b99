//! `weather place="home" day="tomorrow"` asks the weather station its `station` setting names, over
//! HTTP: a body that reaches one granted `host:port` (`net = ["{station}:8080"]`) and nothing else.
//!
//! The station answers `GET /forecast?place=<place>&date=<YYYY-MM-DD>` with
//! `{ "summary": "light rain", "high": 18, "low": 9 }`; the body's data is that answer, with the date.

use evoke_sdk::{Args, Context, Day, Output};
use serde_json::Value;

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn run(args: Args, ctx: Context) -> Result<Output, String> {
    let station = ctx.require("station")?;
    let place = args.word("place")?;
    let today = Day::today_utc();
    let day = match args.date("day") {
        Ok(reading) => reading.resolve(today).ok_or("that day does not exist")?,
        Err(_) => today,
    };

    let url = format!("http://{station}:8080/forecast?place={}&date={day}", encode(place));
    let reply = evoke_sdk::http::get(&url)?;
    if reply.status != 200 {
        return Err(format!("the weather station answered {}", reply.status));
    }
    let mut forecast: Value =
        serde_json::from_slice(&reply.body).map_err(|e| format!("the weather station's answer is not JSON: {e}"))?;
    let summary = forecast["summary"].as_str().unwrap_or("no summary").to_string();
    let (high, low) = (forecast["high"].as_f64(), forecast["low"].as_f64());
    let when = if day == today { "today".to_string() } else { day.to_string() };
    let text = match (high, low) {
        (Some(h), Some(l)) => format!("{place}, {when}: {summary}, {l}° to {h}°"),
        _ => format!("{place}, {when}: {summary}"),
    };
    forecast["date"] = Value::String(day.to_string());
    Output::text(text).with_data(&forecast)
}

evoke_sdk::export!(run);
