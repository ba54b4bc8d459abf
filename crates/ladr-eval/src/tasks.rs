//! Finding the tasks: every SV-COMP task file (`*.yml`) under DIR whose properties include
//! `no-data-race.prp`, with its input file, expected verdict and data model.

use ladr_svcomp::task::{task_spec, TaskSpec};
use std::path::{Path, PathBuf};

/// One task to run.
#[derive(Clone, Debug)]
pub struct Task {
    /// The task file relative to DIR, with `/` separators.
    pub name: String,
    /// The name of the directory holding the task file (`.` for DIR itself).
    pub subfolder: String,
    /// The input file (DIR joined with the task's directory and `input_files`).
    pub input: PathBuf,
    pub spec: TaskSpec,
}

/// Every `*.yml` file under `dir`, sorted by path (symbolic links to directories are not
/// followed).
pub fn find_task_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yml" || e == "yaml") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A task file that names the property but cannot be run: (task, reason).
pub type Skipped = (String, String);

/// The data-race tasks under `dir` whose relative path contains `filter`; task files that
/// name the property but cannot be run are returned as (name, reason) to be reported.
pub fn find_tasks(dir: &Path, filter: Option<&str>) -> std::io::Result<(Vec<Task>, Vec<Skipped>)> {
    let mut tasks = vec![];
    let mut skipped = vec![];
    for file in find_task_files(dir)? {
        let rel = file.strip_prefix(dir).unwrap_or(&file);
        let name = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let text = match std::fs::read(&file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                skipped.push((name, e.to_string()));
                continue;
            }
        };
        match task_spec(&text) {
            Ok(None) => {}
            Ok(Some(spec)) => {
                let parent = file.parent().unwrap_or(dir);
                let subfolder = match rel.parent().and_then(Path::file_name) {
                    Some(n) => n.to_string_lossy().into_owned(),
                    None => ".".into(),
                };
                tasks.push(Task {
                    name,
                    subfolder,
                    input: parent.join(&spec.input),
                    spec,
                });
            }
            Err(reason) => skipped.push((name, reason)),
        }
    }
    Ok((tasks, skipped))
}
