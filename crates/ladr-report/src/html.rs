//! `--format html`: one self-contained HTML page (inline CSS and JavaScript, no network, no
//! external assets) that shows a race: the verdict line and the bounds, why the accesses race
//! (the locks each thread holds, atomic sections), the source around every line involved with
//! both accesses highlighted, and the interleaving as one lane per thread with the contexts in
//! order across them; each line number of a context links to that line of the source.
//! Readable at 1280 px, printable (print CSS: no navigation chrome, lanes kept on one page
//! where they fit, links shown as plain line numbers).
//!
//! Every text from the program or the outcome goes through [`escape`]. Source lines are read
//! from the files the positions name (as the SARIF writer does); a file that cannot be read is
//! shown as a note instead of its lines. Elements carry `data-` attributes (`data-context`,
//! `data-access`, `data-line`) that the browser test reads through the DOM.

use super::locks::{held_text, no_common_lock};
use super::text::{summary, thread_text};
use super::{AccessInfo, Outcome, Position, Race};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Lines of context shown around each line involved.
const AROUND: u32 = 2;

/// The page of `o`.
pub fn html(o: &Outcome) -> String {
    let mut h = String::new();
    let title = format!("ladr: {}", o.input);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        escape(&title)
    );
    let _ = write!(
        h,
        "<header>\n<h1>{}</h1>\n<p class=\"verdict verdict-{}\" id=\"verdict\">{}</p>\n",
        escape(&o.input),
        escape(&o.verdict),
        prose(&summary(o))
    );
    let cuts = if o.bounds.cuts.is_empty() {
        "no loop, recursion or thread creation was cut".to_string()
    } else {
        format!("the bounds cut the program: {}", o.bounds.cuts.join(", "))
    };
    let team = crate::text::omp_team_text(&o.bounds)
        .map(|t| format!(", {t}"))
        .unwrap_or_default();
    let _ = writeln!(
        h,
        "<p class=\"bounds\" id=\"bounds\">Bounds: {} round{}, {} unwinding{}{}; {}.</p>",
        o.bounds.rounds,
        if o.bounds.rounds == 1 { "" } else { "s" },
        o.bounds.unwind,
        if o.bounds.unwind == 1 { "" } else { "s" },
        escape(&team),
        escape(&cuts)
    );
    for a in &o.assumptions {
        let _ = writeln!(h, "<p class=\"assumed\">Assumed: {}</p>", prose(a));
    }
    let _ = writeln!(
        h,
        "<p class=\"tool\">{} {}</p>\n</header>",
        super::TOOL.name,
        super::TOOL.version
    );
    for (i, race) in o.races.iter().enumerate() {
        race_section(&mut h, o, race, i);
    }
    let _ = write!(h, "<script>{JS}</script>\n</body>\n</html>\n");
    h
}

/// One harness of `ladr check --html`'s index.
pub struct IndexHarness {
    pub name: String,
    pub verdict: String,
    pub races: usize,
    pub new: usize,
    pub suppressed: usize,
    /// `rounds/unwind`.
    pub bounds: String,
    pub time: String,
}

/// One race of the index: its page, its line (Markdown code spans allowed), its state.
pub struct IndexRace {
    pub harness: String,
    pub page: String,
    pub text: String,
    /// `new`, `unchanged` or `suppressed`.
    pub state: String,
}

/// `ladr check --html DIR`'s `index.html`: the gate's result (`passed` says its class), a
/// table of the harnesses with their verdicts, and a table of the races linking their pages;
/// in the race pages' style.
pub fn index(
    result: &str,
    passed: bool,
    harnesses: &[IndexHarness],
    races: &[IndexRace],
) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>ladr check</title>\n<style>{CSS}{INDEX_CSS}</style>\n</head>\n<body>\n\
         <header>\n<h1>ladr check</h1>\n<p class=\"verdict verdict-{}\" id=\"verdict\">{}</p>\n\
         <p class=\"tool\">{} {}</p>\n</header>\n",
        if passed { "no-race" } else { "race" },
        prose(result),
        super::TOOL.name,
        super::TOOL.version
    );
    h.push_str(
        "<h2>Harnesses</h2>\n<table class=\"index\" id=\"harnesses\">\n<tr><th>harness</th>\
         <th>verdict</th><th>races</th><th>new</th><th>suppressed</th><th>bounds</th>\
         <th>time</th></tr>\n",
    );
    for x in harnesses {
        let _ = writeln!(
            h,
            "<tr data-harness=\"{}\"><td>{}</td><td class=\"v v-{}\">{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&x.name),
            escape(&x.name),
            escape(&x.verdict),
            escape(&x.verdict),
            x.races,
            x.new,
            x.suppressed,
            escape(&x.bounds),
            escape(&x.time)
        );
    }
    h.push_str("</table>\n<h2>Races</h2>\n");
    if races.is_empty() {
        h.push_str("<p>No race.</p>\n");
    } else {
        h.push_str(
            "<table class=\"index\" id=\"races\">\n<tr><th>harness</th><th>race</th>\
             <th>state</th></tr>\n",
        );
        for r in races {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td><a href=\"{}\">{}</a></td><td class=\"s s-{}\">{}</td></tr>",
                escape(&r.harness),
                escape(&r.page),
                prose(&r.text),
                escape(&r.state),
                escape(&r.state)
            );
        }
        h.push_str("</table>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

fn race_section(h: &mut String, o: &Outcome, race: &Race, i: usize) {
    let [first, second] = &race.accesses;
    let _ = writeln!(
        h,
        "<section class=\"race\" id=\"race-{}\" data-race=\"{}\">",
        i + 1,
        i + 1
    );
    let _ = writeln!(
        h,
        "<h2>Race {} on <code>{}</code>: thread {} and thread {}</h2>",
        i + 1,
        escape(&second.expr),
        first.thread.slot,
        second.thread.slot
    );
    if let Some(s) = &race.suppression {
        let _ =
            writeln!(
            h,
            "<p class=\"suppressed\">Suppressed ({} at {}): {}. It does not fail the check.</p>",
            if s.kind == "inSource" { "in source" } else { "config" },
            escape(&s.at),
            escape(&s.justification)
        );
    }
    // Why: the two accesses and the locks.
    h.push_str("<div class=\"why\">\n<h3>Why they race</h3>\n<ul>\n");
    for (a, role) in [(first, "first"), (second, "second")] {
        let _ = writeln!(
            h,
            "<li class=\"access access-{role}\" data-access=\"{role}\">{} access: {} \
             <code>{}</code> at {} by {}; {}</li>",
            capitalise(role),
            escape(&access_words(a)),
            escape(&a.expr),
            link(&Position {
                file: a.file.clone(),
                line: a.line,
                column: a.column
            }),
            prose(&thread_text(&a.thread)),
            prose(&held_text(a.thread.slot, &a.locks_held, a.atomic_section)),
        );
    }
    if no_common_lock(&first.locks_held, &second.locks_held) {
        h.push_str(
            "<li class=\"no-common\">Both threads hold locks, but no lock is held by both.</li>\n",
        );
    }
    h.push_str("</ul>\n</div>\n");
    lanes(h, race);
    source(h, o, race);
    h.push_str("</section>\n");
}

/// The interleaving: a grid with one column (lane) per thread and one row per context.
fn lanes(h: &mut String, race: &Race) {
    let [first, second] = &race.accesses;
    let mut threads: Vec<&super::Thread> = vec![];
    for t in race
        .interleaving
        .iter()
        .map(|c| &c.thread)
        .chain([&first.thread, &second.thread])
    {
        if !threads.iter().any(|u| u.slot == t.slot) {
            threads.push(t);
        }
    }
    threads.sort_by_key(|t| t.slot);
    let n = race.interleaving.len();
    let _ = writeln!(
        h,
        "<h3>Interleaving ({} context{})</h3>\n<div class=\"lanes\" style=\"grid-template-columns: \
         repeat({}, minmax(0, 1fr))\">",
        n,
        if n == 1 { "" } else { "s" },
        threads.len()
    );
    for (k, t) in threads.iter().enumerate() {
        let _ = writeln!(
            h,
            "<div class=\"lane-head\" style=\"grid-column: {}; grid-row: 1\" data-lane=\"{}\">{}</div>",
            k + 1,
            t.slot,
            prose(&thread_text(t))
        );
    }
    let last = race.interleaving.len().saturating_sub(1);
    let c1 = race.interleaving[..last]
        .iter()
        .rposition(|c| c.thread.slot == first.thread.slot);
    for (ci, c) in race.interleaving.iter().enumerate() {
        let col = threads
            .iter()
            .position(|t| t.slot == c.thread.slot)
            .unwrap_or(0)
            + 1;
        let role = if ci == last && c.thread.slot == second.thread.slot {
            Some(("second", second))
        } else if Some(ci) == c1 {
            Some(("first", first))
        } else {
            None
        };
        let _ = write!(
            h,
            "<div class=\"context{}\" style=\"grid-column: {col}; grid-row: {}\" \
             data-context=\"{}\" data-slot=\"{}\" data-round=\"{}\">\
             <div class=\"context-head\">{}. round {}, thread {}</div><div class=\"lines\">",
            role.map_or(String::new(), |(r, _)| format!(" context-{r}")),
            ci + 2,
            c.index,
            c.thread.slot,
            c.round,
            c.index,
            c.round,
            c.thread.slot
        );
        for p in &c.lines {
            let is_access = role.is_some_and(|(_, a)| a.file == p.file && a.line == p.line);
            let _ = write!(
                h,
                "<a class=\"ln{}\" href=\"#{}\" data-line=\"{}\">{}</a> ",
                if is_access { " ln-access" } else { "" },
                anchor(&p.file, p.line),
                p.line,
                p.line
            );
        }
        h.push_str("</div>");
        if let Some((r, a)) = role {
            let _ = write!(
                h,
                "<div class=\"context-note\">{} access: {} <code>{}</code>; {}</div>",
                capitalise(r),
                escape(&access_words(a)),
                escape(&a.expr),
                prose(&held_text(a.thread.slot, &a.locks_held, a.atomic_section))
            );
        }
        h.push_str("</div>\n");
    }
    h.push_str("</div>\n");
}

/// The source around every line involved, per file, both accesses highlighted.
fn source(h: &mut String, o: &Outcome, race: &Race) {
    let [first, second] = &race.accesses;
    let mut wanted: BTreeMap<&str, BTreeSet<u32>> = BTreeMap::new();
    for c in &race.interleaving {
        for p in &c.lines {
            wanted.entry(&p.file).or_default().insert(p.line);
        }
    }
    for a in [first, second] {
        wanted.entry(&a.file).or_default().insert(a.line);
        for l in &a.locks_held {
            if let Some(p) = &l.acquired_at {
                wanted.entry(&p.file).or_default().insert(p.line);
            }
        }
    }
    h.push_str("<h3>Source</h3>\n");
    // The checked file first.
    let mut files: Vec<&str> = wanted.keys().copied().collect();
    files.sort_by_key(|f| (*f != o.input, *f));
    for file in files {
        let lines = &wanted[file];
        let _ = writeln!(
            h,
            "<div class=\"file\"><div class=\"file-name\">{}</div>",
            escape(file)
        );
        // Only the checked file is read: a file a line marker names (`#line 2 "/any/file"`)
        // is never opened (issue 28).
        let checked = std::path::Path::new(file) == std::path::Path::new(&o.input);
        let text = checked
            .then(|| std::fs::read_to_string(file).ok())
            .flatten();
        let Some(text) = text else {
            let why = if checked {
                "the file could not be read"
            } else {
                "a file the program's line markers name, not the checked file: not quoted"
            };
            let listed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let _ = writeln!(
                h,
                "<p class=\"note\">({why}; lines {})</p></div>",
                listed.join(", ")
            );
            continue;
        };
        let all: Vec<&str> = text.lines().collect();
        let mut shown: BTreeSet<u32> = BTreeSet::new();
        for &l in lines {
            for k in l.saturating_sub(AROUND).max(1)..=l + AROUND {
                if (k as usize) <= all.len() {
                    shown.insert(k);
                }
            }
        }
        h.push_str("<table class=\"src\">\n");
        let mut prev = 0;
        for k in shown {
            if prev != 0 && k != prev + 1 {
                h.push_str("<tr class=\"gap\"><td></td><td>…</td></tr>\n");
            }
            prev = k;
            let mut class = vec![];
            let mut role = "";
            if lines.contains(&k) {
                class.push("ran");
            }
            if first.file == file && first.line == k {
                class.push("first");
                role = "first";
            }
            if second.file == file && second.line == k {
                class.push("second");
                role = if role.is_empty() { "second" } else { "both" };
            }
            let label = match role {
                "first" => format!("first access: {}", access_words(first)),
                "second" => format!("second access: {}", access_words(second)),
                "both" => "both accesses".to_string(),
                _ => String::new(),
            };
            let _ = writeln!(
                h,
                "<tr id=\"{}\" class=\"{}\"{}><td class=\"no\">{k}</td><td class=\"code\">{}{}</td></tr>",
                anchor(file, k),
                class.join(" "),
                if role.is_empty() {
                    String::new()
                } else {
                    format!(" data-access-line=\"{role}\"")
                },
                escape(all[k as usize - 1]),
                if label.is_empty() {
                    String::new()
                } else {
                    format!("<span class=\"tag\">{}</span>", prose(&label))
                }
            );
        }
        h.push_str("</table></div>\n");
    }
}

fn access_words(a: &AccessInfo) -> String {
    format!("{}{}", if a.atomic { "atomic " } else { "" }, a.kind)
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A link to a line of the source shown (`file:line`).
fn link(p: &Position) -> String {
    format!(
        "<a href=\"#{}\">{}:{}</a>",
        anchor(&p.file, p.line),
        escape(&p.file),
        p.line
    )
}

/// The id of a source line: `L-` and the file's FNV-1a hash (any characters in a path stay
/// out of the id), then the line.
fn anchor(file: &str, line: u32) -> String {
    format!(
        "L-{:08x}-{line}",
        super::sarif::fnv1a64(file.as_bytes()) as u32
    )
}

/// A sentence of the reports as HTML: escaped, and each Markdown code span (`` `x` ``, as
/// the terminal report writes names) a `<code>` element. An unpaired backquote stays one.
pub fn prose(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    let mut out = String::with_capacity(s.len());
    for (i, part) in parts.iter().enumerate() {
        let code = i % 2 == 1;
        if code && i + 1 == parts.len() {
            // The last backquote has no partner.
            out.push('`');
            out.push_str(&escape(part));
        } else if code {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

/// Text as HTML: `&`, `<`, `>`, `"` and `'` escaped (safe in elements and quoted
/// attributes).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = r#"
:root { --first: #b45309; --second: #b91c1c; --ran: #eef2ff; --line: #e5e7eb; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto;
       max-width: 1240px; padding: 16px 20px; color: #111827; }
h1 { font-size: 20px; margin: 0 0 4px; word-break: break-all; }
h2 { font-size: 18px; margin: 24px 0 8px; border-top: 2px solid var(--line); padding-top: 12px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
code, .src, .lines { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
.verdict { font-weight: 600; padding: 6px 10px; border-radius: 4px; background: #f3f4f6; }
.verdict-race { background: #fee2e2; }
.verdict-no-race { background: #dcfce7; }
.bounds, .tool, .assumed { margin: 4px 0; color: #374151; }
.tool { font-size: 12px; color: #6b7280; }
.why ul { margin: 4px 0; padding-left: 20px; }
.access-first { color: var(--first); } .access-second { color: var(--second); }
.no-common { font-weight: 600; }
.suppressed { padding: 4px 8px; border-left: 4px solid #6b7280; background: #f3f4f6; }
.lanes { display: grid; gap: 6px; align-items: start; }
.lane-head { font-weight: 600; font-size: 13px; padding: 4px 6px; background: #f3f4f6;
             border-radius: 4px; overflow-wrap: anywhere; }
.context { border: 1px solid var(--line); border-radius: 4px; padding: 4px 6px; background: #fff; }
.context-first { border: 2px solid var(--first); }
.context-second { border: 2px solid var(--second); }
.context-head { font-size: 12px; color: #4b5563; }
.context-note { font-size: 12px; margin-top: 2px; }
.lines a { text-decoration: none; color: #1d4ed8; }
.lines a.ln-access { font-weight: 700; text-decoration: underline; }
.file { margin: 8px 0 16px; border: 1px solid var(--line); border-radius: 4px; overflow-x: auto; }
.file-name { font-weight: 600; padding: 4px 8px; background: #f3f4f6; }
table.src { border-collapse: collapse; width: 100%; }
table.src td { padding: 0 8px; white-space: pre; vertical-align: top; }
td.no { color: #9ca3af; text-align: right; width: 1%; user-select: none; }
tr.ran { background: var(--ran); }
tr.first td.code { background: #fef3c7; box-shadow: inset 4px 0 var(--first); }
tr.second td.code { background: #fee2e2; box-shadow: inset 4px 0 var(--second); }
tr.flash td { outline: 2px solid #2563eb; }
tr.gap td { color: #9ca3af; }
.tag { margin-left: 16px; font-family: system-ui, sans-serif; font-size: 12px; font-weight: 600;
       color: #374151; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  .lanes, .context, tr { break-inside: avoid; }
  .lines a { color: inherit; }
  tr.flash td { outline: none; }
  .file { overflow: visible; }
  table.src td { white-space: pre-wrap; }
}
"#;

/// The index's tables.
const INDEX_CSS: &str = r#"
table.index { border-collapse: collapse; width: 100%; margin: 4px 0 16px; }
table.index th, table.index td { border: 1px solid var(--line); padding: 4px 8px; text-align: left;
                                 vertical-align: top; }
table.index th { background: #f3f4f6; font-size: 13px; }
td.v-race, td.s-new { background: #fee2e2; font-weight: 600; }
td.v-no-race { background: #dcfce7; }
td.v-unknown, td.v-error { background: #fef3c7; }
td.s-suppressed, td.s-unchanged { color: #4b5563; }
"#;

const JS: &str = r#"
(function () {
  function flash(id) {
    document.querySelectorAll("tr.flash").forEach(function (r) { r.classList.remove("flash"); });
    var row = document.getElementById(id);
    if (row) { row.classList.add("flash"); }
  }
  document.querySelectorAll("a[href^='#L-']").forEach(function (a) {
    a.addEventListener("click", function () { flash(a.getAttribute("href").slice(1)); });
  });
  if (location.hash) { flash(location.hash.slice(1)); }
  document.body.setAttribute("data-ready", String(document.querySelectorAll("[data-context]").length));
})();
"#;

#[cfg(test)]
mod tests {
    use super::{escape, prose};

    #[test]
    fn code_spans_become_code_elements() {
        assert_eq!(
            prose("write of `a<b>` by `w`"),
            "write of <code>a&lt;b&gt;</code> by <code>w</code>"
        );
        assert_eq!(prose("one ` left"), "one ` left");
        assert_eq!(prose("no spans"), "no spans");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("a<b && c>\"d\"'"),
            "a&lt;b &amp;&amp; c&gt;&quot;d&quot;&#39;"
        );
    }
}
