//! The SV-COMP violation witness: GraphML, witness format 1.0 (sosy-lab/sv-witnesses,
//! `README-GraphML.md`), built from an [`Outcome`].
//!
//! The witness automaton is one path: an entry node, then one edge per original line each
//! context of the interleaving ran (`startline`, `threadId` = the thread's slot), in
//! interleaving order, ending in the violation node after the edge of the second access. The
//! edge of a `pthread_create` call whose thread appears in the witness carries `createThread`
//! (the new thread's slot); the first edge of every thread carries `enterFunction` (its start
//! routine, `main` for thread 0). Lines outside the program file (headers) are left out:
//! `startline` refers to the program file. Without a race the graph is the trivial
//! correctness witness (one entry node, no edges).
//!
//! XML is written by hand (escaped); SHA-256 and the UTC time stamp are computed here, so
//! the crate needs no XML, crypto or time dependency.

use super::{Outcome, Position, Thread, TOOL};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// SV-COMP's specification text for the no-data-race property.
pub const SPECIFICATION: &str = "CHECK( init(main()), LTL(G ! data-race) )";

/// One `<key>` declaration: id, `attr.name`, `attr.type`, `for`, default.
const KEYS: &[(&str, &str, &str, &str, Option<&str>)] = &[
    ("witness-type", "witness-type", "string", "graph", None),
    (
        "sourcecodelang",
        "sourcecodeLanguage",
        "string",
        "graph",
        None,
    ),
    ("producer", "producer", "string", "graph", None),
    ("specification", "specification", "string", "graph", None),
    ("programfile", "programFile", "string", "graph", None),
    ("programhash", "programHash", "string", "graph", None),
    ("architecture", "architecture", "string", "graph", None),
    ("creationtime", "creationTime", "string", "graph", None),
    ("entry", "isEntryNode", "boolean", "node", Some("false")),
    (
        "violation",
        "isViolationNode",
        "boolean",
        "node",
        Some("false"),
    ),
    ("startline", "startline", "int", "edge", None),
    ("threadId", "threadId", "string", "edge", None),
    ("createThread", "createThread", "string", "edge", None),
    ("enterFunction", "enterFunction", "string", "edge", None),
    // ladr's own: the size of the OpenMP teams the program does not size (a bound of the
    // witness, `--omp-threads`); declared only when the answer has one.
    (OMP_THREADS_KEY, "ladrOmpThreads", "int", "graph", None),
];

const OMP_THREADS_KEY: &str = "ladr-omp-threads";

/// The GraphML witness of `o` for the program in `program_file` (hashed with SHA-256; the
/// hash is left out if the file cannot be read). `architecture` is `32bit` or `64bit`.
pub fn graphml(o: &Outcome, program_file: &Path, architecture: &str) -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    graphml_at(o, program_file, architecture, &iso8601_utc(secs))
}

/// [`graphml`] with a given `creationtime`.
pub fn graphml_at(o: &Outcome, program_file: &Path, architecture: &str, time: &str) -> String {
    let mut x = String::new();
    x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    x.push_str(
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n",
    );
    for (id, name, ty, scope, default) in KEYS {
        if *id == OMP_THREADS_KEY && o.bounds.omp_threads.is_none() {
            continue;
        }
        let _ = write!(
            x,
            " <key attr.name=\"{}\" attr.type=\"{}\" for=\"{}\" id=\"{}\"",
            escape(name),
            escape(ty),
            escape(scope),
            escape(id)
        );
        match default {
            Some(d) => {
                let _ = writeln!(x, ">\n  <default>{}</default>\n </key>", escape(d));
            }
            None => x.push_str("/>\n"),
        }
    }
    x.push_str(" <graph edgedefault=\"directed\">\n");
    let kind = if !o.races.is_empty() {
        "violation_witness"
    } else {
        "correctness_witness"
    };
    let hash = std::fs::read(program_file).ok().map(|b| hex(&sha256(&b)));
    let graph_data = [
        ("witness-type", Some(kind.to_string())),
        ("sourcecodelang", Some("C".to_string())),
        ("producer", Some(format!("{} {}", TOOL.name, TOOL.version))),
        ("specification", Some(SPECIFICATION.to_string())),
        ("programfile", Some(program_file.display().to_string())),
        ("programhash", hash),
        ("architecture", Some(architecture.to_string())),
        ("creationtime", Some(time.to_string())),
        (OMP_THREADS_KEY, o.bounds.omp_threads.map(|n| n.to_string())),
    ];
    for (key, value) in graph_data {
        if let Some(v) = value {
            data(&mut x, 2, key, &v);
        }
    }
    x.push_str("  <node id=\"N0\">\n");
    data(&mut x, 3, "entry", "true");
    x.push_str("  </node>\n");
    let edges = edges(o);
    for (i, e) in edges.iter().enumerate() {
        let target = i + 1;
        if target == edges.len() {
            let _ = writeln!(x, "  <node id=\"N{target}\">");
            data(&mut x, 3, "violation", "true");
            x.push_str("  </node>\n");
        } else {
            let _ = writeln!(x, "  <node id=\"N{target}\"/>");
        }
        let _ = writeln!(x, "  <edge source=\"N{i}\" target=\"N{target}\">");
        data(&mut x, 3, "startline", &e.line.to_string());
        data(&mut x, 3, "threadId", &e.thread.to_string());
        if let Some(t) = e.create {
            data(&mut x, 3, "createThread", &t.to_string());
        }
        if let Some(f) = &e.enter {
            data(&mut x, 3, "enterFunction", f);
        }
        x.push_str("  </edge>\n");
    }
    x.push_str(" </graph>\n</graphml>\n");
    x
}

fn data(x: &mut String, indent: usize, key: &str, value: &str) {
    let _ = writeln!(
        x,
        "{:indent$}<data key=\"{}\">{}</data>",
        "",
        escape(key),
        escape(value)
    );
}

/// One witness edge.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Edge {
    line: u32,
    thread: usize,
    create: Option<usize>,
    enter: Option<String>,
}

/// The path of the race: the lines of every context, the last one cut after the second
/// access (which is appended if the context does not list its line).
fn edges(o: &Outcome) -> Vec<Edge> {
    // The first race: a witness is one path.
    let Some(race) = o.races.first() else {
        return vec![];
    };
    let second = &race.accesses[1];
    // Every thread the witness mentions, by slot.
    let mut threads: Vec<&Thread> = vec![];
    for t in race
        .interleaving
        .iter()
        .map(|c| &c.thread)
        .chain(race.accesses.iter().map(|a| &a.thread))
    {
        if !threads.iter().any(|u| u.slot == t.slot) {
            threads.push(t);
        }
    }
    threads.sort_by_key(|t| t.slot);
    let in_program = |p: &Position| p.file == o.input;
    let mut created: HashSet<usize> = HashSet::new();
    let mut entered: HashSet<usize> = HashSet::new();
    let mut out = vec![];
    let n = race.interleaving.len();
    for (ci, c) in race.interleaving.iter().enumerate() {
        let last = ci + 1 == n;
        let slot = c.thread.slot;
        for (li, p) in c.lines.iter().enumerate() {
            let is_second = last && p.line == second.line && p.file == second.file;
            if in_program(p) || is_second {
                // A line may create several threads (a loop on one line): one edge for each
                // `pthread_create` call on it that made a thread of the witness.
                let calls = create_calls(c, li, p);
                let mut made = vec![];
                for t in threads.iter().filter(|t| {
                    t.slot != slot
                        && !created.contains(&t.slot)
                        && t.created_at
                            .as_ref()
                            .is_some_and(|at| at.line == p.line && at.file == p.file)
                }) {
                    if made.len() >= calls.max(1) {
                        break;
                    }
                    made.push(t.slot);
                }
                let creates: Vec<Option<usize>> = if made.is_empty() {
                    vec![None]
                } else {
                    made.iter().map(|s| Some(*s)).collect()
                };
                for create in creates {
                    if let Some(s) = create {
                        created.insert(s);
                    }
                    out.push(Edge {
                        line: p.line,
                        thread: slot,
                        create,
                        enter: entered.insert(slot).then(|| c.thread.function.clone()),
                    });
                }
            }
            if is_second {
                return out;
            }
        }
        if last {
            out.push(Edge {
                line: second.line,
                thread: second.thread.slot,
                create: None,
                enter: entered
                    .insert(second.thread.slot)
                    .then(|| second.thread.function.clone()),
            });
        }
    }
    out
}

/// How many `pthread_create` calls the `li`-th line run of context `c` made (from its steps;
/// each run of equal lines in the steps is one entry of `c.lines`).
fn create_calls(c: &super::Context, li: usize, p: &Position) -> usize {
    let mut run = 0usize;
    let mut count = 0usize;
    let mut prev: Option<u32> = None;
    for s in &c.steps {
        if prev.is_some() && prev != Some(s.pos.line) {
            run += 1;
        }
        prev = Some(s.pos.line);
        if run == li && s.pos.line == p.line && s.what == "call pthread_create" {
            count += 1;
        }
        if run > li {
            break;
        }
    }
    count
}

/// XML text and attribute escaping.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newlines are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// `YYYY-MM-DDTHH:MM:SSZ` for `secs` seconds since the Unix epoch (UTC).
pub fn iso8601_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// (year, month, day) of day `z` since 1970-01-01 (proleptic Gregorian; H. Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// SHA-256 (FIPS 180-4) of `data`.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_known_vectors() {
        // FIPS 180-4 / NIST examples.
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            hex(&sha256(&[b'a'; 1_000_000])),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
        // 55, 56 and 64 bytes: padding into one or two blocks.
        assert_eq!(
            hex(&sha256(&[b'a'; 55])),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"
        );
        assert_eq!(
            hex(&sha256(&[b'a'; 56])),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"
        );
        assert_eq!(
            hex(&sha256(&[b'a'; 64])),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"
        );
    }

    #[test]
    fn iso8601_known_dates() {
        assert_eq!(iso8601_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601_utc(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(iso8601_utc(4_107_542_399), "2100-02-28T23:59:59Z");
        assert_eq!(iso8601_utc(4_107_542_400), "2100-03-01T00:00:00Z");
    }

    #[test]
    fn escapes() {
        assert_eq!(
            escape("a<b && c>\"d'"),
            "a&lt;b &amp;&amp; c&gt;&quot;d&apos;"
        );
    }
}
