//! A body that does, on request, one thing a grant may deny, and says what came of it. The denial tests
//! run it with `action` (what to try) and `target` (a path, an address, a URL or a name).

use evoke_sdk::{Args, Context, Output};
use std::hint::black_box;
use std::io::Write;
use std::net::{TcpStream, ToSocketAddrs};
use wasip2::http::types::Fields;

fn run(args: Args, _ctx: Context) -> Result<Output, String> {
    let action = args.option("action")?;
    let target = args.text("target").unwrap_or("");
    match action {
        "read" => std::fs::read_to_string(target).map(Output::text).map_err(|e| format!("read {target}: {e}")),
        "write" => std::fs::write(target, "written by a body\n")
            .map(|()| Output::text(format!("wrote {target}")))
            .map_err(|e| format!("write {target}: {e}")),
        "list" => {
            let mut names: Vec<String> = std::fs::read_dir(target)
                .map_err(|e| format!("list {target}: {e}"))?
                .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect();
            names.sort();
            Ok(Output::text(names.join("\n")))
        }
        "tcp" => {
            let mut stream = TcpStream::connect(target).map_err(|e| format!("tcp {target}: {e}"))?;
            stream.write_all(b"hello\n").map_err(|e| format!("tcp {target}: {e}"))?;
            Ok(Output::text(format!("connected to {target}")))
        }
        "http" => {
            let reply = evoke_sdk::http::get(target).map_err(|e| format!("http {target}: {e}"))?;
            Ok(Output::text(format!("{} {}", reply.status, reply.text())))
        }
        "lookup" => {
            let addrs = (target, 80).to_socket_addrs().map_err(|e| format!("lookup {target}: {e}"))?;
            Ok(Output::text(addrs.map(|a| a.ip().to_string()).collect::<Vec<_>>().join(" ")))
        }
        "env" => {
            let mut vars: Vec<String> = std::env::vars().map(|(k, _)| k).collect();
            vars.sort();
            Ok(Output::text(vars.join(" ")))
        }
        "spin" => {
            let mut n: u64 = 0;
            loop {
                n = black_box(n.wrapping_add(1));
            }
        }
        "hoard" => {
            let mut kept: Vec<Vec<u8>> = Vec::new();
            loop {
                let mut block = vec![0u8; 1 << 20];
                block[4095] = 1;
                kept.push(black_box(block));
            }
        }
        "headers" => {
            // `COUNT:BYTES`: that many sets of header fields, each with one value of that many bytes, all
            // kept alive at once.
            let (count, bytes) = target.split_once(':').ok_or("headers wants COUNT:BYTES")?;
            let count: usize = count.parse().map_err(|_| "COUNT is a number")?;
            let value = vec![b'x'; bytes.parse().map_err(|_| "BYTES is a number")?];
            let mut kept = Vec::with_capacity(count);
            for _ in 0..count {
                let fields = Fields::new();
                fields.append("x-flood", &value).map_err(|e| format!("append: {e:?}"))?;
                kept.push(fields);
            }
            Ok(Output::text(format!("kept {} sets of fields", black_box(kept).len())))
        }
        "shout" => {
            // Two megabytes to stderr, a line at a time.
            let line = "x".repeat(1023);
            for _ in 0..2048 {
                eprintln!("{line}");
            }
            Ok(Output::text("shouted"))
        }
        "escape" => {
            // A clipboard write, a cleared screen, a window title and a right-to-left override, on both streams.
            println!("\x1b]52;c;aGk=\x07\x1b[2Jout");
            eprintln!("\x1b]0;pwned\x07\u{202e}err\u{9b}2J");
            Ok(Output::text("escaped"))
        }
        "big" => Ok(Output::text("y".repeat(2 << 20))),
        "print" => {
            println!("a stray line on stdout");
            eprintln!("a line on stderr");
            Ok(Output::text("the result").with_data_json(r#"{"clean":true}"#))
        }
        "fail" => Err("the body says no".into()),
        "panic" => panic!("the body panicked"),
        "data" => Ok(Output::text("bad").with_data_json("{not json")),
        other => Err(format!("unknown action {other}")),
    }
}

evoke_sdk::export!(run);
