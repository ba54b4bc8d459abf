//! `normalise` — lowers every function body into the normal form N1–N6 of
//! [`crate::passes`] (CIL's lesson: a small core first, so every later pass is simple).
//!
//! What it does, per function body (global declarations are left alone):
//! * `switch` → a chain of `if (t == c) goto Lc;` tests in front of the body (fall-through,
//!   `default` anywhere, GNU case ranges, nested switches); `for`/`do` → `while`;
//!   `break`/`continue` → `goto` fresh labels, created only when used.
//! * side effects are hoisted out of expressions into earlier statements, each with at most
//!   one effect at its top, using temporaries `__typeof__(e) __ladr_tN;`. `&&`, `||`, `?:`
//!   and `,` with effects on the right become `if` statements, so C's evaluation order holds.
//! * local declarations are split one declarator each; initialisers become assignments at the
//!   same place (a constant array initialiser may stay); an uninitialised automatic local is
//!   followed by `__CPROVER_havoc_object(&x);`.
//! * C11 `<threads.h>` calls become their POSIX counterparts (`c11`), and `pthread_once`
//!   with a routine given through a pointer the model's steps around a call of it
//!   (`once`).
//! * the SV-COMP environment: error functions → `__CPROVER_assume(0)`,
//!   `__VERIFIER_assume` → `__CPROVER_assume`, `__VERIFIER_atomic_begin … end` → one block.
//!
//! ```c
//! // before
//! for (int i = 0; i < n; i++) if (f(i) && g()) break;
//! // after
//! {
//!   int i;
//!   i = 0;
//!   while (i < n) {
//!     __typeof__(f(i)) __ladr_t3;
//!     __ladr_t3 = f(i);
//!     int __ladr_t4;
//!     if (__ladr_t3) {
//!       __typeof__(g()) __ladr_t5;
//!       __ladr_t5 = g();
//!       __ladr_t4 = __ladr_t5 != 0;
//!     } else
//!       __ladr_t4 = 0;
//!     if (__ladr_t4)
//!       goto __ladr_brk1;
//!     i++;
//!   }
//! __ladr_brk1:
//!   ;
//! }
//! ```
//!
//! Temporaries are declared `__typeof__(e)` with the expression they stand for; `typeof`
//! does not evaluate its operand, so later passes must not treat the calls and accesses
//! inside a `__typeof__` as executed (nor inline them).
//!
//! Needs: a parsed unit (nothing from earlier passes).
//! Guarantees: N1–N6 (checked by [`crate::invariants::check_normal_form`]). Temporaries
//! `__ladr_t*` are the one exception to N4's havoc rule: they are always assigned before
//! they are read.
//! Limits (reported as unsupported, never dropped): non-constant array initialisers that
//! rely on brace elision are taken element by element at the top level only; side effects
//! inside compound literals, `_Generic` or `offsetof`.
//!
//! References: CIL (Necula et al., CC 2002) for the core; LaDR paper §3 (bounded programs),
//! DESIGN.md §3 (SV-COMP environment).

mod atomic;
mod c11;
mod declarations;
mod expressions;
mod havocs;
mod jumps;
mod once;
mod statements;
mod vla;

use crate::invariants::Invariant;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut;
use ladr_c::syntax::walk::{Queue, Walk};
use ladr_ir::program::{Options, Program};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;
use std::convert::Infallible;

use havocs::DropOverwrittenHavocs;
use jumps::no_goto_into_loop;
use vla::VlaReads;

pub fn run(mut p: Program, _opts: &Options) -> Result<Program> {
    let globals = global_objects(&p.unit);
    let pointer_typedefs = ladr_c::syntax::query::pointer_typedefs(&p.unit);
    let (defined, enumerators) = c11_context(&p.unit);
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            no_goto_into_loop(&f.node.statement)?;
            let locals = local_names(&f.node);
            let mut normaliser = Normaliser {
                names: &mut p.names,
                locals,
                breaks: vec![],
                conts: vec![],
                switches: vec![],
                globals: &globals,
                pointer_typedefs: &pointer_typedefs,
                ret_void: returns_void(&f.node),
            };
            let mut body = std::mem::replace(&mut f.node.statement, empty_stmt(Span::none()));
            let span = body.span;
            let mut vla = VlaReads {
                names: normaliser.names,
                globals: &globals,
                queue: Queue::default(),
            };
            visit_mut::stmt(&mut vla, &mut body)?;
            let items = normaliser.stmt(body)?;
            f.node.statement = as_stmt(items, span);
            c11::map_calls(&mut f.node.statement, &mut p.names, &defined, &enumerators)?;
            once::through_pointers(&mut f.node.statement, &mut p.names, &defined)?;
            let Ok(()) = visit_mut::stmt(&mut DropOverwrittenHavocs, &mut f.node.statement);
            if !crate::invariants::check_body(&f.node.statement, &[Invariant::N5]).is_empty() {
                return Err(Error::unsupported(
                    span,
                    "`__VERIFIER_atomic_end` that does not close a section of the same block",
                ));
            }
        }
    }
    Ok(p)
}

/// The expression of a statement `f(…);` or `lv = f(…);` of the normal form: the assigned
/// lvalue (if any) and the call.
fn call_statement(
    e: &Node<Expression>,
) -> Option<(Option<Node<Expression>>, &Node<CallExpression>)> {
    match &e.node {
        Expression::Call(c) => Some((None, c)),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            match &b.node.rhs.node {
                Expression::Call(c) => Some((Some((*b.node.lhs).clone()), c)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What mapping C11 thread calls needs ([`c11`]): the functions the unit defines and the
/// enumerators it declares (it looks for the header's `thrd_*` and `mtx_*` constants).
fn c11_context(unit: &TranslationUnit) -> (HashSet<String>, HashSet<String>) {
    let defined = unit
        .0
        .iter()
        .filter_map(|ext| match &ext.node {
            ExternalDeclaration::FunctionDefinition(f) => function_name(&f.node).map(String::from),
            _ => None,
        })
        .collect();
    (defined, ladr_c::syntax::query::enumerators(unit))
}

/// Names of global objects (not functions, not typedefs): their values are not constants.
fn global_objects(unit: &TranslationUnit) -> HashSet<String> {
    let mut s = HashSet::new();
    for ext in &unit.0 {
        if let ExternalDeclaration::Declaration(d) = &ext.node {
            if is_typedef(&d.node) {
                continue;
            }
            for id in &d.node.declarators {
                let dd = &id.node.declarator.node;
                if matches!(
                    dd.derived.first().map(|x| &x.node),
                    Some(DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_))
                ) {
                    continue;
                }
                if let Some(n) = declarator_name(dd) {
                    s.insert(n.to_string());
                }
            }
        }
    }
    s
}

/// Every name a function declares (parameters and locals, at any depth).
fn local_names(f: &FunctionDefinition) -> HashSet<String> {
    struct DeclaredNames(HashSet<String>);
    impl Visitor for DeclaredNames {
        type Error = Infallible;
        fn declarator(&mut self, d: &Node<Declarator>) -> std::result::Result<Walk, Infallible> {
            if let Some(n) = declarator_name(&d.node) {
                self.0.insert(n.to_string());
            }
            Ok(Walk::Descend)
        }
    }
    let mut declared = DeclaredNames(HashSet::new());
    let Ok(()) = visit::declarator(&mut declared, &f.declarator);
    let Ok(()) = visit::stmt(&mut declared, &f.statement);
    declared.0
}

/// A jump target created on first use.
struct Target {
    label: String,
    used: bool,
}

#[derive(Default)]
struct SwitchCtx {
    /// (test on the switch value, label)
    cases: Vec<(CaseTest, String)>,
    default: Option<String>,
}

enum CaseTest {
    Value(Node<Expression>),
    Range(Node<Expression>, Node<Expression>),
}

struct Normaliser<'a> {
    names: &'a mut Names,
    breaks: Vec<Target>,
    conts: Vec<Target>,
    switches: Vec<SwitchCtx>,
    globals: &'a HashSet<String>,
    /// The file scope's pointer typedefs (`query::pointer_typedefs`).
    pointer_typedefs: &'a HashSet<String>,
    /// Parameters and locals of the current function (their values are not constants).
    locals: HashSet<String>,
    /// The current function returns `void` (`return f();` then keeps no value).
    ret_void: bool,
}

fn returns_void(f: &FunctionDefinition) -> bool {
    let void = f.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void)
    });
    let d = &f.declarator.node;
    void && matches!(d.kind.node, DeclaratorKind::Identifier(_)) && d.derived.len() == 1
}

type Items = Vec<Node<BlockItem>>;

/// The items as one statement (a block unless it is exactly one statement).
fn as_stmt(mut items: Items, span: Span) -> Node<Statement> {
    if items.len() == 1 && matches!(items[0].node, BlockItem::Statement(_)) {
        if let BlockItem::Statement(s) = items.pop().unwrap().node {
            return s;
        }
    }
    block(items, span)
}

fn stmt_item(s: Node<Statement>) -> Node<BlockItem> {
    item(s)
}

/// A temporary's declaration `__typeof__(e) t;`.
fn temp_decl(name: &str, e: &Node<Expression>) -> Node<BlockItem> {
    decl_item(typeof_decl(name, e.clone(), false, e.span))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(src: &str) -> TranslationUnit {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.c").unwrap();
        let p = run(Program::new(unit), &Options::default()).unwrap();
        crate::invariants::check_normal_form(&p.unit).unwrap();
        p.unit
    }

    #[test]
    fn loops_become_while() {
        let u = norm(
            "void f(int n){ for(int i=0;i<n;i++){ if(i) continue; break; } do n--; while(n); }",
        );
        let s = ladr_c::print::print_unit(&u).text;
        assert!(!s.contains("for") && !s.contains("do "), "{s}");
    }

    #[test]
    fn checker_rejects_switch() {
        let (_, unit, _) =
            ladr_c::frontend::parse_text("void f(int x){ switch(x){ case 1: break; } }", "t.c")
                .unwrap();
        assert!(crate::invariants::check_normal_form(&unit).is_err());
    }
}
