//! `constprop` — where a private scalar local of a function holds the same constant on
//! every path, its read becomes that constant.
//!
//! ```text
//! i = 0; if (i < 10) { entry = &cache[i]; entry->refs++; i++; if (i < 10) { … } }
//!   ──▶
//! i = 0; if ((__typeof__(i))(0) < 10) { entry = &cache[(__typeof__(i))(0)];
//!   ((__typeof__(entry))(&cache[(__typeof__(i))(0)]))->refs++; i++; … }
//! ```
//!
//! Why: after `unwind`, a loop over an array is a chain of copies whose counter goes 0, 1, 2,
//! …, and an inlined function's pointer parameter is assigned `&cache[i]`. The lazy
//! sequentialization then puts a label before every visible statement where a context may
//! resume, and CBMC merges the values of every variable at each of them: the counter
//! becomes a symbolic index and `entry->refs` a dereference CBMC cannot bound (a case split
//! over every element and offset). With the constant in place, CBMC sees `cache[3].refs`.
//! A goblint-style program locking `cache[i]` in loops of 10 went from over 300 s to 5 s.
//!
//! What is folded (sound: a constant replaces a read only where every execution reaching it
//! has that value):
//! * Candidates: automatic locals of the function declared once (`inline` renamed apart the
//!   locals of one name: `for (int i …)` twice beside an `int i`), not `volatile`, not named
//!   like a file-scope object, whose address is never taken (`__CPROVER_havoc_object(&x)`
//!   of N4 sets a value; it does not let the address escape), not mentioned by an `asm`
//!   statement nor assigned inside a statement expression: integers (integer keywords or
//!   typedefs of them, not `_Bool`) with values in 0..=127 (which every integer type holds,
//!   so no conversion is lost), and pointers holding an address constant (`&g`, `&a[k]`,
//!   `&s.f`, `&p->f` of such a pointer, over objects whose address is fixed; a function,
//!   `f` or `&f`, into a function pointer `(*p)(…)`) or 0. A function pointer that holds one
//!   function makes the dispatch `inline` wrote for calls through it (`if (p == f) … else
//!   assume(0)`) a constant CBMC decides: goblint's 04-mutex_19 (a callback called in a loop
//!   of 10) went from a symbolic execution unfinished after 100 s to 14 s.
//! * A forward data-flow over the loop-free function: facts meet (agree or are dropped) at
//!   the end of an `if` and at a label with the facts of every `goto` to it; a label that a
//!   later `goto` jumps back to, and any loop, start with no facts; a function with a
//!   computed `goto` is left alone. A condition that folds to a constant makes the branch
//!   it skips unreachable.
//! * A replaced read is [`folded`]`(x, c)`: `(__typeof__(x))(c)`, so its type is `x`'s
//!   (no change of arithmetic), and reports print it as `x` ([`folded_var`]).
//!
//! Runs after `unwind` (the function is loop-free) and before `threads` (which copies each
//! start routine per slot: the copies inherit the constants). Keeps N1–N6.

use ladr_c::diag::Result;
use ladr_c::print::expr_to_string;
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::query;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use ladr_ir::abi;
use ladr_ir::program::{Options, Program};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// The largest integer folded: every C integer type (but `_Bool`) holds 0..=127, alike in
/// every conversion (`racefree` keeps its counter values in the same range).
pub(crate) const MAX_INT: i128 = 127;

pub fn run(mut p: Program, _opts: &Options) -> Result<Program> {
    let file = FileScope::collect(&p.unit);
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            fold_function(&mut f.node, &file);
        }
    }
    Ok(p)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Pointer,
}

#[derive(Clone, Debug)]
enum Fact {
    Int(i128),
    /// An address constant (its candidates' reads already replaced).
    Addr(Node<Expression>),
}

impl Fact {
    fn same(&self, o: &Fact) -> bool {
        match (self, o) {
            (Fact::Int(a), Fact::Int(b)) => a == b,
            (Fact::Addr(a), Fact::Addr(b)) => expr_to_string(&a.node) == expr_to_string(&b.node),
            _ => false,
        }
    }

    fn expr(&self, span: lang_c::span::Span) -> Node<Expression> {
        match self {
            Fact::Int(v) => int(*v as u64, span),
            Fact::Addr(e) => e.clone(),
        }
    }
}

/// The facts at a point; `None`: the point is unreachable.
type Facts = Option<HashMap<String, Fact>>;

fn meet(a: Facts, b: Facts) -> Facts {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(
            a.into_iter()
                .filter(|(k, v)| b.get(k).is_some_and(|w| v.same(w)))
                .collect(),
        ),
    }
}

/// What the file scope declares: objects, functions, integer typedefs, array objects.
#[derive(Default)]
struct FileScope {
    objects: HashSet<String>,
    functions: HashSet<String>,
    int_typedefs: HashSet<String>,
    /// Typedefs of object or function pointers (`typedef void *(*thread_func_t)(void *);`).
    pointer_typedefs: HashSet<String>,
    /// Array objects (file scope) with their number of array dimensions.
    arrays: HashMap<String, usize>,
}

fn is_int_specs(specs: &[&TypeSpecifier], int_typedefs: &HashSet<String>) -> bool {
    let mut any = false;
    for t in specs {
        match t {
            TypeSpecifier::Char
            | TypeSpecifier::Short
            | TypeSpecifier::Int
            | TypeSpecifier::Long
            | TypeSpecifier::Signed
            | TypeSpecifier::Unsigned => any = true,
            TypeSpecifier::TypedefName(n) if int_typedefs.contains(&n.node.name) => any = true,
            _ => return false,
        }
    }
    any
}

/// The number of array dimensions of an array object's declarator (`int a[2][3]`: 2; 0 for
/// `int (*p)[3]`, a pointer).
fn object_array_dims(d: &Declarator) -> usize {
    if is_array_declarator(d) {
        array_dims(d)
    } else {
        0
    }
}

impl FileScope {
    fn collect(unit: &TranslationUnit) -> FileScope {
        let mut f = FileScope {
            pointer_typedefs: query::pointer_typedefs(unit),
            ..FileScope::default()
        };
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::FunctionDefinition(d) => {
                    if let Some(n) = function_name(&d.node) {
                        f.functions.insert(n.to_string());
                    }
                }
                ExternalDeclaration::Declaration(d) => {
                    let typedef = is_typedef(&d.node);
                    let types = type_specifiers(&d.node.specifiers);
                    for id in &d.node.declarators {
                        let dd = &id.node.declarator.node;
                        let Some(n) = declarator_name(dd) else {
                            continue;
                        };
                        if typedef {
                            if dd.derived.is_empty() && is_int_specs(&types, &f.int_typedefs) {
                                f.int_typedefs.insert(n.to_string());
                            }
                        } else if is_function_declarator(dd) {
                            f.functions.insert(n.to_string());
                        } else {
                            f.objects.insert(n.to_string());
                            let dims = object_array_dims(dd);
                            let e = f.arrays.entry(n.to_string()).or_insert(dims);
                            *e = (*e).min(dims);
                        }
                    }
                }
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        f
    }
}

/// The scan of [`candidates`]: each local's kind (`None`: declared as no candidate), its
/// arrays' dimensions, and the names excluded (address taken, written in a statement
/// expression or by `asm`).
#[derive(Default)]
struct CandidateScan<'a> {
    file: Option<&'a FileScope>,
    kinds: HashMap<String, Option<Kind>>,
    arrays: HashMap<String, usize>,
    excluded: HashSet<String>,
    in_stmt_expr: usize,
}
impl CandidateScan<'_> {
    /// Excludes every identifier of `e`.
    fn exclude_names_in(&mut self, e: &Node<Expression>) {
        query::for_each_expr(e, query::Operands::All, |e| {
            if let Expression::Identifier(i) = &e.node {
                self.excluded.insert(i.node.name.clone());
            }
        });
    }
}
impl Visitor for CandidateScan<'_> {
    type Error = Infallible;
    fn declaration(&mut self, d: &Node<Declaration>) -> std::result::Result<Walk, Infallible> {
        let file = self.file.expect("set");
        let st = storage_of(&d.node.specifiers);
        let automatic = !st.iter().any(|s| {
            matches!(
                s,
                StorageClassSpecifier::Static
                    | StorageClassSpecifier::Extern
                    | StorageClassSpecifier::Typedef
                    | StorageClassSpecifier::ThreadLocal
            )
        });
        let types = type_specifiers(&d.node.specifiers);
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            let Some(n) = declarator_name(dd) else {
                continue;
            };
            let dims = object_array_dims(dd);
            if dims > 0 {
                self.arrays.insert(n.to_string(), dims);
            }
            let kind = if !automatic || is_volatile(&d.node.specifiers) {
                None
            } else if dd.derived.is_empty()
                && matches!(dd.kind.node, DeclaratorKind::Identifier(_))
                && is_int_specs(&types, &file.int_typedefs)
            {
                Some(Kind::Int)
            } else if query::declares_pointer(dd, &types, &file.pointer_typedefs) {
                Some(Kind::Pointer)
            } else {
                None
            };
            // Declared with another kind too, or also at file scope: not a candidate.
            let kind = match self.kinds.get(n) {
                Some(k) if *k != kind => None,
                _ => kind,
            };
            let kind = if file.objects.contains(n) { None } else { kind };
            self.kinds.insert(n.to_string(), kind);
        }
        Ok(Walk::Descend)
    }

    fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Asm(a) = &s.node {
            if let AsmStatement::GnuExtended(g) = &a.node {
                for o in g.outputs.iter().chain(&g.inputs) {
                    self.exclude_names_in(&o.node.variable_name);
                }
            }
        }
        Ok(Walk::Descend)
    }

    fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
        match &e.node {
            Expression::Call(c) if callee_name(&c.node) == Some(abi::HAVOC) => {
                return Ok(Walk::Skip);
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                if let Some(n) = ident_name(&u.node.operand) {
                    self.excluded.insert(n.to_string());
                }
            }
            Expression::BinaryOperator(b)
                if self.in_stmt_expr > 0 && is_assign_op(&b.node.operator.node) =>
            {
                if let Some(n) = ident_name(&b.node.lhs) {
                    self.excluded.insert(n.to_string());
                }
            }
            Expression::UnaryOperator(u)
                if self.in_stmt_expr > 0 && is_inc_dec(&u.node.operator.node) =>
            {
                if let Some(n) = ident_name(&u.node.operand) {
                    self.excluded.insert(n.to_string());
                }
            }
            Expression::Statement(st) => {
                self.in_stmt_expr += 1;
                let Ok(()) = visit::stmt(self, st);
                self.in_stmt_expr -= 1;
                return Ok(Walk::Skip);
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

/// The candidates of a function: name → kind, and its local arrays' dimensions.
fn candidates(
    f: &FunctionDefinition,
    file: &FileScope,
) -> (HashMap<String, Kind>, HashMap<String, usize>) {
    let mut c = CandidateScan {
        file: Some(file),
        ..CandidateScan::default()
    };
    let Ok(()) = visit::stmt(&mut c, &f.statement);
    // Parameters are no candidates (their values come from the caller), and they shadow.
    for n in parameter_names(&f.declarator.node) {
        c.kinds.insert(n, None);
    }
    // A name declared where another declaration of it is in scope (shadowing): the facts,
    // kept by name, would mix the two.
    let mut decls: HashMap<String, Vec<(Vec<usize>, usize)>> = HashMap::new();
    scopes(&f.statement, &mut vec![], &mut decls);
    let nested: HashSet<String> = decls
        .into_iter()
        .filter(|(_, ds)| {
            ds.iter().enumerate().any(|(i, a)| {
                ds.iter()
                    .skip(i + 1)
                    .any(|b| in_scope_of(a, b) || in_scope_of(b, a))
            })
        })
        .map(|(n, _)| n)
        .collect();
    let kinds = c
        .kinds
        .into_iter()
        .filter(|(n, _)| !c.excluded.contains(n) && !nested.contains(n))
        .filter_map(|(n, k)| Some((n, k?)))
        .collect();
    (kinds, c.arrays)
}

/// Every local declaration's place: the item indices of the blocks around it (the block
/// path) and its index in its block.
fn scopes(
    s: &Node<Statement>,
    path: &mut Vec<usize>,
    out: &mut HashMap<String, Vec<(Vec<usize>, usize)>>,
) {
    match &s.node {
        Statement::Compound(items) => {
            for (k, it) in items.iter().enumerate() {
                match &it.node {
                    BlockItem::Declaration(d) => {
                        for id in &d.node.declarators {
                            if let Some(n) = declarator_name(&id.node.declarator.node) {
                                out.entry(n.to_string())
                                    .or_default()
                                    .push((path.clone(), k));
                            }
                        }
                    }
                    BlockItem::Statement(st) => {
                        path.push(k);
                        scopes(st, path, out);
                        path.pop();
                    }
                    BlockItem::StaticAssert(_) => {}
                }
            }
        }
        Statement::Labeled(l) => scopes(&l.node.statement, path, out),
        Statement::If(i) => {
            scopes(&i.node.then_statement, path, out);
            if let Some(e) = &i.node.else_statement {
                scopes(e, path, out);
            }
        }
        Statement::While(w) => scopes(&w.node.statement, path, out),
        Statement::DoWhile(w) => scopes(&w.node.statement, path, out),
        Statement::For(f) => {
            // `for (int i = …)`: the declaration's scope is the loop.
            if let ForInitializer::Declaration(d) = &f.node.initializer.node {
                for id in &d.node.declarators {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        out.entry(n.to_string())
                            .or_default()
                            .push((path.clone(), usize::MAX));
                    }
                }
            }
            scopes(&f.node.statement, path, out);
        }
        Statement::Switch(w) => scopes(&w.node.statement, path, out),
        _ => {}
    }
}

/// True if declaration `b` is in the scope of declaration `a` (or in the same block).
fn in_scope_of(a: &(Vec<usize>, usize), b: &(Vec<usize>, usize)) -> bool {
    let ((pa, ka), (pb, _)) = (a, b);
    if pa == pb {
        return true;
    }
    pb.len() > pa.len() && pb.starts_with(pa) && (pb[pa.len()] > *ka || *ka == usize::MAX)
}

/// Labels and gotos of a function in textual order: the labels some later `goto` jumps
/// back to, and whether the function has a statement expression (whose jumps and writes
/// the data-flow does not follow: the function is left alone).
fn jumps(body: &Node<Statement>) -> (HashSet<String>, bool) {
    let (mut seen, mut backward) = (HashSet::new(), HashSet::new());
    query::for_each_stmt(body, query::InExpressions::Enter, |s| match &s.node {
        Statement::Labeled(l) => {
            if let Label::Identifier(i) = &l.node.label.node {
                seen.insert(i.node.name.clone());
            }
        }
        Statement::Goto(l) if seen.contains(&l.node.name) => {
            backward.insert(l.node.name.clone());
        }
        _ => {}
    });
    let computed = query::any_expr(body, query::Operands::All, |e| {
        matches!(e.node, Expression::Statement(_))
    });
    (backward, computed)
}

fn fold_function(f: &mut FunctionDefinition, file: &FileScope) {
    let (cands, arrays) = candidates(f, file);
    if cands.is_empty() {
        return;
    }
    let (backward, computed) = jumps(&f.statement);
    if computed {
        return;
    }
    let mut fl = Folder {
        cands,
        arrays,
        file,
        backward,
        pending: HashMap::new(),
        facts: Some(HashMap::new()),
    };
    fl.stmt(&mut f.statement);
}

struct Folder<'a> {
    cands: HashMap<String, Kind>,
    /// Local arrays and their dimensions.
    arrays: HashMap<String, usize>,
    file: &'a FileScope,
    backward: HashSet<String>,
    /// The facts of the `goto`s seen so far, by label.
    pending: HashMap<String, Facts>,
    facts: Facts,
}

impl Folder<'_> {
    fn ints(&self) -> HashMap<String, i128> {
        self.facts
            .iter()
            .flatten()
            .filter_map(|(k, v)| match v {
                Fact::Int(i) => Some((k.clone(), *i)),
                Fact::Addr(_) => None,
            })
            .collect()
    }

    fn eval(&self, e: &Node<Expression>) -> Option<i128> {
        let ints = self.ints();
        constant::value(&e.node, &constant::Env::values(&ints))
    }

    fn kill(&mut self, n: &str) {
        if let Some(f) = &mut self.facts {
            f.remove(n);
        }
    }

    fn set(&mut self, n: &str, fact: Option<Fact>) {
        if let Some(f) = &mut self.facts {
            match fact {
                Some(x) => {
                    f.insert(n.to_string(), x);
                }
                None => {
                    f.remove(n);
                }
            }
        }
    }

    /// The dimensions of an array object named `n` (0: not an array, or unknown).
    fn dims(&self, n: &str) -> usize {
        if self.cands.contains_key(n) {
            return 0;
        }
        self.arrays
            .get(n)
            .or_else(|| self.file.arrays.get(n))
            .copied()
            .unwrap_or(0)
    }

    /// Does `n` name a function of the file (no local of that name)?
    fn is_function(&self, n: &str) -> bool {
        self.file.functions.contains(n)
            && !self.cands.contains_key(n)
            && !self.arrays.contains_key(n)
    }

    /// True if `&lv` is an address constant (under the current facts).
    fn const_lvalue(&self, lv: &Node<Expression>, indexed: usize) -> bool {
        match &lv.node {
            Expression::Identifier(i) => {
                let n = &i.node.name;
                if self.is_function(n) {
                    return indexed == 0;
                }
                !self.cands.contains_key(n)
                    && !self.file.functions.contains(n)
                    && indexed <= self.dims(n)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.eval(&b.node.rhs).is_some() && self.const_lvalue(&b.node.lhs, indexed + 1)
            }
            Expression::Member(m) if indexed == 0 => match m.node.operator.node {
                MemberOperator::Direct => self.const_lvalue(&m.node.expression, 0),
                MemberOperator::Indirect => self.const_pointer(&m.node.expression),
            },
            Expression::UnaryOperator(u)
                if indexed == 0 && u.node.operator.node == UnaryOperator::Indirection =>
            {
                self.const_pointer(&u.node.operand)
            }
            _ => false,
        }
    }

    /// True if the pointer value `e` is an address constant (under the current facts).
    fn const_pointer(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                self.const_lvalue(&u.node.operand, 0)
            }
            // A function designator: its address is fixed.
            Expression::Identifier(i) if self.is_function(&i.node.name) => true,
            Expression::Identifier(i) => matches!(
                self.facts.as_ref().and_then(|f| f.get(&i.node.name)),
                Some(Fact::Addr(_))
            ),
            Expression::Cast(c) => self.const_pointer(&c.node.expression),
            _ => false,
        }
    }

    /// Replaces the reads of candidates with facts in `e` (not the variable an assignment
    /// or increment writes, not under `&`, `sizeof` or `__typeof__`).
    fn subst(&self, e: &mut Node<Expression>) {
        let Some(facts) = &self.facts else {
            return;
        };
        if facts.is_empty() {
            return;
        }
        struct FactSubstitution<'b>(&'b HashMap<String, Fact>);
        impl VisitorMut for FactSubstitution<'_> {
            type Error = Infallible;
            const UNEVALUATED: bool = false;
            fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
                match &mut e.node {
                    Expression::Identifier(i) => {
                        if let Some(f) = self.0.get(&i.node.name) {
                            let name = i.node.name.clone();
                            *e = folded(&name, f.expr(e.span), e.span);
                        }
                        Ok(Walk::Skip)
                    }
                    Expression::BinaryOperator(b)
                        if is_assign_op(&b.node.operator.node)
                            && ident_name(&b.node.lhs).is_some() =>
                    {
                        visit_mut::expr(self, &mut b.node.rhs)?;
                        Ok(Walk::Skip)
                    }
                    Expression::UnaryOperator(u)
                        if (is_inc_dec(&u.node.operator.node)
                            || u.node.operator.node == UnaryOperator::Address)
                            && ident_name(&u.node.operand).is_some() =>
                    {
                        Ok(Walk::Skip)
                    }
                    Expression::Statement(_) => Ok(Walk::Skip),
                    _ => Ok(Walk::Descend),
                }
            }
        }
        let Ok(()) = visit_mut::expr(&mut FactSubstitution(facts), e);
    }

    /// The candidates an expression writes (assigns or increments).
    fn written(&self, e: &Node<Expression>) -> Vec<String> {
        let mut out = vec![];
        query::for_each_expr(e, query::Operands::All, |e| {
            let target = match &e.node {
                Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                    ident_name(&b.node.lhs)
                }
                Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                    ident_name(&u.node.operand)
                }
                _ => None,
            };
            if let Some(n) = target.filter(|n| self.cands.contains_key(*n)) {
                out.push(n.to_string());
            }
        });
        out
    }

    /// The fact `x` holds after the expression statement `e` (which writes `x`).
    fn after(&self, x: &str, e: &Node<Expression>) -> Option<Fact> {
        let kind = self.cands[x];
        let old = match self.facts.as_ref()?.get(x) {
            Some(Fact::Int(v)) => Some(*v),
            _ => None,
        };
        let int = |v: i128| (0..=MAX_INT).contains(&v).then_some(Fact::Int(v));
        match &e.node {
            Expression::BinaryOperator(b) if ident_name(&b.node.lhs) == Some(x) => {
                match b.node.operator.node {
                    BinaryOperator::Assign => match kind {
                        Kind::Int => int(self.eval(&b.node.rhs)?),
                        Kind::Pointer if self.const_pointer(&b.node.rhs) => {
                            let mut v = (*b.node.rhs).clone();
                            self.subst(&mut v);
                            Some(Fact::Addr(v))
                        }
                        Kind::Pointer => (self.eval(&b.node.rhs)? == 0).then_some(Fact::Int(0)),
                    },
                    BinaryOperator::AssignPlus if kind == Kind::Int => {
                        int(old? + self.eval(&b.node.rhs)?)
                    }
                    BinaryOperator::AssignMinus if kind == Kind::Int => {
                        int(old? - self.eval(&b.node.rhs)?)
                    }
                    _ => None,
                }
            }
            Expression::UnaryOperator(u) if ident_name(&u.node.operand) == Some(x) => {
                match (kind, u.node.operator.node.clone()) {
                    (Kind::Int, UnaryOperator::PostIncrement | UnaryOperator::PreIncrement) => {
                        int(old? + 1)
                    }
                    (Kind::Int, UnaryOperator::PostDecrement | UnaryOperator::PreDecrement) => {
                        int(old? - 1)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn expression(&mut self, e: &mut Node<Expression>) {
        if self.facts.is_none() {
            return;
        }
        if let Expression::Call(c) = &e.node {
            if callee_name(&c.node) == Some(abi::HAVOC) {
                for a in &c.node.arguments {
                    if let Expression::UnaryOperator(u) = &a.node {
                        if let Some(n) = ident_name(&u.node.operand) {
                            let n = n.to_string();
                            self.kill(&n);
                        }
                    }
                }
                return;
            }
        }
        let written = self.written(e);
        // The new facts come from the values before the statement.
        let new: Vec<(String, Option<Fact>)> = written
            .iter()
            .map(|x| (x.clone(), self.after(x, e)))
            .collect();
        self.subst(e);
        for (x, f) in new {
            self.set(&x, f);
        }
    }

    fn stmt(&mut self, s: &mut Node<Statement>) {
        match &mut s.node {
            Statement::Labeled(l) => {
                let here = match &l.node.label.node {
                    Label::Identifier(i) if self.backward.contains(&i.node.name) => {
                        Some(HashMap::new())
                    }
                    Label::Identifier(i) => {
                        let p = self.pending.remove(&i.node.name).flatten();
                        meet(self.facts.take(), p)
                    }
                    _ => Some(HashMap::new()),
                };
                self.facts = here;
                self.stmt(&mut l.node.statement);
            }
            Statement::Compound(items) => {
                for it in items {
                    match &mut it.node {
                        BlockItem::Declaration(d) => {
                            for id in &mut d.node.declarators {
                                if let Some(i) = &mut id.node.initializer {
                                    self.initializer(i);
                                }
                                if let Some(n) = declarator_name(&id.node.declarator.node) {
                                    let n = n.to_string();
                                    self.kill(&n);
                                }
                            }
                        }
                        BlockItem::Statement(st) => self.stmt(st),
                        BlockItem::StaticAssert(_) => {}
                    }
                }
            }
            Statement::Expression(Some(e)) => self.expression(e),
            Statement::If(i) => {
                let v = self.eval(&i.node.condition);
                self.subst(&mut i.node.condition);
                let before = self.facts.clone();
                self.facts = if v == Some(0) { None } else { before.clone() };
                self.stmt(&mut i.node.then_statement);
                let then_end = self.facts.take();
                self.facts = if v.is_some_and(|v| v != 0) {
                    None
                } else {
                    before
                };
                if let Some(e) = &mut i.node.else_statement {
                    self.stmt(e);
                }
                let else_end = self.facts.take();
                self.facts = meet(then_end, else_end);
            }
            Statement::Goto(l) => {
                let name = l.node.name.clone();
                let f = self.facts.take();
                let p = match self.pending.remove(&name) {
                    Some(q) => meet(q, f),
                    None => f,
                };
                self.pending.insert(name, p);
            }
            Statement::Return(e) => {
                if let Some(e) = e {
                    self.subst(e);
                }
                self.facts = None;
            }
            Statement::Break | Statement::Continue => {
                self.facts = None;
            }
            Statement::While(_)
            | Statement::DoWhile(_)
            | Statement::For(_)
            | Statement::Switch(_) => {
                // Not in a bounded program; should one remain, it is left as it is: nothing
                // is known after it, nor at a label one of its `goto`s may jump to.
                if self.facts.is_some() {
                    self.facts = Some(HashMap::new());
                }
                self.backward.extend(goto_targets(s));
            }
            Statement::Expression(None) | Statement::Asm(_) => {}
        }
    }

    fn initializer(&mut self, i: &mut Node<Initializer>) {
        match &mut i.node {
            Initializer::Expression(e) => self.subst(e),
            Initializer::List(items) => {
                for it in items {
                    self.initializer(&mut it.node.initializer);
                }
            }
        }
    }
}

fn goto_targets(s: &Node<Statement>) -> Vec<String> {
    let mut out = vec![];
    query::for_each_stmt(s, query::InExpressions::Enter, |s| {
        if let Statement::Goto(l) = &s.node {
            out.push(l.node.name.clone());
        }
    });
    out
}
