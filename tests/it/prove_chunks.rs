//! The proof's chunks claimed under a lock (`prove/chunks.rs`): the thread-pool idiom of
//! SV-COMP's `sssc12` is proved, and racy programs built to fool the rule are not.

use crate::prove::{assert_none_proved_with_main, assert_proved_by};

/// A block owned by a global, the counter, its bound.
const PREFIX: &str = "int *data; int next; int len;\n";

/// `main` sets the counter alone, then starts threads of `thr` forever.
const MAIN: &str = r#"int main(void) {
  next = 0;
  len = 100;
  data = malloc(sizeof(int) * len);
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}"#;

/// A claim of 10 elements and its loop, with `$CLAIM` and `$BODY` to fill in.
const THR: &str = r#"void *thr(void *arg) {
  int c, end;
  c = 0;
  end = 0;
  pthread_mutex_lock(&m);
  if (next + 10 <= len) { $CLAIM }
  pthread_mutex_unlock(&m);
  while (c < end) { $BODY c = c + 1; }
  return 0;
}"#;

const CLAIM: &str = "c = next; next = end = next + 10;";
const BODY: &str = "data[c] = 0; data[c] = data[c] + 1;";

fn thr(claim: &str, body: &str) -> String {
    THR.replace("$CLAIM", claim).replace("$BODY", body)
}

#[test]
fn chunks_claimed_under_one_lock_are_proved_apart() {
    let whole = format!("{}\n{MAIN}", thr(CLAIM, BODY));
    assert_proved_by(
        PREFIX,
        &whole,
        "data[…] (heap blocks only it points to)",
        &["chunks"],
    );
    // The claim spelt otherwise: a temporary, the counter moved first, `c++`.
    let other = "int t; t = next; next = next + 10; c = t; end = next;";
    let whole = format!("{}\n{MAIN}", thr(other, BODY).replace("c = c + 1;", "c++;"));
    assert_proved_by(
        PREFIX,
        &whole,
        "data[…] (heap blocks only it points to)",
        &["chunks"],
    );
}

#[test]
fn racy_chunk_programs_are_not_proved() {
    let racy: Vec<(&str, String)> = vec![
        // no lock around the claim: two threads read one `next`
        (
            "c1",
            thr(CLAIM, BODY)
                .replace("pthread_mutex_lock(&m);", "")
                .replace("pthread_mutex_unlock(&m);", ""),
        ),
        // the counter moved by less than the window: windows overlap
        ("c2", thr("c = next; end = next + 10; next = next + 5;", BODY)),
        // a range that is not empty before the claim
        ("c3", thr(CLAIM, BODY).replace("end = 0;", "end = 5;")),
        // the window's end moved in the loop
        ("c4", thr(CLAIM, &format!("{BODY} end = end + 1;"))),
        // the index stepped past the window
        ("c5", thr(CLAIM, "data[c + 1] = 0; data[c] = 1;")),
        // `c` written in the loop besides its increment
        ("c6", thr(CLAIM, &format!("{BODY} c = c + 5;"))),
        // a thread resets the counter
        ("c7", thr(CLAIM, BODY).replace("return 0;\n}", "next = 0; return 0;\n}")),
        // the read of the counter and its write in two critical sections
        (
            "c8",
            thr("c = next;", BODY).replace(
                "pthread_mutex_unlock(&m);\n",
                "pthread_mutex_unlock(&m);\n  pthread_mutex_lock(&m); next = end = c + 10; pthread_mutex_unlock(&m);\n",
            ),
        ),
        // a mutex of each thread's own
        (
            "c9",
            thr(CLAIM, BODY)
                .replace("int c, end;", "int c, end; pthread_mutex_t m;")
                .replace("c = 0;\n", "c = 0; pthread_mutex_init(&m, 0);\n"),
        ),
    ];
    let racy: Vec<(&str, &str)> = racy.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved_with_main(PREFIX, MAIN, &racy);
    // `main` moves the counter back while threads run; two claim functions on two locks.
    let main_resets = MAIN.replace(
        "while (1) pthread_create(&t, 0, thr, 0);",
        "while (1) { pthread_create(&t, 0, thr, 0); next = 0; }",
    );
    let two_locks = format!(
        "pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;\n{}\n{}\n{}",
        thr(CLAIM, BODY),
        thr(CLAIM, BODY)
            .replace("void *thr(", "void *thr2(")
            .replace("&m)", "&m2)"),
        MAIN.replace(
            "while (1) pthread_create(&t, 0, thr, 0);",
            "while (1) { pthread_create(&t, 0, thr, 0); pthread_create(&t, 0, thr2, 0); }"
        )
    );
    let more = [
        ("c10", format!("{}\n{main_resets}", thr(CLAIM, BODY))),
        ("c11", two_locks),
    ];
    let more: Vec<(&str, &str)> = more.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved_with_main(PREFIX, MAIN, &more);
    // A `__thread` counter: every thread claims from its own, all from 0.
    let own_counter = PREFIX.replace("int next;", "__thread int next;");
    let whole = thr(CLAIM, BODY);
    assert_none_proved_with_main(&own_counter, MAIN, &[("c12", whole.as_str())]);
    // A `__thread` mutex: every thread locks its own.
    let own_mutex = format!("{PREFIX}__thread pthread_mutex_t tm;\n");
    let whole = thr(CLAIM, BODY).replace("&m)", "&tm)");
    assert_none_proved_with_main(&own_mutex, MAIN, &[("c13", whole.as_str())]);
}
