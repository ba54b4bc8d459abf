//! The walk that lowers OpenMP constructs, one function at a time, with the variables in
//! scope at each statement; and the constructs that stay in the encountering function
//! (worksharing, synchronisation). `parallel` is in [`super::outline`].
//!
//! Shared state of the team lives in internal file-scope objects (never data): the claim
//! counter of each worksharing construct, the flags of `single`, the mutexes of `critical`,
//! the two barriers. One team runs at a time (nested `parallel` is refused), so one set of
//! them serves every team.

use super::directive::Directive;
use super::vars::{declared, parameters, Form, Var};
use crate::syntax::build::*;
use crate::syntax::names;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};

pub type Failure = (Span, String);
pub type R<T> = Result<T, Failure>;

/// The lowering of one translation unit.
pub struct Lowering {
    /// Directives governing the statement that starts at the key.
    pub governing: HashMap<usize, Vec<Directive>>,
    /// Stand-alone directives (`barrier`, `flush`) before the statement at the key.
    pub before: HashMap<usize, Vec<Directive>>,
    /// Stand-alone directives at the end of the block that starts at the key.
    pub at_end: HashMap<usize, Vec<Directive>>,
    pub globals: HashMap<String, Var>,
    /// The team size of a `parallel` without `num_threads`.
    pub team: usize,
    pub counter: usize,
    /// File-scope declarations and functions to put before the function being lowered.
    pub new_items: Vec<Node<ExternalDeclaration>>,
    pub scopes: Vec<HashMap<String, Var>>,
    /// Names whose address the function being lowered takes (captured by reference).
    pub addressed: HashSet<String>,
    pub parallel_depth: usize,
    pub loop_depth: usize,
    /// Statement starts that begin a `section`.
    pub section_starts: HashSet<usize>,
    /// The mutexes of `critical` names already declared.
    pub declared_locks: HashSet<String>,
    /// File-scope variables named by `threadprivate`.
    pub threadprivate: HashSet<String>,
    /// The numbers of the `for ordered` loops around the statement being lowered.
    pub ordered_loops: Vec<usize>,
    /// The doacross nests (`for ordered(n)`), by their loop's number.
    pub doacross: HashMap<usize, super::doacross::Nest>,
    /// The stand-alone doacross `ordered` directives: offset, the block they are in.
    pub doacross_dirs: Vec<(usize, usize, Directive)>,
    /// The `epoch` of the doacross loop whose worksharing loop is being built: its claims
    /// do not skip and its re-arm increments it.
    pub claims_epoch: Option<String>,
    /// The `for ordered` loops whose turn counter is declared.
    pub declared_turns: HashSet<usize>,
    /// The block constructs lowered so far.
    pub constructs: Vec<super::Construct>,
    /// The `target` directives outside `main`: the function, the directive
    /// ([`super::target::serial_only`]).
    pub serial_targets: Vec<(String, Span)>,
    /// Whether the statement being lowered is inside a `teams` region ([`super::teams`]).
    pub in_teams: bool,
    /// The functions with OpenMP directives or runtime calls, and their callers.
    pub omp_functions: HashSet<String>,
    /// Whether a constant `omp_set_num_threads` sizes the teams without `num_threads`.
    pub team_set_by_program: bool,
    /// Whether nothing in the unit tells a team's threads apart ([`super::static_skip`]).
    pub identity_free: bool,
    /// For each enclosing `parallel` region: its `parallel` directives (the team's size and
    /// data-sharing, [`super::static_skip`]).
    pub regions: Vec<Vec<Directive>>,
    /// Whether the unit has task constructs (barriers and region ends then wait for tasks).
    pub has_tasks: bool,
    /// Whether the unit creates POSIX or C11 threads of its own ([`super::target`]).
    pub posix_threads: bool,
    /// For each enclosing `parallel` region: the number of scopes and of [`Self::privatised`]
    /// entries outside it.
    pub region_marks: Vec<(usize, usize)>,
    /// The variables each enclosing construct makes private (its clauses, its loop variable).
    pub privatised: Vec<Vec<String>>,
    /// The name of the function being lowered.
    pub function_name: String,
    /// The start routines of tasks, with their directive's place.
    pub task_routines: Vec<(String, Span)>,
    /// The lane's arms of the `simd` loops lowered since the last lane was created
    /// ([`super::lanes`]).
    pub lane_arms: Vec<Node<Statement>>,
    /// The lane's part of the `for simd` being lowered (taken by the worksharing loop).
    pub lane_frame: Option<super::lanes::LaneFrame>,
    /// Whether the lane's state objects are declared.
    pub declared_lane_state: bool,
    /// How `simd` loops inside a region are lowered.
    pub mode: super::Mode,
    /// The bodies of the `simd` loops left plain ([`super::Mode::FoldSimd`]).
    pub folded_simd: Vec<(usize, usize)>,
}

pub fn fail<T>(d: &Directive, what: impl Into<String>) -> R<T> {
    Err((
        Span::span(d.at, d.end.saturating_sub(1).max(d.at + 1)),
        what.into(),
    ))
}

pub fn dspan(d: &Directive) -> Span {
    Span::span(d.at, d.end.saturating_sub(1).max(d.at + 1))
}

pub fn call_stmt(name: &str, args: Vec<Node<Expression>>, span: Span) -> Node<Statement> {
    expr_stmt(call(name, args, span))
}

pub fn atomic_section(mut body: Vec<Node<Statement>>, span: Span) -> Vec<Node<Statement>> {
    body.insert(0, call_stmt("__VERIFIER_atomic_begin", vec![], span));
    body.push(call_stmt("__VERIFIER_atomic_end", vec![], span));
    body
}

fn set(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Statement> {
    expr_stmt(assign(lhs, rhs, span))
}

fn plus(a: Node<Expression>, b: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::Plus, a, b, span)
}

impl Lowering {
    pub fn fresh(&mut self) -> usize {
        self.counter += 1;
        self.counter
    }

    /// A file-scope internal object `static T name[n];` (zero-initialised).
    pub fn global(&mut self, specs: &[TypeSpecifier], name: &str, array: Option<u64>) {
        let d = simple_decl(specs, name, array, true, None, Span::none());
        self.new_items
            .push(node(ExternalDeclaration::Declaration(d), Span::none()));
    }

    pub fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name))
            .or_else(|| self.globals.get(name))
    }

    /// Lowers the directives in one function definition.
    pub fn function(&mut self, f: &mut Node<FunctionDefinition>) -> R<()> {
        self.scopes = vec![parameters(&f.node.declarator.node).into_iter().collect()];
        self.function_name = function_name(&f.node).unwrap_or("").to_string();
        self.addressed = super::vars::addressed(&f.node.statement);
        self.stmt(&mut f.node.statement)
    }

    pub fn stmt(&mut self, s: &mut Node<Statement>) -> R<()> {
        let start = s.span.start;
        let governing = self.governing.remove(&start).unwrap_or_default();
        let before = self.before.remove(&start).unwrap_or_default();
        self.constructs
            .extend(governing.iter().map(|d| super::Construct {
                name: d.name(),
                at: d.at,
                body: (s.span.start, s.span.end),
                claims_in_order: false,
                code_after: false,
                trip: None,
                team: None,
                league: false,
            }));
        let (governing, teams) = self.league(governing, s)?;
        let parallels = governing
            .iter()
            .filter(|d| d.words.first().is_some_and(|w| w == "parallel"))
            .count();
        if parallels > 0 && self.parallel_depth > 0 {
            return fail(
                &governing[0],
                "nested OpenMP `parallel` region (ladr runs one team at a time)",
            );
        }
        if governing
            .iter()
            .any(|d| d.words.last().is_some_and(|w| w == "sections"))
        {
            self.mark_sections(s);
        }
        for d in governing.iter().filter(|d| d.is(&["target"])) {
            self.check_target(d, &governing, s)?;
        }
        let ordered = governing.iter().find(|d| d.clause("ordered").is_some());
        if let Some(d) = ordered {
            let n = self.fresh();
            self.doacross_nest(d, s, n)?;
            self.ordered_loops.push(n);
        }
        let ordered = ordered.is_some();
        self.parallel_depth += parallels;
        // Loops around a `parallel` do not count for the constructs inside it: each
        // encounter of the region is a new team, which all leave before the next one.
        let outer_loops = self.loop_depth;
        if parallels > 0 {
            self.loop_depth = 0;
            self.region_marks
                .push((self.scopes.len(), self.privatised.len()));
            self.regions.push(
                governing
                    .iter()
                    .filter(|d| d.words.first().is_some_and(|w| w == "parallel"))
                    .cloned()
                    .collect(),
            );
        }
        let made_private = governing.len();
        for d in &governing {
            self.privatised.push(privatised_by(d, s));
        }
        let outer_teams = self.in_teams;
        self.in_teams |= teams;
        let walked = self.children(s);
        self.in_teams = outer_teams;
        self.privatised
            .truncate(self.privatised.len() - made_private);
        if parallels > 0 {
            self.region_marks.pop();
            self.regions.pop();
        }
        self.parallel_depth -= parallels;
        let applied = walked.and_then(|()| {
            for d in governing.iter().rev() {
                let body = std::mem::replace(s, empty_stmt(s.span));
                *s = self.apply(d, body)?;
            }
            Ok(())
        });
        self.loop_depth = outer_loops;
        if ordered {
            self.ordered_loops.pop();
        }
        applied?;
        if !before.is_empty() {
            let mut items = vec![];
            for d in &before {
                items.extend(self.standalone(d)?);
            }
            let span = s.span;
            items.push(std::mem::replace(s, empty_stmt(span)));
            *s = block_of(items, span);
        }
        Ok(())
    }

    fn children(&mut self, s: &mut Node<Statement>) -> R<()> {
        let start = s.span.start;
        match &mut s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                for it in items.iter_mut() {
                    match &mut it.node {
                        BlockItem::Declaration(d) => {
                            if let Some(g) = self.governing.get(&d.span.start) {
                                let g = g[0].clone();
                                return fail(&g, "an OpenMP directive before a declaration");
                            }
                            let vars = declared(&d.node);
                            self.scopes.last_mut().unwrap().extend(vars);
                        }
                        BlockItem::Statement(st) => self.stmt(st)?,
                        BlockItem::StaticAssert(_) => {}
                    }
                }
                for d in self.at_end.remove(&start).unwrap_or_default() {
                    let stmts = self.standalone(&d)?;
                    items.extend(stmts.into_iter().map(item));
                }
                self.scopes.pop();
            }
            Statement::For(f) => {
                self.scopes.push(HashMap::new());
                if let ForInitializer::Declaration(d) = &f.node.initializer.node {
                    let vars = declared(&d.node);
                    self.scopes.last_mut().unwrap().extend(vars);
                }
                self.loop_depth += 1;
                let r = self.stmt(&mut f.node.statement);
                self.loop_depth -= 1;
                self.scopes.pop();
                r?;
            }
            Statement::While(w) => {
                self.loop_depth += 1;
                let r = self.stmt(&mut w.node.statement);
                self.loop_depth -= 1;
                r?;
            }
            Statement::DoWhile(w) => {
                self.loop_depth += 1;
                let r = self.stmt(&mut w.node.statement);
                self.loop_depth -= 1;
                r?;
            }
            Statement::If(i) => {
                self.stmt(&mut i.node.then_statement)?;
                if let Some(e) = &mut i.node.else_statement {
                    self.stmt(e)?;
                }
            }
            Statement::Switch(w) => self.stmt(&mut w.node.statement)?,
            Statement::Labeled(l) => self.stmt(&mut l.node.statement)?,
            _ => {}
        }
        Ok(())
    }

    /// Takes the `section` directives of a `sections` body's statements out of the
    /// governing map (the `sections` lowering splits the body at them).
    fn mark_sections(&mut self, s: &Node<Statement>) {
        if let Statement::Compound(items) = &s.node {
            for it in items {
                if let Some(g) = self.governing.get_mut(&it.span.start) {
                    if g.first().is_some_and(|d| d.is(&["section"])) {
                        g.remove(0);
                        self.section_starts.insert(it.span.start);
                    }
                }
            }
        }
    }

    /// One governing directive applied to its (already lowered) statement.
    fn apply(&mut self, d: &Directive, body: Node<Statement>) -> R<Node<Statement>> {
        let words: Vec<&str> = d.words.iter().map(|w| w.as_str()).collect();
        if d.is_extended_loop() {
            return self.loop_construct(d, body);
        }
        match words.as_slice() {
            ["ordered"] => self.ordered_region(d, body),
            ["single"] if d.clause("copyprivate").is_some() => self.copyprivate(d, body),
            ["parallel"] => self.parallel(d, body),
            ["parallel", "for"] => {
                let inner = self.worksharing_for(d, body, true)?;
                self.parallel(d, inner)
            }
            ["for"] => self.worksharing_for(d, body, false),
            ["parallel", "sections"] => {
                let inner = self.sections(d, body, true)?;
                self.parallel(d, inner)
            }
            ["sections"] => self.sections(d, body, false),
            ["critical"] => Ok(self.critical(d, body)),
            ["atomic"]
            | ["atomic", "update"]
            | ["atomic", "read"]
            | ["atomic", "write"]
            | ["atomic", "capture"] => {
                self.no_clauses(
                    d,
                    &[
                        "seq_cst", "relaxed", "acquire", "release", "acq_rel", "update", "read",
                        "write", "capture", "hint",
                    ],
                )?;
                let span = body.span;
                Ok(block_of(atomic_section(vec![body], dspan(d)), span))
            }
            ["master"] => Ok(self.masked(d, body, int(0, dspan(d)))),
            ["masked"] => {
                let filter = match d.clause("filter").and_then(|c| c.args.as_deref()) {
                    None => int(0, dspan(d)),
                    Some(a) => match a.trim().parse::<u64>() {
                        Ok(n) => int(n, dspan(d)),
                        Err(_) => return fail(d, "`masked filter(...)` that is not a number"),
                    },
                };
                Ok(self.masked(d, body, filter))
            }
            ["single"] => self.single(d, body),
            // Checked before its body was lowered (`check_target`): the host fallback.
            ["target"] => Ok(body),
            ["task"] => self.task(d, body),
            ["taskgroup"] => self.taskgroup(d, body),
            ["taskloop"] => self.taskloop(d, body),
            ["section"] => fail(d, "`section` outside a `sections` construct"),
            _ => fail(d, format!("OpenMP `{}` is not modelled", d.name())),
        }
    }

    /// Refuses a clause not in `known`.
    pub fn no_clauses(&self, d: &Directive, known: &[&str]) -> R<()> {
        for c in &d.clauses {
            if !known.contains(&c.name.as_str()) && !d.words.contains(&c.name) {
                return fail(
                    d,
                    format!(
                        "the clause `{}` of OpenMP `{}` is not modelled",
                        c.name,
                        d.name()
                    ),
                );
            }
        }
        Ok(())
    }

    /// A stand-alone directive as statements.
    fn standalone(&mut self, d: &Directive) -> R<Vec<Node<Statement>>> {
        if self.in_teams {
            return fail(d, format!("OpenMP `{}` inside a `teams` region", d.name()));
        }
        if d.is(&["barrier"]) {
            return Ok(self.barrier(dspan(d)));
        }
        if d.is(&["taskwait"]) {
            return self.taskwait(d);
        }
        if d.is(&["taskyield"]) {
            // A task scheduling point: any task may run here, as anywhere in the model.
            return Ok(vec![]);
        }
        if super::doacross::is_doacross(d) {
            return self.doacross_wait(d);
        }
        if d.is(&["flush"]) {
            // Sequential consistency: every access is already visible to every thread.
            return Ok(vec![]);
        }
        fail(d, format!("OpenMP `{}` is not modelled", d.name()))
    }

    /// The team barrier (nothing for a team of one):
    ///
    /// ```text
    /// atomic { __ladr_omp_arrived = __ladr_omp_arrived + 1;
    ///          last = __ladr_omp_arrived == team; if (last) __ladr_omp_arrived = 0; }
    /// if (last) pthread_barrier_init(&barrier[1 - phase], 0, team);
    /// pthread_barrier_wait(&barrier[phase]); phase = 1 - phase;
    /// ```
    ///
    /// The model's barriers serve once, so two alternate: the last thread to arrive at one
    /// re-arms the other, which every thread has left (they all arrived here after it).
    pub fn barrier(&mut self, span: Span) -> Vec<Node<Statement>> {
        let arrived = ident(&names::omp("arrived", 0), span);
        let phase = || ident(&names::omp("phase", 0), span);
        let team = || ident(names::OMP_TEAM_SIZE, span);
        let last = names::omp("last", self.fresh());
        let bar = |i: Node<Expression>| addr(index(ident(names::OMP_BARRIER, span), i, span), span);
        let other = binop(BinaryOperator::Minus, int(1, span), phase(), span);
        let mut inner = vec![
            set(
                arrived.clone(),
                plus(arrived.clone(), int(1, span), span),
                span,
            ),
            set(ident(&last, span), eq(arrived.clone(), team(), span), span),
            if_stmt(
                ident(&last, span),
                set(arrived, int(0, span), span),
                None,
                span,
            ),
        ];
        inner = atomic_section(inner, span);
        let decl = simple_decl(&[TypeSpecifier::Int], &last, None, false, None, span);
        let mut items = vec![decl_item(decl)];
        items.extend(inner.into_iter().map(item));
        items.push(item(if_stmt(
            ident(&last, span),
            call_stmt(
                "pthread_barrier_init",
                vec![bar(other.clone()), int(0, span), team()],
                span,
            ),
            None,
            span,
        )));
        items.push(item(call_stmt(
            "pthread_barrier_wait",
            vec![bar(phase())],
            span,
        )));
        items.push(item(set(phase(), other, span)));
        let gt = binop(BinaryOperator::Greater, team(), int(1, span), span);
        let mut out = vec![if_stmt(gt, block(items, span), None, span)];
        if self.has_tasks {
            // Every task of the team has finished before any thread leaves the barrier.
            out.extend(super::task::tasks_finished(1, span));
        }
        out
    }

    /// `critical [(name)]`: a mutex per name around the block.
    fn critical(&mut self, d: &Directive, body: Node<Statement>) -> Node<Statement> {
        let span = dspan(d);
        let name = d
            .clause("critical")
            .and_then(|c| c.args.clone())
            .unwrap_or_default();
        let lock = names::omp("critical_", 0) + &name;
        if !self.declared_locks.contains(&lock) {
            self.declared_locks.insert(lock.clone());
            self.global(&[TypeSpecifier::Int], &lock, Some(16));
        }
        let bspan = body.span;
        block_of(
            vec![
                call_stmt("pthread_mutex_lock", vec![ident(&lock, span)], span),
                body,
                call_stmt("pthread_mutex_unlock", vec![ident(&lock, span)], span),
            ],
            bspan,
        )
    }

    /// `master` / `masked`: the block runs on the thread numbered `filter` only.
    fn masked(
        &mut self,
        d: &Directive,
        body: Node<Statement>,
        filter: Node<Expression>,
    ) -> Node<Statement> {
        let span = dspan(d);
        if_stmt(
            eq(ident(names::OMP_THREAD_NUM, span), filter, span),
            body,
            None,
            span,
        )
    }

    /// `single`: the first thread to arrive runs the block; the barrier after it unless
    /// `nowait`. Every thread takes a ticket; the last resets the count for the next time.
    pub fn single(&mut self, d: &Directive, body: Node<Statement>) -> R<Node<Statement>> {
        self.no_clauses(d, &["nowait", "private", "firstprivate"])?;
        let nowait = d.clause("nowait").is_some();
        if nowait && self.loop_depth > 0 {
            return fail(d, "`single nowait` inside a loop");
        }
        let span = dspan(d);
        let n = self.fresh();
        let tickets = names::omp("tickets", n);
        let mine = names::omp("ticket", n);
        self.global(&[TypeSpecifier::Int], &tickets, None);
        let t = || ident(&tickets, span);
        let take = atomic_section(
            vec![
                set(ident(&mine, span), t(), span),
                set(t(), plus(t(), int(1, span), span), span),
                if_stmt(
                    eq(t(), ident(names::OMP_TEAM_SIZE, span), span),
                    set(t(), int(0, span), span),
                    None,
                    span,
                ),
            ],
            span,
        );
        let body = self.privatise(d, body, span)?;
        let mut items = vec![decl_item(simple_decl(
            &[TypeSpecifier::Int],
            &mine,
            None,
            false,
            None,
            span,
        ))];
        items.extend(take.into_iter().map(item));
        items.push(item(if_stmt(
            eq(ident(&mine, span), int(0, span), span),
            body,
            None,
            span,
        )));
        if !nowait {
            items.extend(self.barrier(span).into_iter().map(item));
        }
        Ok(block(items, span))
    }

    /// `private` and `firstprivate` of a worksharing construct: `{ T x; body }`,
    /// `{ T t = x; { T x = t; body } }`.
    pub fn privatise(
        &mut self,
        d: &Directive,
        body: Node<Statement>,
        span: Span,
    ) -> R<Node<Statement>> {
        let mut outer = vec![];
        let mut inner = vec![];
        for c in d
            .clauses
            .iter()
            .filter(|c| c.name == "private" || c.name == "firstprivate")
        {
            for v in c.vars() {
                let Some(var) = self.lookup(&v).cloned() else {
                    return fail(
                        d,
                        format!("`{v}` in `{}` is not a variable ladr knows", c.name),
                    );
                };
                if var.is_vla() {
                    return fail(
                        d,
                        format!("a private copy of the variable-length array `{v}`"),
                    );
                }
                if c.name == "private" {
                    inner.push(decl_item(var.declare(&v, Form::Same, None, false, span)));
                } else {
                    if var.is_array() {
                        return fail(d, format!("`firstprivate` array `{v}`"));
                    }
                    let t = names::omp("first", self.fresh());
                    outer.push(decl_item(var.declare(
                        &t,
                        Form::Same,
                        Some(ident(&v, span)),
                        false,
                        span,
                    )));
                    inner.push(decl_item(var.declare(
                        &v,
                        Form::Same,
                        Some(ident(&t, span)),
                        false,
                        span,
                    )));
                }
            }
        }
        if outer.is_empty() && inner.is_empty() {
            return Ok(body);
        }
        let bspan = body.span;
        inner.push(item(body));
        outer.push(item(block(inner, bspan)));
        Ok(block(outer, bspan))
    }
}

/// The variables directive `d` makes private in its statement `s`: its clauses'
/// ([`clause_privates`]) and the loop variable of a loop construct.
fn privatised_by(d: &Directive, s: &Node<Statement>) -> Vec<String> {
    let mut names = clause_privates(d);
    names.extend(divided_loop_variable(d, s));
    names
}

/// The variable of the loop `s` that directive `d` divides among threads or lanes (`for`,
/// `simd`, `taskloop`, `distribute`): `i` of `for (i = 0; …)`.
pub(super) fn divided_loop_variable(d: &Directive, s: &Node<Statement>) -> Option<String> {
    let loops = d
        .words
        .iter()
        .any(|w| ["for", "simd", "taskloop", "distribute"].contains(&w.as_str()));
    let (true, Statement::For(f)) = (loops, &s.node) else {
        return None;
    };
    let ForInitializer::Expression(e) = &f.node.initializer.node else {
        return None;
    };
    let Expression::BinaryOperator(b) = &e.node else {
        return None;
    };
    ident_name(&b.node.lhs).map(str::to_string)
}

/// The variables of directive `d`'s `private`, `firstprivate`, `lastprivate`, `reduction`
/// and `linear` lists.
pub(super) fn clause_privates(d: &Directive) -> Vec<String> {
    [
        "private",
        "firstprivate",
        "lastprivate",
        "reduction",
        "linear",
    ]
    .iter()
    .flat_map(|c| d.vars_of(c))
    .map(|v| v.split(':').next().unwrap_or("").trim().to_string())
    .collect()
}
