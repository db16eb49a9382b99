//! `convert quantity=10 from="km" to="mi"`: a pure body, no grant needed.

use evoke_sdk::{Args, Context, Output};

/// What a unit measures, and how to reach its base unit (metre, kilogram, kelvin, litre) from it.
fn unit(key: &str) -> Option<(&'static str, f64, f64)> {
    // (dimension, scale, offset): base = value * scale + offset
    Some(match key {
        "km" => ("length", 1000.0, 0.0),
        "mi" => ("length", 1609.344, 0.0),
        "m" => ("length", 1.0, 0.0),
        "ft" => ("length", 0.3048, 0.0),
        "kg" => ("mass", 1.0, 0.0),
        "lb" => ("mass", 0.453_592_37, 0.0),
        "c" => ("temperature", 1.0, 273.15),
        "f" => ("temperature", 5.0 / 9.0, 273.15 - 32.0 * 5.0 / 9.0),
        "l" => ("volume", 1.0, 0.0),
        "gal" => ("volume", 3.785_411_784, 0.0),
        _ => return None,
    })
}

fn shown(key: &str) -> &str {
    match key {
        "c" => "°C",
        "f" => "°F",
        other => other,
    }
}

fn run(args: Args, _ctx: Context) -> Result<Output, String> {
    let quantity = args.number("quantity")?;
    let from = args.option("from")?;
    let to = args.option("to")?;
    let (a, a_scale, a_offset) = unit(from).ok_or_else(|| format!("unknown unit {from}"))?;
    let (b, b_scale, b_offset) = unit(to).ok_or_else(|| format!("unknown unit {to}"))?;
    if a != b {
        return Err(format!("cannot convert a {a} ({}) to a {b} ({})", shown(from), shown(to)));
    }
    let value = ((quantity * a_scale + a_offset) - b_offset) / b_scale;
    let rounded = (value * 100.0).round() / 100.0;
    Ok(Output::text(format!("{quantity} {} is {rounded} {}", shown(from), shown(to)))
        .with_data_json(format!(r#"{{"value":{value},"unit":"{to}"}}"#)))
}

evoke_sdk::export!(run);
