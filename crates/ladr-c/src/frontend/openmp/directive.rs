//! `#pragma omp` lines read into [`Directive`]s: the construct's words and its clauses with
//! their argument text, at the line's offset in the parsed text (lang-c skips pragmas, so
//! they are found in the text; the lowering attaches each to the statement that follows).

/// One `#pragma omp` line.
#[derive(Clone, Debug)]
pub struct Directive {
    /// Offset of `#pragma` in the parsed text, and of the line's end.
    pub at: usize,
    pub end: usize,
    /// The directive's name words, e.g. `["parallel", "for"]`, `["end"...]` never.
    pub words: Vec<String>,
    pub clauses: Vec<Clause>,
}

/// A clause: `name` or `name(args)`; `args` is the text between the parentheses.
#[derive(Clone, Debug)]
pub struct Clause {
    pub name: String,
    pub args: Option<String>,
}

/// Words that name a directive (everything else on the line is a clause).
const DIRECTIVE_WORDS: &[&str] = &[
    "parallel",
    "for",
    "sections",
    "section",
    "single",
    "master",
    "masked",
    "critical",
    "atomic",
    "barrier",
    "flush",
    "ordered",
    "task",
    "taskwait",
    "taskgroup",
    "taskloop",
    "taskyield",
    "simd",
    "target",
    "teams",
    "distribute",
    "threadprivate",
    "declare",
    "data",
    "enter",
    "exit",
    "update",
    "loop",
    "scope",
    "cancel",
    "cancellation",
    "point",
    "requires",
    "metadirective",
    "tile",
    "unroll",
    "depobj",
    "scan",
    "read",
    "write",
    "capture",
    "seq_cst",
    "end",
];

impl Directive {
    /// True when the directive is exactly these words.
    pub fn is(&self, words: &[&str]) -> bool {
        self.words.len() == words.len() && self.words.iter().zip(words).all(|(a, b)| a == b)
    }

    /// The words joined, as the user wrote them (`parallel for`).
    pub fn name(&self) -> String {
        self.words.join(" ")
    }

    /// The variables of every clause `name` (`private(a) private(b)` → a, b).
    pub fn vars_of(&self, name: &str) -> Vec<String> {
        self.clauses
            .iter()
            .filter(|c| c.name == name)
            .flat_map(|c| c.vars())
            .collect()
    }

    pub fn clause(&self, name: &str) -> Option<&Clause> {
        self.clauses.iter().find(|c| c.name == name)
    }

    /// True when `Lowering::loop_construct` (in `loops`) lowers the directive, not the
    /// plain worksharing loop: `simd` loops, and `for` with `collapse`, `linear` or
    /// `ordered`.
    pub fn is_extended_loop(&self) -> bool {
        let words: Vec<&str> = self.words.iter().map(|w| w.as_str()).collect();
        match words.as_slice() {
            ["simd"] | ["parallel", "for", "simd"] | ["for", "simd"] => true,
            ["for"] | ["parallel", "for"] => ["collapse", "linear", "ordered"]
                .iter()
                .any(|c| self.clause(c).is_some()),
            _ => false,
        }
    }
}

impl Clause {
    /// The variable names of a list clause (`private(a, b)`; `reduction(+: s)` → `["s"]`).
    pub fn vars(&self) -> Vec<String> {
        let args = self.args.as_deref().unwrap_or("");
        let list = match args.rsplit_once(':') {
            Some((_, l)) if self.name == "reduction" || self.name == "lastprivate" => l,
            _ => args,
        };
        list.split(',')
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .collect()
    }

    /// The operator of a `reduction(op: list)` clause.
    pub fn reduction_op(&self) -> Option<String> {
        let args = self.args.as_deref()?;
        args.split_once(':').map(|(op, _)| op.trim().to_string())
    }
}

/// Every `#pragma omp` line of `text`, in order. `Err(offset)` for a line that cannot be
/// read (unbalanced parentheses).
pub fn directives(text: &str) -> Result<Vec<Directive>, usize> {
    let mut out = vec![];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let start = at + (line.len() - t.len());
        at += line.len();
        let Some(rest) = t.strip_prefix('#') else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix("pragma") else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix("omp") else {
            continue;
        };
        if !rest.starts_with(char::is_whitespace) && !rest.is_empty() {
            continue;
        }
        let (words, clauses) = read(rest.trim()).ok_or(start)?;
        out.push(Directive {
            at: start,
            end: at,
            words,
            clauses,
        });
    }
    Ok(out)
}

/// Splits the text after `omp` into directive words and clauses.
fn read(s: &str) -> Option<(Vec<String>, Vec<Clause>)> {
    let mut words = vec![];
    let mut clauses = vec![];
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut in_clauses = false;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && ((bytes[i] as char).is_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if start == i {
            return None;
        }
        let word = s[start..i].to_string();
        let mut j = i;
        while j < bytes.len() && (bytes[j] as char).is_whitespace() {
            j += 1;
        }
        let args = if j < bytes.len() && bytes[j] == b'(' {
            let mut depth = 0;
            let mut k = j;
            loop {
                if k >= bytes.len() {
                    return None;
                }
                match bytes[k] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            let a = s[j + 1..k].trim().to_string();
            i = k + 1;
            Some(a)
        } else {
            None
        };
        // `critical(name)` and `flush(list)` take their parentheses as part of the directive.
        // `for ordered`: the clause, not the directive `ordered` (which comes first).
        let clause_ordered = word == "ordered" && !words.is_empty();
        if !in_clauses && !clause_ordered && DIRECTIVE_WORDS.contains(&word.as_str()) {
            if let Some(a) = args {
                words.push(word.clone());
                clauses.push(Clause {
                    name: word,
                    args: Some(a),
                });
            } else {
                words.push(word);
            }
        } else {
            in_clauses = true;
            clauses.push(Clause { name: word, args });
        }
    }
    Some((words, clauses))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_words_and_clauses() {
        let text = "int x;\n#pragma omp parallel for private(i, j) reduction(+:s) nowait\nx;\n";
        let d = directives(text).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].at, 7);
        assert!(d[0].is(&["parallel", "for"]));
        assert_eq!(d[0].clause("private").unwrap().vars(), vec!["i", "j"]);
        let r = d[0].clause("reduction").unwrap();
        assert_eq!(r.vars(), vec!["s"]);
        assert_eq!(r.reduction_op().as_deref(), Some("+"));
        assert!(d[0].clause("nowait").is_some());
        let c = directives("#pragma omp critical(a)\n").unwrap();
        assert!(c[0].is(&["critical"]));
        assert_eq!(c[0].clause("critical").unwrap().args.as_deref(), Some("a"));
        let o = directives("#pragma omp parallel for ordered\n#pragma omp ordered\n").unwrap();
        assert!(o[0].is(&["parallel", "for"]));
        assert!(o[0].clause("ordered").is_some());
        assert!(o[1].is(&["ordered"]));
        assert!(directives("#pragma omp parallel private(a\n").is_err());
        assert!(directives("#pragma once\n#pragma ompx\n")
            .unwrap()
            .is_empty());
    }
}
