//! A scan of the text before parsing that refuses programs nested too deeply for the
//! parser and the passes, which recurse once per level: 200 000 nested parentheses or
//! prefix minuses overflowed the stack (an abort, no document). Brackets (`(`, `[`, `{`)
//! and runs of prefix-operator characters (`- - -`, `!!!`, `* * *`, `~`, `&`, `+`) count
//! as levels; a run before an opening bracket stays counted until the bracket closes
//! (`-(-(-(…)))` is two levels per step).

/// The most levels of nesting ladr reads (gcc reads more; C requires 63 parentheses).
pub const MAX_NESTING: usize = 1000;

/// The offset of the first character beyond [`MAX_NESTING`] levels, if any.
pub fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    // Per open bracket: the prefix operators just before it.
    let mut open: Vec<usize> = Vec::new();
    let mut outer = 0; // sum of `open`, plus one per bracket
    let mut run = 0; // prefix-operator characters since the last other token
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' | b'\'' => {
                i += 1;
                while i < b.len() && b[i] != c && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                run = 0;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'(' | b'[' | b'{' => {
                open.push(run);
                outer += run + 1;
                run = 0;
                if outer > MAX_NESTING {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => {
                if let Some(r) = open.pop() {
                    outer -= r + 1;
                }
                run = 0;
            }
            b'-' | b'+' | b'!' | b'~' | b'*' | b'&' => {
                run += 1;
                if outer + run > MAX_NESTING {
                    return Some(i);
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ => run = 0,
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_and_prefix_operators_beyond_the_limit_are_found() {
        let n = MAX_NESTING;
        let ok = format!("int x = {}1{};", "(".repeat(n), ")".repeat(n));
        assert_eq!(too_deep(&ok), None);
        let deep = format!("int x = {}1{};", "(".repeat(n + 5), ")".repeat(n + 5));
        assert_eq!(too_deep(&deep), Some("int x = ".len() + n));
        let minus = format!("int x = {}1;", "- ".repeat(n + 1));
        assert_eq!(too_deep(&minus), Some("int x = ".len() + 2 * n));
        let mixed = format!("int x = {}1{};", "!(".repeat(n), ")".repeat(n));
        assert_eq!(too_deep(&mixed), Some("int x = ".len() + n));
        // Many flat operators, strings and comments are not nesting.
        let flat = format!(
            "int x = 1{}; char *s = \"{}\"; /* {} */",
            " - 1".repeat(5 * n),
            "(".repeat(2 * n),
            "(".repeat(2 * n)
        );
        assert_eq!(too_deep(&flat), None);
        assert_eq!(too_deep("p->x; a[i]->y; {{ }}"), None);
    }
}
