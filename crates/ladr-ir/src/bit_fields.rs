//! Where the memory location of a bit-field is (C11 3.14): the race flags of a bit-field,
//! whose address cannot be taken, are kept on one byte of its memory location.
//!
//! A run of adjacent bit-fields of nonzero width is one memory location; a zero-width
//! bit-field (`int : 0;`) ends the run, and the next bit-field starts at the next unit of
//! its type (x86-64 System V layout). Where every member before such a run is a bit-field
//! of a plain integer type with a constant width, or a plain arithmetic object, pointer or
//! constant-length array of them, the run's byte offset is computed
//! ([`BitAnchor::Offset`]); elsewhere it is not known ([`BitAnchor::Unknown`]).

use ladr_c::syntax::build::declarator_name;
use lang_c::ast::*;

/// Where the memory location of a bit-field starts (C11 3.14: a run of adjacent
/// bit-fields of nonzero width is one memory location, apart from the members around it).
/// Its address cannot be taken; the race flags of the run are kept on one byte of it: the
/// byte after the member before the run (padding or the run's first byte, never another
/// member's), or the object's first byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BitAnchor {
    /// The run starts the struct (or the bit-field is a union's member).
    Start,
    /// The run follows this (named, not bit-field) member.
    After(String),
    /// The run starts this many bytes after the object's first (it follows a zero-width
    /// bit-field, and every member before it has a layout known here).
    Offset(u64),
    /// Not known for sure (a zero-width bit-field splits the run where the offset is not
    /// known, an unnamed struct member
    /// comes before it, or structs disagree about a member of this name): the flags are
    /// kept on the whole object, which may also flag the other members.
    Unknown,
}

/// The [`BitAnchor`] of every named bit-field of `st`.
pub fn bit_field_anchors(st: &StructType) -> Vec<(String, BitAnchor)> {
    let union = st.kind.node == StructKind::Union;
    let mut out = vec![];
    let mut anchor = BitAnchor::Start;
    // In the run now: a zero-width bit-field has split it.
    let mut split = false;
    // The bit offset of the next member, while every member so far is a bit-field of a
    // plain integer type with a constant width.
    let mut bits: Option<u64> = Some(0);
    for f in st.declarations.iter().flatten() {
        let StructDeclaration::Field(f) = &f.node else {
            continue;
        };
        if f.node.declarators.is_empty() {
            // An unnamed struct or union member: its size is not known here.
            anchor = BitAnchor::Unknown;
            split = false;
            bits = None;
        }
        let unit = unit_bits(&f.node.specifiers);
        for sd in &f.node.declarators {
            let name = sd
                .node
                .declarator
                .as_ref()
                .and_then(|d| declarator_name(&d.node));
            match &sd.node.bit_width {
                Some(w) => {
                    let width = ladr_c::syntax::constant::value(&w.node, &Default::default());
                    let zero = width.is_none_or(|v| v == 0);
                    bits = match (bits, unit, width) {
                        (Some(b), Some(u), Some(0)) => Some(b.div_ceil(u) * u),
                        (Some(b), Some(u), Some(w)) if w > 0 && (w as u64) <= u => {
                            let w = w as u64;
                            let start = if b % u + w > u { b.div_ceil(u) * u } else { b };
                            Some(start + w)
                        }
                        _ => None,
                    };
                    if zero {
                        split = true;
                        anchor = match bits {
                            Some(b) if !union => BitAnchor::Offset(b / 8),
                            _ => BitAnchor::Unknown,
                        };
                    } else if let Some(n) = name {
                        let a = if union {
                            BitAnchor::Start
                        } else if split && !matches!(anchor, BitAnchor::Offset(_)) {
                            BitAnchor::Unknown
                        } else {
                            anchor.clone()
                        };
                        out.push((n.to_string(), a));
                    }
                }
                None => {
                    bits = after_member(bits, &f.node.specifiers, sd.node.declarator.as_ref());
                    if !union {
                        anchor = match name {
                            Some(n) => BitAnchor::After(n.to_string()),
                            None => BitAnchor::Unknown,
                        };
                        split = false;
                    }
                }
            }
        }
    }
    out
}

/// Whether a zero-width bit-field of `st` splits a run whose place is not known (a struct
/// whose named bit-fields after it would have [`BitAnchor::Unknown`]).
pub fn unplaced_zero_width(st: &StructType) -> bool {
    bit_field_anchors(st)
        .iter()
        .any(|(_, a)| *a == BitAnchor::Unknown)
}

/// Replaces every zero-width bit-field of `st` by the unnamed bit-field of nonzero width
/// that pads to the same place, or removes it where nothing is padded (and in a union).
/// CBMC 6.6 aborts (`arith_tools.cpp:414: width >= 1`) when it writes the value of a
/// struct with a zero-width member into a trace. Called when the race flags are placed (the
/// split the zero-width bit-field makes is known by then); a place that is not computed
/// ([`unplaced_zero_width`]) is refused before the passes.
pub fn pad_zero_width(st: &mut StructType) {
    let union = st.kind.node == StructKind::Union;
    let Some(decls) = &mut st.declarations else {
        return;
    };
    let mut bits: Option<u64> = Some(0);
    decls.retain_mut(|f| {
        let StructDeclaration::Field(f) = &mut f.node else {
            return true;
        };
        if f.node.declarators.is_empty() {
            bits = None;
            return true;
        }
        let unit = unit_bits(&f.node.specifiers);
        let had = f.node.declarators.len();
        f.node.declarators.retain_mut(|sd| {
            let Some(w) = &mut sd.node.bit_width else {
                bits = if union {
                    None
                } else {
                    after_member(bits, &f.node.specifiers, sd.node.declarator.as_ref())
                };
                return true;
            };
            let width = ladr_c::syntax::constant::value(&w.node, &Default::default());
            match (bits, unit, width) {
                (Some(b), Some(u), Some(0)) => {
                    let next = b.div_ceil(u) * u;
                    bits = Some(next);
                    if next == b || union {
                        return false;
                    }
                    let span = w.span;
                    **w = ladr_c::syntax::build::int(next - b, span);
                    true
                }
                (_, _, Some(0)) => !union,
                (Some(b), Some(u), Some(w)) if w > 0 && (w as u64) <= u => {
                    let w = w as u64;
                    let start = if b % u + w > u { b.div_ceil(u) * u } else { b };
                    bits = Some(start + w);
                    true
                }
                _ => {
                    bits = None;
                    true
                }
            }
        });
        // A field whose only declarator was removed goes (with no declarator it would read
        // as an unnamed struct member).
        !(had > 0 && f.node.declarators.is_empty())
    });
}

/// The bit offset after a member that is not a bit-field, placed at `bits` (x86-64 System V:
/// aligned to its type, then its size), where the member is a plain arithmetic object, a
/// pointer or an array of constant length of them; `None` where its layout is not known here.
fn after_member(
    bits: Option<u64>,
    specs: &[lang_c::span::Node<SpecifierQualifier>],
    declarator: Option<&lang_c::span::Node<Declarator>>,
) -> Option<u64> {
    let b = bits?;
    let mut count = 1u64;
    let mut pointer = false;
    if let Some(d) = declarator {
        if !matches!(d.node.kind.node, DeclaratorKind::Identifier(_)) {
            return None;
        }
        for derived in &d.node.derived {
            match &derived.node {
                DerivedDeclarator::Pointer(_) if !pointer && count == 1 => pointer = true,
                DerivedDeclarator::Array(a) => {
                    let ArraySize::VariableExpression(n) = &a.node.size else {
                        return None;
                    };
                    let n = ladr_c::syntax::constant::value(&n.node, &Default::default())?;
                    count = count.checked_mul(u64::try_from(n).ok()?)?;
                }
                _ => return None,
            }
        }
    }
    // Aligned to its own size (x86-64 System V, for these types).
    let size = if pointer {
        64
    } else {
        arithmetic_bits(specs, true)?
    };
    Some(b.div_ceil(size) * size + size * count)
}

/// The size in bits of a bit-field's declared type, for the plain integer types.
fn unit_bits(specs: &[lang_c::span::Node<SpecifierQualifier>]) -> Option<u64> {
    arithmetic_bits(specs, false)
}

/// The size in bits of a plain integer type (or, with `floats`, arithmetic type; not
/// `long double`), from its specifiers.
fn arithmetic_bits(specs: &[lang_c::span::Node<SpecifierQualifier>], floats: bool) -> Option<u64> {
    let mut longs = 0;
    let mut size = None;
    for s in specs {
        match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => match &t.node {
                TypeSpecifier::Char | TypeSpecifier::Bool => size = Some(8),
                TypeSpecifier::Short => size = Some(16),
                TypeSpecifier::Float if floats => size = Some(32),
                TypeSpecifier::Double if floats => size = Some(64),
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Int | TypeSpecifier::Signed | TypeSpecifier::Unsigned => {}
                _ => return None,
            },
            SpecifierQualifier::TypeQualifier(q) => {
                if matches!(q.node, TypeQualifier::Atomic) {
                    return None;
                }
            }
            SpecifierQualifier::Extension(_) => return None,
        }
    }
    match (size, longs) {
        (Some(64), 1) => None, // long double
        (Some(bits), _) => Some(bits),
        (None, 0) => Some(32),
        (None, _) => Some(64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_width_bit_fields_become_padding() {
        let src = "struct s { int a : 3; int : 0; int b : 4; char : 0; char c : 2; };";
        let (_, mut unit, _) = ladr_c::frontend::parse_text(src, "t.i").unwrap();
        struct Padding;
        impl ladr_c::syntax::walk::visit_mut::VisitorMut for Padding {
            type Error = std::convert::Infallible;
            fn type_specifier(
                &mut self,
                t: &mut lang_c::span::Node<TypeSpecifier>,
            ) -> Result<ladr_c::syntax::walk::Walk, Self::Error> {
                if let TypeSpecifier::Struct(st) = &mut t.node {
                    pad_zero_width(&mut st.node);
                }
                Ok(ladr_c::syntax::walk::Walk::Descend)
            }
        }
        let Ok(()) = ladr_c::syntax::walk::visit_mut::unit(&mut Padding, &mut unit);
        let text = ladr_c::print::print_unit(&unit).text;
        let compact: String = text.split_whitespace().collect();
        assert!(compact.contains("int:29;"), "{text}");
        assert!(!compact.contains(":0;"), "{text}");
        assert!(compact.contains("charc:2;"), "{text}");
    }

    fn anchors(src: &str) -> Vec<(String, BitAnchor)> {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.i").unwrap();
        let ExternalDeclaration::Declaration(d) = &unit.0[0].node else {
            panic!()
        };
        for s in &d.node.specifiers {
            if let DeclarationSpecifier::TypeSpecifier(t) = &s.node {
                if let TypeSpecifier::Struct(st) = &t.node {
                    return bit_field_anchors(&st.node);
                }
            }
        }
        panic!()
    }

    #[test]
    fn a_zero_width_bit_field_starts_a_run_at_the_next_unit() {
        let a = |s: &str| anchors(s).into_iter().map(|(_, a)| a).collect::<Vec<_>>();
        assert_eq!(
            a("struct s { int a : 3; int : 0; int b : 4; };"),
            [BitAnchor::Start, BitAnchor::Offset(4)]
        );
        assert_eq!(
            a("struct s { char a : 3; char : 0; char b : 4; long : 0; int c : 1; };"),
            [BitAnchor::Start, BitAnchor::Offset(1), BitAnchor::Offset(8)]
        );
        assert_eq!(
            a("struct s { int x; int a : 3; int : 0; int b : 4; };"),
            [BitAnchor::After("x".into()), BitAnchor::Offset(8)]
        );
        assert_eq!(
            a("struct s { char c; int a : 3; int : 0; int b : 4; };"),
            [BitAnchor::After("c".into()), BitAnchor::Offset(4)]
        );
        assert_eq!(
            a("struct s { char c[5]; long *p; short a : 3; char : 0; int b : 4; };"),
            [BitAnchor::After("p".into()), BitAnchor::Offset(17)]
        );
        assert_eq!(
            a("struct s { struct q { int z; } x; int a : 3; int : 0; int b : 4; };"),
            [BitAnchor::After("x".into()), BitAnchor::Unknown]
        );
        assert_eq!(
            a("struct s { int a : 30; int b : 4; };"),
            [BitAnchor::Start, BitAnchor::Start]
        );
    }
}
