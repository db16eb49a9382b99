//! `amount`, read in the currency's minor units with its ISO 4217 code: `€12` (1200 EUR), `$3.50`
//! (350 USD), `£5`, `12 euros`, `twelve dollars`, `10 EUR`, `EUR 10`, `12€`, `5 canadian dollars`,
//! `twelve dollars and fifty cents`, `$1.5 million`.
//!
//! `$` alone is USD and `¥` alone is JPY; a prefix names another dollar (`C$`, `A$`, `NZ$`, `HK$`,
//! `S$`, `US$`, `R$` for BRL, `MX$`). An amount that does not come out whole in minor units (`¥3.5`,
//! `$1.005`) is not read. A three-letter code is read in either case, except `TRY`, which must be
//! upper case (`try` is a word).

use super::Hit;
use super::scan::{Scan, unsigned_hits};
use super::words::{parse_digit_number, parse_int_words, parse_numeral};

/// ISO 4217 codes read here, with their minor-unit exponent.
const CODES: &[(&str, u32)] = &[
    ("AED", 2),
    ("ARS", 2),
    ("AUD", 2),
    ("BGN", 2),
    ("BHD", 3),
    ("BRL", 2),
    ("CAD", 2),
    ("CHF", 2),
    ("CLP", 0),
    ("CNY", 2),
    ("COP", 2),
    ("CZK", 2),
    ("DKK", 2),
    ("EGP", 2),
    ("EUR", 2),
    ("GBP", 2),
    ("HKD", 2),
    ("HUF", 2),
    ("IDR", 2),
    ("ILS", 2),
    ("INR", 2),
    ("ISK", 0),
    ("JPY", 0),
    ("KRW", 0),
    ("KWD", 3),
    ("MXN", 2),
    ("MYR", 2),
    ("NGN", 2),
    ("NOK", 2),
    ("NZD", 2),
    ("OMR", 3),
    ("PHP", 2),
    ("PLN", 2),
    ("RON", 2),
    ("RUB", 2),
    ("SAR", 2),
    ("SEK", 2),
    ("SGD", 2),
    ("THB", 2),
    ("TRY", 2),
    ("TWD", 2),
    ("UAH", 2),
    ("USD", 2),
    ("VND", 0),
    ("ZAR", 2),
];

fn exponent(code: &str) -> Option<u32> {
    CODES.iter().find(|(c, _)| *c == code).map(|(_, e)| *e)
}

fn symbol(c: char) -> Option<&'static str> {
    Some(match c {
        '$' => "USD",
        '€' => "EUR",
        '£' => "GBP",
        '¥' => "JPY",
        '₹' => "INR",
        '₩' => "KRW",
        '₽' => "RUB",
        '₺' => "TRY",
        '₪' => "ILS",
        '₴' => "UAH",
        '₱' => "PHP",
        '฿' => "THB",
        '₫' => "VND",
        '₦' => "NGN",
        _ => return None,
    })
}

/// Letters glued before `$`.
fn dollar_prefix(w: &str) -> Option<&'static str> {
    Some(match w {
        "us" => "USD",
        "c" | "ca" | "can" => "CAD",
        "a" | "au" => "AUD",
        "nz" => "NZD",
        "hk" => "HKD",
        "s" | "sg" => "SGD",
        "r" => "BRL",
        "mx" => "MXN",
        _ => return None,
    })
}

/// A currency's name after a number: `dollars`, `euro`, `quid`.
fn currency_word(w: &str) -> Option<&'static str> {
    Some(match w {
        "dollar" | "dollars" | "buck" | "bucks" => "USD",
        "euro" | "euros" => "EUR",
        "pound" | "pounds" | "quid" => "GBP",
        "yen" => "JPY",
        "yuan" | "renminbi" => "CNY",
        "rupee" | "rupees" => "INR",
        "franc" | "francs" => "CHF",
        "ruble" | "rubles" | "rouble" | "roubles" => "RUB",
        "zloty" | "zlotys" | "zlotych" => "PLN",
        "shekel" | "shekels" => "ILS",
        "baht" => "THB",
        "dirham" | "dirhams" => "AED",
        "ringgit" => "MYR",
        "forint" | "forints" => "HUF",
        "hryvnia" | "hryvnias" => "UAH",
        "naira" => "NGN",
        "peso" | "pesos" => "MXN",
        _ => return None,
    })
}

/// An adjective before a currency name that names which one: `canadian dollars`, `swiss francs`.
fn adjective(s: &Scan, i: usize) -> Option<(&'static str, usize)> {
    let w = s.word(i)?;
    let (code, k) = match w {
        "us" | "american" => ("USD", i + 1),
        "canadian" => ("CAD", i + 1),
        "australian" | "aussie" => ("AUD", i + 1),
        "singapore" | "singaporean" => ("SGD", i + 1),
        "swiss" => ("CHF", i + 1),
        "british" => ("GBP", i + 1),
        "egyptian" => ("EGP", i + 1),
        "mexican" => ("MXN", i + 1),
        "argentine" | "argentinian" => ("ARS", i + 1),
        "colombian" => ("COP", i + 1),
        "chilean" => ("CLP", i + 1),
        "philippine" => ("PHP", i + 1),
        "new" if s.is_word(i + 1, "zealand") => ("NZD", i + 2),
        "hong" if s.is_word(i + 1, "kong") => ("HKD", i + 2),
        "new" if s.is_word(i + 1, "taiwan") => ("TWD", i + 2),
        _ => return None,
    };
    let base = currency_word(s.word(k)?)?;
    // the adjective must fit the currency it qualifies
    let fits = match code {
        "USD" | "CAD" | "AUD" | "SGD" | "NZD" | "HKD" | "TWD" => base == "USD",
        "CHF" => base == "CHF",
        "GBP" | "EGP" => base == "GBP",
        _ => base == "MXN",
    };
    fits.then_some((code, k + 1))
}

/// An ISO code at `i`.
fn iso_at(s: &Scan, i: usize) -> Option<&'static str> {
    let t = s.toks.get(i)?;
    let w = s.word(i)?;
    if w.len() != 3 || !w.is_ascii() {
        return None;
    }
    let up = w.to_ascii_uppercase();
    let (code, _) = CODES.iter().find(|(c, _)| *c == up)?;
    if *code == "TRY" && s.chars[t.start..t.end].iter().any(|c| c.is_lowercase()) {
        return None;
    }
    Some(code)
}

fn minor(value: f64, code: &str) -> Option<i64> {
    let e = exponent(code)?;
    let x = value * 10f64.powi(e as i32);
    let r = x.round();
    if (x - r).abs() > 1e-6 || !(0.0..9e15).contains(&r) {
        return None;
    }
    Some(r as i64)
}

/// A number in digits at `i` (with a scale word: `1.5 million`).
fn digit_amount(s: &Scan, i: usize) -> Option<(f64, usize)> {
    s.digits(i)?;
    parse_numeral(s, i)
}

/// `and fifty cents`, `50 pence` after an amount in a currency with two decimals.
fn cents(s: &Scan, j: usize) -> Option<(f64, usize)> {
    let k = if s.is_word(j, "and") { j + 1 } else { j };
    let (n, e) = if s.digits(k).is_some() {
        parse_digit_number(s, k)?
    } else {
        let (n, e) = parse_int_words(s, k)?;
        (n as f64, e)
    };
    if n.fract() != 0.0 || !(1.0..100.0).contains(&n) || !s.is_any_word(e, &["cent", "cents", "pence", "penny"]) {
        return None;
    }
    Some((n / 100.0, e + 1))
}

fn parse(s: &Scan, i: usize) -> Option<(usize, (i64, String))> {
    let done = |v: f64, code: &str, j: usize| minor(v, code).map(|a| (j, (a, code.to_string())));
    // US$5, C$ 10
    if let Some(code) = s.word(i).and_then(dollar_prefix)
        && s.is_punct(i + 1, '$')
        && s.adjacent(i, i + 1)
    {
        let k = i + 2;
        let (v, j) = digit_amount(s, k)?;
        return done(v, code, j);
    }
    // €12, $3.50, £ 5, $5 AUD
    if let Some(code) = s.punct(i).and_then(symbol) {
        let (v, j) = digit_amount(s, i + 1)?;
        if code == "USD"
            && let Some(c) = iso_at(s, j)
        {
            return done(v, c, j + 1);
        }
        return done(v, code, j);
    }
    // EUR 10, usd10
    if let Some(code) = iso_at(s, i)
        && let Some((v, j)) = digit_amount(s, i + 1)
    {
        return done(v, code, j);
    }
    // twelve dollars, a dollar, 12 euros, 12€, 10 EUR, 5 canadian dollars
    let (v, j) = if s.is_any_word(i, &["a", "an"]) && s.word(i + 1).and_then(currency_word).is_some() {
        (1.0, i + 1)
    } else {
        parse_numeral(s, i)?
    };
    if let Some(code) = s.punct(j).and_then(symbol) {
        return done(v, code, j + 1);
    }
    if let Some(code) = iso_at(s, j) {
        return done(v, code, j + 1);
    }
    let (code, mut e) = match adjective(s, j) {
        Some(found) => found,
        None => (currency_word(s.word(j)?)?, j + 1),
    };
    if code == "GBP" && s.is_word(e, "sterling") {
        e += 1;
    }
    let mut v = v;
    if exponent(code) == Some(2)
        && v.fract() == 0.0
        && let Some((c, k)) = cents(s, e)
    {
        v += c;
        e = k;
    }
    done(v, code, e)
}

/// Amounts are read unsigned: one after a sign is no amount.
pub(crate) fn find(s: &Scan) -> Vec<Hit<(i64, String)>> {
    unsigned_hits(s, parse)
}

#[cfg(test)]
mod tests {
    use crate::recognize::{PickKind, PickValue, candidates};

    fn amounts(input: &str) -> Vec<(String, i64, String)> {
        candidates(input, PickKind::Amount)
            .into_iter()
            .map(|c| match c.value {
                PickValue::Amount { amount, currency } => (c.span.text, amount, currency),
                other => panic!("not an amount: {other:?}"),
            })
            .collect()
    }

    fn one(input: &str, text: &str, amount: i64, currency: &str) {
        assert_eq!(amounts(input), vec![(text.to_string(), amount, currency.to_string())], "{input}");
    }

    #[test]
    fn an_amount_after_a_sign_is_not_read_as_positive() {
        assert_eq!(amounts("send -$5 to dana"), vec![]);
        assert_eq!(amounts("send minus 5 dollars to dana"), vec![]);
        assert_eq!(amounts("a balance of negative €12"), vec![]);
        // A dash with space after it is no sign.
        assert_eq!(amounts("$5 - $3").len(), 2);
    }

    #[test]
    fn symbols() {
        one("send €12 to dana", "€12", 1200, "EUR");
        one("$3.50", "$3.50", 350, "USD");
        one("£5", "£5", 500, "GBP");
        one("¥500", "¥500", 500, "JPY");
        one("$ 20", "$ 20", 2000, "USD");
        one("12€", "12€", 1200, "EUR");
        one("12 €", "12 €", 1200, "EUR");
        one("C$10", "C$10", 1000, "CAD");
        one("$1,200.75", "$1,200.75", 120_075, "USD");
        one("$1.5 million", "$1.5 million", 150_000_000, "USD");
        one("$5 AUD", "$5 AUD", 500, "AUD");
    }

    #[test]
    fn words() {
        one("12 euros", "12 euros", 1200, "EUR");
        one("twelve dollars", "twelve dollars", 1200, "USD");
        one("a dollar", "a dollar", 100, "USD");
        one("a hundred bucks", "a hundred bucks", 10_000, "USD");
        one("5 canadian dollars", "5 canadian dollars", 500, "CAD");
        one("ten swiss francs", "ten swiss francs", 1000, "CHF");
        one("twelve dollars and fifty cents", "twelve dollars and fifty cents", 1250, "USD");
        one("2.5 euros", "2.5 euros", 250, "EUR");
        one("ten pounds sterling", "ten pounds sterling", 1000, "GBP");
    }

    #[test]
    fn codes() {
        one("10 EUR", "10 EUR", 1000, "EUR");
        one("10 eur", "10 eur", 1000, "EUR");
        one("EUR 10", "EUR 10", 1000, "EUR");
        one("10EUR", "10EUR", 1000, "EUR");
        one("500 JPY", "500 JPY", 500, "JPY");
        one("1.5 KWD", "1.5 KWD", 1500, "KWD");
        assert!(amounts("try 10").is_empty());
        one("TRY 10", "TRY 10", 1000, "TRY");
    }

    #[test]
    fn not_amounts() {
        assert!(amounts("¥3.5").is_empty());
        assert!(amounts("$").is_empty());
        assert!(amounts("dollars").is_empty());
        assert!(amounts("12 apples").is_empty());
        assert!(amounts("$99999999999999999999").is_empty());
    }
}
