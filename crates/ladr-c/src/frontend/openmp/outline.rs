//! `parallel`: the region's body becomes a start routine run by a team of threads.
//!
//! ```text
//! int a[100]; int n = 100;            static int (*__ladr_omp_cap1_a);   // &a[0]
//! #pragma omp parallel                static int __ladr_omp_cap1_n;      // n's value
//! body(a, n)                          void *__ladr_omp_region1(void *arg) {
//!                                       thread_num = (int)(long)arg; team_size = size1;
//!                                       int (*a) = cap1_a; int n = cap1_n; body; return 0; }
//!                              main:  { cap1_a = a; cap1_n = n; size1 = 2; (re-arm barrier)
//!                                       if (size1 > 1) pthread_create(&t1, 0, region1, (void *)1);
//!                                       region1((void *)0); thread_num = 0; team_size = 1;
//!                                       if (size1 > 1) pthread_join(t1, 0); }
//! ```
//!
//! The encountering thread is thread 0; the join of the others is the implicit barrier at
//! the end. Locals of the enclosing function that the body uses are reached through the
//! routine's own locals of the same name: an array through a pointer to its first element
//! (the body's `a[i]` unchanged), a scalar the body writes or whose address is taken
//! anywhere in the function through a pointer (`x` → `(*x)`), any other scalar by its
//! value at the region's start (nothing can change it during the region: only the team
//! runs, the body does not write it, and no pointer to it exists). Globals stay globals.
//! `private(x)` declares `T x;`, `firstprivate(x)` `T x = value at the start;`.

use super::directive::Directive;
use super::lower::{dspan, fail, Lowering, R};
use super::vars::{Form, Var};
use crate::syntax::build::*;
use crate::syntax::constant::{value, Env};
use crate::syntax::names;
use crate::syntax::walk::visit_mut::{self, VisitorMut};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::convert::Infallible;

/// The region body's uses of the enclosing function's locals, following block scopes;
/// with `deref` set, rewrites those names to `(*x)`.
pub(super) struct Uses<'a> {
    pub(super) outer: &'a dyn Fn(&str) -> bool,
    pub(super) inner: Vec<HashSet<String>>,
    pub(super) used: BTreeMap<String, ()>,
    pub(super) written: HashSet<String>,
    /// Names under `sizeof` (an array reached through a pointer has another size).
    pub(super) sized: HashSet<String>,
    pub(super) deref: HashSet<String>,
}

impl<'a> Uses<'a> {
    /// Nothing used yet; `outer` says which names are the enclosing code's.
    pub(super) fn new(outer: &'a dyn Fn(&str) -> bool) -> Self {
        Uses {
            outer,
            inner: vec![],
            used: BTreeMap::new(),
            written: HashSet::new(),
            sized: HashSet::new(),
            deref: HashSet::new(),
        }
    }
}

impl Uses<'_> {
    fn outer_name(&self, n: &str) -> bool {
        !self.inner.iter().any(|s| s.contains(n)) && (self.outer)(n)
    }
}

impl VisitorMut for Uses<'_> {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk, Infallible> {
        if matches!(s.node, Statement::Compound(_) | Statement::For(_)) {
            self.inner.push(HashSet::new());
            let Ok(()) = visit_mut::stmt_children(self, &mut s.node);
            self.inner.pop();
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }
    fn declaration(&mut self, d: &mut Node<Declaration>) -> Result<Walk, Infallible> {
        let Ok(()) = visit_mut::declaration_children(self, d);
        if let Some(scope) = self.inner.last_mut() {
            for i in &d.node.declarators {
                if let Some(n) = declarator_name(&i.node.declarator.node) {
                    scope.insert(n.to_string());
                }
            }
        }
        Ok(Walk::Skip)
    }
    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, Infallible> {
        match &e.node {
            Expression::Identifier(i) => {
                let n = i.node.name.clone();
                if self.outer_name(&n) {
                    self.used.insert(n.clone(), ());
                    if self.deref.contains(&n) {
                        let span = e.span;
                        *e = deref(ident(&n, span), span);
                        return Ok(Walk::Skip);
                    }
                }
            }
            // A member of a struct or union local: reached through a pointer (its members
            // may be written), never copied.
            Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
                if let Some(n) = ident_name(&m.node.expression) {
                    if self.outer_name(n) {
                        self.written.insert(n.to_string());
                    }
                }
            }
            Expression::SizeOfVal(v) => {
                if let Some(n) = ident_name(&v.node.0) {
                    if self.outer_name(n) {
                        self.sized.insert(n.to_string());
                    }
                }
            }
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                if let Some(n) = ident_name(&b.node.lhs) {
                    if self.outer_name(n) {
                        self.written.insert(n.to_string());
                    }
                }
            }
            Expression::UnaryOperator(u) => {
                if let Some(n) = ident_name(&u.node.operand) {
                    if matches!(
                        u.node.operator.node,
                        UnaryOperator::Address
                            | UnaryOperator::PostIncrement
                            | UnaryOperator::PreIncrement
                            | UnaryOperator::PostDecrement
                            | UnaryOperator::PreDecrement
                    ) && self.outer_name(n)
                    {
                        self.written.insert(n.to_string());
                    }
                }
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

fn is_assign_op(op: &BinaryOperator) -> bool {
    crate::syntax::walk::is_assign_op(op)
}

/// The start routine's prologue (its locals for the captured ones) and the encountering
/// thread's hand-over statements.
type Captured = (Vec<Node<BlockItem>>, Vec<Node<Statement>>);

fn set(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Statement> {
    expr_stmt(assign(lhs, rhs, span))
}

/// The condition of `parallel`'s `if([parallel:] c)` clause, parsed from the directive's
/// text at the directive's offset (its nodes fall on the directive's line).
fn if_condition(d: &Directive, text: &str) -> R<Node<Expression>> {
    let text = text.trim();
    let text = text
        .strip_prefix("parallel")
        .map_or(text, |t| t.trim_start().strip_prefix(':').unwrap_or(text));
    expression(d, text, "if")
}

/// An expression of clause `clause` of directive `d` (its text), parsed at the directive's
/// offset (its nodes fall on the directive's line).
pub(super) fn expression(d: &Directive, text: &str, clause: &str) -> R<Node<Expression>> {
    let pad = " ".repeat(d.at);
    let parsed = crate::frontend::parse_text(&format!("{pad}int __x = ({text});\n"), "<if>")
        .ok()
        .and_then(|(_, unit, _)| {
            let ExternalDeclaration::Declaration(decl) = &unit.0.first()?.node else {
                return None;
            };
            match &decl
                .node
                .declarators
                .first()?
                .node
                .initializer
                .as_ref()?
                .node
            {
                Initializer::Expression(e) => Some((**e).clone()),
                _ => None,
            }
        });
    match parsed {
        Some(e) => Ok(e),
        None => fail(
            d,
            format!("the `{clause}({text})` clause: not an expression ladr reads"),
        ),
    }
}

impl Lowering {
    /// The team size of a `parallel`: `num_threads(constant)` or the default.
    fn team_size(&self, d: &Directive) -> R<u64> {
        let Some(c) = d.clause("num_threads") else {
            return Ok(self.team as u64);
        };
        let text = c.args.clone().unwrap_or_default();
        let parsed = crate::frontend::parse_text(&format!("int __x = {text};\n"), "<num_threads>")
            .ok()
            .and_then(|(_, unit, _)| {
                let ExternalDeclaration::Declaration(d) = &unit.0.first()?.node else {
                    return None;
                };
                match &d.node.declarators.first()?.node.initializer.as_ref()?.node {
                    Initializer::Expression(e) => value(&e.node, &Env::none()),
                    _ => None,
                }
            });
        match parsed {
            Some(n) if (1..=16).contains(&n) => Ok(n as u64),
            _ => fail(
                d,
                format!("`num_threads({text})` that is not a constant from 1 to 16"),
            ),
        }
    }

    /// `parallel` with its (already lowered) body: see the module header.
    pub fn parallel(&mut self, d: &Directive, mut body: Node<Statement>) -> R<Node<Statement>> {
        let known = [
            "private",
            "firstprivate",
            "shared",
            "default",
            "num_threads",
            "if",
            "reduction",
            "proc_bind",
            "lastprivate",
            "schedule",
            "collapse",
            "nowait",
            "copyin",
        ];
        self.no_clauses(d, &known)?;
        if let Some(c) = d.clause("collapse") {
            if c.args.as_deref().map(str::trim) != Some("1") {
                return fail(d, "`collapse` of several loops");
            }
        }
        let span = dspan(d);
        let team = self.team_size(d)?;
        let fixed = match d.clause("if") {
            Some(_) => Some(1),
            None => (d.clause("num_threads").is_some() || self.team_set_by_program).then_some(team),
        };
        for c in self.constructs.iter_mut().filter(|c| c.at == d.at) {
            c.team = fixed;
        }
        let r = self.fresh();
        let is_parallel_only = d.is(&["parallel"]);
        if is_parallel_only {
            body = self.reduction(d, body, span)?;
        }
        let (prologue, setup) = self.capture(d, r, &mut body)?;
        self.start_routine(r, prologue, body, span);
        self.team_code(d, r, team, setup)
    }

    /// The locals of the function that `body` uses, reached from the start routine (its
    /// `prologue`) and handed over by the encountering thread (`setup`); `private` and
    /// `firstprivate` copies.
    fn capture(&mut self, d: &Directive, r: usize, body: &mut Node<Statement>) -> R<Captured> {
        let span = dspan(d);
        // Which locals of the function the body uses and writes.
        let locals: HashMap<String, Var> = self
            .scopes
            .iter()
            .flat_map(|s| s.iter().map(|(k, v)| (k.clone(), v.clone())))
            .collect();
        let is_local = |n: &str| locals.contains_key(n);
        let mut uses = Uses::new(&is_local);
        let Ok(()) = visit_mut::stmt(&mut uses, body);
        let private = d.vars_of("private");
        let first = d.vars_of("firstprivate");
        let mut captured_ptr = HashSet::new();
        let mut prologue = vec![];
        let mut setup = vec![];
        for n in uses.used.keys() {
            if private.contains(n) || first.contains(n) {
                continue;
            }
            let var = &locals[n];
            if var.is_array() && uses.sized.contains(n) {
                return fail(
                    d,
                    format!("`sizeof` of the array `{n}` shared by the region"),
                );
            }
            let cap = format!("{}_{n}", names::omp("cap", r));
            if var.is_array() && !var.element_pointer_ok() {
                // A variable-length array of several dimensions: a `void *` to its first
                // element and its inner dimensions as read now (sizeof ratios).
                let void_ptr = declaration(
                    vec![
                        storage(StorageClassSpecifier::Static, span),
                        spec(TypeSpecifier::Void, span),
                    ],
                    &cap,
                    vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                    None,
                    Span::none(),
                );
                self.new_items.push(node(
                    ExternalDeclaration::Declaration(void_ptr),
                    Span::none(),
                ));
                setup.push(set(ident(&cap, span), ident(n, span), span));
                // Dimension j (j ≥ 1) of `a`: sizeof a[0]…[0] (j zeros) / sizeof of its
                // element.
                let mut sizes = vec![];
                let mut elem = ident(n, span);
                for j in 1..var.rank() {
                    let dim = format!("{cap}_dim{j}");
                    self.global(&[TypeSpecifier::Long], &dim, None);
                    elem = index(elem, int(0, span), span);
                    let inner = index(elem.clone(), int(0, span), span);
                    let ratio = binop(
                        BinaryOperator::Divide,
                        size_of_val(elem.clone(), span),
                        size_of_val(inner, span),
                        span,
                    );
                    setup.push(set(ident(&dim, span), ratio, span));
                    sizes.push(ident(&dim, span));
                }
                let shaped = var.with_inner_sizes(sizes);
                prologue.push(decl_item(shaped.declare(
                    n,
                    Form::Element,
                    Some(ident(&cap, span)),
                    false,
                    span,
                )));
                continue;
            }
            let (form, value) = if var.is_array() {
                (Form::Element, ident(n, span))
            } else if uses.written.contains(n) || self.addressed.contains(n) {
                captured_ptr.insert(n.clone());
                (Form::Pointer, addr(ident(n, span), span))
            } else {
                (Form::Same, ident(n, span))
            };
            self.new_items.push(node(
                ExternalDeclaration::Declaration(var.declare(&cap, form, None, true, Span::none())),
                Span::none(),
            ));
            setup.push(set(ident(&cap, span), value, span));
            prologue.push(decl_item(var.declare(
                n,
                form,
                Some(ident(&cap, span)),
                false,
                span,
            )));
        }
        for (n, initialised) in private
            .iter()
            .map(|n| (n, false))
            .chain(first.iter().map(|n| (n, true)))
        {
            let Some(var) = self.lookup(n).cloned() else {
                return fail(
                    d,
                    format!("`{n}` in a data-sharing clause is not a variable ladr knows"),
                );
            };
            if var.is_vla() || (initialised && var.is_array()) {
                return fail(d, format!("a private copy of the array `{n}`"));
            }
            let init = if initialised {
                let cap = format!("{}_{n}", names::omp("cap", r));
                self.new_items.push(node(
                    ExternalDeclaration::Declaration(var.declare(
                        &cap,
                        Form::Same,
                        None,
                        true,
                        Span::none(),
                    )),
                    Span::none(),
                ));
                setup.push(set(ident(&cap, span), ident(n, span), span));
                Some(ident(&cap, span))
            } else {
                None
            };
            prologue.push(decl_item(var.declare(n, Form::Same, init, false, span)));
        }
        if !captured_ptr.is_empty() {
            uses.deref = captured_ptr;
            uses.used.clear();
            let Ok(()) = visit_mut::stmt(&mut uses, body);
        }
        self.copy_in(d, r, &mut prologue, &mut setup)?;
        Ok((prologue, setup))
    }

    /// `copyin(x)`: each thread's copy of a `threadprivate` `x` starts as thread 0's.
    fn copy_in(
        &mut self,
        d: &Directive,
        r: usize,
        prologue: &mut Vec<Node<BlockItem>>,
        setup: &mut Vec<Node<Statement>>,
    ) -> R<()> {
        let span = dspan(d);
        for n in d
            .clauses
            .iter()
            .filter(|c| c.name == "copyin")
            .flat_map(|c| c.vars())
        {
            let Some(var) = self.globals.get(&n).cloned() else {
                return fail(
                    d,
                    format!("`copyin({n})` of a variable that is not a file-scope one"),
                );
            };
            if var.is_array() {
                return fail(d, format!("`copyin` of the array `{n}`"));
            }
            let cap = format!("{}_in_{n}", names::omp("cap", r));
            self.new_items.push(node(
                ExternalDeclaration::Declaration(var.declare(
                    &cap,
                    Form::Same,
                    None,
                    true,
                    Span::none(),
                )),
                Span::none(),
            ));
            setup.push(set(ident(&cap, span), ident(&n, span), span));
            prologue.push(item(set(ident(&n, span), ident(&cap, span), span)));
        }
        Ok(())
    }

    /// `void *__omp_regionR(void *arg)`: thread number and team size, then the body.
    fn start_routine(
        &mut self,
        r: usize,
        prologue: Vec<Node<BlockItem>>,
        body: Node<Statement>,
        span: Span,
    ) {
        // The start routine.
        let size = names::omp("size", r);
        self.global(&[TypeSpecifier::Int], &size, None);
        let arg = names::omp("arg", r);
        let routine = names::omp_region(r);
        let int_of = |e: Node<Expression>| {
            cast(
                type_name(&[TypeSpecifier::Int], 0, span),
                cast(type_name(&[TypeSpecifier::Long], 0, span), e, span),
                span,
            )
        };
        let mut items = vec![
            item(set(
                ident(names::OMP_THREAD_NUM, span),
                int_of(ident(&arg, span)),
                span,
            )),
            item(set(
                ident(names::OMP_TEAM_SIZE, span),
                ident(&size, span),
                span,
            )),
        ];
        if self.has_tasks {
            // The tasks this thread creates are bound to the team (level 1).
            items.push(item(set(
                ident(&names::omp("level", 0), span),
                int(1, span),
                span,
            )));
        }
        items.extend(prologue);
        items.push(item(body));
        items.push(item(ret(Some(int(0, span)), span)));
        self.new_items
            .push(routine_def(&routine, &arg, block(items, span)));
    }

    /// The encountering thread's code: hand over, create the team, run as thread 0, join.
    fn team_code(
        &mut self,
        d: &Directive,
        r: usize,
        team: u64,
        mut setup: Vec<Node<Statement>>,
    ) -> R<Node<Statement>> {
        let span = dspan(d);
        let size = names::omp("size", r);
        let routine = names::omp_region(r);
        let if_clause = d.clause("if").and_then(|c| c.args.clone());
        // Without `if` the team has `team` threads: the creations and joins below need no
        // test of the size (a constant team keeps the code after a creation beyond
        // `--max-threads` certainly cut, so the unwinding's copies after it are pruned).
        let sized = if_clause.is_some();
        let size_value = match if_clause {
            None => int(team, span),
            // `if(c)`: a team of one thread where `c` is false (the creations and joins
            // are under `size > 1`).
            Some(text) => cond(if_condition(d, &text)?, int(team, span), int(1, span), span),
        };
        // `simd` loops in the region: their lane starts before the team, stops after it.
        let lanes = !self.lane_arms.is_empty();
        if lanes {
            setup.extend(self.lane_start(span));
        }
        setup.push(set(ident(&size, span), size_value, span));
        setup.push(set(
            ident(&names::omp("arrived", 0), span),
            int(0, span),
            span,
        ));
        setup.push(set(
            ident(&names::omp("phase", 0), span),
            int(0, span),
            span,
        ));
        let bar0 = addr(
            index(ident(names::OMP_BARRIER, span), int(0, span), span),
            span,
        );
        setup.push(expr_stmt(call(
            "pthread_barrier_init",
            vec![bar0, int(0, span), ident(&size, span)],
            span,
        )));
        let when_many = |s: Node<Statement>| {
            if !sized {
                return s;
            }
            let many = binop(
                BinaryOperator::Greater,
                ident(&size, span),
                int(1, span),
                span,
            );
            if_stmt(many, s, None, span)
        };
        let void_of = |n: u64| {
            cast(
                type_name(&[TypeSpecifier::Void], 1, span),
                int(n, span),
                span,
            )
        };
        let mut out = vec![];
        let mut joins = vec![];
        for t in 1..team {
            let th = format!("{}_{t}", names::omp("thread", r));
            out.push(decl_item(simple_decl(
                &[TypeSpecifier::Unsigned, TypeSpecifier::Long],
                &th,
                None,
                false,
                None,
                span,
            )));
            setup.push(when_many(expr_stmt(call(
                "pthread_create",
                vec![
                    addr(ident(&th, span), span),
                    int(0, span),
                    ident(&routine, span),
                    void_of(t),
                ],
                span,
            ))));
            joins.push(when_many(expr_stmt(call(
                "pthread_join",
                vec![ident(&th, span), int(0, span)],
                span,
            ))));
        }
        setup.push(expr_stmt(call(&routine, vec![void_of(0)], span)));
        setup.push(set(ident(names::OMP_THREAD_NUM, span), int(0, span), span));
        setup.push(set(ident(names::OMP_TEAM_SIZE, span), int(1, span), span));
        setup.extend(joins);
        if self.has_tasks {
            // The end of the region is a barrier: every task of the team has finished.
            setup.extend(super::task::tasks_finished(1, span));
            setup.push(set(
                ident(&names::omp("level", 0), span),
                int(0, span),
                span,
            ));
        }
        if lanes {
            setup.extend(self.lane_stop(span));
        }
        out.extend(setup.into_iter().map(item));
        Ok(block(out, span))
    }
}

/// `void *name(void *arg) { body }`.
pub(super) fn routine_def(
    name: &str,
    arg: &str,
    body: Node<Statement>,
) -> Node<ExternalDeclaration> {
    let span = Span::none();
    let mut f = function_def(name, TypeSpecifier::Void, body);
    if let ExternalDeclaration::FunctionDefinition(def) = &mut f.node {
        let decl = &mut def.node.declarator.node;
        decl.derived
            .insert(0, node(DerivedDeclarator::Pointer(vec![]), span));
        for dd in &mut decl.derived {
            if let DerivedDeclarator::Function(fd) = &mut dd.node {
                fd.node.parameters = vec![node(
                    ParameterDeclaration {
                        specifiers: vec![spec(TypeSpecifier::Void, span)],
                        declarator: Some(node(
                            Declarator {
                                kind: node(DeclaratorKind::Identifier(id(arg, span)), span),
                                derived: vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                                extensions: vec![],
                            },
                            span,
                        )),
                        extensions: vec![],
                    },
                    span,
                )];
            }
        }
    }
    f
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_variable_length_matrix_keeps_its_row_length() {
        // `double b[n][m]`: the region's `double (*b)[d1]` needs `d1 = m`, read as
        // `sizeof b[0] / sizeof b[0][0]` (`sizeof b / sizeof b[0]` is `n`).
        let src = "int main(void) {\n  int n = 2, m = 3, i;\n  double b[n][m];\n  double c[n][m][n];\n\
                   #pragma omp parallel for\n  for (i = 0; i < n; i++) { b[i][0] = 1; c[i][0][0] = 1; }\n  return 0;\n}\n";
        let lowered = crate::frontend::parse_part(src, "t.c", 2).expect("parses");
        let text = crate::print::print_unit(&lowered.unit).text;
        for (dim, ratio) in [
            ("b_dim1", "sizeof(b[0]) / sizeof(b[0][0])"),
            ("c_dim1", "sizeof(c[0]) / sizeof(c[0][0])"),
            ("c_dim2", "sizeof(c[0][0]) / sizeof(c[0][0][0])"),
        ] {
            assert!(
                text.contains(&format!("{dim} = {ratio};")),
                "{dim}:\n{text}"
            );
        }
    }
}
