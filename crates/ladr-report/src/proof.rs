//! The static race proof (`ladr_check::Prove`) in words: one line per reason
//! (`--explain-proof`) and the few words of the "no race" sentence.

use ladr_check::Position;
use ladr_check::ProofAnswer;

/// The reasons in one line each: `x: every access … holds `m``.
pub fn lines(proof: &ProofAnswer) -> Vec<String> {
    let at = |p: &Position| format!("{}:{}:{}", p.file, p.line, p.column);
    let mut out: Vec<String> = proof
        .gave_up
        .iter()
        .map(|g| match &g.at {
            Some(p) => format!("gave up: {} ({})", g.reason, at(p)),
            None => format!("gave up: {}", g.reason),
        })
        .collect();
    for o in &proof.objects {
        let places: Vec<String> = o.accesses.iter().map(at).collect();
        let tail = if places.is_empty() {
            String::new()
        } else {
            format!(" ({})", places.join(", "))
        };
        out.push(format!(
            "{} `{}`: {}{}",
            if o.safe { "safe" } else { "not proved" },
            o.object,
            o.reason,
            tail
        ));
    }
    out
}

/// The proof in a few words, for the "no race" sentence: the rules used.
pub fn summary(proof: &ProofAnswer) -> String {
    let n = proof.objects.len();
    if n == 0 {
        return "no object is accessed while threads run".into();
    }
    let mut rules: Vec<(&str, usize)> = vec![];
    for o in &proof.objects {
        match rules.iter_mut().find(|(r, _)| o.rule == *r) {
            Some(r) => r.1 += 1,
            None => rules.push((&o.rule, 1)),
        }
    }
    let parts: Vec<String> = rules.iter().map(|(r, k)| format!("{k} {r}")).collect();
    format!(
        "{n} shared object{}: {}; --explain-proof says why",
        if n == 1 { "" } else { "s" },
        parts.join(", ")
    )
}
