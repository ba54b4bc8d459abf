//! Structural names of typedefs for linking: two units that reach one type through
//! different spellings (`typedef long int intptr_t;` in one, `typedef __intptr_t intptr_t;`
//! with `typedef long int __intptr_t;` in the other, as glibc's headers give under
//! different feature macros) define the same typedef, as a C linker sees it.
//!
//! [`Canon::typedef`] gives a string that two typedefs share only if their types are the
//! same: typedef names are replaced by their own structural string, basic type specifiers
//! are normalised (`long int` = `long` = `signed long`), qualifiers and attributes sorted.
//! Where a composition is not normalised the string stays distinct (a mismatch is then
//! reported, never two different types taken for one).

use crate::print::print_unit;
use crate::syntax::build::declarator_name_mut;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// The structural strings of one unit's typedefs, in the order it declares them.
#[derive(Default)]
pub(super) struct Canon {
    /// typedef name → (base type, declarator shape); an empty shape is a plain name.
    map: HashMap<String, (String, String)>,
}

impl Canon {
    /// Records the typedef `i` of `d` and returns its structural string.
    pub(super) fn typedef(&mut self, d: &Declaration, i: &Node<InitDeclarator>) -> String {
        let (mut base, mut shape) = self.base(&d.specifiers);
        let own = self.shape(&i.node.declarator);
        if !own.is_empty() {
            shape = if shape.is_empty() {
                own
            } else {
                // Both the named type and this declarator derive: kept apart as written.
                base = format!("{{{base}|{shape}}}");
                own
            };
        }
        let mut decl = i.node.declarator.clone();
        if let Some(n) = declarator_name_mut(&mut decl.node) {
            self.map
                .insert(n.name.clone(), (base.clone(), shape.clone()));
        }
        format!("{base}|{shape}")
    }

    /// The base type of `specs` and the shape it brings (a typedef name's).
    fn base(&self, specs: &[Node<DeclarationSpecifier>]) -> (String, String) {
        let mut words: Vec<&'static str> = vec![];
        let mut longs = 0;
        let mut quals: Vec<String> = vec![];
        let mut other: Vec<String> = vec![];
        let mut shape = String::new();
        let mut named: Option<(String, String)> = None;
        for s in specs {
            match &s.node {
                DeclarationSpecifier::StorageClass(_) => {}
                DeclarationSpecifier::TypeQualifier(q) => quals.push(format!("{:?}", q.node)),
                DeclarationSpecifier::Function(f) => quals.push(format!("{:?}", f.node)),
                DeclarationSpecifier::Alignment(_) | DeclarationSpecifier::Extension(_) => {
                    other.push(self.words(&specifier_text(s)))
                }
                DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
                    TypeSpecifier::Long => longs += 1,
                    TypeSpecifier::Int => {}
                    TypeSpecifier::Void => words.push("void"),
                    TypeSpecifier::Char => words.push("char"),
                    TypeSpecifier::Short => words.push("short"),
                    TypeSpecifier::Float => words.push("float"),
                    TypeSpecifier::Double => words.push("double"),
                    TypeSpecifier::Signed => words.push("signed"),
                    TypeSpecifier::Unsigned => words.push("unsigned"),
                    TypeSpecifier::Bool => words.push("_Bool"),
                    TypeSpecifier::Complex => words.push("_Complex"),
                    TypeSpecifier::TypedefName(n) => match self.map.get(&n.node.name) {
                        Some(found) => named = Some(found.clone()),
                        None => other.push(n.node.name.clone()),
                    },
                    _ => other.push(self.words(&specifier_text(s))),
                },
            }
        }
        // `signed` is the default of every integer type but `char`.
        if !words.contains(&"char") {
            words.retain(|w| *w != "signed");
        }
        words.sort_unstable();
        other.sort();
        let mut core = format!("{} long*{longs} {}", words.join(" "), other.join(" "));
        if let Some((b, sh)) = named {
            // The named type alone (with qualifiers added to its own): the same type as its
            // definition. `const P` with `typedef int *P;` qualifies the pointer: kept apart.
            let alone = words.is_empty() && longs == 0 && other.is_empty();
            let (named_core, named_quals) = split_quals(&b);
            if alone && (sh.is_empty() || quals.is_empty()) {
                core = named_core.to_string();
                quals.extend(named_quals);
                shape = sh;
            } else {
                core = format!("{core} {{{b}|{sh}}}");
            }
        }
        quals.sort();
        quals.dedup();
        let base = format!("{core} [{}]", quals.join(" "));
        (base, shape)
    }

    /// The shape of a declarator (its pointers, arrays, parameters) with typedef names
    /// replaced by their structural strings; empty for a plain name.
    fn shape(&self, d: &Node<Declarator>) -> String {
        let mut d = d.clone();
        if let Some(n) = declarator_name_mut(&mut d.node) {
            n.name = "_".into();
        }
        if d.node.derived.is_empty() && matches!(d.node.kind.node, DeclaratorKind::Identifier(_)) {
            return self.words(&extensions_text(&d.node.extensions));
        }
        let decl = Declaration {
            specifiers: vec![Node::new(
                DeclarationSpecifier::TypeSpecifier(Node::new(TypeSpecifier::Int, d.span)),
                d.span,
            )],
            declarators: vec![Node::new(
                InitDeclarator {
                    declarator: d,
                    initializer: None,
                },
                lang_c::span::Span::none(),
            )],
        };
        self.words(&declaration_text(decl))
    }

    /// `text` with every typedef name this unit declared replaced by `{base|shape}`.
    fn words(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            match self.map.get(word.as_str()) {
                Some((b, s)) => out.push_str(&format!("{{{b}|{s}}}")),
                None => out.push_str(word),
            }
            word.clear();
        };
        for c in text.chars() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                if !c.is_whitespace() || !out.ends_with(' ') {
                    out.push(if c.is_whitespace() { ' ' } else { c });
                }
            }
        }
        flush(&mut word, &mut out);
        out
    }
}

/// `core [q1 q2]` → (`core`, the qualifiers).
fn split_quals(base: &str) -> (&str, Vec<String>) {
    match base.rsplit_once(" [") {
        Some((core, q)) => (
            core,
            q.trim_end_matches(']')
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        ),
        None => (base, vec![]),
    }
}

fn declaration_text(d: Declaration) -> String {
    print_unit(&TranslationUnit(vec![Node::new(
        ExternalDeclaration::Declaration(Node::new(d, lang_c::span::Span::none())),
        lang_c::span::Span::none(),
    )]))
    .text
}

fn specifier_text(s: &Node<DeclarationSpecifier>) -> String {
    declaration_text(Declaration {
        specifiers: vec![s.clone()],
        declarators: vec![],
    })
}

fn extensions_text(e: &[Node<Extension>]) -> String {
    if e.is_empty() {
        return String::new();
    }
    specifier_text(&Node::new(
        DeclarationSpecifier::Extension(e.to_vec()),
        lang_c::span::Span::none(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_text;

    fn canon(src: &str) -> Vec<String> {
        let (_, unit, _) = parse_text(src, "t.i").unwrap();
        let mut c = Canon::default();
        let mut out = vec![];
        for d in &unit.0 {
            if let ExternalDeclaration::Declaration(d) = &d.node {
                for i in &d.node.declarators {
                    out.push(c.typedef(&d.node, i));
                }
            }
        }
        out
    }

    #[test]
    fn one_type_through_two_spellings() {
        let a = canon("typedef long int intptr_t;");
        let b = canon("typedef long __intptr_t; typedef __intptr_t intptr_t;");
        assert_eq!(a[0], b[1]);
        let a = canon("typedef unsigned int u; typedef u *p[2];");
        let b = canon("typedef int unsigned v; typedef v *p[2];");
        assert_eq!(a[1], b[1]);
        assert_ne!(canon("typedef long t;")[0], canon("typedef int t;")[0]);
        assert_ne!(canon("typedef long *t;")[0], canon("typedef long t;")[0]);
        assert_ne!(
            canon("typedef int *p; typedef const p t;")[1],
            canon("typedef const int *t;")[0]
        );
        assert_ne!(
            canon("typedef const char c; typedef c *t;")[1],
            canon("typedef char c; typedef c *t;")[1]
        );
    }
}
