//! One finding per bug (issue 32): the races of one check grouped by root cause. Two races
//! are in one group when they share an access site (the same `file:line:column` and kind:
//! one unprotected access racing with several others is one bug), or when their writes are
//! in the same function and access the same variable (`if (s.pushes > s.peak) s.peak =
//! s.pushes;` is one bug, whatever pairs of its accesses race). Groups are numbered from 1
//! in the order of their first race, so the numbering is as stable as the race order.

use super::{AccessInfo, Race};
use ladr_check::Word;

/// The group of each race (1-based), in the races' order.
pub fn assign(races: &[Race]) -> Vec<usize> {
    let n = races.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let keys: Vec<Vec<Key>> = races.iter().map(keys).collect();
    for i in 0..n {
        for j in 0..i {
            if keys[i].iter().any(|k| keys[j].contains(k)) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                // The earlier race's root stays the root.
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut number = vec![0; n];
    let mut next = 0;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let r = root(&mut parent, i);
        if number[r] == 0 {
            next += 1;
            number[r] = next;
        }
        out.push(number[r]);
    }
    out
}

/// What makes two races one bug.
#[derive(PartialEq, Eq)]
enum Key {
    /// An access site: file, line, column, kind.
    Site(String, u32, u32, Word),
    /// A write's function and the variable it writes.
    Written(Option<String>, String),
}

fn keys(race: &Race) -> Vec<Key> {
    let mut out = vec![];
    for a in &race.accesses {
        out.push(Key::Site(a.file.clone(), a.line, a.column, a.kind.clone()));
        if a.kind == "write" {
            out.push(Key::Written(a.function.clone(), variable(a)));
        }
    }
    out
}

/// The variable an access's lvalue starts from: `s` of `s.peak`, `buf` of `buf[i].len`,
/// `p` of `*p` and `p->x`; a library function's hidden state as it is described.
fn variable(a: &AccessInfo) -> String {
    if a.libc_state.is_some() {
        return a.expr.clone();
    }
    let e = a.expr.trim_start_matches(['*', '(', '&', ' ']);
    let end = e
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(e.len());
    e[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Thread;

    fn access(line: u32, kind: &'static str, expr: &str, function: &str) -> AccessInfo {
        AccessInfo {
            file: "a.c".into(),
            line,
            column: 5,
            kind: kind.into(),
            atomic: false,
            expr: expr.into(),
            libc_state: None,
            function: Some(function.into()),
            omp_construct: None,
            thread: Thread {
                slot: 0,
                function: function.into(),
                created_at: None,
                omp_thread_num: None,
                omp_team_num: None,
                call_end: None,
            },
            values: vec![],
            locks_held: vec![],
            atomic_section: false,
            offset: (0, 0),
        }
    }

    fn race(a: AccessInfo, b: AccessInfo) -> Race {
        Race {
            accesses: [a, b],
            fingerprint: String::new(),
            group: 0,
            interleaving: vec![],
            suppression: None,
        }
    }

    #[test]
    fn the_races_of_one_unlocked_statement_are_one_group() {
        // if (s.pushes > s.peak) s.peak = s.pushes; (line 7: the read, line 8: the write)
        let races = [
            race(
                access(8, "write", "s.peak", "push"),
                access(7, "read", "s.peak", "push"),
            ),
            race(
                access(8, "write", "s.peak", "push"),
                access(8, "write", "s.peak", "push"),
            ),
            race(
                access(6, "write", "s.pushes", "push"),
                access(8, "read", "s.pushes", "push"),
            ),
            race(
                access(20, "write", "total", "pop"),
                access(21, "read", "total", "stats"),
            ),
        ];
        assert_eq!(assign(&races), [1, 1, 1, 2]);
    }

    #[test]
    fn races_sharing_an_access_site_are_one_group() {
        let races = [
            race(access(3, "write", "x", "f"), access(9, "read", "x", "g")),
            race(access(12, "write", "y", "h"), access(13, "read", "y", "h2")),
            race(access(3, "write", "x", "f"), access(15, "read", "x", "k")),
        ];
        assert_eq!(assign(&races), [1, 2, 1]);
    }

    #[test]
    fn a_variable_is_what_the_lvalue_starts_from() {
        for (expr, var) in [
            ("s.peak", "s"),
            ("buf[i].len", "buf"),
            ("*p", "p"),
            ("p->x", "p"),
        ] {
            assert_eq!(variable(&access(1, "write", expr, "f")), var);
        }
    }
}
