//! Queries over the AST in a call: does some expression (or statement) of a node satisfy a
//! predicate, which is the first one that does, how many statements are there. They are the
//! finder and collector visitors the passes used to write by hand, each a struct with one
//! hook; here once, over the one walker ([`super::walk`]), with a closure for the hook.
//!
//! ```ignore
//! // Does `s` call `free`?
//! any_expr(s, Operands::All, |e| matches!(&e.node, Expression::Call(c) if is_free(c)))
//! ```

use super::walk::visit::{self, Visitor};
use super::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;
use std::convert::Infallible;

/// A node a query can walk: the node and everything under it.
pub trait Walkable {
    fn walk<V: Visitor + ?Sized>(&self, v: &mut V) -> Result<(), V::Error>;
}

impl Walkable for Node<Expression> {
    fn walk<V: Visitor + ?Sized>(&self, v: &mut V) -> Result<(), V::Error> {
        visit::expr(v, self)
    }
}

impl Walkable for Node<Statement> {
    fn walk<V: Visitor + ?Sized>(&self, v: &mut V) -> Result<(), V::Error> {
        visit::stmt(v, self)
    }
}

impl Walkable for Node<BlockItem> {
    fn walk<V: Visitor + ?Sized>(&self, v: &mut V) -> Result<(), V::Error> {
        visit::block_item(v, self)
    }
}

impl Walkable for Node<Declaration> {
    fn walk<V: Visitor + ?Sized>(&self, v: &mut V) -> Result<(), V::Error> {
        visit::declaration(v, self)
    }
}

impl Walkable for Node<FunctionDefinition> {
    fn walk<V: Visitor + ?Sized>(&self, v: &mut V) -> Result<(), V::Error> {
        visit::function(v, self)
    }
}

impl Walkable for TranslationUnit {
    fn walk<V: Visitor + ?Sized>(&self, v: &mut V) -> Result<(), V::Error> {
        visit::unit(v, self)
    }
}

/// Which expressions a query looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operands {
    /// Every expression, also the operands C does not evaluate (of `sizeof`, `_Alignof`,
    /// `__typeof__`).
    All,
    /// Only expressions that are evaluated: what looks for accesses, calls and effects.
    Evaluated,
}

/// What the closure of [`find_expr`] / [`find_stmt`] answers for a node.
pub enum Look<T> {
    /// Not this one: look into its children.
    Descend,
    /// Not this one, nor anything under it.
    Skip,
    /// Found: the query ends with this.
    Found(T),
}

/// The closure as a visitor's expression hook; `EVALUATED`: the operands C does not evaluate
/// are not entered.
struct ExprQuery<F, const EVALUATED: bool>(F);

impl<T, F: FnMut(&Node<Expression>) -> Look<T>, const EVALUATED: bool> Visitor
    for ExprQuery<F, EVALUATED>
{
    type Error = T;
    const UNEVALUATED: bool = !EVALUATED;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, T> {
        match (self.0)(e) {
            Look::Descend => Ok(Walk::Descend),
            Look::Skip => Ok(Walk::Skip),
            Look::Found(t) => Err(t),
        }
    }
}

/// The first expression under `node` (itself included, in walk order) for which `f` answers
/// [`Look::Found`], with what it found.
pub fn find_expr<T>(
    node: &(impl Walkable + ?Sized),
    operands: Operands,
    f: impl FnMut(&Node<Expression>) -> Look<T>,
) -> Option<T> {
    match operands {
        Operands::All => node.walk(&mut ExprQuery::<_, false>(f)).err(),
        Operands::Evaluated => node.walk(&mut ExprQuery::<_, true>(f)).err(),
    }
}

/// Does some expression under `node` (itself included) satisfy `pred`?
pub fn any_expr(
    node: &(impl Walkable + ?Sized),
    operands: Operands,
    mut pred: impl FnMut(&Node<Expression>) -> bool,
) -> bool {
    find_expr(node, operands, |e| match pred(e) {
        true => Look::Found(()),
        false => Look::Descend,
    })
    .is_some()
}

/// Calls `f` on every expression under `node` (itself included), in walk order.
pub fn for_each_expr(
    node: &(impl Walkable + ?Sized),
    operands: Operands,
    mut f: impl FnMut(&Node<Expression>),
) {
    find_expr::<()>(node, operands, |e| {
        f(e);
        Look::Descend
    });
}

/// The closure as a visitor's statement hook; `ENTER_EXPRESSIONS`: statements inside GNU
/// statement expressions (`({ … })`) are looked at too.
struct StmtQuery<F, const ENTER_EXPRESSIONS: bool>(F);

impl<T, F: FnMut(&Node<Statement>) -> Look<T>, const ENTER_EXPRESSIONS: bool> Visitor
    for StmtQuery<F, ENTER_EXPRESSIONS>
{
    type Error = T;
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, T> {
        match (self.0)(s) {
            Look::Descend => Ok(Walk::Descend),
            Look::Skip => Ok(Walk::Skip),
            Look::Found(t) => Err(t),
        }
    }
    fn expr(&mut self, _e: &Node<Expression>) -> Result<Walk, T> {
        Ok(match ENTER_EXPRESSIONS {
            true => Walk::Descend,
            false => Walk::Skip,
        })
    }
}

/// Whether statement queries look into expressions (at the statements of GNU statement
/// expressions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InExpressions {
    Enter,
    Skip,
}

/// The first statement under `node` (itself included, in textual order) for which `f`
/// answers [`Look::Found`], with what it found.
pub fn find_stmt<T>(
    node: &(impl Walkable + ?Sized),
    expressions: InExpressions,
    f: impl FnMut(&Node<Statement>) -> Look<T>,
) -> Option<T> {
    match expressions {
        InExpressions::Enter => node.walk(&mut StmtQuery::<_, true>(f)).err(),
        InExpressions::Skip => node.walk(&mut StmtQuery::<_, false>(f)).err(),
    }
}

/// Does some statement under `node` (itself included) satisfy `pred`?
pub fn any_stmt(
    node: &(impl Walkable + ?Sized),
    expressions: InExpressions,
    mut pred: impl FnMut(&Node<Statement>) -> bool,
) -> bool {
    find_stmt(node, expressions, |s| match pred(s) {
        true => Look::Found(()),
        false => Look::Descend,
    })
    .is_some()
}

/// Calls `f` on every statement under `node` (itself included), in textual order.
pub fn for_each_stmt(
    node: &(impl Walkable + ?Sized),
    expressions: InExpressions,
    mut f: impl FnMut(&Node<Statement>),
) {
    find_stmt::<()>(node, expressions, |s| {
        f(s);
        Look::Descend
    });
}

/// How many statements are under `node` (itself included).
pub fn count_stmts(node: &(impl Walkable + ?Sized), expressions: InExpressions) -> usize {
    let mut n = 0;
    for_each_stmt(node, expressions, |_| n += 1);
    n
}

/// The enumeration constants a program declares: at file scope, in a function (its body,
/// its parameters, a type name), and in a function definition's return type
/// (`enum e { A, B } f(void) { … }`, which [`visit::function`] does not walk). Fed a whole
/// unit ([`enumerators`]) or its declarations and definitions one by one.
#[derive(Default)]
pub struct Enumerators(HashSet<String>);

impl Visitor for Enumerators {
    type Error = Infallible;
    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
        if let TypeSpecifier::Enum(en) = &t.node {
            for e in &en.node.enumerators {
                self.0.insert(e.node.identifier.node.name.clone());
            }
        }
        Ok(Walk::Descend)
    }
}

impl Enumerators {
    /// The enumerators of an external declaration.
    pub fn external(&mut self, ext: &ExternalDeclaration) {
        match ext {
            ExternalDeclaration::Declaration(d) => {
                let Ok(()) = visit::declaration(self, d);
            }
            ExternalDeclaration::StaticAssert(_) => {}
            ExternalDeclaration::FunctionDefinition(f) => self.function(&f.node),
        }
    }

    /// The enumerators of a function definition, its return type's included.
    pub fn function(&mut self, f: &FunctionDefinition) {
        for s in &f.specifiers {
            let Ok(()) = visit::decl_specifier(self, s);
        }
        let Ok(()) = visit::declarator(self, &f.declarator);
        for d in &f.declarations {
            let Ok(()) = visit::declaration(self, d);
        }
        let Ok(()) = visit::stmt(self, &f.statement);
    }

    pub fn into_set(self) -> HashSet<String> {
        self.0
    }
}

/// Every enumeration constant `unit` declares ([`Enumerators`]).
pub fn enumerators(unit: &TranslationUnit) -> HashSet<String> {
    let mut found = Enumerators::default();
    for ext in &unit.0 {
        found.external(&ext.node);
    }
    found.into_set()
}

/// A declarator of a pointer, not `volatile` itself: `*p`, `(*f)(…)`, or a plain name of a
/// pointer typedef alone (`thread_func_t fn`, or a typedef of one) among `specs`.
pub fn declares_pointer(
    dd: &Declarator,
    specs: &[&TypeSpecifier],
    pointer_typedefs: &HashSet<String>,
) -> bool {
    is_plain_pointer(dd)
        || is_function_pointer(dd)
        || (dd.derived.is_empty()
            && matches!(dd.kind.node, DeclaratorKind::Identifier(_))
            && matches!(specs, [TypeSpecifier::TypedefName(n)]
                if pointer_typedefs.contains(&n.node.name)))
}

/// The file scope's typedefs of object or function pointers, in the sense of
/// [`declares_pointer`] (`typedef struct timer *timer_t;`, `typedef void *(*run_t)(void *);`
/// and a typedef of one). A typedef a later declaration redefines as something else keeps
/// its first meaning: C forbids that redefinition.
pub fn pointer_typedefs(unit: &TranslationUnit) -> HashSet<String> {
    let mut out = HashSet::new();
    for ext in &unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        if !super::build::is_typedef(&d.node) {
            continue;
        }
        let types = super::build::type_specifiers(&d.node.specifiers);
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            if let Some(n) = super::build::declarator_name(dd) {
                if declares_pointer(dd, &types, &out) {
                    out.insert(n.to_string());
                }
            }
        }
    }
    out
}

/// `*x`: a pointer, not `volatile` itself.
fn is_plain_pointer(dd: &Declarator) -> bool {
    matches!(dd.kind.node, DeclaratorKind::Identifier(_))
        && matches!(dd.derived.as_slice(), [p] if matches!(&p.node,
            DerivedDeclarator::Pointer(q) if q.iter().all(|q| !matches!(&q.node,
                PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Volatile))))
}

/// `(*f)(…)`: a pointer to a function (returning anything but a function pointer: `void
/// *(*f)(void *)` too), not `volatile` itself.
fn is_function_pointer(dd: &Declarator) -> bool {
    let function = |d: &Node<DerivedDeclarator>| {
        matches!(
            d.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    };
    matches!(&dd.kind.node, DeclaratorKind::Declarator(inner) if is_plain_pointer(&inner.node))
        && dd.derived.iter().filter(|d| function(d)).count() == 1
        && dd
            .derived
            .iter()
            .all(|d| function(d) || matches!(d.node, DerivedDeclarator::Pointer(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    fn body(src: &str) -> Node<Statement> {
        let (_, unit, _) = crate::frontend::parse_text(src, "t.c").expect("parses");
        for ext in unit.0 {
            if let ExternalDeclaration::FunctionDefinition(f) = ext.node {
                return f.node.statement;
            }
        }
        panic!("no function")
    }

    fn is_call(e: &Node<Expression>) -> bool {
        matches!(e.node, Expression::Call(_))
    }

    #[test]
    fn unevaluated_operands_are_seen_only_when_asked() {
        let b = body("int f(void); int g(void) { return sizeof(f()); }");
        assert!(any_expr(&b, Operands::All, is_call));
        assert!(!any_expr(&b, Operands::Evaluated, is_call));
    }

    #[test]
    fn skip_prunes_and_found_ends_the_query() {
        let b = body("int f(int); int g(int x) { x = f(1) + f(2); return f(x); }");
        let mut seen = 0;
        let first = find_expr(&b, Operands::All, |e| match &e.node {
            Expression::BinaryOperator(_) => Look::Skip,
            Expression::Call(_) => {
                seen += 1;
                Look::Found(e.span.start)
            }
            _ => Look::Descend,
        });
        assert_eq!(seen, 1);
        assert!(first.is_some());
    }

    #[test]
    fn statements_in_expressions_are_seen_only_when_asked() {
        let b = body("int g(void) { int y = ({ int z = 1; z; }); return y; }");
        assert_eq!(count_stmts(&b, InExpressions::Skip), 2);
        assert_eq!(count_stmts(&b, InExpressions::Enter), 4);
        let labelled = |s: &Node<Statement>| matches!(s.node, Statement::Labeled(_));
        let l = body("int g(void) { int y = ({ here: 1; }); return y; }");
        assert!(!any_stmt(&l, InExpressions::Skip, labelled));
        assert!(any_stmt(&l, InExpressions::Enter, labelled));
    }

    #[test]
    fn enumerators_are_found_at_file_scope_in_bodies_and_in_return_types() {
        let src = "enum colour { RED, GREEN }; \
                   enum result { OK, FAILED } run(int n) { enum { LOCAL } l = LOCAL; \
                   return n + (int)sizeof(enum { IN_SIZEOF }) ? OK : FAILED; } \
                   int g(enum { PARAM } p) { return p; }";
        let (_, unit, _) = crate::frontend::parse_text(src, "t.c").expect("parses");
        let mut found: Vec<String> = enumerators(&unit).into_iter().collect();
        found.sort();
        assert_eq!(
            found,
            [
                "FAILED",
                "GREEN",
                "IN_SIZEOF",
                "LOCAL",
                "OK",
                "PARAM",
                "RED"
            ]
        );
    }
}
