//! Worksharing loops and `sections`: the team's threads take iterations from a shared
//! counter in an atomic section; a loop's claim may skip ahead to any later iteration.
//!
//! ```text
//! #pragma omp for               {  T i; long k;
//! for (i = lb; i < ub; i += s)     while (1) {
//!   body                             atomic { k = nondet; c = lb + k * s;  (c: i's type)
//!                                      if (!(claims <= k && k - claims <= CAP && c == lb + k * s))
//!                                        k = claims;
//!                                      claims = k + 1; }
//!                                    i = lb + k * s;
//!                                    if (!(i < ub && i == lb + k * s)) { atomic { done = done + 1;
//!                                        if (done == team) { claims = 0; done = 0; } } break; }
//!                                    body
//!                                  }
//!                                  barrier (unless nowait) }
//! ```
//!
//! Any assignment of iterations to threads, in any order per thread, is an interleaving of
//! the claims without skips (a thread may stop between claims while the others take the
//! next ones), so every `schedule` is covered. Each thread makes exactly one failing claim;
//! the last of them re-arms the counter for the next encounter (after which the barrier
//! holds everyone).
//!
//! The skip (`k` any iteration number from the counter on, its value exact in `i`'s type:
//! no wrap-around) lets a thread's first considered iterations lie anywhere in the range,
//! and lets a thread leave the loop after a few of them: a race between iterations 9 and
//! 990, or between iteration 9 and the code after a `nowait` loop, is reached within an
//! unwinding of 2 instead of needing the hundreds of claims before them. The skipped
//! iterations are those the skipping thread ran before its next considered one, their
//! accesses not considered and their stores not made (docs/openmp.md argues why a race
//! found this way is the program's and why no execution is lost). A skip marks the loop
//! (`skipped`): the iterations passed over are pending, run later by a thread still in the
//! loop (any order is some schedule's), so the last thread out assumes there was none — an
//! execution that leaves them unrun is no execution of the program. After a skip past the
//! end the counter may pass `i`'s range: a claim whose value wraps around is past the end
//! too (`i == lb + k * s` in the exit test). `!=` loops do not
//! skip: an iteration number past the end may satisfy `i != ub` again; nor do loops with a
//! monotonic schedule (`static`, `monotonic:`), whose threads run their iterations in
//! increasing order and so could not run the passed-over ones later — except `static` and
//! `static, 1` in a team whose size OpenMP chooses ([`super::static_skip`]).
use super::directive::Directive;
use super::lower::{atomic_section, dspan, fail, Lowering, R};
use super::vars::Form;
use crate::syntax::build::*;
use crate::syntax::names;
use crate::syntax::walk::visit_mut::{self, VisitorMut};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// The canonical loop: `var = lb; var OP bound; var += step`.
pub(super) struct Canonical {
    pub(super) var: String,
    pub(super) declared: Option<Node<Declaration>>,
    pub(super) lb: Node<Expression>,
    pub(super) cond: Node<Expression>,
    pub(super) step: Node<Expression>,
    pub(super) body: Node<Statement>,
}

pub(super) fn canonical(s: Node<Statement>) -> Result<Canonical, &'static str> {
    let Statement::For(f) = s.node else {
        return Err("a `for` directive not followed by a `for` loop");
    };
    let f = f.node;
    let (var, lb, declared) = match f.initializer.node {
        ForInitializer::Expression(e) => match e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                let b = b.node;
                let v = ident_name(&b.lhs).ok_or("a loop that does not start `i = ...`")?;
                (v.to_string(), *b.rhs, None)
            }
            _ => return Err("a loop that does not start `i = ...`"),
        },
        ForInitializer::Declaration(d) => {
            let [one] = d.node.declarators.as_slice() else {
                return Err("a loop that declares several variables");
            };
            let name = declarator_name(&one.node.declarator.node)
                .ok_or("a loop without a variable")?
                .to_string();
            let Some(Node {
                node: Initializer::Expression(e),
                ..
            }) = &one.node.initializer
            else {
                return Err("a loop variable without an initial value");
            };
            let lb = (**e).clone();
            let mut d = d;
            d.node.declarators[0].node.initializer = None;
            (name, lb, Some(d))
        }
        _ => return Err("a loop without an initialisation"),
    };
    let cond = *f.condition.ok_or("a loop without a condition")?;
    match &cond.node {
        Expression::BinaryOperator(b)
            if matches!(
                b.node.operator.node,
                BinaryOperator::Less
                    | BinaryOperator::LessOrEqual
                    | BinaryOperator::Greater
                    | BinaryOperator::GreaterOrEqual
                    | BinaryOperator::NotEquals
            ) && (ident_name(&b.node.lhs) == Some(&var)
                || ident_name(&b.node.rhs) == Some(&var)) => {}
        _ => return Err("a loop condition that does not compare the loop variable"),
    }
    let step = *f.step.ok_or("a loop without an increment")?;
    let span = step.span;
    let is_var = |e: &Node<Expression>| ident_name(e) == Some(var.as_str());
    let step = match step.node {
        Expression::UnaryOperator(u) if is_var(&u.node.operand) => match u.node.operator.node {
            UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => int(1, span),
            UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => {
                unop(UnaryOperator::Minus, int(1, span), span)
            }
            _ => return Err("a loop increment that is not `i++`, `i--`, `i += s`"),
        },
        Expression::BinaryOperator(b) if is_var(&b.node.lhs) => {
            let b = b.node;
            match b.operator.node {
                BinaryOperator::AssignPlus => *b.rhs,
                BinaryOperator::AssignMinus => unop(UnaryOperator::Minus, *b.rhs, span),
                BinaryOperator::Assign => match b.rhs.node {
                    Expression::BinaryOperator(r) => {
                        let r = r.node;
                        match r.operator.node {
                            BinaryOperator::Plus if is_var(&r.lhs) => *r.rhs,
                            BinaryOperator::Plus if is_var(&r.rhs) => *r.lhs,
                            BinaryOperator::Minus if is_var(&r.lhs) => {
                                unop(UnaryOperator::Minus, *r.rhs, span)
                            }
                            _ => return Err("a loop increment that is not `i = i + s`"),
                        }
                    }
                    _ => return Err("a loop increment that is not `i = i + s`"),
                },
                _ => return Err("a loop increment that is not `i++`, `i--`, `i += s`"),
            }
        }
        _ => return Err("a loop increment that is not `i++`, `i--`, `i += s`"),
    };
    Ok(Canonical {
        var,
        declared,
        lb,
        cond,
        step,
        body: *f.statement,
    })
}

/// The iteration count of loop `l` where its bounds and step are constants (0 for an
/// empty range); `None` otherwise, or for a `!=` test.
pub(super) fn constant_trip(l: &Canonical) -> Option<u64> {
    use crate::syntax::constant::{value, Env};
    let Expression::BinaryOperator(b) = &l.cond.node else {
        return None;
    };
    let op = b.node.operator.node.clone();
    let on_left = ident_name(&b.node.lhs) == Some(l.var.as_str());
    let bound = if on_left { &b.node.rhs } else { &b.node.lhs };
    let env = Env::none();
    let (lb, ub, s) = (
        value(&l.lb.node, &env)?,
        value(&bound.node, &env)?,
        value(&l.step.node, &env)?,
    );
    // `i < ub` or, written the other way round, `ub > i`.
    let op = match (op, on_left) {
        (o, true) => o,
        (BinaryOperator::Greater, false) => BinaryOperator::Less,
        (BinaryOperator::GreaterOrEqual, false) => BinaryOperator::LessOrEqual,
        (BinaryOperator::Less, false) => BinaryOperator::Greater,
        (BinaryOperator::LessOrEqual, false) => BinaryOperator::GreaterOrEqual,
        _ => return None,
    };
    // The distance to cover and the step's size in the loop's direction.
    let (span, step) = match op {
        BinaryOperator::Less if s > 0 => (ub - lb, s),
        BinaryOperator::LessOrEqual if s > 0 => (ub - lb + 1, s),
        BinaryOperator::Greater if s < 0 => (lb - ub, -s),
        BinaryOperator::GreaterOrEqual if s < 0 => (lb - ub + 1, -s),
        _ => return None,
    };
    u64::try_from(((span + step - 1) / step).max(0)).ok()
}

/// Renames identifier `from` to `to` (the loop condition tested for the next iteration).
pub(super) struct Rename<'a>(pub(super) &'a str, pub(super) &'a str);
impl VisitorMut for Rename<'_> {
    type Error = std::convert::Infallible;
    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, Self::Error> {
        if let Expression::Identifier(i) = &mut e.node {
            if i.node.name == self.0 {
                i.node.name = self.1.to_string();
            }
        }
        Ok(Walk::Descend)
    }
}

fn set(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Statement> {
    expr_stmt(assign(lhs, rhs, span))
}

/// `long name = init;` as a block item.
pub(super) fn long_decl(name: &str, init: Option<Node<Expression>>, span: Span) -> Node<BlockItem> {
    decl_item(simple_decl(
        &[TypeSpecifier::Long],
        name,
        None,
        false,
        init,
        span,
    ))
}

/// The claims of OpenMP's round robin (`static_skip::round_robin`): no shared counter,
/// thread `t` of `T` takes chunk `k = t + turn * T` of its `turn`-th claim (`turn` counts
/// from 0 at each encounter); nothing to re-arm, nothing counted at the failing claim.
fn round_robin_claims(
    turn: &str,
    n: usize,
    span: Span,
) -> (String, Vec<Node<Statement>>, Vec<Node<Statement>>) {
    let k = names::omp("k", n);
    let next = binop(
        BinaryOperator::Plus,
        ident(names::OMP_THREAD_NUM, span),
        binop(
            BinaryOperator::Multiply,
            ident(turn, span),
            ident(names::OMP_TEAM_SIZE, span),
            span,
        ),
        span,
    );
    let take = vec![
        set(ident(&k, span), next, span),
        set(
            ident(turn, span),
            binop(BinaryOperator::Plus, ident(turn, span), int(1, span), span),
            span,
        ),
    ];
    (k, take, vec![])
}

/// The farthest a claim skips beyond the counter: `k * step` stays far from the range of
/// `long` (a loop has at most a few claims per thread within the unwinding).
const SKIP_CAP: u64 = 2147483647;

/// A worksharing loop's skipping claim: a variable of the loop variable's type for the
/// candidate iteration's value, and the value of iteration `k` (`lb + k * step`).
struct Skip {
    var: String,
    value: Box<dyn Fn(Node<Expression>) -> Node<Expression>>,
}

/// The skipping claim of loop `l` (none for a `!=` loop, see the module header), its
/// candidate value in `candidate`.
fn skip(l: &Canonical, candidate: &str, span: Span) -> Option<Skip> {
    let skips = !matches!(&l.cond.node, Expression::BinaryOperator(b)
        if b.node.operator.node == BinaryOperator::NotEquals);
    let (lb, step) = (l.lb.clone(), l.step.clone());
    skips.then(|| Skip {
        var: candidate.to_string(),
        value: Box::new(move |k| {
            let times = binop(BinaryOperator::Multiply, k, step.clone(), span);
            binop(BinaryOperator::Plus, lb.clone(), times, span)
        }),
    })
}

/// Whether loop directive `d`'s schedule is monotonic (`static`, a `monotonic:` modifier):
/// each thread runs its iterations in increasing order, so it could not run iterations a
/// skip passed over later, and the loop does not skip.
fn monotonic(d: &Directive) -> bool {
    let schedule = d
        .clause("schedule")
        .and_then(|c| c.args.as_deref())
        .unwrap_or("");
    schedule
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
        .any(|w| w == "static" || w == "monotonic")
}

impl Lowering {
    /// The skip of the claims of loop `l` of directive `d` (none: a monotonic schedule or
    /// a `!=` test), recorded in `d`'s construct (`Construct::claims_in_order`), with the
    /// loop's constant iteration count (`Construct::trip`).
    fn claim_skip(
        &mut self,
        d: &Directive,
        l: &Canonical,
        candidate: &str,
        span: Span,
    ) -> Option<Skip> {
        let in_order = (monotonic(d) && !self.static_may_skip(d, l)) || self.claims_epoch.is_some();
        let skip = (!in_order).then(|| skip(l, candidate, span)).flatten();
        let trip = constant_trip(l);
        for c in self.constructs.iter_mut().filter(|c| c.at == d.at) {
            c.claims_in_order = skip.is_none();
            c.trip = trip;
        }
        skip
    }

    /// The claim loop's parts: `k = claims; claims = k + 1;` (with `skip`, `k` any later
    /// iteration number of which `skip` makes the iteration value `i == value(k)`, see the
    /// module header) and the failing claim's count.
    fn claims(
        &mut self,
        span: Span,
        skip: Option<Skip>,
    ) -> (String, Vec<Node<Statement>>, Vec<Node<Statement>>) {
        let n = self.fresh();
        let claims = names::omp("claims", n);
        let done = names::omp("done", n);
        let skipped = names::omp("skipped", n);
        let k = names::omp("k", n);
        self.global(&[TypeSpecifier::Long], &claims, None);
        self.global(&[TypeSpecifier::Int], &done, None);
        self.global(&[TypeSpecifier::Int], &skipped, None);
        let sk = || ident(&skipped, span);
        let c = || ident(&claims, span);
        let dn = || ident(&done, span);
        let kk = || ident(&k, span);
        let mut taking = vec![];
        match skip {
            None => taking.push(set(kk(), c(), span)),
            Some(Skip { var, value }) => {
                taking.push(set(kk(), call(names::NONDET_LONG, vec![], span), span));
                taking.push(set(ident(&var, span), value(kk()), span));
                let from_counter = binop(BinaryOperator::LessOrEqual, c(), kk(), span);
                let near = binop(
                    BinaryOperator::LessOrEqual,
                    binop(BinaryOperator::Minus, kk(), c(), span),
                    int(SKIP_CAP, span),
                    span,
                );
                let exact = eq(ident(&var, span), value(kk()), span);
                let legal = and(and(from_counter, near, span), exact, span);
                taking.push(if_stmt(not(legal, span), set(kk(), c(), span), None, span));
                // Iterations passed over are pending: some thread still in the loop runs
                // them later (any order is a schedule), so the last one out has none.
                let passed = binop(BinaryOperator::NotEquals, kk(), c(), span);
                taking.push(if_stmt(passed, set(sk(), int(1, span), span), None, span));
            }
        }
        taking.push(set(
            c(),
            binop(BinaryOperator::Plus, kk(), int(1, span), span),
            span,
        ));
        let take = atomic_section(taking, span);
        let give_up = atomic_section(
            vec![
                set(
                    dn(),
                    binop(BinaryOperator::Plus, dn(), int(1, span), span),
                    span,
                ),
                if_stmt(
                    eq(dn(), ident(names::OMP_TEAM_SIZE, span), span),
                    block_of(
                        [
                            assume(not(sk(), span), span),
                            set(c(), int(0, span), span),
                            set(dn(), int(0, span), span),
                        ]
                        .into_iter()
                        .chain(self.claims_epoch.take().map(|e| {
                            let next =
                                binop(BinaryOperator::Plus, ident(&e, span), int(1, span), span);
                            set(ident(&e, span), next, span)
                        }))
                        .collect(),
                        span,
                    ),
                    None,
                    span,
                ),
            ],
            span,
        );
        (k, take, give_up)
    }

    /// `for` (and the loop of `parallel for`): see the module header.
    pub fn worksharing_for(
        &mut self,
        d: &Directive,
        body: Node<Statement>,
        combined: bool,
    ) -> R<Node<Statement>> {
        let mut known = vec![
            "private",
            "firstprivate",
            "lastprivate",
            "reduction",
            "schedule",
            "nowait",
        ];
        if combined {
            known.extend(["shared", "default", "num_threads", "if", "proc_bind"]);
        }
        self.no_clauses(d, &known)?;
        if let Some(c) = d.clause("lastprivate").and_then(|c| c.args.clone()) {
            if c.contains(':') {
                return fail(d, "`lastprivate` with a modifier");
            }
        }
        let nowait = d.clause("nowait").is_some();
        if nowait && self.loop_depth > 0 {
            return fail(d, "`for nowait` inside a loop");
        }
        let span = dspan(d);
        let bspan = body.span;
        let l = canonical(body).map_err(|m| (span, m.to_string()))?;
        let var = match &l.declared {
            Some(decl) => super::vars::declared(&decl.node).pop().map(|(_, v)| v),
            None => self.lookup(&l.var).cloned(),
        };
        let Some(var) = var else {
            return fail(d, format!("the loop variable `{}` is not declared", l.var));
        };
        let (l, chunk_size) = self.chunked(d, l, &var, span)?;
        let candidate = names::omp("candidate", self.fresh());
        let skip = self.claim_skip(d, &l, &candidate, span);
        let skips = skip.is_some();
        // OpenMP's round robin: the thread's count of its claims, no shared counter.
        let turn = self.round_robin(d).then(|| names::omp("rr", self.fresh()));
        let (k, take, give_up) = match &turn {
            Some(turn) => round_robin_claims(turn, self.fresh(), span),
            None => self.claims(span, skip),
        };
        let i = || ident(&l.var, span);
        let mut loop_items = take;
        let at = |k| binop(BinaryOperator::Multiply, k, l.step.clone(), span);
        let value = binop(
            BinaryOperator::Plus,
            l.lb.clone(),
            at(ident(&k, span)),
            span,
        );
        loop_items.push(set(i(), value.clone(), span));
        let mut stop = give_up;
        stop.push(node(Statement::Break, span));
        // After a skip past the end the counter may pass `i`'s range: a claim whose value
        // wraps around is past the end too (an iteration `lb + k * step` is never that).
        let within = if skips {
            and(l.cond.clone(), eq(i(), value, span), span)
        } else {
            l.cond.clone()
        };
        loop_items.push(if_stmt(not(within, span), block_of(stop, span), None, span));
        let lastprivate: Vec<String> = d
            .clause("lastprivate")
            .map(|c| c.vars())
            .unwrap_or_default();
        if lastprivate.is_empty() {
            loop_items.push(l.body);
        } else {
            // `do { body } while (0)`: a `continue` of the body still reaches the copy-out.
            loop_items.push(node(
                Statement::DoWhile(node(
                    DoWhileStatement {
                        statement: Box::new(l.body),
                        expression: Box::new(int(0, span)),
                    },
                    span,
                )),
                span,
            ));
            let next = names::omp("next", self.fresh());
            let mut cond = l.cond.clone();
            let Ok(()) = visit_mut::expr(&mut Rename(&l.var, &next), &mut cond);
            let mut out = vec![set(
                ident(&next, span),
                binop(
                    BinaryOperator::Plus,
                    l.lb.clone(),
                    at(binop(
                        BinaryOperator::Plus,
                        ident(&k, span),
                        int(1, span),
                        span,
                    )),
                    span,
                ),
                span,
            )];
            let mut copies = vec![];
            for v in &lastprivate {
                copies.push(set(
                    deref(ident(&format!("{}{v}", names::omp("out", 0)), span), span),
                    ident(v, span),
                    span,
                ));
            }
            out.push(if_stmt(not(cond, span), block_of(copies, span), None, span));
            loop_items.push(block(
                std::iter::once(decl_item(var.declare(&next, Form::Same, None, false, span)))
                    .chain(out.into_iter().map(item))
                    .collect(),
                span,
            ));
        }
        let mut items = vec![
            decl_item(var.declare(&l.var, Form::Same, None, false, span)),
            decl_item(var.declare(&candidate, Form::Same, None, false, span)),
            long_decl(&k, None, span),
        ];
        items.extend(chunk_size);
        items.extend(turn.map(|t| long_decl(&t, Some(int(0, span)), span)));
        let forever = node(
            Statement::While(node(
                WhileStatement {
                    expression: Box::new(int(1, span)),
                    statement: Box::new(block_of(loop_items, bspan)),
                },
                span,
            )),
            span,
        );
        self.add_lane_frame(&mut items, forever);
        let mut work = block(items, bspan);
        work = self.reduction(d, work, span)?;
        work = self.lastprivate(d, work, &lastprivate, span)?;
        if !combined {
            work = self.privatise(d, work, span)?;
        }
        let mut all = vec![work];
        if !nowait && !combined {
            all.extend(self.barrier(span));
        }
        Ok(block_of(all, bspan))
    }

    /// `lastprivate(x)`: `{ T *out_x = &x; { T x; body } }` (the copy-out writes `*out_x`).
    fn lastprivate(
        &mut self,
        d: &Directive,
        body: Node<Statement>,
        vars: &[String],
        span: Span,
    ) -> R<Node<Statement>> {
        if vars.is_empty() {
            return Ok(body);
        }
        let mut outer = vec![];
        let mut inner = vec![];
        for v in vars {
            let Some(var) = self.lookup(v).cloned() else {
                return fail(
                    d,
                    format!("`{v}` in `lastprivate` is not a variable ladr knows"),
                );
            };
            if var.is_array() {
                return fail(d, format!("`lastprivate` array `{v}`"));
            }
            let out = format!("{}{v}", names::omp("out", 0));
            outer.push(decl_item(var.declare(
                &out,
                Form::Pointer,
                Some(addr(ident(v, span), span)),
                false,
                span,
            )));
            inner.push(decl_item(var.declare(v, Form::Same, None, false, span)));
        }
        let bspan = body.span;
        inner.push(item(body));
        outer.push(item(block(inner, bspan)));
        Ok(block(outer, bspan))
    }

    /// `reduction(op: x)`: `{ T *red_x = &x; { T x = identity; body; atomic { *red_x = *red_x op x; } } }`.
    pub fn reduction(
        &mut self,
        d: &Directive,
        body: Node<Statement>,
        span: Span,
    ) -> R<Node<Statement>> {
        let mut outer = vec![];
        let mut inner = vec![];
        let mut combine = vec![];
        for c in d.clauses.iter().filter(|c| c.name == "reduction") {
            let op = c.reduction_op().unwrap_or_default();
            for v in c.vars() {
                let Some(var) = self.lookup(&v).cloned() else {
                    return fail(
                        d,
                        format!("`{v}` in `reduction` is not a variable ladr knows"),
                    );
                };
                if var.is_array() {
                    return fail(d, format!("`reduction` of the array `{v}`"));
                }
                let red = format!("{}{v}", names::omp("red", self.fresh()));
                let r = || deref(ident(&red, span), span);
                let x = || ident(&v, span);
                let (init, combined) = match op.as_str() {
                    "+" | "-" => (int(0, span), binop(BinaryOperator::Plus, r(), x(), span)),
                    "*" => (
                        int(1, span),
                        binop(BinaryOperator::Multiply, r(), x(), span),
                    ),
                    "&" => (
                        unop(UnaryOperator::Complement, int(0, span), span),
                        binop(BinaryOperator::BitwiseAnd, r(), x(), span),
                    ),
                    "|" => (
                        int(0, span),
                        binop(BinaryOperator::BitwiseOr, r(), x(), span),
                    ),
                    "^" => (
                        int(0, span),
                        binop(BinaryOperator::BitwiseXor, r(), x(), span),
                    ),
                    "&&" => (
                        int(1, span),
                        binop(BinaryOperator::LogicalAnd, r(), x(), span),
                    ),
                    "||" => (
                        int(0, span),
                        binop(BinaryOperator::LogicalOr, r(), x(), span),
                    ),
                    "max" => (
                        r(),
                        cond(
                            binop(BinaryOperator::Greater, x(), r(), span),
                            x(),
                            r(),
                            span,
                        ),
                    ),
                    "min" => (
                        r(),
                        cond(binop(BinaryOperator::Less, x(), r(), span), x(), r(), span),
                    ),
                    _ => return fail(d, format!("the reduction operator `{op}`")),
                };
                outer.push(decl_item(var.declare(
                    &red,
                    Form::Pointer,
                    Some(addr(x(), span)),
                    false,
                    span,
                )));
                if op == "max" || op == "min" {
                    // The start value is the shared one, read in an atomic section.
                    inner.push(decl_item(var.declare(&v, Form::Same, None, false, span)));
                    inner.extend(
                        atomic_section(vec![set(x(), init, span)], span)
                            .into_iter()
                            .map(item),
                    );
                } else {
                    inner.push(decl_item(var.declare(
                        &v,
                        Form::Same,
                        Some(init),
                        false,
                        span,
                    )));
                }
                combine.push(set(r(), combined, span));
            }
        }
        if combine.is_empty() {
            return Ok(body);
        }
        let bspan = body.span;
        inner.push(item(body));
        inner.extend(atomic_section(combine, span).into_iter().map(item));
        outer.push(item(block(inner, bspan)));
        Ok(block(outer, bspan))
    }

    /// `sections`: section `j` is iteration `j` of a worksharing loop over the sections.
    pub fn sections(
        &mut self,
        d: &Directive,
        body: Node<Statement>,
        combined: bool,
    ) -> R<Node<Statement>> {
        let mut known = vec!["private", "firstprivate", "reduction", "nowait"];
        if combined {
            known.extend(["shared", "default", "num_threads", "if", "proc_bind"]);
        }
        self.no_clauses(d, &known)?;
        let nowait = d.clause("nowait").is_some();
        if nowait && self.loop_depth > 0 {
            return fail(d, "`sections nowait` inside a loop");
        }
        let span = dspan(d);
        let bspan = body.span;
        let Statement::Compound(items) = body.node else {
            return fail(d, "`sections` not followed by a block");
        };
        let mut sections: Vec<Vec<Node<BlockItem>>> = vec![];
        for it in items {
            if sections.is_empty() || self.section_starts.contains(&it.span.start) {
                sections.push(vec![]);
            }
            sections.last_mut().unwrap().push(it);
        }
        let (k, take, give_up) = self.claims(span, None);
        let mut loop_items = take;
        let count = sections.len() as u64;
        let mut stop = give_up;
        stop.push(node(Statement::Break, span));
        let kk = || ident(&k, span);
        loop_items.push(if_stmt(
            binop(BinaryOperator::GreaterOrEqual, kk(), int(count, span), span),
            block_of(stop, span),
            None,
            span,
        ));
        let mut chain: Option<Node<Statement>> = None;
        for (j, s) in sections.into_iter().enumerate().rev() {
            let sspan = s.first().map(|i| i.span).unwrap_or(span);
            chain = Some(if_stmt(
                eq(kk(), int(j as u64, span), span),
                block(s, sspan),
                chain,
                span,
            ));
        }
        loop_items.extend(chain);
        let forever = node(
            Statement::While(node(
                WhileStatement {
                    expression: Box::new(int(1, span)),
                    statement: Box::new(block_of(loop_items, bspan)),
                },
                span,
            )),
            span,
        );
        let mut work = block(
            vec![
                decl_item(simple_decl(
                    &[TypeSpecifier::Long],
                    &k,
                    None,
                    false,
                    None,
                    span,
                )),
                item(forever),
            ],
            bspan,
        );
        work = self.reduction(d, work, span)?;
        if !combined {
            work = self.privatise(d, work, span)?;
        }
        let mut all = vec![work];
        if !nowait && !combined {
            all.extend(self.barrier(span));
        }
        Ok(block_of(all, bspan))
    }
}
