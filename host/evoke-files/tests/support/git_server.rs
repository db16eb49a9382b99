//! A smart-HTTP git server on loopback for tests: `git http-backend` behind a small HTTP/1.1 server,
//! serving the bare repositories under one directory. Also helpers that build repositories with git.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct GitServer {
    pub port: u16,
    pub root: PathBuf,
}

impl GitServer {
    /// Serves every bare repository under `root` at `http://127.0.0.1:PORT/<name>.git`.
    pub fn start(root: &Path) -> GitServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let served = root.to_path_buf();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let root = served.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &root);
                });
            }
        });
        GitServer { port, root: root.to_path_buf() }
    }

    pub fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/{name}.git", self.port)
    }
}

fn serve(stream: TcpStream, root: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let mut parts = request_line.split_whitespace();
        let method = parts.next().unwrap_or("GET").to_string();
        let target = parts.next().unwrap_or("/").to_string();
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line)?;
            let line = line.trim_end().to_string();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let mut body = Vec::new();
        if let Some(length) = header("content-length").and_then(|l| l.parse::<usize>().ok()) {
            body.resize(length, 0);
            reader.read_exact(&mut body)?;
        } else if header("transfer-encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked")) {
            loop {
                let mut size = String::new();
                reader.read_line(&mut size)?;
                let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16).unwrap_or(0);
                let mut chunk = vec![0; size + 2];
                reader.read_exact(&mut chunk)?;
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        }
        let (path, query) = target.split_once('?').unwrap_or((&target, ""));
        let mut cgi = Command::new("git");
        cgi.arg("http-backend")
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("GIT_PROJECT_ROOT", root)
            .env("GIT_HTTP_EXPORT_ALL", "1")
            .env("REQUEST_METHOD", &method)
            .env("PATH_INFO", path)
            .env("QUERY_STRING", query)
            .env("REMOTE_ADDR", "127.0.0.1")
            .env("CONTENT_LENGTH", body.len().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(t) = header("content-type") {
            cgi.env("CONTENT_TYPE", t);
        }
        if let Some(p) = header("git-protocol") {
            cgi.env("GIT_PROTOCOL", p);
        }
        if let Some(e) = header("content-encoding") {
            cgi.env("HTTP_CONTENT_ENCODING", e);
        }
        let mut child = cgi.spawn()?;
        {
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(&body);
        }
        let output = child.wait_with_output()?;
        let out = output.stdout;
        let split = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map(|i| (i, 4))
            .or_else(|| out.windows(2).position(|w| w == b"\n\n").map(|i| (i, 2)));
        let (head, rest) = match split {
            Some((i, n)) => (String::from_utf8_lossy(&out[..i]).to_string(), &out[i + n..]),
            None => (String::new(), &out[..]),
        };
        let mut status = "200 OK".to_string();
        let mut response_headers = String::new();
        for line in head.lines() {
            if let Some(s) = line.strip_prefix("Status:") {
                status = s.trim().to_string();
            } else if !line.trim().is_empty() {
                response_headers.push_str(line.trim_end());
                response_headers.push_str("\r\n");
            }
        }
        write!(writer, "HTTP/1.1 {status}\r\n{response_headers}Content-Length: {}\r\n\r\n", rest.len())?;
        writer.write_all(rest)?;
        writer.flush()?;
        if header("connection").is_some_and(|c| c.eq_ignore_ascii_case("close")) {
            return Ok(());
        }
    }
}

/// Runs git in `dir` with a fixed identity and no user or system configuration.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Author")
        .env("GIT_AUTHOR_EMAIL", "author@example.com")
        .env("GIT_COMMITTER_NAME", "Author")
        .env("GIT_COMMITTER_EMAIL", "author@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// An author's working repository and the bare repository it publishes to, served as `<name>.git`.
pub struct Upstream {
    pub work: PathBuf,
    pub bare: PathBuf,
}

impl Upstream {
    pub fn new(served: &Path, scratch: &Path, name: &str) -> Upstream {
        let work = scratch.join(format!("{name}-work"));
        let bare = served.join(format!("{name}.git"));
        std::fs::create_dir_all(&work).unwrap();
        git(&work, &["init", "-q", "-b", "main"]);
        git(served, &["init", "-q", "--bare", bare.to_str().unwrap()]);
        git(&work, &["remote", "add", "origin", bare.to_str().unwrap()]);
        Upstream { work, bare }
    }

    /// Writes files (relative path, content), commits everything and pushes `main`.
    pub fn commit(&self, files: &[(&str, &str)], message: &str) -> String {
        for (path, content) in files {
            let target = self.work.join(path);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, content).unwrap();
        }
        git(&self.work, &["add", "-A"]);
        git(&self.work, &["commit", "-q", "--allow-empty", "-m", message]);
        git(&self.work, &["push", "-q", "origin", "main"]);
        git(&self.work, &["rev-parse", "HEAD"])
    }

    /// Tags HEAD (annotated) and pushes the tag, moving it when `force`.
    pub fn tag(&self, tag: &str, force: bool) {
        let mut args = vec!["tag", "-a", "-m", tag];
        if force {
            args.push("-f");
        }
        args.push(tag);
        git(&self.work, &args);
        let mut push = vec!["push", "-q", "origin"];
        if force {
            push.push("-f");
        }
        let spec = format!("refs/tags/{tag}");
        push.push(&spec);
        git(&self.work, &push);
    }
}

/// A reflex manifest for tests: one options argument, the given effect, an example.
pub fn manifest(description: &str, effect: &str, example: &str) -> String {
    format!(
        "reflex = 1\ndescription = \"{description}\"\neffect = \"{effect}\"\nconfirm = \"Do it {{state}}?\"\nrun = [\"true\", \"{{state}}\"]\n\n[args.state]\nask = \"On or off?\"\noptions.on = \"Switch on.\"\noptions.off = \"Switch off.\"\n\n[examples]\n\"{example}\" = {{ state = \"on\" }}\n"
    )
}

/// Runs git in `dir` as [`git`] does, with `input` on its standard input.
pub fn git_with_input(dir: &Path, args: &[&str], input: &[u8]) -> String {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("git runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

impl Upstream {
    /// Stages `paths`, each holding the same `content`, without writing them to the work tree: one blob,
    /// however many paths name it, so a test can build a tree of thousands of files cheaply.
    pub fn stage_many(&self, paths: &[String], content: &[u8]) {
        let blob = git_with_input(&self.work, &["hash-object", "-w", "--stdin"], content);
        let listing: String = paths.iter().map(|p| format!("100644 {blob}\t{p}\n")).collect();
        git_with_input(&self.work, &["update-index", "--add", "--index-info"], listing.as_bytes());
    }

    /// Commits what is staged (nothing else) and pushes `main`.
    pub fn commit_staged(&self, message: &str) {
        git(&self.work, &["commit", "-q", "-m", message]);
        git(&self.work, &["push", "-q", "origin", "main"]);
    }
}
