//! Lock phrases of the report: which locks each racing thread holds, in words.

use crate::LockHeld;

/// "thread 2 holds no lock", "thread 0 holds `q->lock` (mutex)", one phrase per access, and
/// whether both threads hold locks but none in common.
pub fn held_text(slot: usize, locks: &[LockHeld], atomic_section: bool) -> String {
    let mut s = match locks {
        [] => format!("thread {slot} holds no lock"),
        _ => {
            let names: Vec<String> = locks
                .iter()
                .map(|l| format!("`{}` ({})", l.lock, kind_text(&l.kind)))
                .collect();
            format!("thread {slot} holds {}", names.join(", "))
        }
    };
    if atomic_section {
        s.push_str(" and is in an atomic section");
    }
    s
}

/// `mutex` → `mutex`, `rwlock-read` → `rwlock, for reading`.
pub fn kind_text(kind: &str) -> &str {
    match kind {
        "rwlock-read" => "rwlock, for reading",
        "rwlock-write" => "rwlock, for writing",
        k => k,
    }
}

/// Both threads hold at least one lock, but no lock is held by both.
pub fn no_common_lock(a: &[LockHeld], b: &[LockHeld]) -> bool {
    !a.is_empty() && !b.is_empty() && !a.iter().any(|x| b.iter().any(|y| y.key == x.key))
}
