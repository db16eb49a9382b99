//! Runs the built `evoke` in a project made for the test, with a home of its own.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[allow(dead_code)]
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A project in a temporary directory with the given files, and a home of its own.
pub struct World {
    pub root: tempfile::TempDir,
    pub home: tempfile::TempDir,
}

/// What one run printed, and its exit code.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout, then stderr under a rule, then the exit code: the whole of what a person sees.
    pub fn seen(&self) -> String {
        format!("{}--- stderr\n{}--- exit {}\n", self.stdout, self.stderr, self.code)
    }
}

/// A reflex whose body prints its arguments, with the given manifest lines after `reflex = 1`.
pub const LAMP: &str = r#"reflex = 1
description = "Switch the lamp of one room on or off."
effect = "write"
confirm = "Switch the {room} lamp {state}?"
run = "lamp.mjs"
tags = ["home"]

[args.room]
ask = "Which room?"
options.den = "The den."
options.office = "The office."

[args.state]
ask = "On or off?"
options.on = "Switch on."
options.off = "Switch off."

[config]
bridge = "The bridge's address"
token  = { about = "The bridge's key", secret = true }

[examples]
"turn off the den lamp" = { room = "den", state = "off" }

[tests]
"switch the office lamp on" = { room = "office", state = "on" }
"order a pizza" = false
"#;

pub const LAMP_BODY: &str = "export default function (args) { return `lamp ${args.room} ${args.state}`; }\n";

/// Answers for the sentences the tests say, for the lamp project.
pub const RECORDING: &str = r#"id = "replay"

[gate]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[answers."turn off the den lamp"]
route        = { lamp = 0.95, none = 0.05 }
"fits.lamp"  = { yes = 0.9 }
"lamp.room"  = { den = 0.9, office = 0.05, unstated = 0.05 }
"lamp.state" = { off = 0.95, on = 0.03, unstated = 0.02 }

[answers."switch the office lamp on"]
route        = { lamp = 0.95, none = 0.05 }
"fits.lamp"  = { yes = 0.9 }
"lamp.room"  = { office = 0.9, den = 0.05, unstated = 0.05 }
"lamp.state" = { on = 0.95, off = 0.03, unstated = 0.02 }

[answers."order a pizza"]
route = { none = 0.9, lamp = 0.1 }
"#;

/// A playbook of the lamp project: it switches the den lamp off, then says what is left to say.
#[allow(dead_code)]
pub const GOOD_NIGHT: &str = r#"playbook = 1
description = "Wind the house down for the night."

[examples]
"good night" = true

[[steps]]
call = "lamp"
args = { room = "den", state = "off" }

[[steps]]
say = "switch the office lamp off"
"#;

impl World {
    /// A trusted project holding the lamp reflex and the recording above.
    pub fn lamp() -> World {
        let world = World::unconfigured_lamp();
        for setting in [&["config", "lamp", "bridge=10.0.0.1"][..], &["config", "lamp", "token", "--env", "LAMP_TOKEN"]]
        {
            let set = world.evoke(setting);
            assert_eq!(set.code, 0, "{}", set.seen());
        }
        world.trust();
        world
    }

    /// The lamp project before its settings are given, untrusted.
    pub fn unconfigured_lamp() -> World {
        let world = World::empty();
        world.write("evoke.toml", "[reflexes]\nlamp = \"reflexes/lamp\"\n");
        world.write("reflexes/lamp/reflex.toml", LAMP);
        world.write("reflexes/lamp/lamp.mjs", LAMP_BODY);
        world.write("recording.toml", RECORDING);
        world
    }

    pub fn trust(&self) {
        let trusted = self.evoke(&["trust"]);
        assert_eq!(trusted.code, 0, "{}", trusted.seen());
    }

    pub fn empty() -> World {
        World { root: tempfile::tempdir().unwrap(), home: tempfile::tempdir().unwrap() }
    }

    pub fn write(&self, relative: &str, text: &str) {
        let path = self.root.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Replaces `from` with `to` in a file of the world; the file must hold `from`, so an edit that would
    /// change nothing fails the test instead of passing it quietly.
    pub fn edit(&self, relative: &str, from: &str, to: &str) {
        let text = self.read(relative);
        assert!(text.contains(from), "{relative} holds {from:?}");
        self.write(relative, &text.replace(from, to));
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.root.path().join(relative)).unwrap()
    }

    pub fn evoke(&self, args: &[&str]) -> Run {
        self.evoke_with(args, None, &[])
    }

    pub fn evoke_with(&self, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Run {
        // EVOKE_BIN runs the same snapshots against another build, so two builds' outputs can be compared.
        let program = std::env::var_os("EVOKE_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_evoke").into());
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(self.root.path())
            .env("EVOKE_HOME", self.home.path())
            .env("NO_COLOR", "1")
            .env_remove("OPENAI_API_KEY")
            .env("LAMP_TOKEN", "lamp-token")
            .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().unwrap();
        if let Some(text) = stdin {
            child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
        }
        let out = child.wait_with_output().unwrap();
        Run {
            code: out.status.code().expect("evoke ended by a signal"),
            stdout: self.path_free(&String::from_utf8(out.stdout).unwrap()),
            stderr: self.path_free(&String::from_utf8(out.stderr).unwrap()),
        }
    }

    /// evoke run with arguments given as bytes, which need not be UTF-8, its output read leniently.
    pub fn evoke_bytes(&self, args: &[&[u8]]) -> Run {
        use std::os::unix::ffi::OsStrExt;
        let out = Command::new(env!("CARGO_BIN_EXE_evoke"))
            .args(args.iter().map(|a| std::ffi::OsStr::from_bytes(a)))
            .current_dir(self.root.path())
            .env("EVOKE_HOME", self.home.path())
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        Run {
            code: out.status.code().expect("evoke ended by a signal"),
            stdout: self.path_free(&String::from_utf8_lossy(&out.stdout)),
            stderr: self.path_free(&String::from_utf8_lossy(&out.stderr)),
        }
    }

    /// The text with this world's directories named, so that a snapshot holds on any machine.
    fn path_free(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (path, name) in [(self.root.path(), "[PROJECT]"), (self.home.path(), "[HOME]")] {
            for form in [path.canonicalize().unwrap(), path.to_path_buf()] {
                text = text.replace(&form.display().to_string(), name);
            }
        }
        text
    }
}
