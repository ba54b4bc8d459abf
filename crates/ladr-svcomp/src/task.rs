//! SV-COMP task files: the YAML subset they use, the data-race property, the input file
//! and the data model. Read by SV-COMP mode (`ladr --svcomp TASK.yml`) and by `ladr eval`.

use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------
// A tolerant parser for the YAML subset of task files
// ---------------------------------------------------------------------------------------

/// The YAML subset SV-COMP task files use: block mappings and block sequences by
/// indentation, `- key: value` items, flow lists `[a, b]`, single/double-quoted and plain
/// scalars, `#` comments (whole-line and trailing). Anything else is read as leniently as
/// possible (unknown lines are skipped, `|`/`>` block scalars are joined); it never fails.
pub mod yaml {
    /// A parsed node. Scalars stay strings (`true`, `2.0`); an empty value is `Scalar("")`.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Value {
        Scalar(String),
        List(Vec<Value>),
        Map(Vec<(String, Value)>),
    }

    impl Value {
        /// The value of `key` in a mapping (the first, if repeated).
        pub fn get(&self, key: &str) -> Option<&Value> {
            match self {
                Value::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }

        pub fn as_str(&self) -> Option<&str> {
            match self {
                Value::Scalar(s) => Some(s),
                _ => None,
            }
        }
    }

    struct Line {
        indent: usize,
        text: String,
    }

    /// Parses `src`; an empty document is an empty mapping.
    pub fn parse(src: &str) -> Value {
        let lines = src
            .lines()
            .filter_map(|raw| {
                let l = strip_comment(raw.trim_end_matches('\r'));
                let text = l.trim();
                if text.is_empty() || text == "---" || text == "..." || text.starts_with('%') {
                    return None;
                }
                let indent = l.len() - l.trim_start().len();
                Some(Line {
                    indent,
                    text: text.to_string(),
                })
            })
            .collect();
        let mut p = Parser { lines, i: 0 };
        match p.lines.first() {
            Some(l) => {
                let indent = l.indent;
                p.block(indent)
            }
            None => Value::Map(vec![]),
        }
    }

    struct Parser {
        lines: Vec<Line>,
        i: usize,
    }

    impl Parser {
        /// The node starting at the current line, whose lines are indented `indent`.
        fn block(&mut self, indent: usize) -> Value {
            let text = &self.lines[self.i].text;
            if is_item(text) {
                self.list(indent)
            } else if split_key(text).is_some() {
                self.map(indent)
            } else {
                let text = text.clone();
                self.i += 1;
                flow_or_scalar(&text)
            }
        }

        fn list(&mut self, indent: usize) -> Value {
            let mut items = vec![];
            while let Some(line) = self.lines.get(self.i) {
                if line.indent < indent {
                    break;
                }
                if line.indent > indent {
                    self.i += 1; // stray deeper line: skip
                    continue;
                }
                if !is_item(&line.text) {
                    break;
                }
                let rest = line.text[1..].trim_start();
                if rest.is_empty() {
                    self.i += 1;
                    items.push(self.nested(indent, false));
                } else {
                    // `- key: v` / `- scalar`: the rest is the item's first line, indented
                    // where it starts.
                    let item_indent = indent + line.text.len() - rest.len();
                    let text = rest.to_string();
                    self.lines[self.i] = Line {
                        indent: item_indent,
                        text,
                    };
                    items.push(self.block(item_indent));
                }
            }
            Value::List(items)
        }

        fn map(&mut self, indent: usize) -> Value {
            let mut entries = vec![];
            while let Some(line) = self.lines.get(self.i) {
                if line.indent < indent || (line.indent == indent && is_item(&line.text)) {
                    break;
                }
                self.i += 1;
                if line.indent > indent {
                    continue; // stray deeper line: skip
                }
                let Some((key, val)) = split_key(&line.text) else {
                    continue; // not `key: value`: skip
                };
                let value = if val.is_empty() {
                    self.nested(indent, true)
                } else if val.starts_with('|') || val.starts_with('>') {
                    self.block_scalar(indent, val.starts_with('>'))
                } else {
                    flow_or_scalar(&val)
                };
                entries.push((key, value));
            }
            Value::Map(entries)
        }

        /// The value after `key:` or `-` with nothing behind it: a deeper block, or (after a
        /// key) a sequence at the key's own indentation, or empty.
        fn nested(&mut self, indent: usize, after_key: bool) -> Value {
            match self.lines.get(self.i) {
                Some(l) if l.indent > indent => {
                    let ind = l.indent;
                    self.block(ind)
                }
                Some(l) if after_key && l.indent == indent && is_item(&l.text) => self.list(indent),
                _ => Value::Scalar(String::new()),
            }
        }

        fn block_scalar(&mut self, indent: usize, folded: bool) -> Value {
            let mut parts = vec![];
            while let Some(l) = self.lines.get(self.i) {
                if l.indent <= indent {
                    break;
                }
                parts.push(l.text.clone());
                self.i += 1;
            }
            Value::Scalar(parts.join(if folded { " " } else { "\n" }))
        }
    }

    fn is_item(text: &str) -> bool {
        text == "-" || text.starts_with("- ") || text.starts_with("-\t")
    }

    /// Cuts a `#` comment that starts the line or follows whitespace, outside quotes.
    fn strip_comment(line: &str) -> &str {
        let mut quote: Option<char> = None;
        let mut prev: Option<char> = None;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match quote {
                Some('"') if c == '\\' => {
                    chars.next();
                }
                // `''` inside single quotes is a quote character.
                Some('\'') if c == '\'' && chars.peek().is_some_and(|&(_, n)| n == '\'') => {
                    chars.next();
                }
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '#' if prev.is_none_or(char::is_whitespace) => return &line[..i],
                    '\'' | '"' if prev.is_none_or(|p| p.is_whitespace() || "[{,:-".contains(p)) => {
                        quote = Some(c)
                    }
                    _ => {}
                },
            }
            prev = Some(c);
        }
        line
    }

    /// `key: value` or `key:` (key possibly quoted) → (key, trimmed value).
    fn split_key(text: &str) -> Option<(String, String)> {
        if text.starts_with(['[', '{']) {
            return None;
        }
        let mut quote: Option<char> = None;
        let bytes: Vec<(usize, char)> = text.char_indices().collect();
        for (n, &(i, c)) in bytes.iter().enumerate() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if (c == '\'' || c == '"') && n == 0 => quote = Some(c),
                None if c == ':' => {
                    let next = bytes.get(n + 1).map(|&(_, c)| c);
                    if next.is_none_or(char::is_whitespace) {
                        let key = unquote(text[..i].trim());
                        return Some((key, text[i + 1..].trim().to_string()));
                    }
                }
                None => {}
            }
        }
        None
    }

    fn flow_or_scalar(text: &str) -> Value {
        let t = text.trim();
        match t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            Some(inner) => Value::List(
                split_commas(inner)
                    .into_iter()
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| Value::Scalar(unquote(s)))
                    .collect(),
            ),
            None => Value::Scalar(unquote(t)),
        }
    }

    fn split_commas(s: &str) -> Vec<&str> {
        let mut parts = vec![];
        let mut quote: Option<char> = None;
        let mut start = 0;
        for (i, c) in s.char_indices() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '\'' || c == '"' => quote = Some(c),
                None if c == ',' => {
                    parts.push(&s[start..i]);
                    start = i + 1;
                }
                None => {}
            }
        }
        parts.push(&s[start..]);
        parts
    }

    /// `'it''s'` → `it's`; `"a\"b\n"` → `a"b` + newline; plain text unchanged.
    fn unquote(s: &str) -> String {
        if s.len() >= 2 && s.starts_with('\'') && s.ends_with('\'') {
            return s[1..s.len() - 1].replace("''", "'");
        }
        if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
            let mut out = String::new();
            let mut chars = s[1..s.len() - 1].chars();
            while let Some(c) = chars.next() {
                if c != '\\' {
                    out.push(c);
                    continue;
                }
                match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(o) => out.push(o),
                    None => out.push('\\'),
                }
            }
            return out;
        }
        s.to_string()
    }
}

// ---------------------------------------------------------------------------------------
// Tasks
// ---------------------------------------------------------------------------------------

/// The suffix of the property file that makes a task a data-race task.
pub const PROPERTY: &str = "no-data-race.prp";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DataModel {
    ILP32,
    LP64,
}

/// What a task file says about the data-race property.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskSpec {
    /// The input file as written (relative to the task file).
    pub input: String,
    /// `false`: the program has a data race; `true`: it has none.
    pub expected: bool,
    pub data_model: Option<DataModel>,
}

/// Reads a task file's text. `Ok(None)`: not a data-race task (no property file ending in
/// [`PROPERTY`], commented-out ones do not count). `Err`: a data-race task that cannot be
/// run (no expected verdict, no or several input files, unknown data model).
pub fn task_spec(text: &str) -> Result<Option<TaskSpec>, String> {
    use yaml::Value;
    let doc = yaml::parse(text);
    let props = match doc.get("properties") {
        Some(Value::List(items)) => items.as_slice(),
        _ => &[],
    };
    let Some(prop) = props.iter().find(|p| {
        p.get("property_file")
            .and_then(Value::as_str)
            .is_some_and(|f| f.ends_with(PROPERTY))
    }) else {
        return Ok(None);
    };
    let expected = match prop.get("expected_verdict").and_then(Value::as_str) {
        Some(v) if v.eq_ignore_ascii_case("true") => true,
        Some(v) if v.eq_ignore_ascii_case("false") => false,
        Some(v) => return Err(format!("expected_verdict `{v}` is neither true nor false")),
        None => return Err(format!("no expected_verdict for {PROPERTY}")),
    };
    let input = input_file(&doc)?;
    let data_model = data_model(&doc)?;
    Ok(Some(TaskSpec {
        input,
        expected,
        data_model,
    }))
}

/// A task file's single input file, as written (relative to the task file).
pub fn input_file(doc: &yaml::Value) -> Result<String, String> {
    use yaml::Value;
    match doc.get("input_files") {
        Some(Value::Scalar(s)) if !s.is_empty() => Ok(s.clone()),
        Some(Value::List(items)) if items.len() == 1 => match &items[0] {
            Value::Scalar(s) if !s.is_empty() => Ok(s.clone()),
            _ => Err("input_files: not a file name".into()),
        },
        Some(Value::List(items)) if items.len() > 1 => Err(format!(
            "{} input files (ladr checks one file)",
            items.len()
        )),
        _ => Err("no input_files".into()),
    }
}

/// A task file's `options.data_model`, if any.
pub fn data_model(doc: &yaml::Value) -> Result<Option<DataModel>, String> {
    match doc
        .get("options")
        .and_then(|o| o.get("data_model"))
        .and_then(yaml::Value::as_str)
    {
        None | Some("") => Ok(None),
        Some(m) if m.eq_ignore_ascii_case("ILP32") => Ok(Some(DataModel::ILP32)),
        Some(m) if m.eq_ignore_ascii_case("LP64") => Ok(Some(DataModel::LP64)),
        Some(m) => Err(format!("unknown data_model `{m}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::yaml::{parse, Value};
    use super::*;

    fn s(x: &str) -> Value {
        Value::Scalar(x.into())
    }

    #[test]
    fn yaml_mappings_lists_and_comments() {
        let doc = parse(
            "format_version: '2.0'\n\
             \n\
             # old file name: x_true-unreach-call.i\n\
             input_files: 'a.i'   # trailing comment\n\
             properties:\n\
             #  - property_file: ../properties/unreach-call.prp\n\
             #    expected_verdict: true\n\
             \x20 - property_file: ../properties/coverage-branches.prp\n\
             \x20 - property_file: ../properties/no-data-race.prp\n\
             \x20   expected_verdict: false\n\
             \x20   subproperty: valid-deref\n\
             options:\n\
             \x20 language: C\n\
             \x20 data_model: ILP32\n",
        );
        assert_eq!(doc.get("format_version"), Some(&s("2.0")));
        assert_eq!(doc.get("input_files"), Some(&s("a.i")));
        let Some(Value::List(props)) = doc.get("properties") else {
            panic!("{doc:?}")
        };
        assert_eq!(props.len(), 2);
        assert_eq!(
            props[1],
            Value::Map(vec![
                ("property_file".into(), s("../properties/no-data-race.prp")),
                ("expected_verdict".into(), s("false")),
                ("subproperty".into(), s("valid-deref")),
            ])
        );
        let opts = doc.get("options").unwrap();
        assert_eq!(opts.get("data_model"), Some(&s("ILP32")));
    }

    #[test]
    fn yaml_list_forms_quotes_and_oddities() {
        let doc = parse(
            "---\n\
             a: [ 'x.i', \"y#1.c\" ]\n\
             b:\n\
             - one\n\
             - 'it''s # not a comment'\n\
             c:\n\
             \x20   -\n\
             \x20     k: v\n\
             \"quoted key\": \"a\\\"b\"\n\
             d: |\n\
             \x20 line 1\n\
             \x20 line 2\n\
             just some text without a colon\n\
             e: http://x.org/a:b\n\
             f:\n\
             g: 1\n",
        );
        assert_eq!(doc.get("a"), Some(&Value::List(vec![s("x.i"), s("y#1.c")])));
        assert_eq!(
            doc.get("b"),
            Some(&Value::List(vec![s("one"), s("it's # not a comment")]))
        );
        assert_eq!(
            doc.get("c"),
            Some(&Value::List(vec![Value::Map(vec![("k".into(), s("v"))])]))
        );
        assert_eq!(doc.get("quoted key"), Some(&s("a\"b")));
        assert_eq!(doc.get("d"), Some(&s("line 1\nline 2")));
        assert_eq!(doc.get("e"), Some(&s("http://x.org/a:b")));
        assert_eq!(doc.get("f"), Some(&s("")));
        assert_eq!(doc.get("g"), Some(&s("1")));
        assert_eq!(parse(""), Value::Map(vec![]));
        assert_eq!(parse("# only a comment\n"), Value::Map(vec![]));
    }

    const TASK: &str = "format_version: '2.0'\n\
        input_files: 'fkp2013-2.i'\n\
        properties:\n\
        #  - property_file: ../properties/no-data-race.prp\n\
        #    expected_verdict: true\n\
        \x20 - property_file: ../properties/unreach-call.prp\n\
        \x20   expected_verdict: true\n\
        \x20 - property_file: ../properties/no-data-race.prp\n\
        \x20   expected_verdict: false\n\
        options:\n\
        \x20 language: C\n\
        \x20 data_model: ILP32\n";

    #[test]
    fn task_spec_reads_the_race_property() {
        assert_eq!(
            task_spec(TASK),
            Ok(Some(TaskSpec {
                input: "fkp2013-2.i".into(),
                expected: false,
                data_model: Some(DataModel::ILP32),
            }))
        );
        // List-form input_files, LP64, block list for input_files.
        let t = TASK
            .replace("input_files: 'fkp2013-2.i'", "input_files: ['x.c']")
            .replace("ILP32", "LP64");
        assert_eq!(
            task_spec(&t).unwrap().unwrap(),
            TaskSpec {
                input: "x.c".into(),
                expected: false,
                data_model: Some(DataModel::LP64),
            }
        );
        let t = TASK.replace("input_files: 'fkp2013-2.i'", "input_files:\n  - x.i\n");
        assert_eq!(task_spec(&t).unwrap().unwrap().input, "x.i");
    }

    #[test]
    fn task_spec_commented_property_and_errors() {
        // Only a commented-out race property: not a race task.
        let t = "input_files: a.i\nproperties:\n# - property_file: ../properties/no-data-race.prp\n#   expected_verdict: true\n  - property_file: ../properties/unreach-call.prp\n";
        assert_eq!(task_spec(t), Ok(None));
        assert_eq!(task_spec("input_files: a.i\n"), Ok(None));
        let t = TASK.replace("    expected_verdict: false\n", "");
        assert!(task_spec(&t).unwrap_err().contains("expected_verdict"));
        let t = TASK.replace("'fkp2013-2.i'", "['a.i', 'b.i']");
        assert!(task_spec(&t).unwrap_err().contains("2 input files"));
        let t = TASK.replace("ILP32", "LLP64");
        assert!(task_spec(&t).unwrap_err().contains("data_model"));
        let t = TASK.replace("  data_model: ILP32\n", "");
        assert_eq!(task_spec(&t).unwrap().unwrap().data_model, None);
    }
}
