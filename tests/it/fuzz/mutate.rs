//! Mutation of the fuzz inputs: text cut into tokens and changed by a few token edits.

/// Tokens of C, TOML and JSON text: runs of identifier characters, runs of spaces, single
/// other characters.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let class = |c: char| {
            if c.is_alphanumeric() || c == '_' {
                0
            } else if c == ' ' || c == '\t' {
                1
            } else {
                2
            }
        };
        let k = class(c);
        let end = if k == 2 {
            i + c.len_utf8()
        } else {
            let mut e = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if class(d) != k {
                    break;
                }
                e = j + d.len_utf8();
                chars.next();
            }
            e
        };
        out.push(&text[i..end]);
    }
    out
}

/// `text` changed by 1–8 token edits (delete, duplicate, swap, replace or insert a word
/// of `dict`, repeat a line, cut the end, nest), at most `max` bytes.
pub(super) fn mutate(rng: &mut fastrand::Rng, text: &str, dict: &[&str], max: usize) -> String {
    let mut toks: Vec<String> = tokens(text).into_iter().map(String::from).collect();
    // Mostly one edit, which keeps most of the input meaningful to the later passes.
    let edits = if rng.u8(..4) == 0 {
        rng.usize(2..=8)
    } else {
        1
    };
    for _ in 0..edits {
        if toks.is_empty() {
            toks.push(dict[rng.usize(..dict.len())].to_string());
            continue;
        }
        let i = rng.usize(..toks.len());
        let word = |t: &str| {
            t.chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        };
        match rng.u8(..14) {
            0 => {
                toks.remove(i);
            }
            1 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            2 => {
                let j = rng.usize(..toks.len());
                toks.swap(i, j);
            }
            3 | 4 => toks[i] = dict[rng.usize(..dict.len())].to_string(),
            5 => toks.insert(i, dict[rng.usize(..dict.len())].to_string()),
            6 | 7 => {
                // A word for another word of the input, a number for another number.
                if word(&toks[i]) {
                    let words: Vec<usize> = (0..toks.len()).filter(|&j| word(&toks[j])).collect();
                    let j = words[rng.usize(..words.len())];
                    toks[i] = if toks[i].starts_with(|c: char| c.is_ascii_digit()) {
                        ["0", "1", "2", "3", "7", "64", "1000", "-1"][rng.usize(..8)].to_string()
                    } else {
                        toks[j].clone()
                    };
                }
            }
            8 | 9 => {
                // Repeat a stretch of tokens (a statement, a line) elsewhere.
                let n = rng.usize(1..=40).min(toks.len() - i);
                let stretch: Vec<String> = toks[i..i + n].to_vec();
                let at = rng.usize(..=toks.len());
                toks.splice(at..at, stretch);
            }
            10 => {
                // Delete a stretch.
                let n = rng.usize(1..=20).min(toks.len() - i);
                toks.drain(i..i + n);
            }
            11 => {
                if rng.u8(..4) == 0 {
                    toks.truncate(i.max(1));
                }
            }
            _ => {
                // Nesting: parentheses or braces around a token, up to 64 deep.
                let d = rng.usize(1..=64);
                let (o, c) = if rng.bool() { ("(", ")") } else { ("{", "}") };
                let t = format!("{}{}{}", o.repeat(d), toks[i], c.repeat(d));
                toks[i] = t;
            }
        }
    }
    let mut out: String = toks.concat();
    if out.len() > max {
        let mut cut = max;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}
