//! Why a race is one (issue 15): the locks each racing thread holds at its access and whether
//! it is in an atomic section, in JSON (`locks_held`, `atomic_section`), in the terminal
//! report and in SARIF, for the racy programs of the suite that use locks.

use super::checked::checked;
use super::{free, racy};
use serde_json::{json, Value};

/// The accesses of the first race by the start routine of their thread.
fn access<'a>(v: &'a Value, function: &str) -> &'a Value {
    v["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["thread"]["function"] == function)
        .unwrap_or_else(|| panic!("no access by `{function}` in {v}"))
}

/// `[(lock, kind, line acquired)]` of an access.
fn held(a: &Value) -> Vec<(String, String, u64)> {
    a["locks_held"]
        .as_array()
        .unwrap_or_else(|| panic!("no locks_held in {a}"))
        .iter()
        .map(|l| {
            (
                l["lock"].as_str().unwrap().to_string(),
                l["kind"].as_str().unwrap().to_string(),
                l["acquired_at"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn l(lock: &str, kind: &str, line: u64) -> (String, String, u64) {
    (lock.to_string(), kind.to_string(), line)
}

/// A lock taken and released through a pointer parameter (`&e->m` of `addref(&cache[i])`)
/// is released: `main`, after two calls of `addref`, holds nothing (the unlock's call of the
/// model's own helper once named its lock `m`, and nothing was released).
#[test]
fn locks_released_through_a_pointer() {
    let v = &checked("lock_member_racy.c").json_value;
    assert_eq!(
        held(access(v, "worker")),
        vec![l("e->m", "mutex", 5), l("g", "mutex", 6)]
    );
    assert_eq!(held(access(v, "main")), vec![]);
}

#[test]
fn locks_held_by_each_racing_access() {
    // inc writes `counter` holding m; peek reads it holding nothing.
    let v = &checked("mutex_racy.c").json_value;
    assert_eq!(held(access(v, "inc")), vec![l("m", "mutex", 5)]);
    assert_eq!(held(access(v, "peek")), vec![]);
    assert!(checked("mutex_racy.c").text.contains("holds `m` (mutex)"));

    // The producer's second write is after its unlock; the consumer read after its unlock
    // (the lock pthread_cond_wait gave back included).
    let v = &checked("condvar_racy.c").json_value;
    assert_eq!(held(access(v, "producer")), vec![]);
    assert_eq!(held(access(v, "consumer")), vec![]);

    // A recursive mutex locked twice and unlocked twice is no longer held; the other thread
    // holds it.
    let v = &checked("recursive_mutex_racy.c").json_value;
    assert_eq!(held(access(v, "twice")), vec![]);
    assert_eq!(held(access(v, "locked")), vec![l("m", "mutex", 14)]);

    // main's read of x after its unlock, the thread's write after its own.
    let v = &checked("two_rounds_racy.c").json_value;
    assert_eq!(held(access(v, "main")), vec![]);
    assert_eq!(held(access(v, "t")), vec![]);
    for a in v["races"][0]["accesses"].as_array().unwrap() {
        assert_eq!(a["atomic_section"], false);
    }
}

#[test]
fn both_hold_locks_but_none_in_common() {
    racy("lock_kinds_racy.c", (12, 19));
    free("lock_kinds_free.c");
    let c = checked("lock_kinds_racy.c");
    let v = &c.json_value;
    // Named as at the lock call: `&q->lock` is `q->lock`.
    assert_eq!(held(access(v, "producer")), vec![l("q->lock", "mutex", 11)]);
    assert_eq!(
        held(access(v, "reader")),
        vec![l("rw", "rwlock-read", 17), l("s", "spinlock", 18)]
    );
    assert!(c.text.contains("(no lock is held by both)"), "{}", c.text);
    assert!(c
        .text
        .contains("holds `rw` (rwlock, for reading), `s` (spinlock)"));
    // SARIF: in the message and as the racing locations' properties.
    let result = &c.sarif["runs"][0]["results"][0];
    let message = result["message"]["text"].as_str().unwrap();
    assert!(
        message.contains("holds `q->lock` (mutex)") && message.contains("no lock is held by both"),
        "{message}"
    );
    let props: Vec<&Value> = result["codeFlows"][0]["threadFlows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["locations"].as_array().unwrap())
        .filter_map(|l| l.get("properties"))
        .collect();
    assert_eq!(props.len(), 2, "{result}");
    assert!(props.iter().any(|p| p["locksHeld"][0]["lock"] == "q->lock"
        && p["locksHeld"][0]["kind"] == "mutex"
        && p["atomicSection"] == false));
    assert!(props.iter().any(|p| p["locksHeld"][1]
        == json!({"lock": "s", "kind": "spinlock",
                  "acquired_at": {"file": "tests/e2e/lock_kinds_racy.c", "line": 18, "column": 3}})));

    racy("rwlock_write_racy.c", (7, 13));
    let v = &checked("rwlock_write_racy.c").json_value;
    assert_eq!(held(access(v, "w")), vec![l("rw", "rwlock-write", 6)]);
    assert_eq!(held(access(v, "r")), vec![l("m", "mutex", 12)]);
}

#[test]
fn atomic_section_of_each_racing_access() {
    let c = checked("atomic_section_racy.c");
    let v = &c.json_value;
    assert_eq!(access(v, "t")["atomic_section"], true, "{}", c.json);
    assert_eq!(access(v, "u")["atomic_section"], false, "{}", c.json);
    assert!(c.text.contains("and is in an atomic section"), "{}", c.text);
}
