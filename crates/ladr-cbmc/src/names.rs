//! CBMC's own names in its traces and values, and how to read past them: the renaming
//! suffixes of symbolic execution (`x!0@1#2`), heap objects (`dynamic_object$0`), the padding
//! members of struct values (`.$pad1`) and CBMC's temporaries (`tmp_if_expr$1`,
//! `return_value_f`). The one place that knows CBMC's naming rules; mapping a trace back to
//! the user's program (`ladr_check`'s answer) reads names through these.

/// The name CBMC gives heap objects (`malloc`'s): `dynamic_object`, numbered `$0`, `$1`, …
pub const HEAP_OBJECT: &str = "dynamic_object";

/// After [`HEAP_OBJECT`], its number (`$0`) and the text after it; `None` when unnumbered.
pub fn heap_object_number(rest: &str) -> Option<(&str, &str)> {
    let r = rest.strip_prefix('$')?;
    let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
    Some((&r[..digits], &r[digits..]))
}

/// `rest` without CBMC's level-1/2 renaming of the symbol just before it (`!0@1#2`).
pub fn skip_renaming(mut rest: &str) -> &str {
    while let Some(r) = rest.strip_prefix(['!', '@', '#']) {
        let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        if digits == 0 {
            break;
        }
        rest = &r[digits..];
    }
    rest
}

/// Is the identifier `base` one of CBMC's own variables (not the program's): a temporary of
/// a conditional (`tmp_if_expr`), a function's return value (`return_value_f`), or one of
/// goto-symex's?
pub fn is_own(base: &str) -> bool {
    base.starts_with("tmp_if_expr")
        || base.starts_with("return_value_")
        || base.starts_with("goto_symex")
}

/// CBMC's struct values list the padding members it inserted (`{ .a=0, .$pad1=0, .b=1 }`),
/// which are no members of the user's.
pub fn without_padding(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(".$pad") {
        out.push_str(&rest[..i]);
        let member = &rest[i..];
        rest = &member[member.find([',', '}']).unwrap_or(member.len())..];
        if let Some(r) = rest.strip_prefix(", ") {
            rest = r;
        } else if rest.starts_with('}') && out.ends_with(", ") {
            out.truncate(out.len() - 2);
            out.push(' ');
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_no_member() {
        assert_eq!(
            without_padding("{ .datum=0, .$pad1=0, .m=union }"),
            "{ .datum=0, .m=union }"
        );
        assert_eq!(without_padding("{ .a=1, .$pad2=0 }"), "{ .a=1 }");
        assert_eq!(without_padding("{ .$pad0=0, .a=1 }"), "{ .a=1 }");
    }

    #[test]
    fn renaming_and_heap_objects() {
        assert_eq!(skip_renaming("!0@1#2 + 4"), " + 4");
        assert_eq!(skip_renaming("!x"), "!x");
        assert_eq!(heap_object_number("$12.a"), Some(("12", ".a")));
        assert_eq!(heap_object_number(".a"), None);
        assert!(is_own("tmp_if_expr$1") && is_own("return_value_f") && !is_own("count"));
    }
}
