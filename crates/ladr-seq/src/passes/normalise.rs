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

use crate::invariants::Invariant;
use crate::normal_form::{called, havoced_var, ERROR_FUNCTIONS};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::names::{self, Names};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::{has_side_effect, is_assign_op, is_inc_dec, mentions, Queue, Walk};
use ladr_ir::abi;
use ladr_ir::program::{Options, Program};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;
use std::convert::Infallible;

pub fn run(mut p: Program, _opts: &Options) -> Result<Program> {
    let globals = global_objects(&p.unit);
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            no_goto_into_loop(&f.node.statement)?;
            let locals = local_names(&f.node);
            let mut n = Norm {
                names: &mut p.names,
                locals,
                breaks: vec![],
                conts: vec![],
                switches: vec![],
                globals: &globals,
                ret_void: returns_void(&f.node),
            };
            let mut body = std::mem::replace(&mut f.node.statement, empty_stmt(Span::none()));
            let span = body.span;
            let mut vla = VlaReads {
                names: n.names,
                globals: &globals,
                queue: Queue::default(),
            };
            visit_mut::stmt(&mut vla, &mut body)?;
            let items = n.stmt(body)?;
            f.node.statement = as_stmt(items, span);
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

/// Removes N4's `__CPROVER_havoc_object(&x);` when the next statement of the block that
/// mentions `x` assigns all of it (`x = e;`, `e` without `x`) and only declarations and
/// expression statements come between: every path overwrites the arbitrary value unread.
/// The havoc is not free: after lazy sequentialisation a context may end between the two,
/// so CBMC merges the arbitrary value into `x`'s value set, and a pointer that may point
/// anywhere makes every later access through it expensive.
struct DropOverwrittenHavocs;

impl VisitorMut for DropOverwrittenHavocs {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Compound(items) = &mut s.node {
            let mut k = 0;
            while k < items.len() {
                let first = havoced_name(&items[k]).or_else(|| {
                    k.checked_sub(1)
                        .and_then(|j| null_pointer_start(&items[j], &items[k]))
                });
                match first {
                    Some(x) if overwritten_next(&items[k + 1..], x) => {
                        items.remove(k);
                    }
                    _ => k += 1,
                }
            }
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// `x` for the statement `__CPROVER_havoc_object(&x);`.
fn havoced_name(it: &Node<BlockItem>) -> Option<&str> {
    match &it.node {
        BlockItem::Statement(s) => match &s.node {
            Statement::Expression(Some(e)) => havoced_var(&e.node),
            _ => None,
        },
        _ => None,
    }
}

/// `x` when `item` is `x = 0;` right after the declaration `decl` of the pointer `x`: the
/// null start N4 gives an uninitialised pointer (see `Normaliser::declaration`).
fn null_pointer_start<'a>(decl: &Node<BlockItem>, item: &'a Node<BlockItem>) -> Option<&'a str> {
    let BlockItem::Declaration(d) = &decl.node else {
        return None;
    };
    let BlockItem::Statement(s) = &item.node else {
        return None;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    let Expression::BinaryOperator(b) = &e.node else {
        return None;
    };
    let (Expression::Identifier(x), Expression::Constant(c)) = (&b.node.lhs.node, &b.node.rhs.node)
    else {
        return None;
    };
    let zero = matches!(&c.node, Constant::Integer(i) if i.number.as_ref() == "0");
    let declares = d.node.declarators.iter().any(|i| {
        declarator_name(&i.node.declarator.node) == Some(x.node.name.as_str())
            && is_pointer_declarator(&i.node.declarator.node)
            && i.node.initializer.is_none()
    });
    (b.node.operator.node == BinaryOperator::Assign && zero && declares).then_some(&x.node.name)
}

/// See [`DropOverwrittenHavocs`].
fn overwritten_next(rest: &[Node<BlockItem>], x: &str) -> bool {
    for it in rest {
        let BlockItem::Statement(s) = &it.node else {
            continue; // declarations have no initialiser (N4) that could read `x`
        };
        match &s.node {
            Statement::Expression(None) => {}
            Statement::Expression(Some(_)) if havoced_name(it) == Some(x) => {}
            Statement::Expression(Some(e)) => {
                if let Expression::BinaryOperator(b) = &e.node {
                    if b.node.operator.node == BinaryOperator::Assign
                        && matches!(&b.node.lhs.node, Expression::Identifier(i) if i.node.name == x)
                    {
                        return !mentions(&expr_stmt((*b.node.rhs).clone()), &[x]);
                    }
                }
                if mentions(s, &[x]) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    false
}

/// Names of global objects (not functions, not typedefs): their values are not constants.
/// Reads in the sizes of variably modified types (`int a[g];`, `sizeof(int[g])`, a cast to
/// `int (*)[g]`), which C evaluates: a size that reads a global object or through a pointer
/// is read into a temporary before the block item, `__typeof__(g) t; t = g;`, and the type
/// uses `t`, so `race` sees the read. Such a size in a loop's condition, step or
/// initialiser (read again on every iteration) is unsupported.
struct VlaReads<'a> {
    names: &'a mut Names,
    globals: &'a HashSet<String>,
    queue: Queue,
}

/// True if evaluating `e` reads memory other than locals: a global object, `*p`, `a[i]`,
/// `p->f`.
fn reads_memory(e: &Node<Expression>, globals: &HashSet<String>) -> bool {
    struct R<'a>(&'a HashSet<String>, bool);
    impl Visitor for R<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            match &e.node {
                Expression::Identifier(i) if self.0.contains(&i.node.name) => self.1 = true,
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    self.1 = true
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    self.1 = true
                }
                Expression::Member(m) if m.node.operator.node == MemberOperator::Indirect => {
                    self.1 = true
                }
                _ => {}
            }
            Ok(Walk::Descend)
        }
    }
    let mut r = R(globals, false);
    let Ok(()) = visit::expr(&mut r, e);
    r.1
}

/// The array sizes of `d` (not of its parameters) that read memory.
fn vla_sizes_mut<'d>(
    d: &'d mut Node<Declarator>,
    globals: &HashSet<String>,
) -> Vec<&'d mut Node<Expression>> {
    let mut out = vec![];
    if d.node.derived.iter().any(|x| {
        matches!(
            x.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    }) {
        return out;
    }
    for dd in &mut d.node.derived {
        if let DerivedDeclarator::Array(a) = &mut dd.node {
            if let ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) =
                &mut a.node.size
            {
                if reads_memory(e, globals) {
                    out.push(&mut **e);
                }
            }
        }
    }
    out
}

impl VlaReads<'_> {
    /// Refuses a variably modified type whose size reads memory in `e`.
    fn refuse_in(&self, e: &Node<Expression>, what: &str) -> Result<()> {
        struct F<'a>(&'a HashSet<String>, Option<Span>);
        impl VisitorMut for F<'_> {
            type Error = Infallible;
            fn declarator(
                &mut self,
                d: &mut Node<Declarator>,
            ) -> std::result::Result<Walk, Infallible> {
                if let Some(e) = vla_sizes_mut(d, self.0).first() {
                    self.1 = Some(e.span);
                }
                Ok(Walk::Descend)
            }
        }
        let mut f = F(self.globals, None);
        let mut e = e.clone();
        let Ok(()) = visit_mut::expr(&mut f, &mut e);
        match f.1 {
            Some(span) => Err(Error::unsupported(
                span,
                format!("a variable array size that reads memory in a loop's {what}"),
            )),
            None => Ok(()),
        }
    }
}

impl VisitorMut for VlaReads<'_> {
    type Error = Error;
    fn queue(&mut self) -> Option<&mut Queue> {
        Some(&mut self.queue)
    }
    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
        match &mut s.node {
            Statement::While(w) => {
                self.refuse_in(&w.node.expression, "condition")?;
                visit_mut::stmt(self, &mut w.node.statement)?;
            }
            Statement::DoWhile(w) => {
                self.refuse_in(&w.node.expression, "condition")?;
                visit_mut::stmt(self, &mut w.node.statement)?;
            }
            Statement::For(f) => {
                for e in [&f.node.condition, &f.node.step].into_iter().flatten() {
                    self.refuse_in(e, "condition or step")?;
                }
                if let ForInitializer::Expression(e) = &f.node.initializer.node {
                    self.refuse_in(e, "initialiser")?;
                }
                if let ForInitializer::Declaration(d) = &f.node.initializer.node {
                    for id in &d.node.declarators {
                        let mut dd = id.node.declarator.clone();
                        if let Some(e) = vla_sizes_mut(&mut dd, self.globals).first() {
                            return Err(Error::unsupported(
                                e.span,
                                "a variable array size that reads memory in a loop's initialiser",
                            ));
                        }
                    }
                }
                visit_mut::stmt(self, &mut f.node.statement)?;
            }
            _ => return Ok(Walk::Descend),
        }
        Ok(Walk::Skip)
    }
    fn declarator(&mut self, d: &mut Node<Declarator>) -> Result<Walk> {
        let globals = self.globals;
        for e in vla_sizes_mut(d, globals) {
            let span = e.span;
            let t = self.names.temp();
            let v = std::mem::replace(e, ident(&t, span));
            self.queue
                .insert_before(decl_item(typeof_decl(&t, v.clone(), false, span)));
            self.queue
                .insert_stmt_before(expr_stmt(assign(ident(&t, span), v, span)));
        }
        Ok(Walk::Descend)
    }
}

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
    struct Collect(HashSet<String>);
    impl Visitor for Collect {
        type Error = Infallible;
        fn declarator(&mut self, d: &Node<Declarator>) -> std::result::Result<Walk, Infallible> {
            if let Some(n) = declarator_name(&d.node) {
                self.0.insert(n.to_string());
            }
            Ok(Walk::Descend)
        }
    }
    let mut c = Collect(HashSet::new());
    let Ok(()) = visit::declarator(&mut c, &f.declarator);
    let Ok(()) = visit::stmt(&mut c, &f.statement);
    c.0
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

struct Norm<'a> {
    names: &'a mut Names,
    breaks: Vec<Target>,
    conts: Vec<Target>,
    switches: Vec<SwitchCtx>,
    globals: &'a HashSet<String>,
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

fn void_type(span: Span) -> Node<TypeName> {
    type_name(&[TypeSpecifier::Void], 0, span)
}

fn is_void_cast(t: &TypeName) -> bool {
    t.declarator.is_none()
        && t.specifiers.len() == 1
        && matches!(&t.specifiers[0].node, SpecifierQualifier::TypeSpecifier(s) if s.node == TypeSpecifier::Void)
}

/// A temporary's declaration `__typeof__(e) t;`.
fn temp_decl(name: &str, e: &Node<Expression>) -> Node<BlockItem> {
    decl_item(typeof_decl(name, e.clone(), false, e.span))
}

fn is_const_expr(e: &Expression) -> bool {
    matches!(e, Expression::Constant(_) | Expression::StringLiteral(_))
        || matches!(e, Expression::Cast(c) if is_const_expr(&c.node.expression.node))
}

impl Norm<'_> {
    fn target(stack: &mut [Target], span: Span, what: &str) -> Result<String> {
        match stack.last_mut() {
            Some(t) => {
                t.used = true;
                Ok(t.label.clone())
            }
            None => Err(Error::unsupported(
                span,
                format!("`{what}` outside a loop or switch"),
            )),
        }
    }

    // ---------------------------------------------------------------- statements

    fn stmt(&mut self, s: Node<Statement>) -> Result<Items> {
        let span = s.span;
        match s.node {
            Statement::Compound(items) => {
                let mut out = vec![];
                for it in items {
                    match it.node {
                        BlockItem::Declaration(d) => out.extend(self.declaration(d)?),
                        BlockItem::Statement(s) => out.extend(self.stmt(s)?),
                        BlockItem::StaticAssert(_) => out.push(it),
                    }
                }
                let out = group_atomic(out, span, self.names)?;
                Ok(vec![stmt_item(block(out, span))])
            }
            Statement::Labeled(l) => {
                let label = l.node.label;
                let inner = self.stmt(*l.node.statement)?;
                let name = match label.node {
                    Label::Identifier(i) => i.node.name,
                    Label::Case(e) => {
                        let name = self.names.label("case");
                        self.switch_ctx(span, "`case` outside a switch")?
                            .cases
                            .push((CaseTest::Value(*e), name.clone()));
                        name
                    }
                    Label::CaseRange(r) => {
                        let name = self.names.label("case");
                        let r = r.node;
                        self.switch_ctx(span, "`case` outside a switch")?
                            .cases
                            .push((CaseTest::Range(*r.low, *r.high), name.clone()));
                        name
                    }
                    Label::Default => {
                        let name = self.names.label("default");
                        self.switch_ctx(span, "`default` outside a switch")?.default =
                            Some(name.clone());
                        name
                    }
                };
                if inner.len() == 1 && matches!(inner[0].node, BlockItem::Statement(_)) {
                    let s = as_stmt(inner, span);
                    Ok(vec![stmt_item(labeled(&name, s, span))])
                } else {
                    let mut out = vec![stmt_item(labeled(&name, empty_stmt(span), span))];
                    out.extend(inner);
                    Ok(out)
                }
            }
            Statement::Expression(None) => Ok(vec![stmt_item(empty_stmt(span))]),
            Statement::Expression(Some(e)) => {
                let mut pre = vec![];
                self.effect(*e, &mut pre, true)?;
                if pre.is_empty() {
                    pre.push(stmt_item(empty_stmt(span)));
                }
                Ok(pre)
            }
            Statement::If(i) => {
                let i = i.node;
                let mut pre = vec![];
                let c = self.value(*i.condition, &mut pre)?;
                let t = self.stmt(*i.then_statement)?;
                let e = match i.else_statement {
                    Some(e) => Some(as_stmt(self.stmt(*e)?, span)),
                    None => None,
                };
                pre.push(stmt_item(if_stmt(c, as_stmt(t, span), e, span)));
                Ok(pre)
            }
            Statement::While(w) => {
                let w = w.node;
                self.lower_loop(None, Some(*w.expression), *w.statement, None, false, span)
            }
            Statement::DoWhile(d) => {
                let d = d.node;
                self.lower_loop(None, Some(*d.expression), *d.statement, None, true, span)
            }
            Statement::For(f) => {
                let f = f.node;
                let init = f.initializer;
                self.lower_loop(
                    Some(init),
                    f.condition.map(|c| *c),
                    *f.statement,
                    f.step.map(|s| *s),
                    false,
                    span,
                )
            }
            Statement::Switch(sw) => self.lower_switch(sw.node, span),
            Statement::Break => {
                let l = Self::target(&mut self.breaks, span, "break")?;
                Ok(vec![stmt_item(goto(&l, span))])
            }
            Statement::Continue => {
                let l = Self::target(&mut self.conts, span, "continue")?;
                Ok(vec![stmt_item(goto(&l, span))])
            }
            Statement::Return(Some(e)) => {
                let mut pre = vec![];
                let v = self.value_or_void(*e, &mut pre)?;
                pre.push(stmt_item(ret(v, span)));
                Ok(pre)
            }
            Statement::Goto(_) | Statement::Return(None) | Statement::Asm(_) => {
                Ok(vec![stmt_item(s)])
            }
        }
    }

    fn switch_ctx(&mut self, span: Span, what: &str) -> Result<&mut SwitchCtx> {
        self.switches
            .last_mut()
            .ok_or_else(|| Error::unsupported(span, what.to_string()))
    }

    /// `for`, `while` and `do` loops: `{ init; while (c) { body; cont: ; step; } brk: ; }`, or
    /// with a condition that has effects (and for `do`): `while (1) { [body; cont: ;]
    /// <effects>; if (!c) goto brk; [body; cont: ; step;] } brk: ;`.
    fn lower_loop(
        &mut self,
        init: Option<Node<ForInitializer>>,
        cond: Option<Node<Expression>>,
        body: Node<Statement>,
        step: Option<Node<Expression>>,
        is_do: bool,
        span: Span,
    ) -> Result<Items> {
        let mut out = vec![];
        if let Some(init) = init {
            match init.node {
                ForInitializer::Empty => {}
                ForInitializer::Expression(e) => self.effect(*e, &mut out, true)?,
                ForInitializer::Declaration(d) => out.extend(self.declaration(d)?),
                ForInitializer::StaticAssert(a) => {
                    out.push(node(BlockItem::StaticAssert(a), init.span))
                }
            }
        }
        let brk = self.names.label("brk");
        let cont = self.names.label("cont");
        self.breaks.push(Target {
            label: brk.clone(),
            used: false,
        });
        self.conts.push(Target {
            label: cont.clone(),
            used: false,
        });
        let body = self.stmt(body);
        let cont_used = self.conts.pop().unwrap().used;
        let mut brk_used = self.breaks.pop().unwrap().used;
        let mut inner = body?;
        if cont_used {
            inner.push(stmt_item(labeled(&cont, empty_stmt(span), span)));
        }
        if let Some(step) = step {
            self.effect(step, &mut inner, true)?;
        }
        let cond = cond.unwrap_or_else(|| int(1, span));
        // `do S while (0)` (the macro idiom) runs S once: no loop, nothing to unwind.
        if is_do && constant::is_null_pointer_constant(&cond.node) {
            out.push(stmt_item(block(inner, span)));
            if brk_used {
                out.push(stmt_item(labeled(&brk, empty_stmt(span), span)));
            }
            return Ok(vec![stmt_item(block(out, span))]);
        }
        let mut test = vec![];
        let c = self.value(cond.clone(), &mut test)?;
        let loop_stmt = if !is_do && test.is_empty() {
            node(
                Statement::While(node(
                    WhileStatement {
                        expression: Box::new(c),
                        statement: Box::new(block(inner, span)),
                    },
                    span,
                )),
                span,
            )
        } else {
            brk_used = true;
            test.push(stmt_item(if_stmt(
                not(c, cond.span),
                goto(&brk, span),
                None,
                cond.span,
            )));
            let mut all = vec![];
            if is_do {
                all.extend(inner);
                all.extend(test);
            } else {
                all.extend(test);
                all.extend(inner);
            }
            node(
                Statement::While(node(
                    WhileStatement {
                        expression: Box::new(int(1, span)),
                        statement: Box::new(block(all, span)),
                    },
                    span,
                )),
                span,
            )
        };
        out.push(stmt_item(loop_stmt));
        if brk_used {
            out.push(stmt_item(labeled(&brk, empty_stmt(span), span)));
        }
        Ok(vec![stmt_item(block(out, span))])
    }

    fn lower_switch(&mut self, sw: SwitchStatement, span: Span) -> Result<Items> {
        let mut out = vec![];
        let v = self.value(*sw.expression, &mut out)?;
        let t = match &v.node {
            Expression::Identifier(i) if names::is_temporary(&i.node.name) => i.node.name.clone(),
            _ => {
                let t = self.names.temp();
                out.push(temp_decl(&t, &v));
                out.push(stmt_item(expr_stmt(assign(ident(&t, v.span), v, span))));
                t
            }
        };
        let brk = self.names.label("brk");
        self.breaks.push(Target {
            label: brk.clone(),
            used: false,
        });
        self.switches.push(SwitchCtx::default());
        let body = self.stmt(*sw.statement);
        let ctx = self.switches.pop().unwrap();
        self.breaks.pop();
        let body = body?;
        for (test, label) in ctx.cases {
            let c = match test {
                CaseTest::Value(e) => eq(ident(&t, span), e, span),
                CaseTest::Range(lo, hi) => and(
                    binop(BinaryOperator::GreaterOrEqual, ident(&t, span), lo, span),
                    binop(BinaryOperator::LessOrEqual, ident(&t, span), hi, span),
                    span,
                ),
            };
            out.push(stmt_item(if_stmt(c, goto(&label, span), None, span)));
        }
        out.push(stmt_item(goto(
            ctx.default.as_deref().unwrap_or(&brk),
            span,
        )));
        out.extend(body);
        out.push(stmt_item(labeled(&brk, empty_stmt(span), span)));
        Ok(vec![stmt_item(block(out, span))])
    }

    // ---------------------------------------------------------------- declarations

    fn declaration(&mut self, d: Node<Declaration>) -> Result<Items> {
        let span = d.span;
        let decl = d.node;
        let keep_whole = is_typedef(&decl)
            || has_storage(&decl, StorageClassSpecifier::Extern)
            || decl.declarators.is_empty();
        if keep_whole {
            return Ok(vec![decl_item(node(decl, span))]);
        }
        let is_static = has_storage(&decl, StorageClassSpecifier::Static)
            || has_storage(&decl, StorageClassSpecifier::ThreadLocal);
        let defines_anonymous = decl
            .specifiers
            .iter()
            .any(|s| defines_anonymous_type(&s.node));
        let mut out = vec![];
        let mut after = vec![];
        let mut first = true;
        let count = decl.declarators.len();
        let mut group = vec![];
        for id in decl.declarators {
            let mut specs = decl.specifiers.clone();
            if !first {
                strip_type_bodies(&mut specs);
            }
            first = false;
            let id_span = id.span;
            let mut id = id.node;
            let is_function =
                matches!(
                    id.declarator.node.derived.first().map(|x| &x.node),
                    Some(DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_))
                ) && !matches!(id.declarator.node.kind.node, DeclaratorKind::Declarator(_));
            self.hoist_array_sizes(&mut id.declarator, &mut out)?;
            let name = declarator_name(&id.declarator.node).map(str::to_string);
            let mut stmts = vec![];
            if !is_static && !is_function {
                if let Some(name) = &name {
                    let nspan = id.declarator.span;
                    specs.retain(|s| {
                        !matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Register)
                    });
                    match id.initializer.take() {
                        // An uninitialised pointer starts as a null pointer, not as any
                        // value: a defined program writes it before reading it, so no
                        // execution changes, while a pointer that may point to any object
                        // makes every access through it costly for CBMC (and its shadow
                        // memory may crash on one).
                        None if is_pointer_declarator(&id.declarator.node) => {
                            stmts.push(stmt_item(expr_stmt(assign(
                                ident(name, nspan),
                                int(0, nspan),
                                nspan,
                            ))));
                        }
                        None => {
                            stmts.push(stmt_item(expr_stmt(call(
                                abi::HAVOC,
                                vec![addr(ident(name, nspan), nspan)],
                                nspan,
                            ))));
                        }
                        Some(init) => {
                            let is_array = is_array_declarator(&id.declarator.node);
                            let lv = ident(name, nspan);
                            match init.node {
                                Initializer::Expression(e) if is_array => {
                                    if has_side_effect(&e.node) {
                                        return Err(Error::unsupported(
                                            e.span,
                                            "array initialised by an expression with side effects",
                                        ));
                                    }
                                    id.initializer =
                                        Some(node(Initializer::Expression(e), init.span));
                                }
                                Initializer::Expression(e) => {
                                    strip_top_const(&mut specs, &mut id.declarator.node);
                                    let v = self.value(*e, &mut stmts)?;
                                    stmts.push(stmt_item(expr_stmt(assign(lv, v, init.span))));
                                }
                                Initializer::List(items) if is_array => {
                                    let dims = array_dims(&id.declarator.node);
                                    let kept = self.array_list(lv, items, dims, &mut stmts)?;
                                    id.initializer = Some(node(Initializer::List(kept), init.span));
                                }
                                Initializer::List(items) => {
                                    strip_top_const(&mut specs, &mut id.declarator.node);
                                    let items = self.init_items(items, &mut stmts)?;
                                    let ty = type_name(&[typeof_expr(lv.clone(), nspan)], 0, nspan);
                                    let lit = node(
                                        Expression::CompoundLiteral(Box::new(node(
                                            CompoundLiteral {
                                                type_name: ty,
                                                initializer_list: items,
                                            },
                                            init.span,
                                        ))),
                                        init.span,
                                    );
                                    stmts.push(stmt_item(expr_stmt(assign(lv, lit, init.span))));
                                }
                            }
                        }
                    }
                }
            } else if let Some(init) = &id.initializer {
                // static locals keep their initialisers; they must be constant anyway
                let _ = init;
            }
            let one = node(id, id_span);
            if defines_anonymous && count > 1 {
                group.push(one);
                after.extend(stmts);
            } else {
                out.push(decl_item(node(
                    Declaration {
                        specifiers: specs,
                        declarators: vec![one],
                    },
                    span,
                )));
                out.extend(stmts);
            }
        }
        if !group.is_empty() {
            out.push(decl_item(node(
                Declaration {
                    specifiers: decl.specifiers,
                    declarators: group,
                },
                span,
            )));
            out.extend(after);
        }
        Ok(out)
    }

    /// Hoists side effects out of array sizes (VLAs) of a declarator.
    fn hoist_array_sizes(&mut self, d: &mut Node<Declarator>, pre: &mut Items) -> Result<()> {
        if let DeclaratorKind::Declarator(inner) = &mut d.node.kind.node {
            self.hoist_array_sizes(inner, pre)?;
        }
        for dd in &mut d.node.derived {
            if let DerivedDeclarator::Array(a) = &mut dd.node {
                if let ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) =
                    &mut a.node.size
                {
                    if has_side_effect(&e.node) {
                        let v = std::mem::replace(&mut **e, int(0, Span::none()));
                        **e = self.value(v, pre)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A non-static local array with an initialiser list: constant items stay on the
    /// declaration, the others become `{0}` there plus an assignment `a[k] = v;`.
    fn array_list(
        &mut self,
        lv: Node<Expression>,
        items: Vec<Node<InitializerListItem>>,
        dims: usize,
        stmts: &mut Items,
    ) -> Result<Vec<Node<InitializerListItem>>> {
        let mut kept = vec![];
        let mut k: Option<u64> = Some(0);
        for mut it in items {
            let ispan = it.span;
            let mut path = lv.clone();
            if it.node.designation.is_empty() {
                match k {
                    Some(i) => path = index(path, int(i, ispan), ispan),
                    None => {
                        if !self.init_is_constant(&it.node.initializer.node) {
                            return Err(Error::unsupported(
                                ispan,
                                "non-constant array initialiser after a non-literal designator",
                            ));
                        }
                    }
                }
            } else {
                for (n, d) in it.node.designation.iter().enumerate() {
                    match &d.node {
                        Designator::Index(e) => {
                            if n == 0 {
                                k = constant::int_literal(&e.node);
                            }
                            path = index(path, e.clone(), ispan);
                        }
                        Designator::Member(m) => path = member(path, &m.node.name, false, ispan),
                        Designator::Range(_) => {
                            if !self.init_is_constant(&it.node.initializer.node) {
                                return Err(Error::unsupported(
                                    ispan,
                                    "non-constant initialiser of a designated range",
                                ));
                            }
                            k = None;
                        }
                    }
                }
            }
            k = k.map(|i| i + 1);
            if self.init_is_constant(&it.node.initializer.node) {
                kept.push(it);
                continue;
            }
            let init = std::mem::replace(
                &mut *it.node.initializer,
                node(Initializer::List(vec![]), ispan),
            );
            let depth = it.node.designation.len().max(1);
            let init = match init.node {
                // a row of a multi-dimensional array: element by element
                Initializer::List(sub) if dims > depth && depth == 1 => {
                    let sub = self.array_list(path, sub, dims - 1, stmts)?;
                    *it.node.initializer = node(Initializer::List(sub), ispan);
                    kept.push(it);
                    continue;
                }
                Initializer::Expression(_) if dims > depth => {
                    return Err(Error::unsupported(
                        ispan,
                        "non-constant initialiser of a multi-dimensional array without braces",
                    ))
                }
                other => node(other, init.span),
            };
            let zero = node(
                InitializerListItem {
                    designation: vec![],
                    initializer: Box::new(node(
                        Initializer::Expression(Box::new(int(0, ispan))),
                        ispan,
                    )),
                },
                ispan,
            );
            *it.node.initializer = node(Initializer::List(vec![zero]), ispan);
            kept.push(it);
            match init.node {
                Initializer::Expression(e) => {
                    let v = self.value(*e, stmts)?;
                    stmts.push(stmt_item(expr_stmt(assign(path, v, ispan))));
                }
                Initializer::List(sub) => {
                    let sub = self.init_items(sub, stmts)?;
                    let ty = type_name(&[typeof_expr(path.clone(), ispan)], 0, ispan);
                    let lit = node(
                        Expression::CompoundLiteral(Box::new(node(
                            CompoundLiteral {
                                type_name: ty,
                                initializer_list: sub,
                            },
                            ispan,
                        ))),
                        ispan,
                    );
                    stmts.push(stmt_item(expr_stmt(assign(path, lit, ispan))));
                }
            }
        }
        Ok(kept)
    }

    /// Hoists the side effects out of every item of an initialiser list.
    fn init_items(
        &mut self,
        items: Vec<Node<InitializerListItem>>,
        pre: &mut Items,
    ) -> Result<Vec<Node<InitializerListItem>>> {
        let mut out = vec![];
        for mut it in items {
            let init = std::mem::replace(
                &mut *it.node.initializer,
                node(Initializer::List(vec![]), it.span),
            );
            let ispan = init.span;
            *it.node.initializer = match init.node {
                Initializer::Expression(e) => node(
                    Initializer::Expression(Box::new(self.value(*e, pre)?)),
                    ispan,
                ),
                Initializer::List(l) => node(Initializer::List(self.init_items(l, pre)?), ispan),
            };
            out.push(it);
        }
        Ok(out)
    }

    fn init_is_constant(&self, i: &Initializer) -> bool {
        match i {
            Initializer::Expression(e) => self.is_constant(&e.node),
            Initializer::List(items) => items
                .iter()
                .all(|it| self.init_is_constant(&it.node.initializer.node)),
        }
    }

    /// A constant an initialiser may hold ([`constant::is_initializer_constant`]): locals
    /// here and global objects are the names that are not constants.
    fn is_constant(&self, e: &Expression) -> bool {
        constant::is_initializer_constant(e, &|n| self.locals.contains(n), &|n| {
            self.globals.contains(n)
        })
    }

    // ---------------------------------------------------------------- expressions

    fn temp(&mut self) -> String {
        self.names.temp()
    }

    /// Evaluates `e` for its effects only, as statements appended to `pre`. `keep_pure`: keep
    /// a side-effect-free expression as a statement (its reads may matter for races).
    fn effect(&mut self, e: Node<Expression>, pre: &mut Items, keep_pure: bool) -> Result<()> {
        let span = e.span;
        if !has_side_effect(&e.node) {
            if keep_pure && !is_const_expr(&e.node) {
                pre.push(stmt_item(expr_stmt(e)));
            }
            return Ok(());
        }
        match e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                let b = b.node;
                let lhs = self.value(*b.lhs, pre)?;
                let rhs =
                    self.call_or_value(*b.rhs, pre, b.operator.node == BinaryOperator::Assign)?;
                pre.push(stmt_item(expr_stmt(binop(b.operator.node, lhs, rhs, span))));
            }
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                let b = b.node;
                let a = self.value(*b.lhs, pre)?;
                let mut then = vec![];
                self.effect(*b.rhs, &mut then, true)?;
                let c = if b.operator.node == BinaryOperator::LogicalAnd {
                    a
                } else {
                    not(a, span)
                };
                if then.is_empty() {
                    pre.push(stmt_item(expr_stmt(c)));
                } else {
                    pre.push(stmt_item(if_stmt(c, block(then, span), None, span)));
                }
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                let u = u.node;
                let lv = self.value(*u.operand, pre)?;
                pre.push(stmt_item(expr_stmt(unop(u.operator.node, lv, span))));
            }
            Expression::Call(c) => {
                if let Some(e) = self.call(*c, pre, span)? {
                    pre.push(stmt_item(expr_stmt(e)));
                }
            }
            Expression::Comma(es) => {
                for x in *es {
                    self.effect(x, pre, true)?;
                }
            }
            Expression::Conditional(c) => {
                let c = c.node;
                let cv = self.value(*c.condition, pre)?;
                let mut t = vec![];
                self.effect(*c.then_expression, &mut t, true)?;
                let mut f = vec![];
                self.effect(*c.else_expression, &mut f, true)?;
                match (t.is_empty(), f.is_empty()) {
                    (true, true) => pre.push(stmt_item(expr_stmt(cv))),
                    (false, true) => pre.push(stmt_item(if_stmt(cv, block(t, span), None, span))),
                    (true, false) => pre.push(stmt_item(if_stmt(
                        not(cv, span),
                        block(f, span),
                        None,
                        span,
                    ))),
                    (false, false) => pre.push(stmt_item(if_stmt(
                        cv,
                        block(t, span),
                        Some(block(f, span)),
                        span,
                    ))),
                }
            }
            Expression::Cast(c) => self.effect(*c.node.expression, pre, false)?,
            Expression::Statement(s) => pre.extend(self.stmt(*s)?),
            other => {
                let v = self.value(node(other, span), pre)?;
                if keep_pure && !is_const_expr(&v.node) {
                    pre.push(stmt_item(expr_stmt(v)));
                }
            }
        }
        Ok(())
    }

    /// Like [`Self::value`], but a call on the right of a plain `=` stays there (`lv = f(a)`).
    fn call_or_value(
        &mut self,
        e: Node<Expression>,
        pre: &mut Items,
        allow_call: bool,
    ) -> Result<Node<Expression>> {
        let span = e.span;
        match e.node {
            Expression::Call(c) if allow_call && !is_special_call(&c.node) => {
                match self.call(*c, pre, span)? {
                    Some(e) => Ok(e),
                    None => Ok(int(0, span)),
                }
            }
            other => self.value(node(other, span), pre),
        }
    }

    /// A call with side-effect-free callee and arguments; SV-COMP functions mapped. `None`
    /// when the call became statements (error functions, assumptions).
    fn call(
        &mut self,
        c: Node<CallExpression>,
        pre: &mut Items,
        span: Span,
    ) -> Result<Option<Node<Expression>>> {
        let c = c.node;
        let name = callee_name(&c).map(str::to_string);
        match name.as_deref() {
            Some(n) if ERROR_FUNCTIONS.contains(&n) => {
                for a in c.arguments {
                    self.effect(a, pre, false)?;
                }
                pre.push(stmt_item(assume(int(0, span), span)));
                Ok(None)
            }
            Some(abi::VERIFIER_ASSUME | "assert" | abi::ASSUME) if c.arguments.len() == 1 => {
                let a = c.arguments.into_iter().next().unwrap();
                let v = self.value(a, pre)?;
                pre.push(stmt_item(assume(v, span)));
                Ok(None)
            }
            _ => {
                let callee = self.value(*c.callee, pre)?;
                let mut args = vec![];
                for a in c.arguments {
                    args.push(self.value(a, pre)?);
                }
                Ok(Some(call_expr(callee, args, span)))
            }
        }
    }

    /// Value of a `return` operand: a void call stays a statement.
    fn value_or_void(
        &mut self,
        e: Node<Expression>,
        pre: &mut Items,
    ) -> Result<Option<Node<Expression>>> {
        if self.ret_void {
            self.effect(e, pre, false)?;
            return Ok(None);
        }
        Ok(Some(self.value(e, pre)?))
    }

    /// A side-effect-free expression with the value of `e`; the effects go to `pre`.
    fn value(&mut self, e: Node<Expression>, pre: &mut Items) -> Result<Node<Expression>> {
        if !has_side_effect(&e.node) {
            return Ok(e);
        }
        let span = e.span;
        let orig = e.clone();
        Ok(match e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                // t = rhs [op] ...; lhs = t; value t
                let b = b.node;
                let lhs = self.value(*b.lhs, pre)?;
                let rhs = self.value(*b.rhs, pre)?;
                let t = self.temp();
                pre.push(temp_decl(&t, &lhs));
                let v = match compound_base(&b.operator.node) {
                    None => rhs,
                    Some(op) => binop(op, lhs.clone(), rhs, span),
                };
                pre.push(stmt_item(expr_stmt(assign(ident(&t, span), v, span))));
                pre.push(stmt_item(expr_stmt(assign(lhs, ident(&t, span), span))));
                ident(&t, span)
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                let u = u.node;
                let op = u.operator.node;
                let lv = self.value(*u.operand, pre)?;
                let t = self.temp();
                pre.push(temp_decl(&t, &lv));
                let delta = if matches!(
                    op,
                    UnaryOperator::PostIncrement | UnaryOperator::PreIncrement
                ) {
                    BinaryOperator::Plus
                } else {
                    BinaryOperator::Minus
                };
                if matches!(
                    op,
                    UnaryOperator::PostIncrement | UnaryOperator::PostDecrement
                ) {
                    // t = lv; lv = t + 1;
                    pre.push(stmt_item(expr_stmt(assign(
                        ident(&t, span),
                        lv.clone(),
                        span,
                    ))));
                    pre.push(stmt_item(expr_stmt(assign(
                        lv,
                        binop(delta, ident(&t, span), int(1, span), span),
                        span,
                    ))));
                } else {
                    // t = lv + 1; lv = t;
                    pre.push(stmt_item(expr_stmt(assign(
                        ident(&t, span),
                        binop(delta, lv.clone(), int(1, span), span),
                        span,
                    ))));
                    pre.push(stmt_item(expr_stmt(assign(lv, ident(&t, span), span))));
                }
                ident(&t, span)
            }
            Expression::Call(c) => match self.call(*c, pre, span)? {
                Some(call) => {
                    let t = self.temp();
                    pre.push(temp_decl(&t, &call));
                    pre.push(stmt_item(expr_stmt(assign(ident(&t, span), call, span))));
                    ident(&t, span)
                }
                None => cast(void_type(span), int(0, span), span),
            },
            Expression::Comma(es) => {
                let mut es = *es;
                let last = es.pop().unwrap_or_else(|| int(0, span));
                for x in es {
                    self.effect(x, pre, true)?;
                }
                self.value(last, pre)?
            }
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                let b = b.node;
                let is_and = b.operator.node == BinaryOperator::LogicalAnd;
                let a = self.value(*b.lhs, pre)?;
                if !has_side_effect(&b.rhs.node) {
                    return Ok(binop(b.operator.node, a, *b.rhs, span));
                }
                let t = self.temp();
                pre.push(decl_item(simple_decl(
                    &[TypeSpecifier::Int],
                    &t,
                    None,
                    false,
                    None,
                    span,
                )));
                let mut eval = vec![];
                let r = self.value(*b.rhs, &mut eval)?;
                eval.push(stmt_item(expr_stmt(assign(
                    ident(&t, span),
                    binop(BinaryOperator::NotEquals, r, int(0, span), span),
                    span,
                ))));
                let short = stmt_item(expr_stmt(assign(
                    ident(&t, span),
                    int(if is_and { 0 } else { 1 }, span),
                    span,
                )));
                let c = if is_and { a } else { not(a, span) };
                pre.push(stmt_item(if_stmt(
                    c,
                    block(eval, span),
                    Some(as_stmt(vec![short], span)),
                    span,
                )));
                ident(&t, span)
            }
            Expression::Conditional(c) => {
                let c = c.node;
                let cv = self.value(*c.condition, pre)?;
                if !has_side_effect(&c.then_expression.node)
                    && !has_side_effect(&c.else_expression.node)
                {
                    return Ok(cond(cv, *c.then_expression, *c.else_expression, span));
                }
                let t = self.temp();
                pre.push(temp_decl(&t, &orig));
                let mut tb = vec![];
                let tv = self.value(*c.then_expression, &mut tb)?;
                tb.push(stmt_item(expr_stmt(assign(ident(&t, span), tv, span))));
                let mut fb = vec![];
                let fv = self.value(*c.else_expression, &mut fb)?;
                fb.push(stmt_item(expr_stmt(assign(ident(&t, span), fv, span))));
                pre.push(stmt_item(if_stmt(
                    cv,
                    block(tb, span),
                    Some(block(fb, span)),
                    span,
                )));
                ident(&t, span)
            }
            Expression::Statement(s) => {
                let t = self.temp();
                let items = match s.node {
                    Statement::Compound(items) => items,
                    _ => {
                        return Err(Error::unsupported(
                            span,
                            "statement expression without a block",
                        ))
                    }
                };
                let mut items = items;
                let last =
                    match items.pop() {
                        Some(Node {
                            node:
                                BlockItem::Statement(Node {
                                    node: Statement::Expression(Some(e)),
                                    ..
                                }),
                            ..
                        }) => *e,
                        _ => return Err(Error::unsupported(
                            span,
                            "value of a statement expression that does not end in an expression",
                        )),
                    };
                pre.push(temp_decl(&t, &orig));
                let lspan = last.span;
                items.push(stmt_item(expr_stmt(assign(ident(&t, lspan), last, lspan))));
                pre.extend(self.stmt(block(items, s.span))?);
                ident(&t, span)
            }
            Expression::Cast(c) => {
                let c = c.node;
                if is_void_cast(&c.type_name.node) {
                    self.effect(*c.expression, pre, false)?;
                    return Ok(cast(c.type_name, int(0, span), span));
                }
                let v = self.value(*c.expression, pre)?;
                cast(c.type_name, v, span)
            }
            Expression::BinaryOperator(b) => {
                let b = b.node;
                let l = self.value(*b.lhs, pre)?;
                let r = self.value(*b.rhs, pre)?;
                binop(b.operator.node, l, r, span)
            }
            Expression::UnaryOperator(u) => {
                let u = u.node;
                let v = self.value(*u.operand, pre)?;
                unop(u.operator.node, v, span)
            }
            Expression::Member(m) => {
                let m = m.node;
                let v = self.value(*m.expression, pre)?;
                member(
                    v,
                    &m.identifier.node.name,
                    m.operator.node == MemberOperator::Indirect,
                    span,
                )
            }
            Expression::CompoundLiteral(c) => {
                let mut c = c.node;
                c.initializer_list = self.init_items(c.initializer_list, pre)?;
                node(Expression::CompoundLiteral(Box::new(node(c, span))), span)
            }
            // `va_arg` advances its list: a statement of its own, `t = va_arg(ap, T)`,
            // which `inline` rewrites into a read of the call's variable arguments.
            Expression::VaArg(_) => {
                let t = self.temp();
                pre.push(temp_decl(&t, &orig));
                pre.push(stmt_item(expr_stmt(assign(ident(&t, span), orig, span))));
                ident(&t, span)
            }
            Expression::GenericSelection(_) => {
                return Err(Error::unsupported(span, "side effects inside `_Generic`"))
            }
            Expression::OffsetOf(_) => {
                return Err(Error::unsupported(span, "side effects inside `offsetof`"))
            }
            Expression::Identifier(_)
            | Expression::Constant(_)
            | Expression::StringLiteral(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_) => orig,
        })
    }
}

/// `+` for `+=` etc.; `None` for `=`.
fn compound_base(op: &BinaryOperator) -> Option<BinaryOperator> {
    use BinaryOperator::*;
    Some(match op {
        AssignMultiply => Multiply,
        AssignDivide => Divide,
        AssignModulo => Modulo,
        AssignPlus => Plus,
        AssignMinus => Minus,
        AssignShiftLeft => ShiftLeft,
        AssignShiftRight => ShiftRight,
        AssignBitwiseAnd => BitwiseAnd,
        AssignBitwiseXor => BitwiseXor,
        AssignBitwiseOr => BitwiseOr,
        _ => return None,
    })
}

/// Calls that [`Norm::call`] turns into statements.
fn is_special_call(c: &CallExpression) -> bool {
    matches!(callee_name(c), Some(n) if ERROR_FUNCTIONS.contains(&n)
        || n == abi::VERIFIER_ASSUME || n == "assert" || n == abi::ASSUME)
}

/// Labels and gotos of a statement (outside statement expressions' own scopes too: labels
/// are per function).
#[derive(Default)]
struct Jumps {
    labels: HashSet<String>,
    gotos: Vec<(String, Span)>,
    loops: Vec<Node<Statement>>,
}

impl Visitor for Jumps {
    type Error = Infallible;
    fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
        match &s.node {
            Statement::Labeled(l) => {
                if let Label::Identifier(i) = &l.node.label.node {
                    self.labels.insert(i.node.name.clone());
                }
            }
            Statement::Goto(g) => self.gotos.push((g.node.name.clone(), s.span)),
            Statement::While(_) | Statement::DoWhile(_) | Statement::For(_) => {
                self.loops.push(s.clone())
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

/// A `goto` from outside a loop to a label inside its body is unsupported: unwinding copies
/// the body (and renames its labels), so the jump would have no single target.
fn no_goto_into_loop(body: &Node<Statement>) -> Result<()> {
    let mut all = Jumps::default();
    let Ok(()) = visit::stmt(&mut all, body);
    for l in &all.loops {
        let mut inside = Jumps::default();
        let Ok(()) = visit::stmt(&mut inside, l);
        if inside.labels.is_empty() {
            continue;
        }
        let inner: Vec<Span> = inside.gotos.iter().map(|(_, sp)| *sp).collect();
        if let Some((name, span)) = all
            .gotos
            .iter()
            .find(|(n, sp)| inside.labels.contains(n) && !inner.contains(sp))
        {
            return Err(Error::unsupported(
                *span,
                format!("a `goto {name}` into the body of a loop from outside it"),
            ));
        }
    }
    Ok(())
}

/// Drops a top-level `const` so that the variable can be assigned.
fn strip_top_const(specs: &mut Vec<Node<DeclarationSpecifier>>, d: &mut Declarator) {
    let is_const = |q: &TypeQualifier| *q == TypeQualifier::Const;
    let top_pointer = d
        .derived
        .iter_mut()
        .rev()
        .find(|x| matches!(x.node, DerivedDeclarator::Pointer(_)));
    match top_pointer {
        Some(p) if matches!(d.kind.node, DeclaratorKind::Identifier(_)) => {
            if let DerivedDeclarator::Pointer(qs) = &mut p.node {
                qs.retain(
                    |q| !matches!(&q.node, PointerQualifier::TypeQualifier(t) if is_const(&t.node)),
                );
            }
        }
        _ if matches!(d.kind.node, DeclaratorKind::Declarator(_)) => {
            // `int (*const fp)(int)`: the top level is the inner declarator
            if let DeclaratorKind::Declarator(inner) = &mut d.kind.node {
                strip_top_const(&mut vec![], &mut inner.node);
            }
        }
        Some(_) => {}
        None => specs.retain(
            |s| !matches!(&s.node, DeclarationSpecifier::TypeQualifier(t) if is_const(&t.node)),
        ),
    }
}

fn defines_anonymous_type(s: &DeclarationSpecifier) -> bool {
    match s {
        DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
            TypeSpecifier::Struct(st) => {
                st.node.identifier.is_none() && st.node.declarations.is_some()
            }
            TypeSpecifier::Enum(en) => en.node.identifier.is_none(),
            _ => false,
        },
        _ => false,
    }
}

/// For the second and later declarators of a split declaration: `struct s {…}` → `struct s`.
fn strip_type_bodies(specs: &mut [Node<DeclarationSpecifier>]) {
    for s in specs {
        if let DeclarationSpecifier::TypeSpecifier(t) = &mut s.node {
            match &mut t.node {
                TypeSpecifier::Struct(st) if st.node.identifier.is_some() => {
                    st.node.declarations = None
                }
                TypeSpecifier::Enum(en) if en.node.identifier.is_some() => {
                    en.node.enumerators = vec![]
                }
                _ => {}
            }
        }
    }
}

/// True for `return …;` and `goto …;`.
fn is_jump(it: Option<&Node<BlockItem>>) -> bool {
    matches!(it.map(|i| &i.node), Some(BlockItem::Statement(s))
        if matches!(s.node, Statement::Return(_) | Statement::Goto(_)))
}

/// Wraps `__VERIFIER_atomic_begin(); … __VERIFIER_atomic_end();` into one compound statement
/// (N5). Declarations inside the section move in front of it, so they stay in scope after it.
/// An early exit `__VERIFIER_atomic_end(); return e;` (or `goto`) in a nested block of the
/// section becomes `flag = k; goto section_end;`, and the jump moves behind the section as
/// `if (flag == k) return e;` (`e` was evaluated after the end marker in C too).
fn group_atomic(items: Items, span: Span, names: &mut Names) -> Result<Items> {
    if !items
        .iter()
        .any(|i| matches!(called(i), Some(abi::ATOMIC_BEGIN | abi::ATOMIC_END)))
    {
        return Ok(items);
    }
    let mut out = vec![];
    let mut section: Option<(Items, Items)> = None; // (moved declarations, statements)
    let mut items = items.into_iter().peekable();
    while let Some(it) = items.next() {
        match (called(&it), &mut section) {
            (Some(abi::ATOMIC_BEGIN), None) => section = Some((vec![], vec![it])),
            (Some(abi::ATOMIC_BEGIN), Some(_)) => {
                return Err(Error::unsupported(
                    it.span,
                    "nested `__VERIFIER_atomic_begin`",
                ))
            }
            (Some(abi::ATOMIC_END), Some(_)) => {
                let (decls, mut body) = section.take().unwrap();
                out.extend(decls);
                let flag = names.temp();
                let done = names.label("atomic_exit");
                let mut exits = vec![];
                for b in body.iter_mut().skip(1) {
                    if let BlockItem::Statement(s) = &mut b.node {
                        rewrite_exits(s, &flag, &done, &mut exits);
                    }
                }
                if exits.is_empty() {
                    body.push(it);
                    out.push(stmt_item(block(body, span)));
                    continue;
                }
                out.push(decl_item(simple_decl(
                    &[TypeSpecifier::Int],
                    &flag,
                    None,
                    false,
                    None,
                    span,
                )));
                out.push(stmt_item(expr_stmt(assign(
                    ident(&flag, span),
                    int(0, span),
                    span,
                ))));
                body.push(stmt_item(labeled(&done, empty_stmt(span), span)));
                body.push(it);
                out.push(stmt_item(block(body, span)));
                for (k, jump) in exits.into_iter().enumerate() {
                    let js = jump.span;
                    out.push(stmt_item(if_stmt(
                        eq(ident(&flag, js), int(k as u64 + 1, js), js),
                        jump,
                        None,
                        js,
                    )));
                }
            }
            (Some(abi::ATOMIC_END), None) if is_jump(items.peek()) => {
                // an early exit of a section opened in an enclosing block; that block's
                // grouping rewrites it (or reports it when there is none)
                out.push(it);
            }
            (Some(abi::ATOMIC_END), None) => {
                return Err(Error::unsupported(
                    it.span,
                    "`__VERIFIER_atomic_end` without `__VERIFIER_atomic_begin` in the same block",
                ))
            }
            (_, Some((decls, body))) => {
                if matches!(it.node, BlockItem::Declaration(_)) {
                    decls.push(it);
                } else {
                    body.push(it);
                }
            }
            (_, None) => out.push(it),
        }
    }
    if let Some((_, body)) = section {
        return Err(Error::unsupported(
            body[0].span,
            "`__VERIFIER_atomic_begin` without `__VERIFIER_atomic_end` in the same block",
        ));
    }
    Ok(out)
}

/// See [`group_atomic`]: rewrites `__VERIFIER_atomic_end(); jump` pairs nested in `s`.
fn rewrite_exits(
    s: &mut Node<Statement>,
    flag: &str,
    done: &str,
    exits: &mut Vec<Node<Statement>>,
) {
    match &mut s.node {
        Statement::Compound(items) => {
            let mut k = 0;
            while k < items.len() {
                if called(&items[k]) == Some(abi::ATOMIC_END) && is_jump(items.get(k + 1)) {
                    let sp = items[k].span;
                    let jump = std::mem::replace(&mut items[k + 1], stmt_item(goto(done, sp)));
                    if let BlockItem::Statement(j) = jump.node {
                        exits.push(j);
                    }
                    items[k] = stmt_item(expr_stmt(assign(
                        ident(flag, sp),
                        int(exits.len() as u64, sp),
                        sp,
                    )));
                    k += 2;
                    continue;
                }
                if let BlockItem::Statement(st) = &mut items[k].node {
                    rewrite_exits(st, flag, done, exits);
                }
                k += 1;
            }
        }
        Statement::If(i) => {
            rewrite_exits(&mut i.node.then_statement, flag, done, exits);
            if let Some(e) = &mut i.node.else_statement {
                rewrite_exits(e, flag, done, exits);
            }
        }
        Statement::While(w) => rewrite_exits(&mut w.node.statement, flag, done, exits),
        Statement::Labeled(l) => rewrite_exits(&mut l.node.statement, flag, done, exits),
        _ => {}
    }
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
