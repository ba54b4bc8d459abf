//! The two pieces of child-process handling that CBMC runs and `ladr eval`'s task runs
//! share: reading a pipe to its end on its own thread, and killing processes.

use std::io::Read;
use std::process::{Command, Stdio};
use std::thread;

/// Reads `pipe` to its end on a thread of its own (a child's output can be larger than a
/// pipe buffer, and reading one pipe while the child blocks on the other would deadlock).
pub fn reader<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// Sends SIGKILL to `targets`: process ids, or `-PGID` for a whole process group.
pub fn kill(targets: &[String]) {
    if targets.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .arg("-KILL")
        .arg("--")
        .args(targets)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}
