//! Values of variable length named by where they come from (issue 31;
//! `docs/decisions/static.md`, "Rows of variable length"). `double b[n][m];` in `main` and
//! a region's loop `for (j = 1; j < m; j++) b[i][j] = …` reach the region's routine as
//! `__t = cap_b_dim1; double (*b)[__t];` (the row length, `sizeof(b[0]) /
//! sizeof(b[0][0])`) and `m = cap_m;` (the bound): two locals the proof can tell equal only
//! through `main`. A *root* is a local `m` of `main` with one value for its whole life, and
//! a name whose every value is `m`'s resolves to it:
//!  * `m`: declared once, at `main`'s top level, automatic, its address never taken, `main`
//!    named nowhere; written exactly once, by a top-level statement (or its initialiser)
//!    with no label before it and no mention of `m` before it: every read of `m` reads
//!    that one value;
//!  * a file-scope variable `g` whose every write in the program is `g = m;` in `main`,
//!    or `g = sizeof(a[0]) / sizeof(a[0][0])` (dimension `j` of `main`'s array `a`
//!    declared once at top level with that dimension written `[m]`), each after the write
//!    of `m`, and that no function declares, takes the address of or writes but `main`;
//!  * a local `t` of a function whose only write is a top-level `t = g;` with no label
//!    before it and no mention of `t` before it (as [`super::invariant`]'s), `t` declared
//!    once there, automatic, its address never taken.
//!
//! A capture read before `main` first wrote it would read 0; the lowering writes the
//! captures of a region right before it starts its team, which is how [`super::alias`]
//! reads a variable-length row too.

use super::alias::{uses_of, Source, Uses};
use super::worksharing::{assignment, name_of, Effects};
use ladr_c::syntax::walk::visit;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// A root's value: a constant when its one write stores one (a constant that every
/// integer type involved holds, [`super::collapse::widened`]), else the root by its name.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Const(i64),
    Name(String),
}

/// How many of `main`'s locals a root's value may pass through (`n1 = n0;`, as `splice`
/// binds a spliced function's parameters).
const CHAIN: usize = 8;

/// What resolves names to roots (module doc), built once for a unit.
pub struct Roots<'a> {
    main: Option<(&'a [Node<BlockItem>], Uses<'a>)>,
    /// File-scope declarations by name.
    file_scope: HashMap<&'a str, usize>,
    /// Every function's uses but `main`'s, and every parameter name.
    others: Vec<Uses<'a>>,
    parameters: HashSet<String>,
    /// Whether some function names `main` (then it may run more than once).
    main_named: bool,
}

/// Does item `i` name `v` (anywhere, declarators' sizes too)?
pub(super) fn mentions(i: &Node<BlockItem>, v: &str) -> bool {
    ladr_c::syntax::query::any_expr(i, ladr_c::syntax::query::Operands::All, |e| {
        name_of(e) == Some(v)
    })
}

/// The top-level item of `items` that is `v`'s one write (`v = e;`, or its declaration
/// with an initialiser), when `v` is written once in `items` and named by no item
/// before it, with no label up to it.
pub(super) fn single_write(items: &[Node<BlockItem>], v: &str) -> Option<usize> {
    let mut whole = Effects::default();
    for i in items {
        let _ = visit::block_item(&mut whole, i);
    }
    let initialised = |i: &Node<BlockItem>| match &i.node {
        BlockItem::Declaration(d) => d.node.declarators.iter().any(|x| {
            ladr_c::syntax::build::declarator_name(&x.node.declarator.node) == Some(v)
                && x.node.initializer.is_some()
        }),
        _ => false,
    };
    let inits = items.iter().filter(|i| initialised(i)).count();
    let writes = whole.written.get(v).copied().unwrap_or(0) + inits;
    if writes != 1 || whole.addressed.iter().any(|a| a == v) {
        return None;
    }
    for (k, i) in items.iter().enumerate() {
        let mut e = Effects::default();
        let _ = visit::block_item(&mut e, i);
        if e.jumps {
            return None;
        }
        if initialised(i) || assignment(i).is_some_and(|(x, _)| x == v) {
            return Some(k);
        }
        if mentions(i, v) {
            return None;
        }
    }
    None
}

impl<'a> Roots<'a> {
    pub fn of(unit: &'a TranslationUnit) -> Roots<'a> {
        let mut roots = Roots {
            main: None,
            file_scope: HashMap::new(),
            others: vec![],
            parameters: HashSet::new(),
            main_named: false,
        };
        for e in &unit.0 {
            match &e.node {
                ExternalDeclaration::FunctionDefinition(f) => {
                    let d = &f.node.declarator.node;
                    roots
                        .parameters
                        .extend(ladr_c::syntax::build::parameter_names(d));
                    let Some(u) = uses_of(&f.node) else { continue };
                    let items = match &f.node.statement.node {
                        Statement::Compound(items) => items.as_slice(),
                        _ => continue,
                    };
                    if ladr_c::syntax::build::declarator_name(d) == Some("main") {
                        roots.main = Some((items, u));
                    } else {
                        roots.others.push(u);
                    }
                }
                ExternalDeclaration::Declaration(d) => {
                    for x in &d.node.declarators {
                        let n = ladr_c::syntax::build::declarator_name(&x.node.declarator.node);
                        if let Some(n) = n {
                            *roots.file_scope.entry(n).or_default() += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        roots.main_named = roots.others.iter().any(|o| o.used.contains("main"))
            || roots
                .main
                .as_ref()
                .is_some_and(|(_, u)| u.used.contains("main"));
        roots
    }

    /// `m` as a root of `main` (module doc): the item index of its write, and its value
    /// (through at most `depth` more locals of `main` of its type that it was copied from).
    fn main_root(&self, m: &str, depth: usize) -> Option<(usize, Value)> {
        let (items, u) = self.main.as_ref()?;
        let [(d, x, true)] = u.declared.get(m)?.as_slice() else {
            return None;
        };
        // (Another function's parameter of the same name is another variable.)
        if self.main_named || u.addressed.contains(m) {
            return None;
        }
        let k = single_write(items, m)?;
        let value = match &x.initializer {
            Some(i) => match &i.node {
                Initializer::Expression(e) => Some(&**e),
                Initializer::List(_) => None,
            },
            None => assignment(&items[k]).map(|(_, e)| e),
        };
        let plain = |x: &InitDeclarator| {
            matches!(x.declarator.node.kind.node, DeclaratorKind::Identifier(_))
                && x.declarator.node.derived.is_empty()
        };
        let copied = value.and_then(name_of).filter(|_| depth > 0).and_then(|n| {
            let [(dn, xn, true)] = u.declared.get(n)?.as_slice() else {
                return None;
            };
            let same =
                plain(x) && plain(xn) && super::alias::base_type(d) == super::alias::base_type(dn);
            same.then(|| self.main_root(n, depth - 1)).flatten()
        });
        let v = match (value.and_then(super::collapse::widened), copied) {
            (Some(c), _) => Value::Const(c),
            (None, Some((_, v))) => v,
            _ => Value::Name(m.to_string()),
        };
        Some((k, v))
    }

    /// Dimension `j` of `main`'s array `a`: a constant, or `m` when written `[m]`.
    fn dimension(&self, a: &str, j: usize) -> Option<Result<i64, &'a str>> {
        let (_, u) = self.main.as_ref()?;
        let [(_, x, true)] = u.declared.get(a)?.as_slice() else {
            return None;
        };
        let d = &x.declarator.node;
        match &d.derived.get(j)?.node {
            DerivedDeclarator::Array(arr) => match &arr.node.size {
                ArraySize::VariableExpression(e) => match super::collapse::widened(e) {
                    Some(c) => Some(Ok(c)),
                    None => name_of(e).map(Err),
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The root every value of file-scope variable `g` is.
    pub fn of_global(&self, g: &str) -> Option<Value> {
        let (items, u) = self.main.as_ref()?;
        let clean = self.file_scope.get(g) == Some(&1)
            && !self.parameters.contains(g)
            && !u.declared.contains_key(g)
            && !u.addressed.contains(g)
            && self.others.iter().all(|o| {
                !o.declared.contains_key(g) && !o.addressed.contains(g) && !o.writes.contains_key(g)
            });
        let writes = u.writes.get(g).filter(|_| clean)?;
        let mut value: Option<Value> = None;
        let mut after = 0;
        for w in writes {
            let m = match w {
                Source::Name(m) => m.as_str(),
                Source::Row(a, j) => match self.dimension(a, *j)? {
                    Ok(c) => {
                        value.get_or_insert(Value::Const(c));
                        if value != Some(Value::Const(c)) {
                            return None;
                        }
                        continue;
                    }
                    Err(m) => m,
                },
                _ => return None,
            };
            let (at, v) = self.main_root(m, CHAIN)?;
            after = after.max(at + 1);
            if value.get_or_insert(v.clone()) != &v {
                return None;
            }
        }
        // Every write of `g` after its roots' (the items up to theirs do not name `g`).
        items[..after]
            .iter()
            .all(|i| !mentions(i, g))
            .then_some(value?)
    }

    /// The root local `t` of the function with body `items` (uses `u`, parameters
    /// `params`) resolves to.
    pub fn of_local(
        &self,
        items: &[Node<BlockItem>],
        u: &Uses,
        params: &[String],
        t: &str,
    ) -> Option<Value> {
        let [(d, _, true)] = u.declared.get(t)?.as_slice() else {
            return None;
        };
        let automatic = !d
            .specifiers
            .iter()
            .any(|s| matches!(s.node, DeclarationSpecifier::StorageClass(_)));
        if !automatic || params.iter().any(|p| p == t) || u.addressed.contains(t) {
            return None;
        }
        let k = single_write(items, t)?;
        let (_, value) = assignment(&items[k])?;
        self.of_global(name_of(super::access::strip_casts(value))?)
    }

    /// The value of `e`, a constant expression of literals, the names `known` gives a
    /// value and locals of the function whose root is a constant ([`Self::of_local`]):
    /// `nj > nm ? nj : nm` of roots 128.
    pub fn constant_of(
        &self,
        (items, u, params): (&[Node<BlockItem>], &Uses, &[String]),
        e: &Node<Expression>,
        known: &HashMap<String, i128>,
    ) -> Option<i64> {
        let mut values = known.clone();
        for n in pure_names(e).unwrap_or_default() {
            if values.contains_key(&n) {
                continue;
            }
            if let Some(Value::Const(v)) = self.of_local(items, u, params, &n) {
                values.insert(n, i128::from(v));
            }
        }
        super::alias::value_in(e, &ladr_c::syntax::constant::Env::values(&values))
    }
}

/// The names an expression reads, when it only reads names and constants through casts,
/// arithmetic, comparisons and conditionals (no call, assignment, index or pointer).
pub fn pure_names(e: &Node<Expression>) -> Option<Vec<String>> {
    let mut out = vec![];
    fn walk(e: &Node<Expression>, out: &mut Vec<String>) -> Option<()> {
        match &e.node {
            Expression::Identifier(i) => out.push(i.node.name.clone()),
            Expression::Constant(_) => {}
            Expression::Cast(c) => walk(&c.node.expression, out)?,
            Expression::BinaryOperator(b) => {
                use BinaryOperator::*;
                match b.node.operator.node {
                    Plus | Minus | Multiply | Divide | Modulo | Less | Greater | LessOrEqual
                    | GreaterOrEqual | Equals | NotEquals | LogicalAnd | LogicalOr => {}
                    _ => return None,
                }
                walk(&b.node.lhs, out)?;
                walk(&b.node.rhs, out)?;
            }
            Expression::UnaryOperator(u) => {
                use UnaryOperator::*;
                if !matches!(u.node.operator.node, Plus | Minus | Negate) {
                    return None;
                }
                walk(&u.node.operand, out)?;
            }
            Expression::Conditional(c) => {
                walk(&c.node.condition, out)?;
                walk(&c.node.then_expression, out)?;
                walk(&c.node.else_expression, out)?;
            }
            _ => return None,
        }
        Some(())
    }
    walk(e, &mut out)?;
    Some(out)
}
