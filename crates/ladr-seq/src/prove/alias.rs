//! Array aliases (issue 31; `docs/decisions/static.md`, "Arrays through a capture
//! pointer"). The OpenMP lowering hands a local array of `main` to its region routine
//! through a file-scope capture, `cap = a;` in `main` and `double (*a)[20]; a = cap;` in
//! the routine, so `a[i][j]` there is an access through a pointer: of the whole object.
//! When that pointer can only hold the start of one array `A`, and its type is a pointer
//! to `A`'s element type, `p[i][j]` *is* `A[i][j]` and is read as that element
//! ([`super::scan::Scan::part`]). A pointer local `p` of a function is such an alias of
//! `A` when:
//!  * every write of `p` in its function is `p = g;` (casts aside; or its initialiser
//!    `g`), `p` is declared once there, not a parameter, automatic, its address never
//!    taken;
//!  * `g` is a file-scope variable without initialiser that no function declares a local
//!    or parameter of that name for, whose address is never taken, and whose every write
//!    in the program is `g = a;` in `main`, one name `a` for all;
//!  * `a` names `A` there: `main`'s one declaration of `a`, at its top level, automatic,
//!    no initialiser, `main` named nowhere (one instance of it); or, when `main` declares
//!    no `a`, the file-scope array `a`; or `a` is a pointer local of `main` declared so,
//!    its address never taken, whose every write is `a = b;` of one name `b` (or a null
//!    pointer constant), and `b` names `A` (through at most [`CHAIN`] such locals: a
//!    parameter bound to an array, a block of `super::blocks`); `a = *q;` of such a
//!    pointer `q` whose every value is `&A` names `A` too (`double (*X)[N][M]` of a
//!    block passed as `*X`);
//!  * `A` is `T A[N0][N1]…[Nk]` with constant `N1`…`Nk` (`N0` any size) and `p` is
//!    `T (*p)[N1]…[Nk]` (`T *p` for k = 0), `T` printed alike.
//!
//! Then every value `p` holds is `A`'s start (or the null pointer `g` held before its
//! first write, which no access survives), and the element `p[e0]…[ek]` is `A[e0]…[ek]`.

use super::worksharing::name_of;
use super::VarId;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// The value a write gives.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Source {
    Name(String),
    Null,
    /// Dimension `j` of the array named ([`row_of`]).
    Row(String, usize),
    /// `*y`: what the pointer named points to.
    Deref(String),
    /// `&y`: the address of the object named.
    Address(String),
    Other,
}

/// What a function (or the unit) does with each name.
#[derive(Default)]
pub(super) struct Uses<'a> {
    /// Declarations (block scope), with whether at the body's top level.
    pub declared: HashMap<String, Vec<(&'a Declaration, &'a InitDeclarator, bool)>>,
    /// The writes of each name `x`: `x = y;` of an identifier `y` (casts aside), of a null
    /// pointer constant, or another.
    pub writes: HashMap<String, Vec<Source>>,
    pub addressed: HashSet<String>,
    pub used: HashSet<String>,
}

impl<'a> Uses<'a> {
    fn of(items: &'a [Node<BlockItem>]) -> Self {
        let mut u = Uses::default();
        for i in items {
            if let BlockItem::Declaration(d) = &i.node {
                u.declaration(&d.node, true);
            }
            let mut w = Walker { uses: &mut u };
            let _ = visit::block_item(&mut w, i);
        }
        u
    }

    fn declaration(&mut self, d: &'a Declaration, top: bool) {
        for x in &d.declarators {
            if let Some(n) = ladr_c::syntax::build::declarator_name(&x.node.declarator.node) {
                self.declared
                    .entry(n.to_string())
                    .or_default()
                    .push((d, &x.node, top));
            }
        }
    }
}

struct Walker<'u, 'a> {
    uses: &'u mut Uses<'a>,
}

impl Visitor for Walker<'_, '_> {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        match &e.node {
            Expression::Identifier(i) => {
                self.uses.used.insert(i.node.name.clone());
            }
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                if let Some(x) = name_of(&b.node.lhs) {
                    let plain = b.node.operator.node == BinaryOperator::Assign;
                    let rhs = super::access::strip_casts(&b.node.rhs);
                    let y = match name_of(rhs) {
                        _ if !plain => Source::Other,
                        Some(y) => Source::Name(y.to_string()),
                        None if super::access::is_zero(rhs) => Source::Null,
                        None => match (row_of(rhs), pointer_step(rhs)) {
                            (Some((a, j)), _) => Source::Row(a.to_string(), j),
                            (_, Some(s)) => s,
                            _ => Source::Other,
                        },
                    };
                    self.uses.writes.entry(x.to_string()).or_default().push(y);
                }
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                if let Some(x) = name_of(&u.node.operand) {
                    self.uses
                        .writes
                        .entry(x.to_string())
                        .or_default()
                        .push(Source::Other);
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                if let Some(x) = name_of(&u.node.operand) {
                    self.uses.addressed.insert(x.to_string());
                }
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

/// Block-scope declarations below the top level (the top level's are recorded by
/// [`Uses::of`]).
struct Nested<'u, 'a>(&'u mut Uses<'a>);

impl<'a> Nested<'_, 'a> {
    fn items(&mut self, items: &'a [Node<BlockItem>], top: bool) {
        for i in items {
            match &i.node {
                BlockItem::Declaration(d) if !top => self.0.declaration(&d.node, false),
                BlockItem::Statement(s) => self.stmt(s),
                _ => {}
            }
        }
    }
    fn stmt(&mut self, s: &'a Node<Statement>) {
        match &s.node {
            Statement::Compound(items) => self.items(items, false),
            Statement::If(x) => {
                self.stmt(&x.node.then_statement);
                if let Some(e) = &x.node.else_statement {
                    self.stmt(e);
                }
            }
            Statement::While(w) => self.stmt(&w.node.statement),
            Statement::DoWhile(w) => self.stmt(&w.node.statement),
            Statement::For(f) => {
                if let ForInitializer::Declaration(d) = &f.node.initializer.node {
                    self.0.declaration(&d.node, false);
                }
                self.stmt(&f.node.statement);
            }
            Statement::Labeled(l) => self.stmt(&l.node.statement),
            Statement::Switch(w) => self.stmt(&w.node.statement),
            _ => {}
        }
    }
}

pub(super) fn uses_of(f: &FunctionDefinition) -> Option<Uses<'_>> {
    let Statement::Compound(items) = &f.statement.node else {
        return None;
    };
    let mut u = Uses::of(items);
    Nested(&mut u).items(items, true);
    Some(u)
}

fn automatic(d: &Declaration) -> bool {
    !d.specifiers
        .iter()
        .any(|s| matches!(s.node, DeclarationSpecifier::StorageClass(_)))
}

/// `T` of a declaration, printed (storage classes left out).
pub(super) fn base_type(d: &Declaration) -> String {
    let specifiers = d
        .specifiers
        .iter()
        .filter(|s| !matches!(s.node, DeclarationSpecifier::StorageClass(_)))
        .cloned()
        .collect();
    ladr_c::print::declaration_to_string(&Declaration {
        specifiers,
        declarators: vec![],
    })
}

/// A declared array dimension `[N]`: the constant `N` printed, or the name `N` is.
#[derive(Clone, Debug, PartialEq)]
enum Size {
    Constant(String),
    Name(String),
    Other,
}

/// The sizes of `[N0]…[Nk]` (none: a derived declarator that is not an array).
fn sizes(derived: &[Node<DerivedDeclarator>]) -> Option<Vec<Size>> {
    derived
        .iter()
        .map(|x| match &x.node {
            DerivedDeclarator::Array(a) => Some(match &a.node.size {
                ArraySize::VariableExpression(e) => match (const_value(e), &e.node) {
                    (Some(c), _) => Size::Constant(c.to_string()),
                    (None, Expression::Identifier(i)) => Size::Name(i.node.name.clone()),
                    _ => Size::Other,
                },
                _ => Size::Other,
            }),
            _ => None,
        })
        .collect()
}

/// The value of an integer constant expression (`500 + 0`, an array's dimension).
pub(super) fn const_value(e: &Node<Expression>) -> Option<i64> {
    value_in(e, &ladr_c::syntax::constant::Env::none())
}

/// The value of an integer constant expression whose names `env` may give values.
pub(super) fn value_in(e: &Node<Expression>, env: &ladr_c::syntax::constant::Env) -> Option<i64> {
    i64::try_from(ladr_c::syntax::constant::value(&e.node, env)?).ok()
}

/// What an index of the array or pointer declared `d` leads to: the derived declarators
/// after the first dimension: `[N1]…[Nk]` of an array `x[N0][N1]…[Nk]` or of a pointer to
/// rows `(*x)[N1]…[Nk]`, none of a pointer `*x`. `None`: another declarator.
pub(super) fn rows(d: &Declarator) -> Option<&[Node<DerivedDeclarator>]> {
    let pointer = |d: &Declarator| {
        matches!(d.kind.node, DeclaratorKind::Identifier(_))
            && matches!(d.derived.as_slice(), [x] if matches!(x.node, DerivedDeclarator::Pointer(_)))
    };
    match &d.kind.node {
        DeclaratorKind::Identifier(_) if pointer(d) => Some(&[]),
        DeclaratorKind::Identifier(_) if is_array(d) => Some(&d.derived[1..]),
        DeclaratorKind::Declarator(inner) if pointer(&inner.node) => Some(&d.derived),
        _ => None,
    }
}

/// Is `p`'s declarator `(*p)[S1]…[Sk]` (or `*p` for k = 0) of `A`'s `A[N0][N1]…[Nk]`,
/// each `Sj` the constant `Nj` is, or a name `row(name, j)` says is `A`'s dimension `j`?
fn pointer_to_row(p: &Declarator, a: &Declarator, row: impl Fn(&str, usize) -> bool) -> bool {
    // `[N0]` of any size (a variable-length array too): only the rows' sizes matter.
    if !is_array(a) {
        return false;
    }
    let (Some(rows), Some(mine)) = (rows(a).and_then(sizes), rows(p).and_then(sizes)) else {
        return false;
    };
    // `p` is a pointer (`*p` or `(*p)[…]`), not an array.
    mine.len() == rows.len()
        && !is_array(p)
        && mine
            .iter()
            .zip(&rows)
            .enumerate()
            .all(|(j, pair)| match pair {
                (Size::Constant(x), Size::Constant(y)) => x == y,
                (Size::Name(t), _) => row(t, j + 1),
                _ => false,
            })
}

/// `sizeof(a[0]…[0]) / sizeof(a[0]…[0][0])`, `j` zeros then `j + 1` (j ≥ 1): dimension
/// `j` of the array `a` (how the OpenMP lowering passes a variable-length matrix's rows).
fn row_of(e: &Node<Expression>) -> Option<(&str, usize)> {
    // `x[0]…[0]`: the name and the number of zeros.
    fn zeros(e: &Node<Expression>) -> Option<(&str, usize)> {
        match &e.node {
            Expression::Identifier(i) => Some((&i.node.name, 0)),
            Expression::BinaryOperator(b)
                if b.node.operator.node == BinaryOperator::Index
                    && super::access::is_zero(&b.node.rhs)
                    && matches!(b.node.rhs.node, Expression::Constant(_)) =>
            {
                zeros(&b.node.lhs).map(|(n, k)| (n, k + 1))
            }
            _ => None,
        }
    }
    fn sized(e: &Node<Expression>) -> Option<(&str, usize)> {
        match &e.node {
            Expression::SizeOfVal(v) => zeros(&v.node.0),
            _ => None,
        }
    }
    let Expression::BinaryOperator(b) = &e.node else {
        return None;
    };
    if b.node.operator.node != BinaryOperator::Divide {
        return None;
    }
    let (a, j) = sized(&b.node.lhs)?;
    let (a2, j2) = sized(&b.node.rhs)?;
    (a == a2 && j >= 1 && j2 == j + 1).then_some((a, j))
}

/// `*y` or `&y` (casts aside) of a name `y`.
fn pointer_step(e: &Node<Expression>) -> Option<Source> {
    let Expression::UnaryOperator(u) = &e.node else {
        return None;
    };
    let y = name_of(super::access::strip_casts(&u.node.operand))?.to_string();
    match u.node.operator.node {
        UnaryOperator::Indirection => Some(Source::Deref(y)),
        UnaryOperator::Address => Some(Source::Address(y)),
        _ => None,
    }
}

/// How many of `main`'s pointer locals a capture's value may pass through.
const CHAIN: usize = 8;

/// Is `d` an array's declarator `a[N0]…`?
fn is_array(d: &Declarator) -> bool {
    matches!(d.kind.node, DeclaratorKind::Identifier(_))
        && matches!(
            d.derived.first().map(|x| &x.node),
            Some(DerivedDeclarator::Array(_))
        )
}

/// The one name whose value is every value local `p` (declared by `x`) is given in its
/// function (`u`): by its writes `p = y;` (casts aside) and its initialiser; with `null`,
/// writes of a null pointer constant too (no access through that value survives).
fn single_source<'u>(u: &'u Uses, p: &str, x: &'u InitDeclarator, null: bool) -> Option<&'u str> {
    match single_write(u, p, x, null)? {
        Step::Name(y) => Some(y),
        _ => None,
    }
}

/// One step of a pointer's value: `y`, `*y` or `&y` of a name `y`.
#[derive(Clone, Copy, PartialEq)]
enum Step<'u> {
    Name(&'u str),
    Deref(&'u str),
    Address(&'u str),
}

/// [`single_source`], where the one value may also be `*y` or `&y` of a name `y`.
fn single_write<'u>(u: &'u Uses, p: &str, x: &'u InitDeclarator, null: bool) -> Option<Step<'u>> {
    let mut sources: Vec<Option<Step>> = vec![];
    for w in u.writes.get(p).into_iter().flatten() {
        match w {
            Source::Name(y) => sources.push(Some(Step::Name(y))),
            Source::Deref(y) => sources.push(Some(Step::Deref(y))),
            Source::Address(y) => sources.push(Some(Step::Address(y))),
            Source::Null if null => {}
            _ => sources.push(None),
        }
    }
    if let Some(i) = &x.initializer {
        sources.push(match &i.node {
            Initializer::Expression(e) => name_of(super::access::strip_casts(e)).map(Step::Name),
            Initializer::List(_) => None,
        });
    }
    let g = (*sources.first()?)?;
    sources.iter().all(|s| *s == Some(g)).then_some(g)
}

/// The name `main`'s pointer local `a` (declared by `x`) takes its one value from, with
/// `derefs` the `*` not yet matched by a `&`: `a = b;`, `a = *b;` (one at most), `a = &b;`
/// (matching one).
fn next_in_chain<'u>(
    main: &'u Uses,
    a: &str,
    x: &'u InitDeclarator,
    derefs: &mut usize,
) -> Option<&'u str> {
    Some(match single_write(main, a, x, true)? {
        Step::Name(b) => b,
        Step::Deref(b) => {
            *derefs = (*derefs == 0).then_some(1)?;
            b
        }
        Step::Address(b) => {
            *derefs = derefs.checked_sub(1)?;
            b
        }
    })
}

/// The array aliases of the unit (module doc): each alias pointer's variable, the array's.
pub fn array_aliases(
    unit: &TranslationUnit,
    globals: &HashMap<String, VarId>,
    locals: &HashMap<usize, VarId>,
) -> HashMap<VarId, VarId> {
    let mut out = HashMap::new();
    let mut functions: Vec<(&str, &FunctionDefinition, Uses)> = vec![];
    let mut file_scope: HashMap<&str, Vec<(&Declaration, &InitDeclarator)>> = HashMap::new();
    for e in &unit.0 {
        match &e.node {
            ExternalDeclaration::FunctionDefinition(f) => {
                let name = ladr_c::syntax::build::declarator_name(&f.node.declarator.node);
                if let (Some(n), Some(u)) = (name, uses_of(&f.node)) {
                    functions.push((n, &f.node, u));
                }
            }
            ExternalDeclaration::Declaration(d) => {
                for x in &d.node.declarators {
                    if let Some(n) = ladr_c::syntax::build::declarator_name(&x.node.declarator.node)
                    {
                        file_scope.entry(n).or_default().push((&d.node, &x.node));
                    }
                }
            }
            _ => {}
        }
    }
    let parameters: HashSet<String> = functions
        .iter()
        .flat_map(|(_, f, _)| ladr_c::syntax::build::parameter_names(&f.declarator.node))
        .collect();
    let Some((_, _, main)) = functions.iter().find(|(n, _, _)| *n == "main") else {
        return out;
    };
    let main_named = functions.iter().any(|(_, _, u)| u.used.contains("main"));
    // A file-scope variable `g` without initialiser, declared once, that no function
    // declares a local or parameter of that name for, takes the address of or writes
    // but `main`: its writes in `main`, the only ones.
    let main_writes = |g: &str| -> Option<&Vec<Source>> {
        let [(_, gx)] = file_scope.get(g)?.as_slice() else {
            return None;
        };
        let clean = gx.initializer.is_none()
            && !parameters.contains(g)
            && functions
                .iter()
                .all(|(_, _, u)| !u.declared.contains_key(g) && !u.addressed.contains(g))
            && functions
                .iter()
                .all(|(n, _, u)| *n == "main" || !u.writes.contains_key(g));
        clean.then(|| main.writes.get(g)).flatten()
    };
    // A capture `g`: its array `A` (by its name), or none.
    let capture = |g: &str| -> Option<(VarId, &str, &Declaration, &Declarator)> {
        let writes = main_writes(g)?;
        let Some(Source::Name(a)) = writes.first() else {
            return None;
        };
        if writes
            .iter()
            .any(|w| !matches!(w, Source::Name(y) if y == a))
        {
            return None;
        }
        let mut a = a.as_str();
        // `*` applied to what `a` holds: one `p = *q;` met, not yet matched by `q = &A;`.
        let mut derefs = 0usize;
        // Through `main`'s pointer locals that only ever hold one name's value (or `*q`
        // of one pointer `q` that holds `&A`: the array `A` itself).
        for _ in 0..CHAIN {
            let Some(decls) = main.declared.get(a) else {
                let [(d, x)] = file_scope.get(a)?.as_slice() else {
                    return None;
                };
                if derefs > 0 {
                    return None;
                }
                return Some((*globals.get(a)?, a, *d, &x.declarator.node));
            };
            let [(d, x, true)] = decls.as_slice() else {
                return None;
            };
            let decl = &x.declarator.node;
            if main_named || !automatic(d) {
                return None;
            }
            if is_array(decl) {
                let id = *locals.get(&(decl as *const Declarator as usize))?;
                return (x.initializer.is_none() && derefs == 0).then_some((id, a, *d, decl));
            }
            if main.addressed.contains(a) {
                return None;
            }
            a = next_in_chain(main, a, x, &mut derefs)?;
        }
        None
    };
    for (_, f, u) in &functions {
        let params = ladr_c::syntax::build::parameter_names(&f.declarator.node);
        for (p, decls) in &u.declared {
            let [(d, x, _)] = decls.as_slice() else {
                continue;
            };
            if params.contains(p) || u.addressed.contains(p) || !automatic(d) {
                continue;
            }
            let Some(g) = single_source(u, p, x, false) else {
                continue;
            };
            let Some((array, name, ad, adecl)) = capture(g) else {
                continue;
            };
            // A row size `t` of `p`: a local whose one source is a file-scope variable
            // `main` only ever sets to `A`'s dimension `j`.
            let row = |t: &str, j: usize| {
                let Some([(_, tx, _)]) = u.declared.get(t).map(Vec::as_slice) else {
                    return false;
                };
                if params.iter().any(|n| n == t) || u.addressed.contains(t) {
                    return false;
                }
                let Some(dim) = single_source(u, t, tx, false) else {
                    return false;
                };
                main_writes(dim).is_some_and(|w| {
                    !w.is_empty()
                        && w.iter()
                            .all(|s| matches!(s, Source::Row(a, k) if a == name && *k == j))
                })
            };
            let pdecl = &x.declarator.node;
            if base_type(d) != base_type(ad) || !pointer_to_row(pdecl, adecl, row) {
                continue;
            }
            if let Some(&pv) = locals.get(&(pdecl as *const Declarator as usize)) {
                out.insert(pv, array);
            }
        }
    }
    out
}
