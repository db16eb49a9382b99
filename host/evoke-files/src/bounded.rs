//! Every file evoke reads whole is read here: a project's `evoke.toml`, `evoke.lock`, overlays and
//! vocabularies, a reflex's `reflex.toml`, `trust.toml`, a recording, an adapter's component, a plan file.
//!
//! A name is not a promise about what it names. A file in a cloned project may be a link to `/dev/zero`
//! (whose size reads 0 and which never ends), to a FIFO (whose opening blocks until a writer comes), or to
//! a file of yours outside the project whose words would go to the engine. So a read here:
//!
//! - opens without blocking (`O_NONBLOCK`, so a FIFO cannot hold the open) and then asks the open handle,
//!   not the name, what it is: anything but a regular file is refused;
//! - reads through `Read::take(limit + 1)` and refuses the file once the byte past the limit arrives, so
//!   what is held never passes the limit whatever the file's size said;
//! - for a project's own files, resolves every link first and refuses a file whose real place is outside
//!   the project's directory. A link inside the project to a file inside it is followed.
//!
//! Every refusal names the file, the limit and the fix.

use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The most evoke reads of a project's own file (`evoke.toml`, `evoke.lock`, an overlay, a
/// vocabulary) or of a reflex's `reflex.toml`: 1 MiB, hundreds of times what any of them needs.
pub const MAX_OWNED: u64 = 1 << 20;

/// The most evoke reads of `trust.toml`, which holds a line for every owned file of every project trusted.
pub const MAX_TRUST: u64 = 16 << 20;

/// The most evoke reads of a recording (`--recording FILE`), which holds a table of answers per sentence.
pub const MAX_RECORDING: u64 = 64 << 20;

/// The most evoke reads of its log for `evoke calibrate`.
pub const MAX_LOG: u64 = 256 << 20;

/// A size as the refusals say it: `1 MiB`, `16 KiB`, or bytes.
pub fn shown_size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// A file's size as a person reads it: `3.0 MB (3145728 bytes)`, or bytes alone under a kilobyte.
pub fn shown_bytes(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} bytes"),
        1_000..1_000_000 => format!("{:.1} kB ({bytes} bytes)", bytes as f64 / 1e3),
        _ => format!("{:.1} MB ({bytes} bytes)", bytes as f64 / 1e6),
    }
}

/// What fixes a file [`read`] refused: a file too large is shortened, one not UTF-8 saved as UTF-8; any
/// other refusal (missing, not a regular file, outside the project) is where `evoke.toml` points.
pub fn fix_for(e: &io::Error, path: &Path, project_file: &str) -> String {
    match e.kind() {
        io::ErrorKind::FileTooLarge => format!("shorten {}: what it holds needs a few kilobytes", path.display()),
        io::ErrorKind::InvalidData => format!("save {} as UTF-8", path.display()),
        _ => format!("check the path in {project_file}"),
    }
}

/// Reads the file at `path` whole, to at most `limit` bytes, refusing anything but a regular file.
/// `NotFound` stays `NotFound`, so a caller may still take a missing file as an empty one.
pub fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_file(path, path, limit)
}

/// [`read`], as UTF-8 text.
pub fn read_to_string(path: &Path, limit: u64) -> io::Result<String> {
    text(path, read(path, limit)?)
}

/// Reads the file at `path`, which belongs to the project at `root`, as [`read`] does; a file whose real
/// place (every link resolved) is outside `root` is refused. A dangling link is `NotFound`.
pub fn read_in(root: &Path, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let real = inside(root, path)?;
    read_file(path, &real, limit)
}

/// [`read_in`], as UTF-8 text.
pub fn read_to_string_in(root: &Path, path: &Path, limit: u64) -> io::Result<String> {
    text(path, read_in(root, path, limit)?)
}

/// Where `path` really is, when that is inside the project at `root`.
pub fn inside(root: &Path, path: &Path) -> io::Result<PathBuf> {
    let real = path.canonicalize()?;
    let real_root = root.canonicalize()?;
    if real.starts_with(&real_root) {
        return Ok(real);
    }
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "{} leads outside the project, to {}; evoke reads a project's files only inside its directory {} \
             (a link may lead to a file inside it): put the file itself there",
            path.display(),
            real.display(),
            real_root.display()
        ),
    ))
}

/// Opens `real` (shown as `shown`) without blocking, checks the handle is a regular file, and reads it to
/// `limit` bytes.
fn read_file(shown: &Path, real: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY).open(real)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file (a {}); evoke reads only regular files: put the file itself there",
                shown.display(),
                kind(&meta.file_type())
            ),
        ));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        // The size the handle reports, when larger than what was read: the person shortens a file they know.
        let size = meta.len().max(bytes.len() as u64);
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "{} holds more than {}, the most evoke reads of it (it is {}): shorten it, or remove it if evoke \
                 did not write it",
                shown.display(),
                shown_size(limit),
                shown_bytes(size)
            ),
        ));
    }
    Ok(bytes)
}

fn text(path: &Path, bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not UTF-8 (at byte {}): save it as UTF-8", path.display(), e.utf8_error().valid_up_to()),
        )
    })
}

/// What a file that is not a regular one is, in words.
fn kind(file_type: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_dir() {
        "directory"
    } else if file_type.is_char_device() {
        "character device"
    } else if file_type.is_block_device() {
        "block device"
    } else if file_type.is_fifo() {
        "FIFO"
    } else if file_type.is_socket() {
        "socket"
    } else {
        "special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_to_dev_zero_is_refused_as_not_a_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("rooms.toml");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = read(&link, MAX_OWNED).unwrap_err();
        assert!(e.to_string().contains("rooms.toml is not a regular file (a character device)"), "{e}");
    }

    #[test]
    fn a_fifo_is_refused_without_blocking_the_open() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("plan.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) with a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read(&fifo, MAX_OWNED).unwrap_err();
        assert!(e.to_string().contains("(a FIFO)"), "{e}");
    }

    #[test]
    fn a_file_one_byte_past_the_limit_is_refused_naming_it_and_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("evoke.toml");
        std::fs::write(&path, vec![b'#'; 1025]).unwrap();
        let e = read(&path, 1024).unwrap_err();
        assert!(e.to_string().contains("evoke.toml holds more than 1 KiB, the most evoke reads of it"), "{e}");
        assert!(e.to_string().contains("(it is 1.0 kB (1025 bytes))"), "{e}");
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            fix_for(&e, &path, "evoke.toml"),
            format!("shorten {}: what it holds needs a few kilobytes", path.display())
        );
        std::fs::write(&path, vec![b'#'; 1024]).unwrap();
        assert_eq!(read(&path, 1024).unwrap().len(), 1024);
    }

    #[test]
    fn a_link_leaving_the_project_is_refused_and_one_inside_it_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.toml"), "den = \"x\"\n").unwrap();
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir(project.path().join("vocab")).unwrap();
        let out = project.path().join("vocab/rooms.toml");
        std::os::unix::fs::symlink(outside.path().join("secret.toml"), &out).unwrap();
        let e = read_in(project.path(), &out, MAX_OWNED).unwrap_err();
        assert!(e.to_string().contains("leads outside the project"), "{e}");

        std::fs::write(project.path().join("words.toml"), "den = \"x\"\n").unwrap();
        let within = project.path().join("vocab/places.toml");
        std::os::unix::fs::symlink("../words.toml", &within).unwrap();
        assert_eq!(read_to_string_in(project.path(), &within, MAX_OWNED).unwrap(), "den = \"x\"\n");
    }

    #[test]
    fn a_missing_file_and_a_dangling_link_are_not_found() {
        let project = tempfile::tempdir().unwrap();
        let gone = project.path().join("evoke.lock");
        assert_eq!(read_in(project.path(), &gone, MAX_OWNED).unwrap_err().kind(), io::ErrorKind::NotFound);
        std::os::unix::fs::symlink("nowhere", &gone).unwrap();
        assert_eq!(read_in(project.path(), &gone, MAX_OWNED).unwrap_err().kind(), io::ErrorKind::NotFound);
        assert_eq!(read(&gone, MAX_OWNED).unwrap_err().kind(), io::ErrorKind::NotFound);
    }
}
